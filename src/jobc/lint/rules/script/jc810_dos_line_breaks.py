"""A script with DOS line breaks (`\\r\\n`): sbatch refuses it.

A script saved on Windows, or by an editor set to CRLF, ends each line in `\\r\\n`. sbatch reads
the file before bash does and refuses it ("Batch script contains DOS line breaks (\\r\\n) instead
of expected UNIX line breaks (\\n)"); run by bash, each `\\r` would be part of the last word of its
line (`train.py\\r`). Convert the file to `\\n` line breaks (`dos2unix job.sh`, or
`sed -i 's/\\r$//' job.sh`) and keep it so with a `.gitattributes` line `*.sh text eol=lf`.

Bad (each `\\r` stands for the carriage return that ends the line):

```bash
#!/bin/bash\\r
#SBATCH --nodes=1\\r
srun python train.py\\r
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
    code="JC810",
    name="dos-line-breaks",
    severity=Severity.ERROR,
    summary="The script has DOS line breaks (\\r\\n), which sbatch refuses",
    remediation="Convert the file to \\n line breaks (dos2unix, or sed -i 's/\\r$//').",
)
FIX = Repair(Applicability.SAFE, "converts every \\r\\n line break to \\n", "scripts")

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a line that ends in \r\n: lint neither imports nor runs the rule for a script without
FACTS = ("crlf",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None or f.crlf is None:
        return
    line = f.crlf
    end = len(f.lines[line - 1]) + 1 if line <= len(f.lines) else 1
    yield hit(
        Span(line, end, line, end + 1),
        f'line {line} ends in \\r\\n (a DOS line break): sbatch refuses the script ("Batch script '
        'contains DOS line breaks"); convert the file to \\n line breaks (dos2unix, or '
        "sed -i 's/\\r$//')",
        fix=Fix.make(
            "convert the line breaks to \\n",
            # each line's \r is the character after the line as read
            *(
                Edit(Span(n, len(f.lines[n - 1]) + 1, n, len(f.lines[n - 1]) + 2), "")
                for n in f.crlf_lines
                if n <= len(f.lines)
            ),
        ),
    )
