"""A fast pre-check for mixture-of-experts models: the routed experts' weights on one GPU
against a share of its memory.

Per GPU, expert weights = experts/ep × one expert's parameters × MoE layers on the stage ×
bytes per parameter / etp. The budget is 75 % of GPU memory for a conversion (weights only),
50 % for inference (the KV cache needs the rest) and 37.5 % for training (gradients, optimizer
state and activations need the rest): the 60 / 40 / 30 GB per 80 GB GPU of Megatron-Bridge's
multi-node guide. Passing this check does not prove the job fits; JC302 adds everything else.

Tensor parallelism splits experts only through `etp` (expert tensor parallelism). Megatron-Core
defaults etp to tp, but Megatron-Bridge's MoE recipes and conversion scripts set it to 1, and then
tp does nothing for expert memory: only ep does.

Bad (MiniMax-M2, 256 experts: 64 per GPU, 112 GB of bf16 expert weights per GPU):

```yaml
resources: {nodes: 1, gpus_per_node: 8, gpu: h100-80gb}
model: {preset: minimax-m2}
parallelism: {tp: 2, ep: 4, etp: 1}
workload: {kind: convert}
```

Good (32 experts per GPU, 56 GB):

```yaml
resources: {nodes: 2, gpus_per_node: 8, gpu: h100-80gb}
model: {preset: minimax-m2}
parallelism: {tp: 2, ep: 8, etp: 1}
workload: {kind: convert}
```
"""

from __future__ import annotations

from collections.abc import Iterator
from math import isqrt

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.memory._where import first_given, model_source
from jobc.spec.context import Context

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.core.rational import Fraction

META = Meta(
    code="JC301",
    name="expert-memory",
    severity=Severity.ERROR,
    summary="Routed-expert weights per GPU exceed the budget for the workload",
    remediation=(
        "Raise parallelism.ep (a divisor of the experts) so each GPU holds fewer experts, or set "
        "parallelism.etp > 1 to split every expert; tp alone does not help while etp is 1."
    ),
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("model",),)

#: The share of a GPU's memory that routed-expert weights may take, by workload (numerator,
#: denominator), made into a Fraction (`jobc.core.rational`) only when a spec has a MoE model.
BUDGET: dict[str, tuple[int, int]] = {
    "convert": (3, 4),
    "inference": (1, 2),
    "training": (3, 8),
}


def _gb(n: int | Fraction) -> str:
    return f"{float(n) / 1e9:.1f} GB"


def check(ctx: Context) -> Iterator[Hit]:
    if ctx.spec.model is None:
        return
    import jobc.memory.context as mem
    from jobc.memory.estimate import estimable, expert_weights_at, expert_weights_per_gpu

    shape, layout, gpu = mem.shape(ctx), mem.sizes(ctx), ctx.gpu
    if shape is None or shape.moe is None or layout is None or gpu is None:
        return
    if not estimable(shape, layout):
        return
    from jobc.core.rational import Fraction

    kind = mem.kind(ctx)
    share = Fraction(*BUDGET[kind])
    budget = gpu.memory_bytes * share
    used, rank = expert_weights_per_gpu(shape, layout)
    if used <= budget:
        return
    experts = shape.moe.experts
    p = ctx.spec.parallelism

    def at(ep: int) -> int:
        return expert_weights_at(shape, rank, ep=ep, etp=layout.etp)

    fix = ""
    larger = [e for e in _divisors(experts) if e > p.ep]
    fitting = next((e for e in larger if at(e) <= budget), None)
    if fitting is not None:
        grid = fitting * layout.etp * layout.pp
        world_note = (
            ""
            if ctx.world % grid == 0
            else f", which needs a world divisible by ep·etp·pp = {grid} (it is {ctx.world})"
        )
        fix = (
            f"; raise parallelism.ep to {fitting} ({experts // fitting} experts per GPU, "
            f"{_gb(at(fitting))}){world_note}"
        )
    else:
        fix = (
            f"; even ep {experts} (one expert per GPU) leaves {_gb(at(experts))}, so split experts "
            "with etp or layers with pp as well"
        )
    if layout.etp == 1:
        tp_note = (
            f"; tp {layout.tp} does not shard experts while etp is 1: tp helps only when etp > 1"
            if layout.tp > 1
            else "; tp shards experts only when etp > 1"
        )
    else:
        tp_note = f"; experts are already split over etp {layout.etp}"
    etp_text = f", each split over etp {layout.etp}" if layout.etp > 1 else ""
    stage = f" on pipeline stage {rank.stage}" if layout.pp > 1 else ""
    yield Hit(
        _where(ctx),
        f"{rank.experts_per_layer} experts per GPU ({experts} experts / ep {layout.ep}{etp_text}) hold "
        f"{_gb(used)} of expert weights in {shape.dtype} on each GPU{stage}, above the "
        f"{_gb(budget)} budget for {_article(ctx.spec.workload.kind)} job ({float(share) * 100:g} % of "
        f"{gpu.key}'s {_gb(gpu.memory_bytes)}){fix}{tp_note}",
    )


def _article(word: str) -> str:
    return f"{'an' if word[0] in 'aeiou' else 'a'} {word}"


def _divisors(n: int) -> list[int]:
    if n > 10**10:  # no real model; not worth the search
        return []
    small = [d for d in range(1, isqrt(n) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


def _where(ctx: Context) -> DataPath:
    return first_given(ctx, ("parallelism", "ep"), ("model", "moe", "experts")) or model_source(ctx)
