"""The partition does not exist on the live cluster, is not up, or is not given where the
cluster has no default (`jobc lint --live`).

sbatch refuses a job for a partition the controller does not know ("invalid partition name
specified"), and without `--partition` on a cluster with no default partition. A partition
that is DOWN or DRAIN takes jobs but starts none; INACTIVE takes none. With `--live`, jobc asks
the cluster (`scontrol show partition`) instead of trusting a profile.

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

import difflib
from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.live import current
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.lint.rules.topology._live import PARTITION
from jobc.spec.context import Context

META = Meta(
    code="JC120",
    name="live-partition",
    severity=Severity.ERROR,
    summary="The partition does not exist on the live cluster, or is not up (--live)",
    remediation="Use one of the partitions `sinfo` lists, or leave slurm.partition to the cluster's default.",
)
# Only `jobc lint --live` has a cluster to compare with; without it lint does not load the rule.
LIVE = True
# a script's partition, time, nodes, constraint, account and QOS meet the same cluster
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    cluster = current()
    if cluster is None or not cluster.partitions:
        return
    names = [p.name for p in cluster.partitions]
    name = ctx.spec.slurm.partition
    if name is None:
        part = cluster.default_partition
        if part is None:
            yield Hit(
                PARTITION,
                f"the cluster has no default partition, so sbatch needs one: set "
                f"{words.name(ctx, PARTITION, 'slurm.partition')} to one of {', '.join(names)}",
                at_value=False,
                severity=Severity.WARNING,
            )
            return
    else:
        # `--partition=a,b`: the job may run in any of them; each must exist
        asked = [n.strip() for n in name.split(",") if n.strip()]
        unknown = [n for n in asked if cluster.partition(n) is None]
        for missing in unknown:
            close = difflib.get_close_matches(missing, names, n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            yield Hit(
                PARTITION,
                f"partition {missing!r} does not exist on cluster {cluster.name or '(unnamed)'}: its "
                f"partitions are {', '.join(names)}{hint}",
            )
        if unknown or len(asked) != 1:
            return
        part = cluster.partition(asked[0])
        if part is None:
            return
    state = part.state.split("+")[0]
    if state != "UP":
        what = "accepts no jobs" if state == "INACTIVE" else "queues jobs but starts none"
        yield Hit(
            PARTITION,
            f"partition {part.name!r} is {state} on the cluster now, so it {what}; pick another partition "
            "or ask the administrators",
            at_value=name is not None,
            severity=Severity.ERROR if state == "INACTIVE" else Severity.WARNING,
        )
