"""A tensor-parallel group that spans nodes.

Tensor parallelism all-reduces activations several times per layer, in the critical path; it
is built for NVLink inside a node. Ranks are laid out with tp fastest, so a group stays inside a
node only when tp divides `gpus_per_node`. With `tp > gpus_per_node`, or tp not dividing it,
some or all groups talk over InfiniBand or Ethernet, often several times slower. Across nodes, use
pipeline, context or data parallelism instead.

Warning, not error: the job runs, only slowly. Multi-node NVLink systems (GB200 NVL72) keep a
node-spanning tp group on NVLink; there, suppress the finding (`# jobc: ignore[JC208]`).

Bad:

```yaml
resources: {nodes: 2, gpus_per_node: 8}
parallelism: {tp: 16}
```

Good:

```yaml
resources: {nodes: 2, gpus_per_node: 8}
parallelism: {tp: 8, pp: 2}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.parallelism._layout import divisors, nearest, suggest
from jobc.spec.context import Context

META = Meta(
    code="JC208",
    name="tp-crosses-node",
    severity=Severity.WARNING,
    summary="tp larger than, or not dividing, gpus_per_node: tensor parallelism over the network",
    remediation="Use a tp that divides gpus_per_node; span nodes with pp, cp or dp.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("parallelism", "tp"),)


def check(ctx: Context) -> Iterator[Hit]:
    tp = ctx.spec.parallelism.tp
    gpus = ctx.gpus_per_node
    if tp == 1 or gpus == 0 or not ctx.multinode:
        return
    if tp > gpus:
        yield Hit(
            ("parallelism", "tp"),
            f"tp {tp} is more than the {gpus} GPUs of a node, so every tensor-parallel all-reduce "
            f"crosses the network; keep tp at {gpus} or less and span nodes with pp, cp or dp",
        )
    elif gpus % tp:
        better = nearest([d for d in divisors(gpus) if d > 1], tp)
        yield Hit(
            ("parallelism", "tp"),
            f"tp {tp} does not divide the {gpus} GPUs of a node, so some tensor-parallel groups "
            f"span two nodes and all-reduce over the network{suggest('tp', better)}",
        )
