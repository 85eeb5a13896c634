"""A UTF-8 byte-order mark before the script's `#!`: sbatch refuses the script.

Some Windows editors start a UTF-8 file with the bytes EF BB BF (a byte-order mark). The first
line then starts with the mark, not with `#!`, and sbatch refuses the script ("This does not
look like a batch script. The first line must start with #! followed by the path to an
interpreter"); the mark is invisible in most editors. Save the file as UTF-8 without a BOM.

Bad (`\\ufeff` stands for the invisible mark):

```bash
\\ufeff#!/bin/bash
#SBATCH --nodes=1
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --nodes=1
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.spec.context import Context

META = Meta(
    code="JC811",
    name="bom-before-shebang",
    severity=Severity.ERROR,
    summary="A UTF-8 byte-order mark before the script's first line, which sbatch refuses",
    remediation="Save the script as UTF-8 without a byte-order mark.",
)

FIX = Repair(Applicability.SAFE, "removes the byte-order mark before the first line", "scripts")

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a byte-order mark: lint neither imports nor runs the rule for a script without
FACTS = ("bom",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None or not f.lines or not f.lines[0].startswith("\ufeff"):
        return
    span = Span(1, 1, 1, 2)
    yield hit(
        span,
        "the script starts with a UTF-8 byte-order mark (an invisible U+FEFF) before its first "
        "line, so the line does not start with #! and sbatch refuses the script; save it without "
        "the mark",
        fix=Fix.make("remove the byte-order mark", Edit(span, "")),
    )
