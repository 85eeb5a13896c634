"""More GPUs per node requested than a node has.

Slurm cannot place such a job: depending on the site's settings `sbatch` refuses it ("Requested
node configuration is not available") or it waits in the queue forever. The node's size comes
from the live cluster with `jobc lint --live` (the most GPUs a node of the partition has), else
the cluster profile (`cluster.gpus_per_node`, or the chosen partition's `gpus_per_node`) when it
says so; otherwise from the GPU catalogue's usual server for `resources.gpu` (8 for
H100/B200 HGX boards, 4 for GH200/GB200). A profile's statement wins over the catalogue, so a site
with larger nodes says so once in its profile.

Bad:

```yaml
cluster: {gpus_per_node: 8}
resources: {nodes: 1, gpus_per_node: 16}
```

Good:

```yaml
cluster: {gpus_per_node: 8}
resources: {nodes: 2, gpus_per_node: 8}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.lint.rules.topology._partition import view
from jobc.spec.context import Context

META = Meta(
    code="JC103",
    name="gpus-exceed-node",
    severity=Severity.ERROR,
    summary="More GPUs per node than the cluster's nodes have",
    remediation="Lower resources.gpus_per_node to the node's GPU count and use more nodes.",
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    want = ctx.gpus_per_node
    capacity, source = _capacity(ctx)
    if capacity is None or want <= capacity:
        return
    total = want * ctx.nodes
    even = bool(capacity) and total % capacity == 0
    if words.in_script(ctx):
        asked = words.name(ctx, ("resources", "gpus_per_node"))
        source = source.replace("(cluster.gpus_per_node)", "(the profile's cluster.gpus_per_node)")
        # a node of 0 GPUs divides nothing: the same-total hint is built only when it is whole
        same = (
            f", or {capacity} on {total // capacity} nodes (#SBATCH --nodes) for the same {total} GPUs"
            if even
            else ""
        )
        message = (
            f"{asked} asks for {want} GPUs per node but {source} has {capacity}; ask for {capacity} or "
            f"fewer (#SBATCH --gpus-per-node={capacity}){same}"
        )
    else:
        same = (
            f", or gpus_per_node {capacity} on {total // capacity} nodes for the same {total} GPUs"
            if even
            else ""
        )
        message = (
            f"gpus_per_node {want} but {source} has {capacity} GPUs; use gpus_per_node {capacity} or "
            f"fewer{same}"
        )
    yield Hit(_where(ctx), message)


def _capacity(ctx: Context) -> tuple[int | None, str]:
    """GPUs in one node, and where that number comes from (for the message): with `--live`, the
    most any node of the partition has (none said when a node's count could not be read)."""
    v = view(ctx)
    if v is not None and v.live and v.kinds:
        most = v.most("gpus")
        return most, f"a node of {v.label}" if most is not None else ""
    part = ctx.partition_limits
    if part is not None and part.gpus_per_node is not None:
        return int(part.gpus_per_node), f"a node of partition {ctx.partition_name!r}"
    if ctx.spec.cluster.gpus_per_node is not None:
        return ctx.spec.cluster.gpus_per_node, "a node of this cluster (cluster.gpus_per_node)"
    gpu = ctx.gpu
    if gpu is not None:
        return gpu.gpus_per_node, (
            f"a usual {gpu.key} server ({gpu.title}; state cluster.gpus_per_node if this site's nodes differ)"
        )
    return None, ""


def _where(ctx: Context) -> DataPath:
    if ctx.given("resources", "gpus_per_node"):
        return ("resources", "gpus_per_node")
    # the count came from cluster.gpus_per_node, so the partition chosen is what is too small
    return ("slurm", "partition") if ctx.given("slurm", "partition") else ("cluster", "gpus_per_node")
