"""A typographic dash (– — −) where an option's hyphen should be, as text copied from a web page
or a document brings in: `#SBATCH –-time=…`, `#!/bin/bash –l`, `srun –-ntasks=4 …`.

Editors and wikis turn `--` into an em dash (—) and `-` into an en dash (–); the line still looks
right. It is not: sbatch refuses a directive that starts with one ("Invalid directive found in
batch script: –-time=01:00:00"), a shebang's `–l` makes the job fail at once ("/bin/bash: –l: No
such file or directory"), and a command takes `–-ntasks=4` for an ordinary argument, not an
option (srun runs it as the program). Both failures were tried on Slurm 22.05. Write the
hyphen-minus (`-`) of the keyboard.

Bad:

```bash
#!/bin/bash
#SBATCH –-time=01:00:00
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --time=01:00:00
srun python train.py
```
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.core.lazyre import lazy
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.script.directives import PREFIX, is_directive
from jobc.spec.context import Context
from jobc.tables.slurm_options import SBATCH_OPTIONS, SBATCH_SHORT

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

META = Meta(
    code="JC814",
    name="typographic-dash",
    severity=Severity.ERROR,
    summary="A typographic dash (– — −) where an option's hyphen should be: sbatch or the shell "
    "does not read it as an option",
    remediation="Write the keyboard's hyphen-minus (-): --time, not –-time or —time.",
)
FIX = Repair(
    Applicability.SAFE,
    "writes the hyphen(s) the option needs in place of the dash, when that makes an option sbatch "
    "(or, in the shebang, the shell) knows",
    "scripts",
)

#: hyphen, non-breaking hyphen, figure dash, en dash, em dash, horizontal bar, minus sign, small
#: and full-width hyphen-minus: none of them is `-` to getopt
DASHES = "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
_NAMES = {"\u2013": "an en dash (–)", "\u2014": "an em dash (—)", "\u2212": "a minus sign (−)"}
# a word that starts with dashes of which at least one is typographic, then an option's name;
# possessive, so that a line of ten thousand dashes is read once, not tried at every split
_OPTION = lazy(rf"(?<![^\s])(?P<lead>-*+[{DASHES}][-{DASHES}]*+)(?P<name>[A-Za-z][A-Za-z0-9_-]*+)")
_QUOTES = lazy(r"""["'`]""")

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a character outside ASCII: lint neither imports nor runs the rule for a script without
FACTS = ("non_ascii",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None or not any(dash in line for line in f.lines if not line.isascii() for dash in DASHES):
        return  # every finding is at a typographic dash; most scripts have none (nor compile `_OPTION`)
    end = f.first_command.line - 1 if f.first_command is not None else len(f.lines)
    words = _Words(f.lines) if f.readable else None
    for number, line in enumerate(f.lines, start=1):
        text = line.removeprefix("\ufeff") if number == 1 else line
        offset = len(line) - len(text)
        if number == 1 and text.startswith("#!"):
            yield from _shebang(number, offset, text)
        elif is_directive(text) and number <= end:
            yield from _directive(number, offset, text)
        elif number > end and not text.lstrip().startswith("#"):
            yield from _command(number, offset, text, words)


def _shebang(number: int, offset: int, text: str) -> Iterator[Hit]:
    for m in _OPTION.finditer(text, 2):
        want = _hyphens(m.group("name"))
        yield hit(
            _span(number, offset, m),
            f"the shebang's `{m.group('lead')}{m.group('name')}` starts with {_what(m)}, not a "
            f"hyphen: the kernel passes it to the interpreter as a file to run, and the job fails "
            f'at once ("No such file or directory"); write `{want}{m.group("name")}`',
            fix=_fix(number, offset, m, want),
        )


def _directive(number: int, offset: int, text: str) -> Iterator[Hit]:
    for m in _OPTION.finditer(text, len(PREFIX)):
        name = m.group("name")  # the name stops before `=`
        want = _sbatch_hyphens(name)
        option = f"`{want}{name}`" if want else "the option with hyphens"
        yield hit(
            _span(number, offset, m),
            f"`{m.group('lead')}{name}` starts with {_what(m)}, not a hyphen, so sbatch refuses the "
            f'script ("Invalid directive found in batch script"); write {option}',
            fix=_fix(number, offset, m, want) if want else None,
        )


class _Words:
    """Whether a place of the script is a word of a command, as bash reads it (not a line of a
    heredoc or of a string that runs over several lines): the bash tree, parsed when first asked."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.root: Any = None

    def command_word(self, number: int, col: int) -> bool:
        if self.root is None:
            from jobc.script.tree import parser

            text = "\n".join(self.lines) + "\n"
            self.root = parser().parse(text.encode("utf-8", "surrogateescape")).root_node
        line = self.lines[number - 1]
        at = len(line[:col].encode("utf-8", "surrogateescape"))
        node = self.root.descendant_for_point_range((number - 1, at), (number - 1, at + 1))
        while node is not None and node.type not in ("word", "concatenation"):
            if node.type in ("string", "raw_string", "heredoc_body", "heredoc_content", "comment"):
                return False
            node = node.parent
        return node is not None


def _command(number: int, offset: int, text: str, words: _Words | None) -> Iterator[Hit]:
    for m in _OPTION.finditer(text):
        if len(_QUOTES.findall(text, 0, m.start())) % 2:
            continue  # inside a quoted string: text for a human, not an option
        if words is not None and not words.command_word(number, offset + m.start()):
            continue  # a heredoc's line, or a line of a string over several lines: text, too
        want = _hyphens(m.group("name"))
        yield hit(
            _span(number, offset, m),
            f"`{m.group('lead')}{m.group('name')}` starts with {_what(m)}, not a hyphen: the command "
            f"takes it for an ordinary argument, not an option (srun runs it as the program); "
            f"write `{want}{m.group('name')}`",
            severity=Severity.WARNING,
            fix=_fix(number, offset, m, want),
        )


def _what(m: re.Match[str]) -> str:
    dash = next(c for c in m.group("lead") if c in DASHES)
    return _NAMES.get(dash, f"a typographic dash (U+{ord(dash):04X})")


def _hyphens(name: str) -> str:
    """One hyphen before a one-letter option (`-l`), two before a word (`--login`)."""
    return "-" if len(name) == 1 else "--"


def _sbatch_hyphens(name: str) -> str | None:
    """The hyphens that make `name` an option sbatch knows: `-N`, `--time`; None when neither."""
    if name[0] in SBATCH_SHORT and (len(name) == 1 or not name[1:2].isalpha()):
        return "-"
    if name in SBATCH_OPTIONS:
        return "--"
    return None


def _span(number: int, offset: int, m: re.Match[str]) -> Span:
    return Span(number, offset + m.start() + 1, number, offset + m.end("lead") + 1)


def _fix(number: int, offset: int, m: re.Match[str], want: str) -> Fix:
    return Fix.make(f"write `{want}`", Edit(_span(number, offset, m), want))
