"""An fp8 checkpoint run with 16-bit weights takes twice the memory of the checkpoint.

Many large MoE checkpoints ship in fp8 (DeepSeek-V3, MiniMax-M2: 1 byte per parameter plus small
block scales). Megatron-Bridge dequantizes them to bf16 when it imports them, so every weight then
costs 2 bytes; vLLM and TensorRT-LLM can keep fp8. jobc estimates memory with `model.dtype` (the
weights at run time, bf16 by default), so this note says which one the estimate assumed. Set
`model.dtype: fp8` when the runtime keeps the fp8 weights.

Bad (the estimate doubles the checkpoint's size without saying so):

```yaml
model: {preset: deepseek-v3}          # an fp8 checkpoint; dtype defaults to bf16
workload: {kind: inference}
```

Good:

```yaml
model: {preset: deepseek-v3, dtype: fp8}   # the serving engine keeps fp8 weights
workload: {kind: inference}
```
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.memory._where import first_given, model_source
from jobc.spec.context import Context

META = Meta(
    code="JC303",
    name="fp8-as-bf16",
    severity=Severity.INFO,
    summary="An fp8 checkpoint run with bf16 (or fp16) weights costs 2 bytes per parameter",
    remediation=(
        "Keep model.dtype bf16 when the framework dequantizes fp8 (Megatron-Bridge does), or set "
        "model.dtype: fp8 when the runtime keeps fp8 weights."
    ),
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("model",),)


def check(ctx: Context) -> Iterator[Hit]:
    model = ctx.spec.model
    if model is None:
        return
    import jobc.memory.context as mem
    from jobc.memory.params import count

    shape = mem.shape(ctx)
    if shape is None or shape.checkpoint_dtype != "fp8" or shape.dtype not in ("bf16", "fp16"):
        return
    total = count(shape).total
    origin = "model.checkpoint_dtype" if ctx.given("model", "checkpoint_dtype") else shape.source
    yield Hit(
        _where(ctx),
        f"the checkpoint ({origin}) is fp8 but model.dtype is {shape.dtype}: converted weights take "
        f"2 bytes per parameter, {total * 2 / 1e9:.1f} GB for the whole model instead of "
        f"{total / 1e9:.1f} GB; Megatron-Bridge dequantizes fp8 to bf16 on import, so the estimate "
        "uses 2 bytes; set model.dtype: fp8 if the runtime keeps fp8 weights",
    )


def _where(ctx: Context) -> DataPath:
    found = first_given(ctx, ("model", "dtype"), ("model", "checkpoint_dtype"))
    return found or model_source(ctx)
