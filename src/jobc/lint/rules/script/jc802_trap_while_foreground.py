"""A trap in the batch shell for the warning signal, while the step runs in the foreground.

`#SBATCH --signal=B:SIGUSR1@120` sends the signal to the batch shell only. bash runs a trap only
between commands: while `srun …` runs in the foreground, the trap waits until the step has ended,
which is after the time limit killed it. The checkpoint the trap was meant to trigger never
happens. Start the step in the background and `wait` for it: `wait` returns when a trapped
signal arrives, so the trap runs at once (and can forward the signal to the step).

Bad:

```bash
#SBATCH --signal=B:USR1@120
trap 'scancel --signal=USR1 "$SLURM_JOB_ID"' USR1
srun python train.py
```

Good:

```bash
#SBATCH --signal=B:USR1@120
trap 'kill -USR1 "$step"' USR1
srun python train.py &
step=$!
wait "$step"
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Fix, Hit, Severity
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.lint.rules.script._fixes import background, held
from jobc.script import signals
from jobc.script.facts import ScriptFacts, Step
from jobc.spec.context import Context

META = Meta(
    code="JC802",
    name="trap-while-foreground",
    severity=Severity.ERROR,
    summary="A batch-shell trap for a B: signal while the step runs in the foreground",
    remediation="Start the step with `&` and `wait` for it, so the trap runs when the signal arrives.",
)
FIX = Repair(
    Applicability.SAFE,
    "starts the step with `&` and waits for it, again after each trapped signal, and ends "
    "with the step's own exit status",
    "scripts",
)

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a trap: lint neither imports nor runs the rule for a script without
FACTS = ("traps",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    sent = signals.sent_by(f)
    if sent is None or not sent.batch:
        return
    d, name = sent.directive, sent.signal
    # `trap "" SIG` ignores the signal: there is no action for the foreground step to delay
    traps = [t for t in f.traps if name in t.signals and t.function is None and t.action]
    if not traps:
        return
    trap = traps[0]
    for step in held(f, trap.span.line):
        yield hit(
            step.span,
            f"{d.text} sends {name} to the batch shell, which traps it (line {trap.span.line}), but "
            "this step runs in the foreground: bash runs the trap only after the step has ended, "
            "when the time limit has already killed it; start the step with `&` and `wait` for it",
            fix=_fix(step, f),
        )


def _fix(step: Step, f: ScriptFacts) -> Fix | None:
    jobs = {s.line for s in f.steps if s.background and s.line > step.span.end_line}
    edits = background(step, f.lines, jobs=jobs)
    return Fix.make("start the step with & and wait for it", *edits) if edits else None
