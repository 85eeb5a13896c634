"""`--signal` without `B:` in a script that starts no job step: the signal reaches nobody.

Without `B:`, Slurm sends the warning signal to the processes of the job's steps, and never to
the batch shell. A step is what `srun` starts (and MPI launchers start through it); a program the
batch shell runs itself (`python train.py`, `torchrun …`, `accelerate launch …`) is not in one. So
in a script without `srun`, the program never gets the signal it waits for to checkpoint, and the
job runs into its time limit and is killed. Tried on Slurm 22.05: the same program ran under
`srun` got the signal and saved; run by the batch shell it ran until TIMEOUT.

Start the program with `srun`, or write `--signal=B:SIG@SECONDS` and trap the signal in the batch
shell to pass it on (JC808 says what a `B:` signal with no trap does).

Bad:

```bash
#!/bin/bash
#SBATCH --signal=USR2@120
python train.py
```

Good:

```bash
#!/bin/bash
#SBATCH --signal=USR2@120
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit
from jobc.script import signals
from jobc.script.facts import ScriptFacts
from jobc.spec.context import Context

META = Meta(
    code="JC815",
    name="signal-without-step",
    severity=Severity.WARNING,
    summary="--signal without B: in a script that starts no job step (no srun): no process gets the signal",
    remediation="Start the program with srun, or write --signal=B:SIG@SECONDS and trap it in the batch "
    "shell.",
)

#: commands that start job steps (MPI launchers under Slurm start theirs through srun), or may
#: (another script, a shell, eval): with any of them in the script, steps may exist
_MAY_START_STEPS = frozenset(
    ("srun", "mpirun", "mpiexec", "orterun", "prterun", "ibrun", "bash", "sh", "eval")
)

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# an honoured --signal: lint neither imports nor runs the rule for a script without
FACTS = ("asks_signal",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None or not f.readable or f.problems:
        return  # a part jobc could not read may start a step
    sent = signals.sent_by(f)
    if sent is None or sent.batch or not f.steps or _may_start_steps(f):
        return
    step = f.main_step or f.steps[-1]
    yield hit(
        sent.directive.span,
        f"{sent.directive.text} has no `B:`, so Slurm sends {sent.signal} to the processes of job "
        f"steps only, and this script starts none (no srun): `{_short(step.text)}` (line "
        f"{step.span.line}) runs in the batch shell, which the signal never reaches, so the job "
        f"runs into its time limit without it; start the program with srun, or write "
        f"`{sent.fixed}` and trap the signal in the batch shell to pass it on",
    )


def _may_start_steps(f: ScriptFacts) -> bool:
    if any(step.srun is not None for step in f.steps):
        return True
    # a step read from `mpirun python train.py` or `bash run.sh`: its first words name the starter
    words = [w.rsplit("/", 1)[-1] for step in f.steps for w in step.text.split()[:3]]
    words += [c.name.rsplit("/", 1)[-1] for c in f.commands]
    return any(w in _MAY_START_STEPS or w.endswith(".sh") for w in words)


def _short(text: str) -> str:
    line = text.splitlines()[0] if text else ""
    return line if len(line) <= 60 else line[:57] + "..."
