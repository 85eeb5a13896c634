"""With `launch.mode: srun`, Slurm starts every rank itself, so each node needs exactly one task
per GPU.

Fewer tasks than GPUs leave GPUs idle and shrink the world the program computes; more tasks
than GPUs make ranks share a GPU (or fail to find one). jobc derives `tasks_per_node` from the
launch mode, so this only fires when `resources.tasks_per_node` is set by hand.

In a script, `mpirun` run by the batch shell starts one rank a task too. When its counts are the
tasks the job asks for (`mpirun -n 8 -npernode 4` on `--nodes=2 --ntasks-per-node=4`) and the GPUs
are not (`--gpus=4`, 2 a node), the GPU request is the one count that differs: the finding is at
it. A launcher count that differs from the tasks is JC804's. Ranks that each run a script the
text does not hold (`mpirun -np 2 apptainer exec IMG bash deploy.sh`) may each start a per-node
launcher (torchrun on its node's GPUs): how many processes a node runs is not known, and no
request is blamed.

Bad:

```yaml
resources: {nodes: 2, gpus_per_node: 8, tasks_per_node: 1}
launch: {mode: srun, program: train.py}
```

Good:

```yaml
resources: {nodes: 2, gpus_per_node: 8}     # tasks_per_node derived: 8
launch: {mode: srun, program: train.py}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit, mode_known
from jobc.spec.context import Context

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.script.facts import ScriptFacts, Step

META = Meta(
    code="JC101",
    name="srun-tasks-per-gpu",
    severity=Severity.ERROR,
    summary="`mode: srun` needs one task per GPU on each node",
    remediation="Remove resources.tasks_per_node (it is derived), or set it to gpus_per_node.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resources", "tasks_per_node"),)


def check_script(ctx: Context) -> Iterator[Hit]:
    """On a script too, when it shows what its main step runs (`mode_known`). One task on a
    one-node job is no finding: one process may drive all the node's GPUs itself
    (torch.multiprocessing.spawn, DataParallel, a model spread with device_map); nor is a
    training step srun starts as one task in all (`srun -N1 -n1 python driver.py`: a Ray or
    Dask driver on the head node, which reaches the GPUs through its workers)."""
    f = facts(ctx)
    step = f.main_step if f is not None else None
    if ctx.spec.resources.nodes == 1 and ctx.spec.resources.tasks_per_node == 1 and not _cut(ctx, f, step):
        return iter(())
    if step is not None and step.srun is not None:
        total = step.srun.get("ntasks")
        if total is not None and total.literal and total.text == "1":
            return iter(())
    if step is not None and f is not None and mode_known(ctx):
        from jobc.script.allocation import launcher_tasks

        ranks = launcher_tasks(f, step, ctx.spec.resources.nodes)
        if ranks is not None and step.launcher is not None:
            return _request(ctx, step.launcher.name, ranks[0])
    if f is not None and mode_known(ctx) and (found := _uneven(ctx, f)) is not None:
        return found
    return check(ctx) if mode_known(ctx) else iter(())


def _uneven(ctx: Context, f: "ScriptFacts") -> Iterator[Hit] | None:
    """`#SBATCH --gpus=1` on 4 nodes of 8 tasks: GPUs for the whole job that do not part evenly
    over its nodes (no count per node is read from them), for srun's tasks, one rank each: as many
    ranks as GPUs in all is the one count that can work."""
    from jobc.script.allocation import slurm_int
    from jobc.script.spec import uneven_gpus

    r = ctx.spec.resources
    d = uneven_gpus(f, r.nodes)
    if d is None or ctx.spec.launch.mode != "srun" or r.tasks_per_node is None or d.value is None:
        return None
    total = f.honoured().get("ntasks")  # the job's tasks in all, when it says (it wins)
    ranks = slurm_int(total.value) if total is not None else None
    gpus, ranks = slurm_int(d.value.rpartition(":")[2]), ranks or r.nodes * r.tasks_per_node
    if gpus is None or gpus == ranks:
        return iter(())
    what = "ranks share GPUs or find none" if ranks > gpus else f"{gpus - ranks} GPU(s) stay idle"
    return iter(
        (
            hit(
                d.span,
                f"srun starts one rank per task, {ranks} on {r.nodes} node(s), but #SBATCH {d.text} "
                f"gives the whole job {gpus} GPU(s), placed unevenly over its nodes: {what}; ask for "
                "one GPU per task (#SBATCH --gpus-per-task=1, or --gpus-per-node with as many tasks "
                "per node)",
            ),
        )
    )


def _request(ctx: Context, launcher: str, ranks: int) -> Iterator[Hit]:
    """mpirun starts one rank a task, and its counts agree with the tasks the directives ask for
    (`mpirun -n 8 -npernode 4` on 2 nodes of 4 tasks): the GPU request is the one count that
    differs, and the place to fix it."""
    gpus = ctx.gpus_per_node
    if ctx.spec.launch.mode != "srun" or not gpus or ranks == gpus:
        return
    where = words.name(ctx, ("resources", "gpus_per_node"))
    what = (
        "ranks share GPUs or fail to find one" if ranks > gpus else f"{gpus - ranks} GPUs per node stay idle"
    )
    yield Hit(
        ("resources", "gpus_per_node"),
        f"{launcher} starts {ranks} rank(s) per node, one a task as the job asks, but {where} gives "
        f"{gpus} GPUs per node: {what}; ask for {ranks} GPUs per node (#SBATCH --gpus-per-node={ranks})",
    )


def check(ctx: Context) -> Iterator[Hit]:
    tasks = ctx.spec.resources.tasks_per_node
    if ctx.spec.launch.mode != "srun" or tasks is None or ctx.gpus_per_node == 0:
        return
    if tasks != ctx.gpus_per_node:
        gpus = ctx.gpus_per_node
        if words.in_script(ctx):
            where = words.name(ctx, ("resources", "tasks_per_node"))
            message = (
                f"srun starts one rank per task, but {where} gives {tasks} task(s) per node for "
                f"{gpus} GPUs per node; ask for {gpus} (#SBATCH --ntasks-per-node={gpus}, or "
                f"srun --ntasks-per-node={gpus})"
            )
        else:
            message = (
                f"launch.mode srun starts one rank per task, but tasks_per_node is {tasks} and "
                f"gpus_per_node is {gpus}; set tasks_per_node to {gpus} or remove it"
            )
        yield Hit(("resources", "tasks_per_node"), message)


def _cut(ctx: Context, f: "ScriptFacts | None", step: "Step | None") -> bool:
    """`#SBATCH --ntasks 1` beside `#SBATCH --ntasks-per-node 4` on a node of 4 GPUs: the script
    asks for a task per GPU, and the total, which wins, cuts it to one."""
    if f is None or step is None:
        return False
    from jobc.script.allocation import capped_by_total, slurm_int

    per = f.honoured().get("ntasks-per-node")
    count = slurm_int(per.value, 1) if per is not None else None
    gpus = ctx.spec.resources.gpus_per_node
    return count is not None and count == gpus and capped_by_total(f, step, 1, count) is not None
