"""A spec's `model:` section resolved to a ModelShape: a preset or a Hugging Face `config.json`
gives the base, and every explicit `model.*` field the spec writes overrides it, with the problems
found on the way and the dimensions still missing."""

from __future__ import annotations

from jobc.core.record import record, replace
from jobc.memory.shape import Experts, ModelShape

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Protocol

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
    # only when a spec has a model; not `from jobc.memory import`, which runs importlib's Python
    # code for a package at every call
    import jobc.memory.hf as hf_config
    import jobc.memory.presets as preset_table

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
        found = preset_table.lookup(model.preset)
        if isinstance(found, str):
            problems.append(Problem("preset", found))
        else:
            base, origin = found, f"preset {model.preset}"
    elif model.hf_config is not None:
        try:
            from pathlib import Path  # only for a config.json the spec names

            base = hf_config.shape_from_file(Path(spec_dir), model.hf_config)
            origin = f"hf_config {model.hf_config}"
        except hf_config.ConfigError as exc:
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
