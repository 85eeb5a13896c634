"""A mixture-of-experts model with `tp > 1` and no `etp`: the memory estimate had to guess whether
tensor parallelism splits the experts.

Expert tensor parallelism (`parallelism.etp`) decides whether each routed expert's matrices are
split over the tensor-parallel ranks. Megatron-Core defaults it to `tp`, and jobc follows when
`etp` is not written; Megatron-Bridge's MoE recipes and conversion scripts set it to 1, and then
tp does nothing for expert memory: only ep divides it. For a large MoE the two differ by a factor
of tp in the biggest item on the GPU, so the finding gives the estimate for both: expert weights
per GPU and the whole estimate, against the GPU when it is known. A warning when the two choices
disagree on whether the job fits (the JC301 budget or the GPU's memory), information otherwise.

Bad (MiniMax-M2 on 8 GPUs: 56 GB of experts per GPU with etp = tp = 2, 112 GB with etp 1):

```yaml
resources: {nodes: 1, gpus_per_node: 8, gpu: h100-80gb}
model: {preset: minimax-m2}
parallelism: {tp: 2, ep: 4}
workload: {kind: convert}
```

Good:

```yaml
resources: {nodes: 2, gpus_per_node: 8, gpu: h100-80gb}
model: {preset: minimax-m2}
parallelism: {tp: 2, ep: 8, etp: 1}
workload: {kind: convert}
```
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.memory.estimate import Estimate

META = Meta(
    code="JC211",
    name="expert-tp-assumed",
    severity=Severity.WARNING,
    summary="A MoE model with tp > 1 and no etp: the estimate assumes tp splits the experts",
    remediation=(
        "Write parallelism.etp: 1 when tensor parallelism does not split the experts "
        "(Megatron-Bridge MoE recipes, conversion scripts), or the tp value when it does."
    ),
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("model",),)


def _gb(n: int) -> str:
    return f"{n / 1e9:.1f} GB"


def check(ctx: Context) -> Iterator[Hit]:
    p = ctx.spec.parallelism
    if ctx.spec.model is None or p.tp == 1 or p.etp is not None:
        return
    import jobc.memory.context as mem
    from jobc.memory.estimate import estimable, estimate, expert_weights_per_gpu
    from jobc.memory.placement import Sizes

    shape, assumed = mem.shape(ctx), mem.sizes(ctx)
    if shape is None or shape.moe is None or assumed is None or not estimable(shape, assumed):
        return
    other = Sizes.checked(
        assumed.world,
        tp=assumed.tp,
        pp=assumed.pp,
        cp=assumed.cp,
        ep=assumed.ep,
        etp=1,
        vpp=assumed.vpp,
        sequence_parallel=assumed.sequence_parallel,
    )
    if other is None:
        return
    job = mem.job(ctx)
    with_tp = mem.estimate_for(ctx)
    if with_tp is None:
        return
    without = estimate(shape, other, job)
    experts_tp, _ = expert_weights_per_gpu(shape, assumed)
    experts_one, _ = expert_weights_per_gpu(shape, other)
    fits_tp, said_tp = _verdict(ctx, experts_tp, with_tp)
    fits_one, said_one = _verdict(ctx, experts_one, without)
    per_gpu = -(-shape.moe.experts // p.ep)
    yield Hit(
        _where(ctx),
        f"parallelism.etp is not set, so the estimate assumes etp = tp = {p.tp} (Megatron-Core's "
        f"default): each of the {per_gpu} experts per GPU in a MoE layer is split over {p.tp} ranks, "
        f"{_gb(experts_tp)} of expert weights and {_gb(with_tp.total)} in all per GPU{said_tp}. "
        f"With etp 1 (Megatron-Bridge's MoE recipes and conversion scripts) tp does not split "
        f"them: {_gb(experts_one)} of expert weights and {_gb(without.total)} in all{said_one}; "
        "write parallelism.etp to say which",
        severity=Severity.WARNING if fits_tp != fits_one else Severity.INFO,
    )


def _verdict(ctx: Context, experts: int, found: Estimate) -> tuple[bool | None, str]:
    """Whether the job fits with these expert weights and this estimate, and how to say it."""
    import jobc.memory.context as mem
    from jobc.lint.rules.memory.jc301_expert_memory import BUDGET

    gpu = ctx.gpu
    if gpu is None:
        return None, ""
    num, den = BUDGET[mem.kind(ctx)]
    if experts * den > gpu.memory_bytes * num:
        return False, f", above the {_gb(gpu.memory_bytes * num // den)} expert budget of JC301"
    if found.total > gpu.memory_bytes:
        return False, f", above {gpu.key}'s {_gb(gpu.memory_bytes)}"
    unsure = f" before {' and '.join(found.uncounted)}" if found.uncounted else ""
    return True, f", within {gpu.key}'s {_gb(gpu.memory_bytes)}{unsure}"


def _where(ctx: Context) -> DataPath:
    return ("parallelism",) if ctx.given("parallelism") else ("model",)
