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
that file (`source /opt/site/env.sh; $SRUN_LAUNCH python train.py`): srun or not, it is not known.
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
from jobc.lint.rules.script._facts import facts, hit, nodes
from jobc.spec.context import Context
from jobc.tables import launchers

META = Meta(
    code="JC805",
    name="launcher-without-srun",
    severity=Severity.ERROR,
    summary="A multi-node job whose launcher is not started by srun (it runs on the first node only)",
    remediation="Start the launcher with srun (one task per node for torchrun, one per GPU for python).",
)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    count = nodes(f)
    if count < 2:
        return
    step = f.main_step
    if step is None or step.srun is not None:
        return
    if step.launcher is None and step.program is None and step.module is None:
        return  # `bash "$SCRIPT"`: what it starts, and how, is in another file
    if step.sourced_from is not None:
        return  # `$SRUN_LAUNCH python t.py` set by a file jobc cannot read: srun or not, not known
    if any(s.srun is not None for s in f.steps):
        # the job's steps run under srun; a program the batch shell runs as well is a helper
        return
    launcher = step.launcher
    if launcher is None and any(c.name == "ray" for c in f.commands):
        return  # a Ray cluster's driver: one process on the head node, by design
    kind = launchers.entry(launcher.name) if launcher is not None else None
    if launcher is not None and kind is not None:
        if kind.reaches_always or any(
            k in launcher.options or k in launcher.flags for k in kind.reaches_nodes
        ):
            return  # it starts the other nodes' processes itself (ssh, pdsh, MPI)
        if any(k in launcher.flags for k in kind.single_node):
            return  # one node's job by its own flag: JC806 speaks of that
    what = launcher.name if launcher is not None else "the program"
    yield hit(
        step.span,
        f"the job allocates {count} nodes but {what} is started by the batch shell, which runs on the "
        f"first node only: the other {count - 1} node(s) stay idle; start it with srun",
    )
