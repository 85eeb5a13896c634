"""A count or variable name in the script that sbatch, srun, bash or the launcher refuses.

Slurm and the launchers read ASCII digits only (`²` is a digit to Python, not to sbatch), a job
has at least one node and one task, and a count fits a C int; bash refuses to export a name
that starts with a digit. Each such value fails where it is read: sbatch refuses the job, srun
the step, torchrun its rendezvous, or the `export` fails and the program runs without the
variable. `jobc import` leaves such a value out of the spec and reports the same finding.

Bad:

```bash
#!/bin/bash
#SBATCH --nodes=0
#SBATCH --time=01:00:00
export 1A=x
srun python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --time=01:00:00
export A1=x
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit
from jobc.spec.context import Context

META = Meta(
    code="JC809",
    name="value-refused",
    severity=Severity.ERROR,
    summary="A count or variable name that sbatch, srun, bash or the launcher refuses",
    remediation="Write counts in ASCII digits within their range, and names bash accepts.",
)


def check_script(ctx: Context) -> Iterator[Hit]:
    from jobc.script.refused import problems

    f = facts(ctx)
    if f is None:
        return
    for problem in problems(f):
        yield hit(problem.span, problem.message)
