"""An `#SBATCH` line after the first command of the script.

sbatch reads `#SBATCH` directives only from the top of the script, up to the first line that is
not blank and not a comment. Everything after that is an ordinary comment: sbatch ignores it
without a warning, so the job runs with the default instead (one node, the partition's time
limit, no GPUs).

Bad:

```bash
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
module load cuda
#SBATCH --gpus-per-node=8
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
module load cuda
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.core.lazyre import lazy
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.script.directives import refused
from jobc.spec.context import Context
from jobc.tables.secrets import mask

META = Meta(
    code="JC801",
    name="directive-after-command",
    severity=Severity.ERROR,
    summary="An #SBATCH line after the first command (sbatch ignores it)",
    remediation="Move every #SBATCH line above the first command of the script.",
)
FIX = Repair(
    Applicability.SAFE,
    "moves the line, unchanged, below the directives sbatch reads (and below a misspelled one, "
    "`#SBTACH`, that JC813 repairs: the moved line stays the last to set its option); "
    "not a line after a command "
    "continued with a backslash, which the line ends (without it the next line would join that command), "
    "nor one with a word that is no option or an option sbatch may not know (read, sbatch could "
    "refuse the script), nor one with a shell value (`--time=$TIME`), which sbatch would read as its text",
    "scripts",
)

# a comment that a repair may make an #SBATCH line: a mark or two, `#`, a word (misspelled,
# indented, lower case) and an option (`#SBTACH -e x.err`, `# SBATCH --time=1:00:00`, `!#SBATCH -N 2`)
_DIRECTIVE_LIKE = lazy(r"[ \t]*[!.:,*+=~^@%/-]{0,2}#[ \t]*[A-Za-z]+[ \t]*-{1,2}[A-Za-z]")

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a directive below the first command: lint neither imports nor runs the rule for a script without
FACTS = ("late",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None or f.first_command is None:
        return
    first = f.first_command.line
    by_line: dict[int, list[str]] = {}
    for d in f.directives:
        if not d.honoured:
            by_line.setdefault(d.span.line, []).append(d.text)
    # below the last directive sbatch reads (a comment above the first command stays with it)
    read = [d.span.line for d in f.directives if d.honoured]
    # never below the line where sbatch's own reading stops (the first that is neither blank nor
    # a comment), even where bash's grammar sees no command there (an unclosed `$((`)
    # (and never above the `#!` line: a parse error on it may make the grammar's first command
    # line 1)
    stop = _sbatch_stop(f.lines)
    # and below a header line a repair makes a directive (JC813's `#SBTACH -e x.err`, fixed in the
    # same pass): above it, the moved line would no longer be the last to set its option, and an
    # option set again there would keep the header's value, not the moved line's
    read += [n for n, text in enumerate(f.lines[: stop - 1], start=1) if _DIRECTIVE_LIKE.match(text)]
    target = min(max(read) + 1 if read else min(first, stop), stop)
    if f.lines and f.lines[0].lstrip("\ufeff").startswith("#!"):
        target = max(target, 2)
    for line, options in by_line.items():
        text = f.lines[line - 1] if line <= len(f.lines) else ""
        yield hit(
            Span(line, 1, line, len(text) + 1),
            f"#SBATCH {mask(' '.join(options))} comes after the first command (line {first}), so sbatch "
            f"ignores it and the job runs without it; move it above line {first}",
            # in a script jobc did not read as shell (python, csh, …) the line may be inside a
            # string of that language: moving it would change the string, so it is only reported
            # nor at or below where the grammar read around what it cannot read: bash may read the
            # line as text of a word there (`X=${A:-4` going on to a `}` lines below), not as a
            # comment, and how far bash reads that word the grammar does not know
            fix=_move(line, text, target, f.lines) if f.readable and not _unread(f.unread, line) else None,
        )


def _unread(unread: tuple[int, int] | None, line: int) -> bool:
    """Whether ``line`` is at or below the first line the grammar read around (`unread`): where
    the grammar stopped reading a word is not where bash does (`--port ${MAS…` goes on, for bash,
    to a `}` lines below the line the grammar ended it at)."""
    return unread is not None and unread[0] <= line


def _sbatch_stop(lines: list[str]) -> int:
    """The 1-based line at which sbatch stops reading directives."""
    for number, line in enumerate(lines, start=1):
        stripped = line.strip()
        if number == 1 and stripped.startswith("#!"):
            continue
        if stripped and not stripped.startswith("#"):
            return number
    return len(lines) + 1


def _move(line: int, text: str, target: int, lines: list[str]) -> Fix | None:
    if line >= len(lines) or target >= line:
        return None  # the last line has no line end to take with it
    if refused(text):
        return None  # sbatch would refuse the script for a word that is no option: read, it ends the job
    if "$" in text or "`" in text:
        # `#SBATCH --time=$TIME` below an `if` that sets TIME: sbatch reads no shell value, so moved
        # up it would ask for the text `$TIME` (refused, or read as another value: JC107)
        return None
    before = lines[line - 2] if line >= 2 else ""
    if (len(before) - len(before.rstrip("\\"))) % 2:
        # the line above goes on (a backslash at its end): bash reads this comment as its end, and
        # without it the next line would be more arguments of that command
        return None
    return Fix.make(
        f"move the line above line {target}",
        Edit(Span(target, 1, target, 1), text + "\n"),
        Edit(Span(line, 1, line + 1, 1), ""),
    )
