"""The job asks more nodes than its partition allows or has: more than its MaxNodes, fewer than
its MinNodes, or more than it has with the GPUs, CPUs and features asked for.

Slurm refuses such a job at submission, or leaves it pending for ever with a reason such as
`PartitionNodeLimit` or `Resources`. The partition's limits and nodes come from the live
cluster (`jobc lint --live`: `scontrol show partition` and `scontrol show node`), or from the
cluster profile the spec extends (`max_nodes`, `min_nodes`, and the `node_types` it lists, each
with its count, GPUs, CPUs and features, as `jobc profile` writes them). Its time limit is
JC108's, a node's GPUs JC103's and its CPUs JC109's, from the same facts.

Bad:

```yaml
# partition short: MaxNodes=2, two nodes with 4 GPUs each
slurm: {partition: short, time: "00:10:00"}
resources: {nodes: 4, gpus_per_node: 4}
```

Good:

```yaml
slurm: {partition: short, time: "00:10:00"}
resources: {nodes: 2, gpus_per_node: 4}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.topology._partition import Kind, View, constraint_features, view
from jobc.spec.context import Context

META = Meta(
    code="JC121",
    name="partition-size",
    severity=Severity.ERROR,
    summary="More nodes than the partition allows or has with the GPUs, CPUs and features asked for",
    remediation=(
        "Ask for what the partition's limits and nodes allow (`scontrol show partition`), "
        "or pick another partition."
    ),
)
# a script's partition, time, nodes, constraint, account and QOS meet the same cluster
SCRIPTS = True
# without --live, a profile's partitions tell it (with --live every check runs)
READS = (("cluster", "partitions"),)


def check(ctx: Context) -> Iterator[Hit]:
    v = view(ctx)
    if v is None:
        return
    nodes = ctx.nodes
    if v.max_nodes is not None and nodes > v.max_nodes:
        yield Hit(
            ("resources", "nodes"),
            f"{nodes} nodes, but {v.label} allows at most {v.max_nodes} per job (MaxNodes): the job "
            "would pend for ever (PartitionNodeLimit) or be refused",
        )
    if v.min_nodes is not None and nodes < v.min_nodes:
        yield Hit(
            ("resources", "nodes"),
            f"{nodes} node(s), but {v.label} takes jobs of at least {v.min_nodes} nodes (MinNodes)",
        )
    yield from _fitting(ctx, v)


def _fitting(ctx: Context, v: View) -> Iterator[Hit]:
    """More nodes than the partition has with the GPUs, CPUs and features a node is asked for.
    When no node has that many GPUs or CPUs, JC103 or JC109 says so, not this rule too."""
    gpus, cpus = ctx.gpus_per_node, _cpus(ctx)
    if not v.kinds or any(kind.count is None for kind in v.kinds):
        return
    most_gpus, most_cpus = v.most("gpus"), v.most("cpus")
    if (most_gpus is not None and gpus > most_gpus) or (most_cpus is not None and cpus > most_cpus):
        return
    # a feature no node of the partition has is JC122's to report; it does not count here twice
    wanted = constraint_features(ctx.spec.slurm.constraint or "") or []
    features = [f for f in wanted if any(f in kind.features for kind in v.kinds)]
    fitting = sum(kind.count or 0 for kind in v.kinds if _fits(kind, gpus, cpus, features))
    total = sum(kind.count or 0 for kind in v.kinds)
    if not v.live and v.nodes is not None:  # a profile's kind shared by partitions counts all its nodes
        fitting, total = min(fitting, v.nodes), v.nodes
    if ctx.nodes <= fitting:
        return
    asked = [f"{gpus} GPUs"] if gpus else []
    if cpus:
        asked.append(f"{cpus} CPUs")
    if features:
        asked.append(f"features {'&'.join(features)}")
    what = f" with {', '.join(asked)}" if asked else ""
    has, said = ("has", "") if v.live else ("has at most", " (as the cluster profile counts them)")
    yield Hit(
        ("resources", "nodes"),
        f"{ctx.nodes} nodes{what}, but {v.label} {has} {fitting} such node(s) of {total}{said}: the job "
        "could never start",
    )


def _cpus(ctx: Context) -> int:
    per_task = ctx.spec.resources.cpus_per_task
    return per_task * ctx.tasks_per_node if per_task is not None else 0


def _fits(kind: Kind, gpus: int, cpus: int, features: list[str]) -> bool:
    if kind.gpus is not None and kind.gpus < gpus:
        return False
    if cpus and kind.cpus is not None and kind.cpus < cpus:
        return False
    return all(f in kind.features for f in features)
