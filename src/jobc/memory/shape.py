"""What a model looks like, as far as its parameter count and memory are concerned.

The records only: `jobc.memory.resolve` is the one place that turns a spec's `model:` section into
a `ModelShape`, and the lint rules, `jobc plan` and the parallelism rules all use it.
"""

from __future__ import annotations

from jobc.core.record import record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Literal

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
    notes: tuple[str, ...] = ()  # what reading the config left out or ignored, as sentences

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
