"""The account or QOS does not exist in the cluster's accounting, or the partition does not
allow it (`jobc lint --live`).

sbatch refuses a job whose account or QOS the accounting database does not know ("Invalid
account or account/partition combination specified", "Invalid qos specification"), and a
partition with AllowAccounts/AllowQos refuses the others. jobc asks `sacctmgr` only when the
cluster keeps accounting; without it, names cannot be checked and nothing is reported.

Bad:

```yaml
# sacctmgr knows the accounts root and ml-team, the QOS normal and high
slurm: {account: ml-taem, qos: urgent}
```

Good:

```yaml
slurm: {account: ml-team, qos: high}
```
"""

import difflib
from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.live import current
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.spec.slurmfacts import ClusterFacts, PartitionFacts

META = Meta(
    code="JC123",
    name="live-account-qos",
    severity=Severity.ERROR,
    summary="The account or QOS is unknown to accounting, or not allowed in the partition (--live)",
    remediation="Use an account and QOS that `sacctmgr show assoc user=$USER` lists for you.",
)
# Only `jobc lint --live` has a cluster to compare with; without it lint does not load the rule.
LIVE = True
# a script's partition, time, nodes, constraint, account and QOS meet the same cluster
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    cluster = current()
    if cluster is None:
        return
    part, label = _partition(ctx, cluster)
    for key, known, allowed, kind in (
        ("account", cluster.accounts, part.allow_accounts if part else None, "AllowAccounts"),
        ("qos", cluster.qos, part.allow_qos if part else None, "AllowQos"),
    ):
        value = getattr(ctx.spec.slurm, key)
        if not value:
            continue
        # Slurm keeps account and QOS names in lower case
        name = value.lower()
        if known is not None and name not in known:
            close = difflib.get_close_matches(name, sorted(known), n=1, cutoff=0.6)
            hint = f"; did you mean {close[0]!r}?" if close else ""
            yield Hit(
                ("slurm", key),
                f"{key} {value!r} is not in the cluster's accounting (sacctmgr knows "
                f"{', '.join(sorted(known)) or 'none'}){hint}",
            )
            continue
        if allowed is not None and name not in {a.lower() for a in allowed}:
            yield Hit(
                ("slurm", key),
                f"{label} allows only {key} {', '.join(allowed)} ({kind}), not {value!r}",
            )


def _partition(ctx: Context, cluster: ClusterFacts) -> tuple[PartitionFacts | None, str]:
    """The live partition the job would run in (none for several: it runs in the first that
    fits), and how to name it."""
    asked = ctx.spec.slurm.partition
    if asked and "," in asked:
        return None, ""
    part = cluster.partition(asked) if asked else cluster.default_partition
    if part is None:
        return None, ""
    return part, f"partition {part.name!r}" + ("" if asked else " (the cluster's default)")
