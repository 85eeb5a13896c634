"""`srun VAR=value program …`: srun runs `VAR=value` as the command's name, and the step fails.

srun is no shell: it takes the first word after its own options as the program to run, and sets no
variable. `srun OMP_NUM_THREADS=4 python train.py` asks every task to run a program named
`OMP_NUM_THREADS=4`, and each fails with `execve(): OMP_NUM_THREADS=4: No such file or directory`
before Python starts. A shell reads `VAR=value cmd` as an assignment for `cmd`; srun does not.

Give the variable with `env` (`srun env VAR=value python …`), before srun (`VAR=value srun …`,
which srun passes on to the tasks), with srun's `--export=ALL,VAR=value`, or in a shell the step
starts (`srun bash -c 'VAR=value python …'`).

Bad:

```bash
#!/bin/bash
#SBATCH --ntasks-per-node=4
#SBATCH --gres=gpu:4
srun OMP_NUM_THREADS=4 python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --ntasks-per-node=4
#SBATCH --gres=gpu:4
srun env OMP_NUM_THREADS=4 python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.spec.context import Context

META = Meta(
    code="JC817",
    name="srun-assignment",
    severity=Severity.ERROR,
    summary="`srun VAR=value program`: srun runs `VAR=value` as a command (it sets no variable), so the "
    "step fails",
    remediation="Write `srun env VAR=value program`, or set the variable before srun (`VAR=value srun "
    "…`, `export VAR=value`).",
)
FIX = Repair(
    Applicability.SAFE,
    "puts `env` before the assignment (`srun env VAR=value program`), which sets the variable for the "
    "program as the script meant (none when no program follows the assignments: env would run by itself)",
    "scripts",
)

# this check speaks only of a script whose srun is given an assignment as its command
FACTS = ("srun_assigns",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    for step in f.steps:
        if not step.assigned:
            continue
        first = step.assigned[0]
        shown = " ".join(w.raw for w in step.assigned)
        more = {}
        # no program after the assignments: `env` in front would run env itself (it prints the
        # environment), a program the script never meant to run
        if step.assigned_for and not first.placed and first.span.line == first.span.end_line:
            at = Span(first.span.line, first.span.col, first.span.line, first.span.col)
            more["fix"] = Fix.make(f"write `env {first.raw}`", Edit(at, "env "))
        yield hit(
            first.span,
            f"srun runs `{first.raw}` as the command's name: srun is no shell and sets no variable, "
            f"so every task fails (`execve(): {first.text}: No such file or directory`) before the "
            f"program starts; put `env` in front of `{shown}` (srun runs env, which sets it), or "
            "set it before srun",
            **more,
        )
