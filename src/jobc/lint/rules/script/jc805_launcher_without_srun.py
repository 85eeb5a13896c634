"""A multi-node job whose launcher is not started by srun.

The batch script runs on the first node of the allocation only. `torchrun …` or `python train.py`
written there, without `srun` in front, starts on that one node; the other nodes sit idle, and a
launcher told `--nnodes=2` waits for a second node that never joins.

Bad:

```bash
#SBATCH --nodes=2
torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
```

Bad, assembled in a variable:

```bash
#SBATCH --nodes=2
LAUNCHER="torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint=$(hostname)"
$LAUNCHER train.py
```

Nor is a program started by a command a file the script sources sets, when jobc cannot read
that file (`source /opt/site/env.sh; $SRUN_LAUNCH python train.py`), nor by a command the script
reads from a program's output (`cmd=$(./setup.sh)`, then `$cmd train.py`): srun or not, it is
not known.
A Ray job is no such case: the script starts a Ray cluster on its nodes (the `ray` command,
directly or through helper scripts), and its driver, `python train.py` in the batch shell, runs
once by design; Ray places the work on the other nodes.

Good:

```bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
srun torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d --rdzv_endpoint="$head:29500" train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit, nodes, started_on_first_node
from jobc.spec.context import Context

META = Meta(
    code="JC805",
    name="launcher-without-srun",
    severity=Severity.ERROR,
    summary="A multi-node job whose launcher is not started by srun (it runs on the first node only)",
    remediation="Start the launcher with srun (one task per node for torchrun, one per GPU for python).",
)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    step = started_on_first_node(f) if f is not None else None
    if f is None or step is None:
        return
    count = nodes(f)
    what = step.launcher.name if step.launcher is not None else "the program"
    yield hit(
        step.span,
        f"the job allocates {count} nodes but {what} is started by the batch shell, which runs on the "
        f"first node only: the other {count - 1} node(s) stay idle; start it with srun",
    )
