"""The estimated memory of the most loaded GPU against the GPU's memory: an error above it, a
warning above 90 % (allocator fragmentation, NCCL buffers and cuBLAS workspaces vary by site).

The estimate adds, for the pipeline stage whose ranks need the most: weights; for training,
gradients and mixed-precision Adam state, sharded as `parallelism.sharding` says (the
distributed optimizer over dp·cp, and over edp for routed experts); activations for
`workload.seq_length` and `micro_batch` under the chosen recompute, with the micro-batches the
pipeline schedule keeps in flight; for inference, the KV cache; and a fixed overhead for the
CUDA context and NCCL. `jobc plan` prints the breakdown and every assumption behind it.

Full Adam training of MiniMax-M2 on 64 H100s: weights, gradients and optimizer state alone are
about 97 GB per GPU even with the distributed optimizer.

Bad:

```yaml
resources: {nodes: 8, gpus_per_node: 8, gpu: h100-80gb}
model: {preset: minimax-m2}
parallelism: {tp: 2, ep: 32, etp: 1, sharding: distributed-optimizer}
workload: {kind: pretrain, seq_length: 4096}
```

Good (experts spread further, etp 2 halves every expert, full recompute):

```yaml
resources: {nodes: 32, gpus_per_node: 8, gpu: h100-80gb}
model: {preset: minimax-m2}
parallelism: {tp: 2, ep: 64, etp: 2, sharding: distributed-optimizer, sequence_parallel: true}
workload: {kind: pretrain, seq_length: 4096, recompute: full}
```
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.memory._where import first_given, model_source
from jobc.spec.context import Context

META = Meta(
    code="JC302",
    name="total-memory",
    severity=Severity.ERROR,
    summary="Estimated memory per GPU above the GPU's memory (warning above 90 %)",
    remediation=(
        "Spread the model over more GPUs (tp, pp, ep), shard optimizer state (sharding), "
        "recompute activations or shrink micro_batch / seq_length; `jobc plan` shows the breakdown."
    ),
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("model",),)


def _gb(n: int) -> str:
    return f"{n / 1e9:.1f} GB"


def check(ctx: Context) -> Iterator[Hit]:
    if ctx.spec.model is None:
        return
    import jobc.memory.context as mem

    found, gpu = mem.estimate_for(ctx), ctx.gpu
    if found is None or gpu is None:
        return
    total, capacity = found.total, gpu.memory_bytes
    if total > capacity:
        severity, verdict = Severity.ERROR, f"above {gpu.key}'s {_gb(capacity)}"
    elif total * 10 > capacity * 9:
        severity, verdict = Severity.WARNING, f"{total / capacity:.0%} of {gpu.key}'s {_gb(capacity)}"
    else:
        return
    kind = mem.kind(ctx)
    parts = [f"weights {_gb(found.weights)}"]
    if kind == "training":
        parts += [f"gradients {_gb(found.gradients)}", f"optimizer state {_gb(found.optimizer)}"]
    if found.activations:
        parts.append(f"activations {_gb(found.activations)}")
    if found.kv_cache:
        parts.append(f"KV cache {_gb(found.kv_cache)}")
    parts.append(f"overhead {_gb(found.overhead)}")
    where = f" (pipeline stage {found.stage})" if ctx.spec.parallelism.pp > 1 else ""
    message = (
        f"estimated {_gb(total)} per GPU for {ctx.spec.workload.kind} on the most loaded rank{where}, "
        f"{verdict}: {', '.join(parts)}"
    )
    hints = _hints(ctx, kind)
    if kind == "training" and found.model_states > capacity * 9 // 10:
        sharding = ctx.spec.parallelism.sharding
        message += (
            f"; weights, gradients and optimizer state alone are {_gb(found.model_states)} "
            f"with sharding {sharding}"
        )
    if kind == "training" and ctx.spec.workload.seq_length is None:
        message += "; activations not counted (set workload.seq_length)"
    message += "; " + hints + " (`jobc plan` shows the breakdown and its assumptions)"
    path = _where(ctx)
    yield Hit(path, message, at_value=len(path) > 1, severity=severity)


def _hints(ctx: Context, kind: str) -> str:
    import jobc.memory.context as mem

    p, w = ctx.spec.parallelism, ctx.spec.workload
    found = mem.estimate_for(ctx)
    assert found is not None
    out: list[str] = []
    layout = mem.sizes(ctx)
    if kind == "training" and p.sharding == "none" and layout is not None and layout.dp * layout.cp > 1:
        out.append("shard the optimizer state (sharding: distributed-optimizer)")
    if kind == "training" and found.activations * 3 > found.total and w.recompute != "full":
        out.append("recompute: full or a smaller micro_batch")
    shape = mem.shape(ctx)
    if shape is not None and shape.moe is not None and found.expert_weights * 2 > found.weights:
        out.append("a larger ep (or etp > 1) for the experts")
    out.append("more GPUs per model replica (tp, pp)")
    return "consider " + ", ".join(out)


def _where(ctx: Context) -> DataPath:
    return first_given(ctx, ("parallelism",)) or model_source(ctx)
