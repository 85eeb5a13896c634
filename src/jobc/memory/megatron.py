"""Megatron-LM's own weight-and-optimizer accounting, for parity checks.

`compute_weight_and_optimizer_memory` in Megatron-LM's `megatron/training/theoretical_memory_usage.py`
(the version that accounts for expert parallelism) approximates the most loaded rank as 1/pp of
every layer plus the embedding, splits attention, dense MLPs, shared experts and the vocabulary
over tp, keeps norms, routers and latent projections whole, and splits routed experts over
etp·ep, whose optimizer state shards over the expert data-parallel group. jobc's own estimate
places layers on stages exactly (`placement`); this function exists so tests can hold jobc's
parameter split to Megatron's published numbers.
"""

from __future__ import annotations

from jobc.core.rational import Fraction
from jobc.memory.params import count
from jobc.memory.placement import Sizes
from jobc.memory.shape import ModelShape


def bytes_per_param(distributed_optimizer: bool, shards: int) -> Fraction:
    """bf16 weights, fp32 gradients and fp32 Adam state (main weights and two moments)."""
    return Fraction(6) + Fraction(12, shards) if distributed_optimizer else Fraction(18)


def weight_and_optimizer_bytes(
    shape: ModelShape, sizes: Sizes, *, distributed_optimizer: bool = True
) -> Fraction:
    c = count(shape)
    dense_n, moe_n = c.dense_layers, c.moe_layers
    block_sharded = c.dense.sharded * dense_n
    block_replicated = c.dense.replicated * dense_n + c.final_norm
    block_expert = 0
    if c.moe is not None:
        block_sharded += c.moe.sharded * moe_n
        block_replicated += c.moe.replicated * moe_n
        block_expert = c.moe.experts * moe_n
    mtp_layer = c.mtp_layer
    mtp_sharded = c.mtp_layers * (mtp_layer.sharded + c.mtp_extra.sharded)
    mtp_replicated = c.mtp_layers * (mtp_layer.replicated + c.mtp_extra.replicated)
    mtp_expert = c.mtp_layers * mtp_layer.experts
    embedding = c.embedding
    if c.output and sizes.pp == 1:
        embedding += c.output
    tp_sharded = (Fraction(block_sharded, sizes.pp) + mtp_sharded + embedding) / sizes.tp
    replicated = Fraction(block_replicated, sizes.pp) + mtp_replicated
    expert = (Fraction(block_expert, sizes.pp) + mtp_expert) / (sizes.etp * sizes.ep)
    return (tp_sharded + replicated) * bytes_per_param(distributed_optimizer, sizes.dp) + (
        expert * bytes_per_param(distributed_optimizer, sizes.edp)
    )
