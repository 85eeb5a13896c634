"""Reading a Hugging Face `config.json` into a `ModelShape`, one key map per model family.

Each family's keys and defaults follow its configuration and modelling code in Hugging Face
transformers (and DeepSeek's reference code for the MoE layer rule): which attention
projections carry biases, per-head or full-width QK-norm, MLA dimensions, shared experts,
dense-first layers, MTP modules, tied embeddings. Presets are stored in the same form, so one
reader serves both.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from jobc.core.record import replace
from jobc.memory.shape import MLA, Experts, ModelShape


class ConfigError(ValueError):
    """A config that cannot be read as a model; the message says which key and why."""


TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    Config = Mapping[str, Any]

_DTYPES = {"bfloat16": "bf16", "float16": "fp16", "float32": "fp32", "float8_e4m3fn": "fp8"}
_FP8_METHODS = {"fp8", "fbgemm_fp8", "finegrained_fp8"}


def shape_from_file(spec_dir: Path, relative: str) -> ModelShape:
    """The shape in ``relative`` (a config.json, or a directory holding one) next to the spec."""
    import json  # here, not above: a spec without hf_config has no JSON to read

    from jobc.reader.source import path_problem

    problem = path_problem(relative)
    if problem is not None:
        raise ConfigError(f"model.hf_config {relative!r}: {problem}")
    path = spec_dir / relative
    try:
        if path.is_dir():
            path = path / "config.json"
        if not path.is_file():
            path.stat()  # a symlink loop or a name too long says so; a missing file is below
            raise FileNotFoundError
        text = path.read_text("utf-8")
    except FileNotFoundError:
        raise ConfigError(
            f"model.hf_config {relative!r}: no such file (paths are relative to the spec file's directory)"
        ) from None
    except OSError as exc:
        import errno

        why = "a symlink loop" if exc.errno == errno.ELOOP else exc.strerror or str(exc)
        raise ConfigError(f"model.hf_config {relative!r}: cannot read: {why}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"model.hf_config {relative!r}: cannot read: not UTF-8 text") from None
    try:
        data = json.loads(text, parse_int=_json_int)
    except json.JSONDecodeError as exc:
        raise ConfigError(
            f"model.hf_config {relative!r} is not valid JSON: {exc.msg} at line {exc.lineno}, "
            f"column {exc.colno}"
        ) from None
    except ConfigError as exc:
        raise ConfigError(f"model.hf_config {relative!r}: {exc}") from None
    except RecursionError:
        raise ConfigError(f"model.hf_config {relative!r}: the JSON nests too deeply to be a config") from None
    if not isinstance(data, dict):
        raise ConfigError(f"model.hf_config {relative!r}: a config.json holds a JSON object")
    try:
        return shape_from_config(data, path.name if path.name != "config.json" else relative)
    except ConfigError as exc:
        raise ConfigError(f"model.hf_config {relative!r}: {exc}") from None


def _json_int(text: str) -> int:
    # json's own conversion fails past 4,300 digits, and a model dimension past 64 bits is no model
    if len(text.lstrip("-")) > 19 or abs(value := int(text)) >= 2**63:
        raise ConfigError(f"a number of {len(text.lstrip('-'))} digits; no config value is this large")
    return value


def shape_from_config(config: Config, source: str) -> ModelShape:
    """A shape from a parsed config.json. Raises ConfigError for what it cannot use."""
    family = config.get("model_type")
    if family not in _FAMILIES and isinstance(config.get("text_config"), dict):
        # multimodal wrappers keep the language model's config under text_config
        inner = dict(config["text_config"])
        inner.setdefault("quantization_config", config.get("quantization_config"))
        inner.setdefault("torch_dtype", config.get("torch_dtype") or config.get("dtype"))
        text = shape_from_config(inner, source)
        outer = f"a multimodal model ({family})" if isinstance(family, str) else "a multimodal model"
        note = (
            f"The config describes {outer}; only its text model (text_config, {text.family}) is "
            "counted: vision or audio encoders and their projectors are not, in parameters, "
            "memory or activations."
        )
        return replace(text, notes=(note, *text.notes))
    if not isinstance(family, str):
        raise ConfigError("the config has no model_type")
    reader = _FAMILIES.get(family)
    if reader is None:
        raise ConfigError(
            f"model_type {family!r} is not supported; supported: {', '.join(sorted(_FAMILIES))} "
            "(or describe the model with explicit model fields)"
        )
    return reader(_Keys(config), source)


class _Keys:
    """Typed access to a config's keys, with errors that name the key."""

    def __init__(self, config: Config) -> None:
        self.config = config

    def integer(self, key: str, default: int | None = None) -> int:
        value = self.config.get(key)
        if value is None:
            if default is None:
                raise ConfigError(f"the config has no {key!r}")
            return default
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ConfigError(f"{key!r} is {value!r}, not a non-negative integer")
        return value

    def positive(self, key: str, default: int | None = None) -> int:
        value = self.integer(key, default)
        if value == 0:
            raise ConfigError(f"{key!r} is 0")
        return value

    def optional(self, key: str) -> int | None:
        return None if self.config.get(key) is None else self.integer(key)

    def flag(self, key: str, default: bool) -> bool:
        value = self.config.get(key)
        if value is None:
            return default
        if not isinstance(value, bool):
            raise ConfigError(f"{key!r} is {value!r}, not true or false")
        return value

    def first(self, *keys: str) -> int:
        for key in keys:
            if self.config.get(key) is not None:
                return self.positive(key)
        raise ConfigError(f"the config has none of {', '.join(map(repr, keys))}")

    def indices(self, key: str) -> frozenset[int]:
        value = self.config.get(key) or []
        if not isinstance(value, list) or not all(isinstance(v, int) for v in value):
            raise ConfigError(f"{key!r} is {value!r}, not a list of layer indices")
        return frozenset(value)

    def checkpoint_dtype(self) -> str | None:
        quant = self.config.get("quantization_config")
        if isinstance(quant, dict):
            method = str(quant.get("quant_method", "")).lower()
            if method in _FP8_METHODS:
                return "fp8"
            if method:
                return method
        dtype = self.config.get("torch_dtype") or self.config.get("dtype")
        return _DTYPES.get(str(dtype)) if dtype is not None else None


def _common(k: _Keys, source: str, family: str, *, head_dim: int | None = None) -> dict[str, Any]:
    hidden = k.positive("hidden_size")
    heads = k.positive("num_attention_heads")
    kv = k.positive("num_key_value_heads", heads)
    if heads % kv:
        raise ConfigError(f"num_attention_heads {heads} is not a multiple of num_key_value_heads {kv}")
    return {
        "source": source,
        "family": family,
        "layers": k.positive("num_hidden_layers"),
        "hidden": hidden,
        "heads": heads,
        "kv_heads": kv,
        "head_dim": k.positive("head_dim", head_dim if head_dim is not None else hidden // heads),
        "vocab": k.positive("vocab_size"),
        "tied_embeddings": k.flag("tie_word_embeddings", False),
        "checkpoint_dtype": k.checkpoint_dtype(),
    }


def _llama(k: _Keys, source: str) -> ModelShape:
    bias = k.flag("attention_bias", False)
    return ModelShape(
        **_common(k, source, "llama"),
        ffn_hidden=k.positive("intermediate_size"),
        qkv_bias=bias,
        out_bias=bias,
        mlp_bias=k.flag("mlp_bias", False),
    )


def _mistral(k: _Keys, source: str) -> ModelShape:
    return ModelShape(**_common(k, source, "mistral"), ffn_hidden=k.positive("intermediate_size"))


def _qwen2(k: _Keys, source: str) -> ModelShape:
    # Qwen2 always puts biases on the q, k and v projections and none on the output projection
    return ModelShape(
        **_common(k, source, "qwen2"), ffn_hidden=k.positive("intermediate_size"), qkv_bias=True
    )


def _qwen3(k: _Keys, source: str) -> ModelShape:
    bias = k.flag("attention_bias", False)
    return ModelShape(
        **_common(k, source, "qwen3", head_dim=128),
        ffn_hidden=k.positive("intermediate_size"),
        qkv_bias=bias,
        out_bias=bias,
        qk_norm="head",
    )


def _mixtral(k: _Keys, source: str) -> ModelShape:
    experts = Experts(
        experts=k.positive("num_local_experts"),
        top_k=k.positive("num_experts_per_tok"),
        ffn_hidden=k.positive("intermediate_size"),
    )
    return ModelShape(**_common(k, source, "mixtral"), ffn_hidden=0, moe=experts)


def _qwen3_moe(k: _Keys, source: str) -> ModelShape:
    bias = k.flag("attention_bias", False)
    experts = Experts(
        experts=k.positive("num_experts"),
        top_k=k.positive("num_experts_per_tok"),
        ffn_hidden=k.positive("moe_intermediate_size"),
        step=k.positive("decoder_sparse_step", 1),
        offset=1,
        dense_only=k.indices("mlp_only_layers"),
    )
    return ModelShape(
        **_common(k, source, "qwen3_moe", head_dim=128),
        ffn_hidden=k.integer("intermediate_size", 0),
        qkv_bias=bias,
        out_bias=bias,
        qk_norm="head",
        moe=experts,
    )


def _deepseek_v3(k: _Keys, source: str) -> ModelShape:
    nope, rope = k.positive("qk_nope_head_dim"), k.positive("qk_rope_head_dim")
    mla = MLA(
        q_lora_rank=k.optional("q_lora_rank") or None,
        kv_lora_rank=k.positive("kv_lora_rank"),
        qk_nope_head_dim=nope,
        qk_rope_head_dim=rope,
        v_head_dim=k.positive("v_head_dim"),
    )
    moe_width = k.positive("moe_intermediate_size")
    shared = k.integer("n_shared_experts", 0)
    experts = Experts(
        experts=k.positive("n_routed_experts"),
        top_k=k.positive("num_experts_per_tok"),
        ffn_hidden=moe_width,
        # DeepSeek builds the shared experts as one MLP of width n_shared × moe_intermediate_size
        shared_experts=1 if shared else 0,
        shared_ffn_hidden=shared * moe_width,
        first_dense=k.integer("first_k_dense_replace", 0),
        step=k.positive("moe_layer_freq", 1),
        routing_bias=str(k.config.get("topk_method", "noaux_tc")) == "noaux_tc",
    )
    common = _common(k, source, "deepseek_v3", head_dim=nope + rope)
    common["kv_heads"] = common["heads"]  # MLA has no grouped key/value heads
    bias = k.flag("attention_bias", False)
    return ModelShape(
        **common,
        ffn_hidden=k.positive("intermediate_size"),
        qkv_bias=bias,
        out_bias=bias,
        mla=mla,
        moe=experts,
        checkpoint_mtp_layers=k.integer("num_nextn_predict_layers", 0),
    )


def _gpt_oss(k: _Keys, source: str) -> ModelShape:
    bias = k.flag("attention_bias", True)
    experts = Experts(
        experts=k.positive("num_local_experts"),
        top_k=k.first("num_experts_per_tok", "experts_per_token"),
        ffn_hidden=k.positive("intermediate_size"),
        router_bias=True,
        expert_bias=True,
    )
    return ModelShape(
        **_common(k, source, "gpt_oss", head_dim=64),
        ffn_hidden=0,
        qkv_bias=bias,
        out_bias=bias,
        sinks=True,
        moe=experts,
    )


def _minimax_m2(k: _Keys, source: str) -> ModelShape:
    # transformers' MiniMax-M2 builds every layer the same way whatever four of its config keys
    # say: projections without biases, full-width q and k RMSNorms, routed experts only. The
    # count follows the published implementation and says which settings it ignored.
    ignored: list[str] = []
    if k.flag("attention_bias", False):
        ignored.append("attention_bias true (its projections have no biases)")
    if not k.flag("use_qk_norm", True):
        ignored.append("use_qk_norm false (it always applies q and k norms)")
    norm_type = k.config.get("qk_norm_type")
    if norm_type is not None and norm_type != "per_layer":
        ignored.append(f"qk_norm_type {norm_type!r} (its q and k norms are always full-width, per_layer)")
    shared_width = k.integer("shared_intermediate_size", 0)
    if shared_width:
        ignored.append(f"shared_intermediate_size {shared_width} (it builds no shared expert)")
    experts = Experts(
        experts=k.positive("num_local_experts"),
        top_k=k.positive("num_experts_per_tok"),
        ffn_hidden=k.positive("intermediate_size"),
        routing_bias=k.flag("use_routing_bias", True),
    )
    mtp = k.integer("num_mtp_modules", 0) * k.integer("mtp_transformer_layers", 1)
    notes: tuple[str, ...] = ()
    if ignored:
        notes = (
            "MiniMax-M2 counted as transformers builds it, which ignores the config's "
            + "; ".join(ignored)
            + ". If the job runs other code that builds them, describe the model with explicit fields.",
        )
    return ModelShape(
        **_common(k, source, "minimax_m2", head_dim=128),
        ffn_hidden=0,
        qk_norm="full",
        moe=experts,
        checkpoint_mtp_layers=mtp,
        notes=notes,
    )


_FAMILIES: dict[str, Callable[[_Keys, str], ModelShape]] = {
    "llama": _llama,
    "mistral": _mistral,
    "mixtral": _mixtral,
    "qwen2": _qwen2,
    "qwen3": _qwen3,
    "qwen3_moe": _qwen3_moe,
    "deepseek_v3": _deepseek_v3,
    "gpt_oss": _gpt_oss,
    "minimax_m2": _minimax_m2,
}

FAMILIES = tuple(sorted(_FAMILIES))
