"""The job does not fit the live partition: a time limit over its MaxTime, more nodes than
its MaxNodes or than it has nodes with the GPUs, CPUs and features asked for (`jobc lint --live`).

Slurm refuses such a job at submission, or leaves it pending for ever with a reason such as
`PartitionTimeLimit`, `PartitionNodeLimit` or `Resources`. The limits are read from the cluster
itself (`scontrol show partition` and `scontrol show node`), so they are the ones in force now.

Bad:

```yaml
# partition short: MaxTime=00:10:00, MaxNodes=2, two nodes with 4 GPUs each
slurm: {partition: short, time: "01:00:00"}
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
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.lint.rules.topology._live import Target, constraint_features, target
from jobc.spec.context import Context
from jobc.spec.slurmfacts import NodeFacts
from jobc.spec.slurmtime import TimeLimitError, describe, parse_time

META = Meta(
    code="JC121",
    name="live-partition-limits",
    severity=Severity.ERROR,
    summary="Time, nodes, GPUs or CPUs over what the live partition allows or has (--live)",
    remediation=(
        "Ask for what the partition's limits and nodes allow (`scontrol show partition`), "
        "or pick another partition."
    ),
)
# Only `jobc lint --live` has a cluster to compare with; without it lint does not load the rule.
LIVE = True
# a script's partition, time, nodes, constraint, account and QOS meet the same cluster
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    t = target(ctx)
    if t is None:
        return
    yield from _time(ctx, t)
    yield from _nodes(ctx, t)


def _seconds(value: str | int | None) -> int | None:
    if value is None:
        return None
    try:
        return parse_time(value)
    except TimeLimitError:
        return None  # JC108 says what is wrong with it


def _time(ctx: Context, t: Target) -> Iterator[Hit]:
    asked = _seconds(ctx.spec.slurm.time)
    limit = _seconds(t.partition.max_time)
    if asked is None or limit is None or asked <= limit:
        return
    yield Hit(
        ("slurm", "time"),
        f"{words.name(ctx, ('slurm', 'time'), f'slurm.time {ctx.spec.slurm.time!r}')} ({describe(asked)}) "
        f"is over the MaxTime of {t.label} on the "
        f"cluster, {t.partition.max_time} ({describe(limit)}): the job would pend for ever "
        "(PartitionTimeLimit) or be refused; ask for at most that",
    )


def _nodes(ctx: Context, t: Target) -> Iterator[Hit]:
    nodes, gpus = ctx.nodes, ctx.gpus_per_node
    part = t.partition
    if part.max_nodes is not None and nodes > part.max_nodes:
        yield Hit(
            ("resources", "nodes"),
            f"{nodes} nodes, but {t.label} allows at most {part.max_nodes} per job (MaxNodes): the job "
            "would pend for ever (PartitionNodeLimit) or be refused",
        )
    if part.min_nodes is not None and nodes < part.min_nodes:
        yield Hit(
            ("resources", "nodes"),
            f"{nodes} node(s), but {t.label} takes jobs of at least {part.min_nodes} nodes (MinNodes)",
        )
    if not t.nodes:
        return
    counts = [n.gpus for n in t.nodes]
    # a node whose GPU count Slurm printed unreadably may have any number: no claim about "most"
    most = max(c for c in counts if c is not None) if None not in counts else None
    if most is not None and gpus > most:
        yield Hit(
            ("resources", "gpus_per_node"),
            f"{words.name(ctx, ('resources', 'gpus_per_node'), f'gpus_per_node {gpus}')}: {gpus} GPUs "
            f"per node, but no node of {t.label} has more than {most}",
        )
        return
    cpus = _cpus(ctx)
    # a feature no node of the partition has is JC122's to report; it does not count here twice
    wanted = constraint_features(ctx.spec.slurm.constraint or "") or []
    features = [f for f in wanted if any(f in n.features for n in t.nodes)]
    fitting = [n for n in t.nodes if _fits(n, gpus, cpus, features)]
    if nodes > len(fitting):
        asked = [f"{gpus} GPUs"] if gpus else []
        if cpus:
            asked.append(f"{cpus} CPUs")
        if features:
            asked.append(f"features {'&'.join(features)}")
        what = f" with {', '.join(asked)}" if asked else ""
        yield Hit(
            ("resources", "nodes"),
            f"{nodes} nodes{what}, but {t.label} has {len(fitting)} such node(s) of {len(t.nodes)}: the "
            "job could never start",
        )


def _cpus(ctx: Context) -> int:
    per_task = ctx.spec.resources.cpus_per_task
    return per_task * ctx.tasks_per_node if per_task is not None else 0


def _fits(node: NodeFacts, gpus: int, cpus: int, features: list[str]) -> bool:
    if node.gpus is not None and node.gpus < gpus:
        return False
    if cpus and node.cpus is not None and node.cpus < cpus:
        return False
    return all(f in node.features for f in features)
