"""The global batch must be a whole number of micro-batches on every data-parallel rank:
`global_batch % (micro_batch × dp) == 0`.

Each step runs global_batch / (micro_batch × dp) gradient-accumulation micro-steps per rank;
Megatron-LM and NeMo assert that this is a whole number at start-up. dp is derived:
world / (tp·pp·cp).

Bad:

```yaml
resources: {nodes: 2, gpus_per_node: 8}     # dp 8 with tp 2
parallelism: {tp: 2}
workload: {micro_batch: 2, global_batch: 100}
```

Good:

```yaml
resources: {nodes: 2, gpus_per_node: 8}
parallelism: {tp: 2}
workload: {micro_batch: 2, global_batch: 96}   # 6 micro-steps per rank
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.parallelism._layout import alternatives, multiples_around
from jobc.spec.context import Context

META = Meta(
    code="JC205",
    name="batch-divisibility",
    severity=Severity.ERROR,
    summary="global_batch not divisible by micro_batch × dp",
    remediation="Make workload.global_batch a multiple of micro_batch × dp.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("workload", "global_batch"),)


def check(ctx: Context) -> Iterator[Hit]:
    w = ctx.spec.workload
    dp = ctx.dp
    if w.global_batch is None or dp is None:
        return
    unit = w.micro_batch * dp
    if w.global_batch % unit == 0:
        return
    yield Hit(
        ("workload", "global_batch"),
        f"global_batch {w.global_batch} is not divisible by micro_batch {w.micro_batch} × dp {dp} "
        f"= {unit}, so the gradient-accumulation steps per rank ({w.global_batch / unit:.2f}) are "
        f"not whole; use global_batch {alternatives(multiples_around(w.global_batch, unit))}",
    )
