"""`launch.setup` that bash cannot parse.

The compiler writes the setup lines into the batch script as they are, one after the other, at
the top level of the script after `set -euo pipefail`. An unclosed quote, a stray `fi`, an
unterminated `$(` or a heredoc without its terminator therefore compiles to a script that bash
refuses (or, for a heredoc, one whose launch is swallowed as the heredoc's text), and the job
fails only after its queue wait.

bash itself is the judge: jobc hands the joined setup to `bash --norc --noprofile -n` on its
standard input, in a fixed environment, under a timeout. `-n` reads and parses without running
anything, so a `$(…)` in the setup is never executed. The setup is judged as one text, so an
`if` in one item and its `fi` in a later one is fine, and it must be complete on its own: a
construct still open at its end (a trailing `&&`, an `if` without `fi`) would otherwise continue
into the lines jobc writes after it. The finding points at the item where the construct opens. A
NUL byte is reported too: bash drops it when it reads the script, so the line it runs is not the
one written.

Where no `bash` is on PATH (or it does not answer in time), this check says nothing. bash does
not run `shopt -s extglob` while it only parses, so a setup that enables extglob and uses `!(…)`
in a later item is reported; suppress the finding on that item.

Bad:

```yaml
launch:
  program: train.py
  setup:
    - if [[ -d /scratch ]]; then
    - '  export TMPDIR=/scratch/$USER'
    - echo "ready
```

Good:

```yaml
launch:
  program: train.py
  setup:
    - if [[ -d /scratch ]]; then
    - '  export TMPDIR=/scratch/$USER'
    - fi
    - echo "ready"
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from jobc.core.diagnostics import Hit, Severity
from jobc.core.lazyre import lazy
from jobc.lint.rules.base import Meta
from jobc.script import bashcheck
from jobc.spec.context import Context

META = Meta(
    code="JC509",
    name="setup-shell-syntax",
    severity=Severity.ERROR,
    summary="launch.setup is not valid bash: the compiled script would not parse",
    remediation="Close the quote, substitution, heredoc or compound command within the setup.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("launch", "setup"),)

# the line the compiler writes before anything of the script's body; parsing starts there too
_PRELUDE = "set -euo pipefail\n"
_PRELUDE_LINES = _PRELUDE.count("\n")
_PROBES = 16  # at most this many extra parses to find where an unclosed construct opens
# bash names its input "bash" when it reads stdin: "bash: line 3: syntax error near …"
_MESSAGE = lazy(r"^[^:\n]*: line (\d+): (.*)$", re.MULTILINE)
_HEREDOC = lazy(r"here-document at line (\d+) delimited by end-of-file \(wanted `(.*)'\)")


class _Verdict:
    """What bash said about one text: parsed cleanly or not, and its first complaint."""

    __slots__ = ("line", "message", "ok")

    def __init__(self, ok: bool, line: int | None, message: str) -> None:
        self.ok, self.line, self.message = ok, line, message


def _parse(bash: str, text: str) -> _Verdict | None:
    """bash's verdict on ``text`` as a script, or None when bash could not be asked."""
    done = bashcheck.parse(_PRELUDE + text, bash)
    if done is None:
        return None
    err = done.stderr.decode("utf-8", "replace")
    if done.returncode < 0:
        return _Verdict(False, None, f"bash was killed by signal {-done.returncode} while reading it")
    heredoc = _HEREDOC.search(err)
    if heredoc:
        line = int(heredoc.group(1)) - _PRELUDE_LINES
        return _Verdict(
            False,
            line,
            f"its heredoc is never closed (no line {heredoc.group(2)} ends it), so it would swallow the rest "
            "of the script",
        )
    if done.returncode == 0 and not bashcheck.complained(done.stderr):
        return _Verdict(True, None, "")
    found = _MESSAGE.search(err)
    if found is None:
        first = err.strip().splitlines()[0] if err.strip() else f"bash exited with {done.returncode}"
        return _Verdict(False, None, first.removeprefix("bash: "))
    return _Verdict(False, int(found.group(1)) - _PRELUDE_LINES, found.group(2).strip())


def _item_at(items: Sequence[str], line: int) -> tuple[int, int]:
    """The item holding 1-based ``line`` of the joined text, and the line within that item."""
    start = 1
    for i, item in enumerate(items):
        count = item.count("\n") + 1
        if line < start + count:
            return i, line - start + 1
        start += count
    return len(items) - 1, items[-1].count("\n") + 1 if items else 1


def _opener(bash: str, items: Sequence[str]) -> int:
    """The item where a construct left open at the end of the setup opens.

    A prefix of the setup that parses cleanly ends with everything closed, so the construct
    still open at the end opens in the item after the longest such prefix.
    """
    for probes, end in enumerate(range(len(items) - 1, 0, -1)):
        if probes >= _PROBES:
            return len(items) - 1  # a long setup: the end is where bash noticed it
        verdict = _parse(bash, "\n".join(items[:end]) + "\n")
        if verdict is None:
            return len(items) - 1
        if verdict.ok:
            return end
    return 0


def _where(items: Sequence[str], i: int, within: int) -> str:
    where = f"setup line {i + 1}"
    if within > 1 or "\n" in items[i]:
        where += f" (line {within} of the item)"
    return where


def check(ctx: Context) -> Iterator[Hit]:
    items = list(ctx.spec.launch.setup)
    if not items:
        return
    for i, item in enumerate(items):
        if "\0" in item:
            yield Hit(
                ("launch", "setup", i),
                f"setup line {i + 1} holds a NUL byte, which bash drops when it reads the script: "
                "the command it runs is not the one written",
            )
            return
    bash = bashcheck.bash()
    if bash is None:
        return
    text = "\n".join(items) + "\n"
    verdict = _parse(bash, text)
    if verdict is None or verdict.ok:
        return
    total = text.count("\n")
    if verdict.line is not None and 1 <= verdict.line <= total:
        i, within = _item_at(items, verdict.line)
        said = verdict.message if verdict.message.startswith("its heredoc") else f"bash: {verdict.message}"
        yield Hit(("launch", "setup", i), f"{_where(items, i, within)} does not parse ({said})")
        return
    # bash noticed at the end of the text: something opened earlier is never closed
    i = _opener(bash, items)
    yield Hit(
        ("launch", "setup", i),
        f"setup line {i + 1} opens what the setup never closes (bash: {verdict.message}); the setup "
        "must be complete on its own, or it continues into the lines jobc writes after it",
    )
