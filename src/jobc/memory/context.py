"""The memory model seen from a linted spec: one resolution and one estimate per spec, memoised
in the lint context and shared by the parallelism rules, the memory rules and `jobc plan`."""

from __future__ import annotations

from jobc.memory.estimate import Estimate, Job, estimable, estimate
from jobc.memory.placement import Sizes
from jobc.memory.resolve import Dims, Resolution, resolve_model
from jobc.memory.shape import ModelShape

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.core.diagnostics import Hit
    from jobc.memory.estimate import Kind
    from jobc.spec.context import Context

_KINDS: dict[str, Kind] = {
    "pretrain": "training",
    "finetune": "training",
    "inference": "inference",
    "convert": "convert",
}


def _memo(ctx: Context, key: str, make: Any) -> Any:
    if key not in ctx.facts:
        ctx.facts[key] = make()
    return ctx.facts[key]


def resolution(ctx: Context) -> Resolution | None:
    model = ctx.spec.model
    if model is None:
        return None
    found: Resolution = _memo(ctx, "memory.resolution", lambda: resolve_model(model, ctx.spec_dir))
    return found


def shape(ctx: Context) -> ModelShape | None:
    """The model's shape: preset or config, explicit fields on top; None when unknown."""
    found = resolution(ctx)
    return found.shape if found is not None else None


def dims(ctx: Context) -> Dims:
    """The model's sizes as far as they are known (explicit fields win); empty without a model."""
    found = resolution(ctx)
    return found.dims if found is not None else Dims()


def model_problems(ctx: Context) -> list[Hit]:
    """A preset or config.json that cannot be used, as findings at ``model.<field>``."""
    from jobc.core.diagnostics import Hit

    found = resolution(ctx)
    if found is None:
        return []
    return [Hit(("model", p.field), p.message) for p in found.problems]


def sizes(ctx: Context) -> Sizes | None:
    """The parallel layout, or None when it does not divide the world (JC201/JC204 say why)."""
    p = ctx.spec.parallelism
    return Sizes.checked(
        ctx.world,
        tp=p.tp,
        pp=p.pp,
        cp=p.cp,
        ep=p.ep,
        etp=ctx.etp,
        vpp=p.vpp,
        sequence_parallel=p.sequence_parallel,
    )


def kind(ctx: Context) -> Kind:
    return _KINDS[ctx.spec.workload.kind]


def job(ctx: Context) -> Job:
    w = ctx.spec.workload
    return Job(
        kind=kind(ctx),
        sharding=ctx.spec.parallelism.sharding,
        seq_length=w.seq_length,
        micro_batch=w.micro_batch,
        global_batch=w.global_batch,
        recompute=w.recompute,
        framework=ctx.framework.name,
    )


def estimate_for(ctx: Context) -> Estimate | None:
    """The per-GPU estimate for the most loaded rank; None without a complete model and layout."""

    def make() -> Estimate | None:
        model_shape, layout = shape(ctx), sizes(ctx)
        if model_shape is None or layout is None or not estimable(model_shape, layout):
            return None
        return estimate(model_shape, layout, job(ctx))

    found: Estimate | None = _memo(ctx, "memory.estimate", make)
    return found


def spec_assumptions(ctx: Context) -> list[str]:
    """What the estimate takes from defaults rather than from the spec."""
    out: list[str] = []
    model_shape = shape(ctx)
    p = ctx.spec.parallelism
    if model_shape is not None and model_shape.moe is not None and p.etp is None:
        out.append(
            f"Expert tensor parallelism is not set (parallelism.etp), so etp = tp = {p.tp}, the "
            "Megatron-Core default; Megatron-Bridge MoE recipes and conversion scripts use etp 1 "
            "(JC211 gives the estimate for both)."
        )
    if kind(ctx) == "training":
        code = ctx.framework
        if code.inferred:
            out.append(
                f"Training code: {code.title}, inferred ({code.reason}); its activation model is "
                "used below. Set workload.framework when the job runs the other kind."
            )
        else:
            out.append(f"Training code: {code.title}, as workload.framework says.")
    if ctx.spec.workload.kind == "finetune":
        out.append("Fine-tuning is estimated as full-parameter training (no frozen weights, no adapters).")
    return out
