"""InfiniBand turned off for a job that spans nodes.

With `fabric.ib: false` (`NCCL_IB_DISABLE=1`) or `NCCL_NET=Socket`, NCCL sends everything
between nodes over TCP sockets: typically an order of magnitude slower than InfiniBand or RoCE,
enough to make gradient all-reduce the whole step time. It is usually left over from working
around a fabric problem on one machine.

Warning, not error: clusters whose nodes have no RDMA network (or that use a network plugin
such as AWS EFA, which does not go through NCCL's IB transport) need exactly this.

Bad:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
fabric: {ib: false}
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
fabric: {ib: true}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules._env import lookup, truthy
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC406",
    name="ib-disabled-multinode",
    severity=Severity.WARNING,
    summary="InfiniBand disabled on a multi-node job (NCCL falls back to TCP sockets)",
    remediation=(
        "Set fabric.ib: true (and drop NCCL_IB_DISABLE / NCCL_NET=Socket) unless the cluster has no RDMA."
    ),
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    if not ctx.multinode:
        return
    across = f"between the {ctx.nodes} nodes"
    disable = lookup(ctx, "NCCL_IB_DISABLE")
    if disable is not None:
        if truthy(disable.value):
            yield Hit(
                disable.path,
                f"{disable.where} turns InfiniBand off: NCCL sends every collective {across} over "
                "TCP sockets, typically ten times slower; remove it unless the cluster has no RDMA",
            )
    elif not ctx.spec.fabric.ib:
        yield Hit(
            ("fabric", "ib"),
            f"fabric.ib is false: NCCL sends every collective {across} over TCP sockets, typically "
            "ten times slower; set it to true unless the cluster has no RDMA network",
        )
    net = lookup(ctx, "NCCL_NET")
    if net is not None and net.text.strip().lower() == "socket":
        yield Hit(
            net.path,
            f"{net.where} is Socket: NCCL sends every collective {across} over TCP sockets, "
            "typically ten times slower; remove it unless the cluster has no RDMA network",
        )
