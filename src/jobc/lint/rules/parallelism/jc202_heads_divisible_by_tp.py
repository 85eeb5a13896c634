"""Tensor parallelism splits attention by heads, so every tensor-parallel rank must get whole
heads: `model.heads % tp == 0`, and the same for the key/value heads of grouped-query attention.

For key/value heads the frameworks differ, and the rule follows them by `workload.kind`:

- training and conversion (Megatron-Core): `kv_heads % tp == 0`, always. Megatron-Core refuses
  `num_query_groups` that are not a multiple of the tensor-parallel size; it never replicates
  key/value heads, so `kv_heads < tp` is an error there.
- inference (vLLM, SGLang, TensorRT-LLM): with fewer key/value heads than ranks each head is
  replicated, which needs `tp % kv_heads == 0`; with at least as many, `kv_heads % tp == 0`.

Uses the model's `heads` and `kv_heads` (kv_heads defaults to heads): explicit fields first, then
the preset or `hf_config`.

Bad:

```yaml
model: {heads: 32, kv_heads: 8}
parallelism: {tp: 16}          # 8 key/value heads over 16 ranks
workload: {kind: pretrain}
```

Good:

```yaml
model: {heads: 32, kv_heads: 8}
parallelism: {tp: 8}
workload: {kind: pretrain}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.parallelism._layout import divisors, nearest, suggest
from jobc.spec.context import Context

META = Meta(
    code="JC202",
    name="heads-divisible-by-tp",
    severity=Severity.ERROR,
    summary="Attention heads (and key/value heads) not divisible by tp",
    remediation="Choose a tp that divides both model.heads and model.kv_heads.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("model",),)


def _heads(ctx: Context) -> tuple[int | None, int | None]:
    """Query heads and key/value heads: explicit fields, else the preset or config."""
    if ctx.spec.model is None:
        return None, None
    from jobc.memory.context import dims

    known = dims(ctx)
    return known.heads, known.kv_heads


def check(ctx: Context) -> Iterator[Hit]:
    heads, kv_heads = _heads(ctx)
    tp = ctx.spec.parallelism.tp
    if heads is None or kv_heads is None or tp == 1:
        return
    inference = ctx.spec.workload.kind == "inference"

    def fits(t: int) -> bool:
        return heads % t == 0 and _kv_fits(kv_heads, t, inference=inference)

    gpus = ctx.gpus_per_node
    # suggest sizes that also keep a tensor-parallel group inside one node
    better = nearest([t for t in divisors(heads) if fits(t) and (gpus == 0 or gpus % t == 0)], tp)
    problems: list[str] = []
    if heads % tp:
        problems.append(
            f"model.heads {heads} is not divisible by tp {tp} "
            "(each tensor-parallel rank must hold whole heads)"
        )
    if not _kv_fits(kv_heads, tp, inference=inference):
        if inference:
            problems.append(
                f"model.kv_heads {kv_heads} does not fit tp {tp}: inference engines need kv_heads "
                "divisible by tp, or tp divisible by kv_heads (each key/value head replicated)"
            )
        else:
            problems.append(
                f"model.kv_heads {kv_heads} is not divisible by tp {tp}: Megatron-Core needs the "
                "key/value heads (query groups) to be a multiple of tp and does not replicate them "
                "for training"
            )
    if problems:
        yield Hit(("parallelism", "tp"), "; and ".join(problems) + suggest("tp", better))


def _kv_fits(kv_heads: int, tp: int, *, inference: bool) -> bool:
    if kv_heads % tp == 0:
        return True
    return inference and kv_heads < tp and tp % kv_heads == 0
