"""More CPUs requested per node than a node has: `cpus_per_task × tasks_per_node` above the
node's CPU count (`cluster.cpus_per_node`, or the chosen partition's; with `jobc lint --live`,
the most CPUs a node of the partition has).

sbatch refuses the job ("Requested node configuration is not available"), or on some setups
it pends forever. `tasks_per_node` counts what jobc will start: one task per GPU with
`launch.mode: srun`, one per node with `torchrun`, unless set by hand. The rule only runs when
the profile or the live cluster states the node's CPU count.

Bad:

```yaml
cluster: {cpus_per_node: 112}
resources: {nodes: 2, gpus_per_node: 8, cpus_per_task: 16}   # 8 tasks × 16 = 128 CPUs
launch: {mode: srun, program: train.py}
```

Good:

```yaml
cluster: {cpus_per_node: 112}
resources: {nodes: 2, gpus_per_node: 8, cpus_per_task: 14}   # 8 tasks × 14 = 112 CPUs
launch: {mode: srun, program: train.py}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.lint.rules.topology._partition import view
from jobc.spec.context import Context

META = Meta(
    code="JC109",
    name="cpus-oversubscribed",
    severity=Severity.ERROR,
    summary="cpus_per_task × tasks_per_node is more than a node's CPUs",
    remediation="Lower resources.cpus_per_task to at most the node's CPUs divided by tasks per node.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resources", "cpus_per_task"),)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    per_task = ctx.spec.resources.cpus_per_task
    available, node = _available(ctx)
    if per_task is None or available is None:
        return
    tasks = ctx.tasks_per_node
    if per_task * tasks <= available:
        return
    if ctx.spec.resources.tasks_per_node is not None:
        why = "tasks_per_node"
    elif ctx.spec.launch.mode == "srun":
        why = "one task per GPU with launch.mode srun"
    else:
        why = "one task per node with launch.mode torchrun"
    fit = available // tasks
    if words.in_script(ctx):
        asked = words.name(ctx, ("resources", "cpus_per_task"))
        fix = f"ask for {fit} or fewer (#SBATCH --cpus-per-task={fit})" if fit else ""
        fix = fix or f"run at most {available} tasks per node"
        message = f"{asked}: {per_task} CPUs × {tasks} tasks per node = {per_task * tasks} CPUs"
    else:
        fix = f"use cpus_per_task {fit} or fewer" if fit else f"use at most {available} tasks per node"
        message = f"cpus_per_task {per_task} × {tasks} tasks per node ({why}) = {per_task * tasks} CPUs"
    yield Hit(("resources", "cpus_per_task"), f"{message}, but {node} has {available}; {fix}")


def _available(ctx: Context) -> tuple[int | None, str]:
    """CPUs of a node and which node: with `--live`, the most any node of the partition has
    (none said when a node's count could not be read); else the profile's, the partition's
    first."""
    v = view(ctx)
    if v is not None and v.live and v.kinds:
        return v.most("cpus"), f"a node of {v.label}"
    part = ctx.partition_limits
    named = part is not None and part.cpus_per_node is not None
    return ctx.cpus_per_node, f"a node of partition {ctx.partition_name!r}" if named else "a node"
