"""`--signal=B:…` with no trap for the signal in the batch shell.

With `B:` Slurm sends the warning signal to the batch shell alone. A bash that does not trap
SIGUSR1, SIGUSR2, SIGTERM or SIGHUP dies of it: the script stops where it was, the job ends
there, before its time limit, and the steps are killed when the job ends (they get SIGTERM, then
SIGKILL after the cluster's KillWait) without ever seeing the signal the program waits for. Lines
after the step (a requeue, a copy of the logs) never run. `exec srun …` is the exception: the
shell has become srun, which passes the signal on to the tasks. Nor is it reported when the
script sources a file and hands the signal's name to a command of it (NERSC's variable-time
jobs: `. setup.sh; requeue_job func_trap USR1`): that function may set the trap, out of sight.

Bad:

```bash
#SBATCH --signal=B:USR2@120
srun python train.py
```

Good:

```bash
#SBATCH --signal=B:USR2@120
trap 'kill -USR2 "$step"' USR2
srun python train.py &
step=$!
wait "$step"
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit
from jobc.script import signals
from jobc.spec.context import Context

META = Meta(
    code="JC808",
    name="batch-signal-untrapped",
    severity=Severity.ERROR,
    summary="--signal=B: sends a signal the batch shell does not trap, so the shell dies of it",
    remediation="Trap the signal and forward it to the step, or drop `B:` so that Slurm signals the steps.",
)

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# an honoured --signal: lint neither imports nor runs the rule for a script without
FACTS = ("asks_signal",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None or not f.readable:
        return
    sent = signals.sent_by(f)
    if sent is None or not sent.batch or sent.signal not in signals.FATAL:
        return
    if signals.trapped(f, sent.signal) or any(step.exec_ for step in f.steps):
        return
    if sent.signal in signals.delegated(f):
        return  # a function of a sourced file is given the signal: its trap is out of sight
    yield hit(
        sent.directive.span,
        f"{sent.directive.text} sends {sent.signal} to the batch shell alone, and nothing in the "
        "script traps it: bash dies of it before the time limit, the job ends there, and its "
        "steps are killed without ever getting the signal; trap it and forward it to the step "
        "(start the step with `&` and `wait` for it), or drop B: so that Slurm signals the steps",
    )
