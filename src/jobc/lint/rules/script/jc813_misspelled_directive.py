"""A misspelled or malformed `#SBATCH` line in the directive block, which sbatch ignores.

sbatch reads a line as a directive only when it starts with exactly `#SBATCH` (followed by a
blank or straight by an option: `#SBATCH--nodes=2` is read). `#SBTACH`, `#SABTCH`, `#sbatch` and
`# SBATCH` (a space after `#`) are ordinary comments to it: the line is ignored without a warning,
and the job runs with the default instead (one node, the partition's time limit, no GPUs).
A usage note that shows the command line, the word `sbatch` in lower case after a blank
(`#   sbatch --nodes 3 job.sh`), is the command that submits the script, not a directive.
`#SBATCHH --nodes=2` is worse: sbatch refuses the script. An indented `  #SBATCH` is a comment to
sbatch too. `##SBATCH` is left alone: it is the usual
way to switch a directive off on purpose. `!#SBATCH --signal=…` (a stray mark before the `#`) is
no comment at all: bash runs it as a command, which is not found, and sbatch stops reading
directives there, so every `#SBATCH` line after it is ignored as well.

Bad:

```bash
#!/bin/bash
#SBATCH --nodes=1
#SBTACH --time=02:00:00
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --time=02:00:00
srun python train.py
```

A usage note (the command line that submits the script) is no directive:

```bash
#!/bin/bash
# Usage:
#   sbatch --nodes 3 --gres=gpu:4 job.sh train.py
#SBATCH --time=02:00:00
srun python train.py
```
"""

import re
from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.core.lazyre import lazy
from jobc.core.spelling import one_edit
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.script.directives import PREFIX, is_directive, refused
from jobc.spec.context import Context
from jobc.tables.secrets import mask

META = Meta(
    code="JC813",
    name="misspelled-directive",
    severity=Severity.WARNING,
    summary="A misspelled or malformed #SBATCH line (#SBTACH, # SBATCH, #sbatch), which sbatch ignores",
    remediation="Start the line with exactly `#SBATCH` and a space.",
)
FIX = Repair(
    Applicability.SAFE,
    "rewrites the line's start as `#SBATCH `, its options unchanged; unsafe when the line looks "
    "switched off on purpose (`# SBATCH`, a letter before `SBATCH`, as in `#XSBATCH`): the fix "
    "would switch it on; none for a line with a word that is no option or an option sbatch may not "
    "know (sbatch could refuse the script)",
    "scripts",
)

# `#`, spaces, a word, then an option right away or after spaces: prose (`# SBATCH options below`)
# has no option after the word and is left alone
_LINE = lazy(
    r"(?P<lead>[ \t]*)#(?P<gap>[ \t]*)(?P<word>[A-Za-z]+)(?P<space>[ \t]*)(?P<option>-{1,2}[A-Za-z].*)"
)
_WANT = PREFIX.removeprefix("#")
# `!#SBATCH --signal=…`: one or two marks before an exact prefix, then an option
_STRAY = lazy(r"(?P<mark>[!.:,*+=~^@%/-]{1,2})#SBATCH(?P<space>[ \t]+)(?P<option>-{1,2}[A-Za-z].*)")


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    end = f.first_command.line - 1 if f.first_command is not None else len(f.lines)
    for number, line in enumerate(f.lines[:end], start=1):
        text = line.removeprefix("\ufeff") if number == 1 else line
        if text.startswith("#!") or is_directive(text):
            continue
        m = _LINE.fullmatch(text.rstrip("\r"))
        if m is None or not _misspelled(m.group("word")) or _usage(m):
            continue
        option = mask(m.group("option").strip())
        written = text[: m.start("option")].rstrip()
        why = f"`{written.strip()}` is not `{PREFIX}`"
        if m.group("lead"):
            why = f"`{written.strip()}` is indented"
            effect = (
                "so sbatch takes it for a comment: sbatch ignores this line without a warning and "
                f"the job runs without {option} (with the default)"
            )
        elif written.startswith(PREFIX):
            effect = "so sbatch refuses the script"  # it reads the prefix, then an unknown word
        else:
            effect = (
                "so sbatch ignores this line without a warning and the job runs without "
                f"{option} (with the default)"
            )
        # `# SBATCH`, `#XSBATCH`: the usual ways to switch a directive off, not slips of the hand
        off = bool(m.group("gap")) or (
            len(m.group("word")) > len(_WANT) and m.group("word").upper().endswith(_WANT)
        )
        hint = " (if it is switched off on purpose, write `##SBATCH`)" if off else ""
        yield hit(
            Span(number, 1, number, len(line) + 1),
            f"{why}, {effect}; write `{PREFIX} {option}` at the start of the line{hint}",
            # a word that is no option: read, it would make sbatch refuse the script
            fix=None
            if refused(PREFIX + " " + m.group("option"))
            else _fix(number, len(line) - len(text), m, safe=not off),
        )
    yield from _stray(ctx)


def _stray(ctx: Context) -> Iterator[Hit]:
    """`!#SBATCH --signal=…`: a mark before the `#` makes the line the script's first command."""
    f = facts(ctx)
    if f is None or f.first_command is None or f.first_command.line > len(f.lines):
        return
    number = f.first_command.line
    line = f.lines[number - 1]
    m = _STRAY.fullmatch(line.rstrip("\r"))
    if m is None:
        return
    option = mask(m.group("option").strip())
    written = line[: m.start("space")]
    yield hit(
        Span(number, 1, number, len(line) + 1),
        f"`{written}` is not `{PREFIX}`: bash runs the line as a command (not found) and sbatch "
        f"stops reading directives at it, so the job runs without {option} (with the default), "
        f"and without any #SBATCH line after it; write `{PREFIX} {option}` at the start of the line "
        "(if it is switched off on purpose, write `##SBATCH`)",
        fix=None
        if refused(PREFIX + " " + m.group("option"))
        else Fix.make(
            "write `#SBATCH `",
            Edit(Span(number, 1, number, m.start("option") + 1), f"{PREFIX} "),
            safe=False,  # the mark may switch it off on purpose: the fix would switch it on
        ),
    )


def _usage(m: re.Match[str]) -> bool:
    """`#   sbatch --nodes 3 job.sh`: a usage note showing the command, as the shell's own
    `sbatch` is written (in lower case, after a blank), not a directive written wrong."""
    return bool(m.group("gap")) and m.group("word") == "sbatch"


def _misspelled(word: str) -> bool:
    """`SBATCH` in another case, with two letters swapped, or one letter missing, extra or wrong."""
    up = word.upper()
    return up == _WANT or (len(up) >= len(_WANT) - 1 and one_edit(up, _WANT))


def _fix(number: int, offset: int, m: re.Match[str], *, safe: bool) -> Fix:
    start, end = offset + 1, offset + m.start("option") + 1
    return Fix.make("write `#SBATCH `", Edit(Span(number, start, number, end), f"{PREFIX} "), safe=safe)
