"""With `launch.mode: torchrun`, Slurm starts one task per node and that task runs
`torch.distributed.run`, which starts one worker per GPU itself.

Several tasks per node start several launchers on the same node: each binds the same
rendezvous port (the second fails with `EADDRINUSE`), and the ones that do start spawn a full set
of workers each, so every GPU gets several ranks. jobc derives `tasks_per_node: 1` for this mode;
the rule fires only when `resources.tasks_per_node` is set by hand.

Bad:

```yaml
resources: {nodes: 2, gpus_per_node: 8, tasks_per_node: 8}
launch: {mode: torchrun, program: train.py}
```

Bad in a script, assembled (a launcher held in a string, run by `bash -c` on every task):

```bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
LAUNCH="python -m torch.distributed.run --nproc-per-node 8 --nnodes \\$SLURM_NNODES"
srun bash -c "$LAUNCH pretrain_gpt.py"
```

Good:

```yaml
resources: {nodes: 2, gpus_per_node: 8}     # tasks_per_node derived: 1
launch: {mode: torchrun, program: train.py}
```

In a script, the tasks come from `--ntasks-per-node`:

Bad in a script:

```bash
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
srun torchrun --nnodes=2 --nproc-per-node=8 --rdzv-backend=c10d --rdzv-endpoint="$MASTER_ADDR:29400" train.py
```

A per-node launcher the batch shell starts itself on several nodes (JC805: it runs on the first
node only) is held to the same count: the srun it needs starts as many copies on each node as
`--ntasks-per-node` (or `--tasks-per-node`, or `--ntasks` over the nodes) asks tasks for. The
finding is on that directive.
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import mode_known
from jobc.spec.context import Context

META = Meta(
    code="JC102",
    name="torchrun-one-task-per-node",
    severity=Severity.ERROR,
    summary="`mode: torchrun` needs exactly one task per node",
    remediation="Remove resources.tasks_per_node (it is derived), or set it to 1.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resources", "tasks_per_node"),)


def check_script(ctx: Context) -> Iterator[Hit]:
    """On a script too, when it shows what its main step runs (`mode_known`); and for a per-node
    launcher the batch shell starts on the first of several nodes (JC805), whose srun will start
    as many copies on each node as the directives ask tasks for."""
    if mode_known(ctx):
        yield from check(ctx)
    yield from _batch_shell_launcher(ctx)


def _batch_shell_launcher(ctx: Context) -> Iterator[Hit]:
    from jobc.core.numbers import ascii_int
    from jobc.lint.rules.script._facts import facts, hit, nodes, started_on_first_node
    from jobc.tables import launchers

    f = facts(ctx)
    step = started_on_first_node(f) if f is not None else None
    if f is None or step is None or step.launcher is None:
        return
    kind = launchers.entry(step.launcher.name)
    if kind is None or not kind.per_node:
        return
    count, honoured = nodes(f), f.honoured()
    per, total = honoured.get("ntasks-per-node"), honoured.get("ntasks")
    tasks = ascii_int(per.value or "") if per is not None else None
    d = per
    if per is None and total is not None and (n := ascii_int(total.value or "")) and n % count == 0:
        tasks, d = n // count, total
    if d is None or tasks is None or tasks < 2:
        return
    workers = max(ctx.gpus_per_node, 1)
    yield hit(
        d.span,
        f"{step.launcher.name} runs one copy per node and starts {workers} workers itself, but #SBATCH "
        f"{d.text} asks for {tasks} tasks per node: the srun it needs on {count} nodes (it is started by "
        f"the batch shell, on the first node only) starts {tasks} copies on each node, which bind the "
        f"same rendezvous port (EADDRINUSE) and start {tasks * workers} ranks per node instead of "
        f"{workers}; ask for one task per node (--ntasks-per-node=1)",
    )


FIX = Repair(
    Applicability.SAFE,
    "sets the tasks per node to 1 (`--ntasks=N` becomes `--ntasks-per-node=1`); a launcher's "
    "processes per node written as `$SLURM_NTASKS_PER_NODE` keep the count they had, and a script "
    "that reads the task counts otherwise gets no fix (in a script that also runs other steps "
    "under srun, unsafe: they get one task per node too; unsafe too when the batch shell starts "
    "the launcher itself, which loses the tasks' CPUs)",
    "specs and scripts",
)


def check(ctx: Context) -> Iterator[Hit]:
    tasks = ctx.spec.resources.tasks_per_node
    if ctx.spec.launch.mode != "torchrun" or tasks is None or tasks == 1:
        return
    workers = max(ctx.gpus_per_node, 1)
    if words.in_script(ctx):
        where = words.name(ctx, ("resources", "tasks_per_node"))
        head = f"the launcher starts {workers} workers in each task, and {where}"
        fix = "ask for one task per node (--ntasks-per-node=1)"
    else:
        head = (
            f"launch.mode torchrun runs one torch.distributed.run per task and each starts {workers} "
            f"workers, so tasks_per_node {tasks}"
        )
        fix = "set tasks_per_node to 1 or remove it"
    yield Hit(
        ("resources", "tasks_per_node"),
        f"{head} starts {tasks} launchers per node that bind the same rendezvous port (EADDRINUSE) and "
        f"{tasks * workers} ranks per node instead of {workers}; {fix}",
        fix=Fix.make("set tasks_per_node to 1", Edit(("resources", "tasks_per_node"), "1")),
    )
