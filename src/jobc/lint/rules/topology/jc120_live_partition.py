"""The partition does not exist, is not up, or is not given where the cluster has no default.

sbatch refuses a job for a partition the controller does not know ("invalid partition name
specified"), and without `--partition` on a cluster with no default partition. jobc knows the
partitions from the live cluster (`jobc lint --live`, `scontrol show partition`), or from a
cluster profile that lists them all (`jobc profile` writes `cluster.all_partitions: true`; a
hand-written profile that lists some is not taken to list every one). Whether a partition is
up is the cluster's state now, which only `--live` can tell: a partition that is DOWN or DRAIN
takes jobs but starts none; INACTIVE takes none.

Bad:

```yaml
# the cluster has partitions batch and short
slurm: {partition: gpus, time: "01:00:00"}
```

Good:

```yaml
slurm: {partition: batch, time: "01:00:00"}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.live import current
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.lint.rules.topology._partition import PARTITION
from jobc.spec.context import Context
from jobc.spec.slurmfacts import PartitionFacts

META = Meta(
    code="JC120",
    name="unknown-partition",
    severity=Severity.ERROR,
    summary="The partition does not exist on the cluster, or is not up (--live)",
    remediation="Use one of the partitions `sinfo` lists, or leave slurm.partition to the cluster's default.",
)
# a script's partition, time, nodes, constraint, account and QOS meet the same cluster
SCRIPTS = True
# without --live, only a profile that lists every partition can say one does not exist
READS = (("cluster", "all_partitions"),)


def check(ctx: Context) -> Iterator[Hit]:
    cluster = current()
    if cluster is not None:
        names = [p.name for p in cluster.partitions]
        default_name = cluster.default_partition.name if cluster.default_partition is not None else None
        where = f"on cluster {cluster.name or '(unnamed)'}"
    elif ctx.spec.cluster.all_partitions:
        names = sorted(ctx.spec.cluster.partitions)
        default_name = ctx.spec.cluster.default_partition
        where = "in the cluster profile, which lists every partition"
    else:
        return
    if not names:
        return
    name = ctx.spec.slurm.partition
    if name is None:
        if default_name is None:
            yield Hit(
                PARTITION,
                f"the cluster has no default partition, so sbatch needs one: set "
                f"{words.name(ctx, PARTITION, 'slurm.partition')} to one of {', '.join(names)}",
                at_value=False,
                severity=Severity.WARNING,
            )
        elif cluster is not None:
            yield from _state(cluster.partition(default_name), named=False)
        return
    # `--partition=a,b`: the job may run in any of them; each must exist
    asked = [n.strip() for n in name.split(",") if n.strip()]
    for missing in (n for n in asked if n not in names):
        yield Hit(
            PARTITION,
            f"partition {missing!r} does not exist {where}: its partitions are {', '.join(names)}"
            f"{_near(missing, names)}",
        )
    if cluster is not None and len(asked) == 1 and asked[0] in names:
        yield from _state(cluster.partition(asked[0]), named=True)


def _near(name: str, names: list[str]) -> str:
    import difflib  # only for a partition that does not exist

    close = difflib.get_close_matches(name, names, n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _state(part: PartitionFacts | None, *, named: bool) -> Iterator[Hit]:
    """A partition that is not UP now (the live cluster's state)."""
    state = part.state.split("+")[0] if part is not None else "UP"
    if part is None or state == "UP":
        return
    what = "accepts no jobs" if state == "INACTIVE" else "queues jobs but starts none"
    yield Hit(
        PARTITION,
        f"partition {part.name!r} is {state} on the cluster now, so it {what}; pick another partition "
        "or ask the administrators",
        at_value=named,
        severity=Severity.ERROR if state == "INACTIVE" else Severity.WARNING,
    )
