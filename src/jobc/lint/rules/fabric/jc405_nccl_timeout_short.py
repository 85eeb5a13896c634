"""A collective timeout (`fabric.nccl_timeout_s`) too short for the size of the job.

The timeout is how long a rank may wait in one collective before the watchdog aborts the whole
job. Ranks legitimately wait far longer than one training step: at start-up for the slowest node
(container import, Python imports from a shared file system, loading a checkpoint), and while
other ranks write a synchronous checkpoint. The skew grows with the number of nodes, so a value
that is plenty on one node kills a large job before its first step, or at its first save.

jobc asks for at least 300 s on one node, 600 s (PyTorch's own default for NCCL) on several
nodes and 1200 s from 64 nodes on; and, when `resilience.checkpoint` gives the size and write
bandwidth of a synchronous checkpoint, one and a half times the time the save takes.

Warning: a short timeout can be deliberate (fail fast while testing).

Bad:

```yaml
resources: {nodes: 16, gpus_per_node: 8}
fabric: {nccl_timeout_s: 60}
```

Good:

```yaml
resources: {nodes: 16, gpus_per_node: 8}
fabric: {nccl_timeout_s: 1800}
```
"""

import math
from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC405",
    name="nccl-timeout-short",
    severity=Severity.WARNING,
    summary="The collective timeout is too short for the job's size or checkpoint time",
    remediation="Raise fabric.nccl_timeout_s to the value named in the message (1800 is a safe default).",
)

SINGLE_NODE_S = 300
MULTI_NODE_S = 600
LARGE_JOB_NODES = 64
LARGE_JOB_S = 1200
SAVE_FACTOR = 1.5


def minimum(ctx: Context) -> tuple[int, str]:
    """The shortest sensible timeout for this job, and what sets it."""
    nodes = ctx.nodes
    if nodes >= LARGE_JOB_NODES:
        need, why = LARGE_JOB_S, f"{nodes} nodes start and load checkpoints with minutes of skew"
    elif nodes > 1:
        need, why = MULTI_NODE_S, f"{nodes} nodes start and load checkpoints with skew"
    else:
        need, why = SINGLE_NODE_S, "start-up and checkpoint loading keep ranks apart"
    ck = ctx.spec.resilience.checkpoint
    if ck.size_gb is not None and ck.write_gbps is not None and not ck.async_:
        save = ck.size_gb / ck.write_gbps
        by_save = math.ceil(save * SAVE_FACTOR) if math.isfinite(save * SAVE_FACTOR) else 0
        if by_save > need:
            need = by_save
            why = (
                f"a synchronous save of {ck.size_gb:g} GB at {ck.write_gbps:g} GB/s keeps ranks "
                f"waiting about {math.ceil(save)} s"
            )
    return need, why


def check(ctx: Context) -> Iterator[Hit]:
    timeout = ctx.spec.fabric.nccl_timeout_s
    need, why = minimum(ctx)
    if timeout < need:
        yield Hit(
            ("fabric", "nccl_timeout_s"),
            f"fabric.nccl_timeout_s is {timeout} s, but {why}, and the watchdog aborts the whole "
            f"job when one collective waits longer; use at least {need} s",
        )
