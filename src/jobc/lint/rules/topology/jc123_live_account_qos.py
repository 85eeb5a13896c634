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
from jobc.lint.rules.topology._live import target
from jobc.spec.context import Context

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
    t = target(ctx)
    for key, known, allowed, kind in (
        ("account", cluster.accounts, t.partition.allow_accounts if t else None, "AllowAccounts"),
        ("qos", cluster.qos, t.partition.allow_qos if t else None, "AllowQos"),
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
        if t is not None and allowed is not None and name not in {a.lower() for a in allowed}:
            yield Hit(
                ("slurm", key),
                f"{t.label} allows only {key} {', '.join(allowed)} ({kind}), not {value!r}",
            )
