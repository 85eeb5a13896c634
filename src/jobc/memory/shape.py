"""What a model looks like, as far as its parameter count and memory are concerned.

`resolve()` is the one place that turns a spec's `model:` section into a `ModelShape`: a bundled
preset or a Hugging Face `config.json` gives the base, and every explicit `model.*` field the
spec writes overrides it. The lint rules, `jobc plan` and the parallelism rules all use it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal, Protocol

from jobc.memory.record import record, replace

DTYPE_BYTES: dict[str, int] = {"fp32": 4, "bf16": 2, "fp16": 2, "fp8": 1}


@record
class MLA:
    """Multi-head latent attention (DeepSeek-V2/V3): queries and keys/values pass a low-rank latent."""

    q_lora_rank: int | None  # None: a plain query projection
    kv_lora_rank: int
    qk_nope_head_dim: int
    qk_rope_head_dim: int
    v_head_dim: int


@record
class Experts:
    """Mixture-of-experts layout and the small per-family extras that change the count."""

    experts: int  # routed experts per MoE layer
    top_k: int
    ffn_hidden: int  # one routed expert's MLP width
    shared_experts: int = 0
    shared_ffn_hidden: int = 0  # one shared expert's MLP width
    first_dense: int = 0  # leading layers that are dense
    step: int = 1  # every step-th layer (after first_dense) is MoE ...
    offset: int = 0  # ... counted as (index + offset) % step == 0
    dense_only: frozenset[int] = frozenset()  # further layers forced dense (Qwen's mlp_only_layers)
    pattern: tuple[bool, ...] | None = None  # an explicit per-layer pattern wins over the rule above
    router_bias: bool = False  # a bias parameter on the router (GPT-OSS)
    expert_bias: bool = False  # biases inside every expert (GPT-OSS)
    routing_bias: bool = False  # e_score_correction_bias: a buffer in PyTorch, a tensor in the checkpoint
    shared_gate: bool = False  # a sigmoid gate (hidden → 1) on the shared expert
    latent_size: int | None = None  # Megatron latent MoE: experts work in a smaller latent width

    def is_moe(self, index: int) -> bool:
        if self.pattern is not None:
            return index < len(self.pattern) and self.pattern[index]
        if index < self.first_dense or index in self.dense_only:
            return False
        return (index + self.offset) % self.step == 0

    def count(self, start: int, stop: int) -> int:
        """MoE layers among indices [start, stop), counted without walking the layers."""
        if self.pattern is not None:
            return sum(self.pattern[start:stop])
        lo = max(start, self.first_dense)
        if stop <= lo:
            return 0
        # indices i in [lo, stop) with (i + offset) % step == 0
        ruled = (stop - 1 + self.offset) // self.step - (lo - 1 + self.offset) // self.step
        forced = sum(1 for i in self.dense_only if lo <= i < stop and (i + self.offset) % self.step == 0)
        return ruled - forced


@record
class ModelShape:
    """A decoder-only transformer, with the fields its exact parameter count depends on."""

    source: str  # where the shape came from, for messages: "preset minimax-m2", "config.json", …
    family: str  # Hugging Face model_type, or "custom"
    layers: int
    hidden: int
    heads: int
    kv_heads: int
    head_dim: int
    ffn_hidden: int  # dense layers' MLP width; 0 when there is no dense layer
    vocab: int
    tied_embeddings: bool = False
    gated_mlp: bool = True  # SwiGLU: gate, up and down matrices
    norm: Literal["rms", "layer"] = "rms"
    qkv_bias: bool = False
    out_bias: bool = False
    mlp_bias: bool = False
    sinks: bool = False  # one learned attention-sink logit per head (GPT-OSS)
    qk_norm: Literal["none", "head", "full"] = "none"  # per-head (Qwen3) or full-width (MiniMax-M2)
    mla: MLA | None = None
    moe: Experts | None = None
    mtp_layers: int = 0  # multi-token-prediction modules the job builds
    checkpoint_mtp_layers: int = 0  # MTP modules the checkpoint defines (not built by Hugging Face)
    dtype: str = "bf16"  # weights at run time
    checkpoint_dtype: str | None = None  # on disk: bf16, fp8, mxfp4, …

    def is_moe(self, index: int) -> bool:
        return self.moe is not None and self.moe.is_moe(index)

    def moe_layers_in(self, start: int, stop: int) -> int:
        return self.moe.count(start, stop) if self.moe is not None else 0

    @property
    def moe_layer_count(self) -> int:
        return self.moe_layers_in(0, self.layers)

    @property
    def dtype_bytes(self) -> int:
        return DTYPE_BYTES[self.dtype]


# ---------------------------------------------------------------------------------------------
# The spec side: what `resolve()` reads. Protocols, so the validated pydantic models and any
# plain mirror of them both fit.


class MoESection(Protocol):
    @property
    def experts(self) -> int: ...
    @property
    def top_k(self) -> int: ...
    @property
    def expert_ffn_hidden(self) -> int | None: ...
    @property
    def shared_experts(self) -> int: ...
    @property
    def shared_ffn_hidden(self) -> int | None: ...
    @property
    def dense_layers(self) -> int: ...


class ModelSection(Protocol):
    @property
    def preset(self) -> str | None: ...
    @property
    def hf_config(self) -> str | None: ...
    @property
    def layers(self) -> int | None: ...
    @property
    def hidden(self) -> int | None: ...
    @property
    def heads(self) -> int | None: ...
    @property
    def kv_heads(self) -> int | None: ...
    @property
    def head_dim(self) -> int | None: ...
    @property
    def ffn_hidden(self) -> int | None: ...
    @property
    def vocab(self) -> int | None: ...
    @property
    def tied_embeddings(self) -> bool | None: ...
    @property
    def attention_bias(self) -> bool | None: ...
    @property
    def mtp_layers(self) -> int | None: ...
    @property
    def moe(self) -> MoESection | None: ...
    @property
    def dtype(self) -> str: ...
    @property
    def checkpoint_dtype(self) -> str | None: ...


@record
class Problem:
    """Why a preset or config cannot be used; reported at ``model.<field>``."""

    field: str
    message: str


@record
class Dims:
    """The model's sizes as far as they are known, explicit fields first; None where unknown."""

    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    experts: int | None = None
    top_k: int | None = None
    vocab: int | None = None


@record
class Resolution:
    shape: ModelShape | None
    dims: Dims
    problems: tuple[Problem, ...] = ()
    missing: tuple[str, ...] = ()  # explicit fields still needed for a complete shape
    base: str | None = None  # "preset llama3-8b", "hf_config path/config.json" or None
    notes: tuple[str, ...] = ()


def resolve(model: ModelSection | None, spec_dir: str | Path) -> ModelShape | None:
    """The model's shape, or None when the spec has no (complete, valid) model."""
    if model is None:
        return None
    return resolve_model(model, spec_dir).shape


def resolve_model(model: ModelSection, spec_dir: str | Path) -> Resolution:
    """The model's shape with the problems found on the way and the fields still missing."""
    from jobc.memory import hf, presets

    base: ModelShape | None = None
    problems: list[Problem] = []
    origin: str | None = None
    if model.preset is not None and model.hf_config is not None:
        problems.append(
            Problem(
                "hf_config",
                "model.preset and model.hf_config both describe the model; keep one of them",
            )
        )
    elif model.preset is not None:
        found = presets.lookup(model.preset)
        if isinstance(found, str):
            problems.append(Problem("preset", found))
        else:
            base, origin = found, f"preset {model.preset}"
    elif model.hf_config is not None:
        try:
            base = hf.shape_from_file(Path(spec_dir), model.hf_config)
            origin = f"hf_config {model.hf_config}"
        except hf.ConfigError as exc:
            problems.append(Problem("hf_config", str(exc)))
    dims = _dims(model, base)
    if problems:
        return Resolution(None, dims, tuple(problems), base=origin)
    if base is None:
        shape, missing = _explicit(model)
        return Resolution(shape, dims, missing=missing)
    return Resolution(_override(base, model), dims, base=origin)


def _dims(model: ModelSection, base: ModelShape | None) -> Dims:
    def pick(explicit: int | None, fallback: int | None) -> int | None:
        return explicit if explicit is not None else fallback

    moe = model.moe
    base_moe = base.moe if base is not None else None
    heads = pick(model.heads, base.heads if base else None)
    return Dims(
        layers=pick(model.layers, base.layers if base else None),
        hidden=pick(model.hidden, base.hidden if base else None),
        heads=heads,
        kv_heads=_kv_heads(model, base, heads),
        experts=moe.experts if moe is not None else (base_moe.experts if base_moe else None),
        top_k=moe.top_k if moe is not None else (base_moe.top_k if base_moe else None),
        vocab=pick(model.vocab, base.vocab if base else None),
    )


def _kv_heads(model: ModelSection, base: ModelShape | None, heads: int | None) -> int | None:
    """Explicit kv_heads; else the base's, as long as they still group the heads evenly; else heads."""
    if model.kv_heads is not None:
        return model.kv_heads
    if base is not None and heads is not None and heads % base.kv_heads == 0:
        return base.kv_heads
    return heads


def _experts_from_spec(moe: MoESection, ffn_hidden: int | None, keep: Experts | None) -> Experts | None:
    width = moe.expert_ffn_hidden if moe.expert_ffn_hidden is not None else ffn_hidden
    if width is None:
        return None
    shared_width = moe.shared_ffn_hidden if moe.shared_ffn_hidden is not None else width
    extras = keep or Experts(0, 0, 0)
    return Experts(
        experts=moe.experts,
        top_k=moe.top_k,
        ffn_hidden=width,
        shared_experts=moe.shared_experts,
        shared_ffn_hidden=shared_width if moe.shared_experts else 0,
        first_dense=moe.dense_layers,
        router_bias=extras.router_bias,
        expert_bias=extras.expert_bias,
        routing_bias=extras.routing_bias,
        shared_gate=extras.shared_gate and moe.shared_experts > 0,
    )


def _explicit(model: ModelSection) -> tuple[ModelShape | None, tuple[str, ...]]:
    """A shape from explicit fields alone, or the names of the fields it still needs."""
    needed = ["layers", "hidden", "heads", "vocab"]
    all_moe = model.moe is not None and model.moe.dense_layers == 0
    if not all_moe:
        needed.append("ffn_hidden")
    if model.moe is not None and model.moe.expert_ffn_hidden is None and model.ffn_hidden is None:
        needed.append("moe.expert_ffn_hidden")
    missing = tuple(name for name in needed if "." in name or getattr(model, name) is None)
    if missing:
        return None, missing
    layers, hidden, heads, vocab = model.layers, model.hidden, model.heads, model.vocab
    if layers is None or hidden is None or heads is None or vocab is None:
        return None, ("layers", "hidden", "heads", "vocab")
    experts = _experts_from_spec(model.moe, model.ffn_hidden, None) if model.moe is not None else None
    bias = bool(model.attention_bias)
    shape = ModelShape(
        source="explicit model fields",
        family="custom",
        layers=layers,
        hidden=hidden,
        heads=heads,
        kv_heads=model.kv_heads or heads,
        head_dim=model.head_dim or hidden // heads,
        ffn_hidden=model.ffn_hidden or 0,
        vocab=vocab,
        tied_embeddings=bool(model.tied_embeddings),
        qkv_bias=bias,
        out_bias=bias,
        moe=experts,
        mtp_layers=model.mtp_layers or 0,
        dtype=model.dtype,
        checkpoint_dtype=model.checkpoint_dtype,
    )
    return shape, ()


def _override(base: ModelShape, model: ModelSection) -> ModelShape:
    """The preset's or config's shape with every field the spec writes taking precedence."""
    shape = base
    hidden = model.hidden or base.hidden
    heads = model.heads or base.heads
    head_dim = model.head_dim
    if head_dim is None:
        # a head size that was derived from hidden/heads follows a changed hidden or heads
        derived = base.head_dim * base.heads == base.hidden
        head_dim = hidden // heads if derived else base.head_dim
    kv_heads = _kv_heads(model, base, heads) or heads
    shape = replace(
        shape,
        layers=model.layers or base.layers,
        hidden=hidden,
        heads=heads,
        kv_heads=kv_heads,
        head_dim=head_dim,
        ffn_hidden=model.ffn_hidden or base.ffn_hidden,
        vocab=model.vocab or base.vocab,
        dtype=model.dtype,
    )
    if model.tied_embeddings is not None:
        shape = replace(shape, tied_embeddings=model.tied_embeddings)
    if model.attention_bias is not None:
        shape = replace(shape, qkv_bias=model.attention_bias, out_bias=model.attention_bias)
    if model.mtp_layers is not None:
        shape = replace(shape, mtp_layers=model.mtp_layers)
    if model.checkpoint_dtype is not None:
        shape = replace(shape, checkpoint_dtype=model.checkpoint_dtype)
    if model.moe is not None:
        width = model.ffn_hidden or (base.moe.ffn_hidden if base.moe else base.ffn_hidden)
        experts = _experts_from_spec(model.moe, width, base.moe)
        shape = replace(shape, moe=experts)
    return shape
