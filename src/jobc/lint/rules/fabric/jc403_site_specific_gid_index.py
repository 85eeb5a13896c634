"""`ib_gid_index` (or `NCCL_IB_GID_INDEX`) written in a job spec rather than a cluster profile.

The GID index selects which address of a RoCE port NCCL uses (RoCE v2 is index 3 on many
fabrics, something else on others; InfiniBand does not need it). It is a fact about one site's
network, not about the job: the same spec run on another cluster then fails to connect, or
silently falls back to TCP. Cluster facts belong in the profile the spec `extends`, where every
job of that cluster shares them.

Info: the value may well be right for the cluster the spec runs on today.

Bad:

```yaml
fabric: {ib_gid_index: 3}
```

Good:

```yaml
extends: clusters/a100-roce.yaml    # the profile holds fabric: {ib_gid_index: 3}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC403",
    name="site-specific-gid-index",
    severity=Severity.INFO,
    summary="The site-specific IB GID index is set in a job spec instead of a cluster profile",
    remediation="Move fabric.ib_gid_index to the cluster profile the spec extends.",
)


def check(ctx: Context) -> Iterator[Hit]:
    extends = ctx.own.get("extends")
    where = "the cluster profile the spec extends" if extends else "a cluster profile (extends:)"
    if ctx.written_in_spec("fabric", "ib_gid_index") and ctx.spec.fabric.ib_gid_index is not None:
        yield Hit(
            ("fabric", "ib_gid_index"),
            f"fabric.ib_gid_index {ctx.spec.fabric.ib_gid_index} describes one site's RoCE fabric, "
            f"not this job; move it to {where} so the spec runs unchanged on other clusters",
        )
    for section in (("fabric", "env"), ("env",)):
        if ctx.written_in_spec(*section, "NCCL_IB_GID_INDEX"):
            yield Hit(
                (*section, "NCCL_IB_GID_INDEX"),
                f"{'.'.join(section)} NCCL_IB_GID_INDEX describes one site's RoCE fabric, not this "
                f"job; set fabric.ib_gid_index in {where} instead",
            )
