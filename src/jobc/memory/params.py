"""Exact parameter counts: per layer, by where each piece lives under tensor parallelism.

The counts equal `sum(p.numel() for p in model.parameters())` of the Hugging Face model built
from the same config (routing-bias buffers are counted apart, as PyTorch does). Each layer is
split the way Megatron-Core places it: projections that tensor parallelism splits, pieces every
tensor-parallel rank holds whole (norms, router, per-head QK-norm, MLA down-projections), and
routed experts, which expert parallelism splits instead.
"""

from __future__ import annotations

from jobc.core.record import record
from jobc.memory.shape import ModelShape


@record
class LayerParams:
    """One decoder layer's parameters."""

    attention: int  # split over tp: projections, their column biases, sinks, full-width QK-norm
    attention_replicated: int  # whole on every tp rank: per-head QK-norm, output bias, MLA down-projections
    mlp: int  # split over tp: the dense MLP, or an MoE layer's shared experts
    mlp_replicated: int  # the down-projection bias
    router: int  # whole on every tp rank: router, shared-expert gate, latent projections
    norms: int  # the layer's two norms
    experts: int  # all routed experts, split over ep × etp

    @property
    def sharded(self) -> int:
        return self.attention + self.mlp

    @property
    def replicated(self) -> int:
        return self.attention_replicated + self.mlp_replicated + self.router + self.norms

    @property
    def total(self) -> int:
        return self.sharded + self.replicated + self.experts


def _norm(shape: ModelShape, width: int) -> int:
    return width * (2 if shape.norm == "layer" else 1)


def attention(shape: ModelShape) -> tuple[int, int]:
    """(split over tp, whole on every tp rank) parameters of one attention block."""
    h, a, kv, d = shape.hidden, shape.heads, shape.kv_heads, shape.head_dim
    if shape.mla is not None:
        m = shape.mla
        qk = m.qk_nope_head_dim + m.qk_rope_head_dim
        sharded = m.kv_lora_rank * a * (m.qk_nope_head_dim + m.v_head_dim) + a * m.v_head_dim * h
        # Megatron-Core keeps the down-projections and latent norms whole on every tp rank
        replicated = h * (m.kv_lora_rank + m.qk_rope_head_dim) + _norm(shape, m.kv_lora_rank)
        if m.q_lora_rank is None:
            sharded += h * a * qk
        else:
            sharded += m.q_lora_rank * a * qk
            replicated += h * m.q_lora_rank + _norm(shape, m.q_lora_rank)
        if shape.qkv_bias:
            replicated += (m.q_lora_rank or 0) + m.kv_lora_rank + m.qk_rope_head_dim
        if shape.out_bias:
            replicated += h
        return sharded, replicated
    sharded = h * d * (2 * a + 2 * kv)
    replicated = 0
    if shape.qkv_bias:
        sharded += a * d + 2 * kv * d
    if shape.out_bias:
        replicated += h
    if shape.sinks:
        sharded += a
    if shape.qk_norm == "head":
        replicated += 2 * _norm(shape, d)
    elif shape.qk_norm == "full":
        sharded += _norm(shape, (a + kv) * d)
    return sharded, replicated


def mlp(shape: ModelShape, width: int) -> tuple[int, int]:
    """(split over tp, whole) parameters of one MLP of the given hidden width."""
    h = shape.hidden
    mats = 3 if shape.gated_mlp else 2
    sharded, replicated = mats * h * width, 0
    if shape.mlp_bias:
        sharded += (2 if shape.gated_mlp else 1) * width
        replicated += h
    return sharded, replicated


def one_expert(shape: ModelShape) -> int:
    """One routed expert of one layer."""
    moe = shape.moe
    if moe is None:
        return 0
    width = moe.latent_size or shape.hidden
    f = moe.ffn_hidden
    count = (3 if shape.gated_mlp else 2) * width * f
    if moe.expert_bias:
        count += (2 if shape.gated_mlp else 1) * f + width
    return count


def dense_layer(shape: ModelShape) -> LayerParams:
    att, att_rep = attention(shape)
    ffn, ffn_rep = mlp(shape, shape.ffn_hidden)
    return LayerParams(att, att_rep, ffn, ffn_rep, 0, 2 * _norm(shape, shape.hidden), 0)


def moe_layer(shape: ModelShape) -> LayerParams:
    moe = shape.moe
    assert moe is not None
    h = shape.hidden
    att, att_rep = attention(shape)
    shared = moe.shared_experts * mlp(shape, moe.shared_ffn_hidden)[0] if moe.shared_experts else 0
    router = h * moe.experts + (moe.experts if moe.router_bias else 0)
    if moe.shared_gate and moe.shared_experts:
        router += h
    if moe.latent_size:
        router += 2 * h * moe.latent_size
    return LayerParams(att, att_rep, shared, 0, router, 2 * _norm(shape, h), moe.experts * one_expert(shape))


def mtp_extra(shape: ModelShape) -> LayerParams:
    """What one MTP module adds besides its decoder layer: two input norms, the 2h → h
    projection and its own final norm (embedding and output layer are shared with the model)."""
    h = shape.hidden
    return LayerParams(0, 0, 2 * h * h, 0, 0, 3 * _norm(shape, h), 0)


@record
class ParamCounts:
    """Exact counts for a whole model."""

    embedding: int
    output: int  # 0 when tied to the embedding
    final_norm: int
    dense: LayerParams
    moe: LayerParams | None
    dense_layers: int
    moe_layers: int
    mtp_layers: int
    mtp_is_moe: bool
    mtp_extra: LayerParams
    one_expert: int
    top_k: int
    buffers: int  # routing-bias buffers: tensors in the checkpoint, not parameters

    def _layers(self, pick: str) -> int:
        dense = getattr(self.dense, pick) * self.dense_layers
        moe = getattr(self.moe, pick) * self.moe_layers if self.moe is not None else 0
        return int(dense + moe)

    @property
    def mtp_layer(self) -> LayerParams:
        """The decoder layer inside one MTP module: MoE when the model's last layer is."""
        return self.moe if self.mtp_is_moe and self.moe is not None else self.dense

    @property
    def mtp(self) -> int:
        return self.mtp_layers * (self.mtp_layer.total + self.mtp_extra.total)

    @property
    def attention(self) -> int:
        return self._layers("attention") + self._layers("attention_replicated")

    @property
    def mlp(self) -> int:
        """Dense MLPs and shared experts."""
        return self._layers("mlp") + self._layers("mlp_replicated")

    @property
    def router(self) -> int:
        return self._layers("router")

    @property
    def norms(self) -> int:
        return self._layers("norms") + self.final_norm

    @property
    def routed_experts(self) -> int:
        return self._layers("experts")

    @property
    def mtp_routed_experts(self) -> int:
        if self.mtp_layers and self.mtp_is_moe and self.moe is not None:
            return self.mtp_layers * self.moe.experts
        return 0

    @property
    def total(self) -> int:
        """All parameters the job builds (MTP modules included when it builds them)."""
        return self.embedding + self.output + self.final_norm + self._layers("total") + self.mtp

    @property
    def active(self) -> int:
        """Parameters one token passes through: top-k of the routed experts, embedding and head
        included (vendors differ on whether they count those)."""
        routed = self.routed_experts + self.mtp_routed_experts
        moe_layers = self.moe_layers + (self.mtp_layers if self.mtp_is_moe else 0)
        return self.total - routed + moe_layers * self.top_k * self.one_expert

    def breakdown(self) -> dict[str, int]:
        return {
            "total": self.total,
            "active": self.active,
            "embedding": self.embedding,
            "output": self.output,
            "attention": self.attention,
            "mlp": self.mlp,
            "routed_experts": self.routed_experts,
            "one_expert": self.one_expert,
            "router": self.router,
            "norms": self.norms,
            "mtp": self.mtp,
            "routing_bias_buffers": self.buffers,
        }


def count(shape: ModelShape) -> ParamCounts:
    """Exact parameter counts of ``shape``."""
    moe_layers = shape.moe_layer_count
    moe = moe_layer(shape) if shape.moe is not None else None
    embedding = shape.vocab * shape.hidden
    buffers = shape.moe.experts * moe_layers if shape.moe is not None and shape.moe.routing_bias else 0
    return ParamCounts(
        embedding=embedding,
        output=0 if shape.tied_embeddings else embedding,
        final_norm=_norm(shape, shape.hidden),
        dense=dense_layer(shape),
        moe=moe,
        dense_layers=shape.layers - moe_layers,
        moe_layers=moe_layers,
        mtp_layers=shape.mtp_layers,
        mtp_is_moe=shape.is_moe(shape.layers - 1),
        mtp_extra=mtp_extra(shape),
        one_expert=one_expert(shape),
        top_k=shape.moe.top_k if shape.moe is not None else 0,
        buffers=buffers,
    )
