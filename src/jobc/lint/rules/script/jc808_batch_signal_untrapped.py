"""`--signal=B:…` with no trap for the signal in the batch shell.

With `B:` Slurm sends the warning signal to the batch shell alone. A bash that does not trap
SIGUSR1, SIGUSR2, SIGTERM or SIGHUP dies of it: the script stops where it was, the job ends
there, before its time limit, and the steps are killed when the job ends (they get SIGTERM, then
SIGKILL after the cluster's KillWait) without ever seeing the signal the program waits for. Lines
after the step (a requeue, a copy of the logs) never run. `exec srun …` is the exception: the
shell has become srun, which passes the signal on to the tasks. Nor is it reported when the
script sources a file and hands the signal's name to a command of it (NERSC's variable-time
jobs: `. setup.sh; requeue_job func_trap USR1`): that function may set the trap, out of sight.
A trap the script sets only after its training step ran in the foreground is no trap while that
step runs, which is when the signal comes: the shell dies of it all the same.

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

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.script.facts import ScriptFacts, Step, Trap

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
    if any(step.exec_ for step in f.steps):
        return
    if signals.trapped(f, sent.signal):
        late = _trapped_after(f, sent.signal)
        if late is not None:
            step, trap = late
            yield hit(
                sent.directive.span,
                f"{sent.directive.text} sends {sent.signal} to the batch shell, whose trap for it is set "
                f"only at line {trap.span.line}, after the step it would forward it to (line {step.line}) "
                "has run in the foreground: the signal comes while that step runs, with no trap set yet, "
                "so bash dies of it and the step is killed without it; set the trap before the step, "
                "start the step with `&` and `wait` for it",
            )
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


def _trapped_after(f: "ScriptFacts", signal: str) -> "tuple[Step, Trap] | None":
    """The batch shell's last step and the first trap for the signal, when every step runs in the
    foreground and every trap for the signal is set at the top level after the last of them: while
    any step runs (the signal comes before the time limit, during one of them) nothing traps it.
    None otherwise (a trap before some step, a trap a function sets, whenever it runs, a step in the
    background)."""
    traps = [t for t in f.traps if signal in t.signals]
    if not f.steps or not traps or any(t.function is not None for t in traps):
        return None
    if any(s.background for s in f.steps):
        return None
    # (a step in a function runs where the script calls it)
    last = max(f.steps, key=lambda s: max(s.span.end_line, s.reached))
    runs = max(last.span.end_line, last.reached)
    if all(t.span.line > runs for t in traps):
        return last, min(traps, key=lambda t: t.span.line)
    return None
