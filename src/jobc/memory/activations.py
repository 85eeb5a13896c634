"""Activation memory per pipeline stage, and the inference KV cache.

Two models, because what a layer stores depends on the code that runs it:

- ``megatron`` (Megatron-LM, Megatron-Bridge, NeMo): Korthikanti et al. 2022 (Reducing
  Activation Recomputation in Large Transformer Models), Table 2, as Megatron-LM's
  `theoretical_memory_usage.py` generalises it to any MLP width: per layer s·b·h·(18 + 4f/h)/t
  with sequence parallelism, s·b·h·(10 + (8 + 4f/h)/t) without. Attention scores are never
  stored (flash attention), so recompute `none` and `selective` come out alike.
- ``pytorch`` (DDP, FSDP, transformers, plain loops): Llama-style code as transformers writes it
  (SDPA, bf16, RMSNorm upcast to fp32), measured with PyTorch's MemTracker on real tensors: per
  layer s·b·(20h + 4·kv·d + 8f + 4a) bytes, the last term SDPA's fp32 log-sum-exp per head; the
  loss keeps fp32 log-probabilities (4·s·b·V) and its backward briefly needs two more fp32
  copies.

MoE layers use f = top_k·expert_ffn·c + shared_ffn (Megatron-Bridge's substitution; c is the
token imbalance, 1 for perfect balance). Context parallelism divides the sequence.
"""

from __future__ import annotations

from math import ceil

from jobc.core.rational import Fraction
from jobc.core.record import record
from jobc.memory.placement import RankParams, Sizes
from jobc.memory.shape import ModelShape

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Literal

    Framework = Literal["megatron", "pytorch"]
    Recompute = Literal["none", "selective", "full"]


@record
class StageActivations:
    """Activation bytes one rank of one stage holds at the start of the backward pass."""

    layers: int  # stored by the stage's layers, all in-flight micro-batches
    embedding: int  # stored by the input embedding (first stage)
    output: int  # stored by the final norm, output layer and loss (last stage)
    working: int  # one layer recomputed in full during the backward pass (full recompute)
    loss_transient: int  # extra, only while the loss runs backward
    one_layer: int  # what the largest single layer stores for one micro-batch
    in_flight: Fraction  # micro-batches of activations the stage holds

    @property
    def at_loss(self) -> int:
        """While the loss runs backward: everything stored, plus the loss's own buffers."""
        return self.layers + self.embedding + self.output + self.loss_transient

    @property
    def in_backward(self) -> int:
        """While a layer runs backward: the loss is done, a recomputed layer may be live."""
        return self.layers + self.embedding + self.working


_ONE = Fraction(1)


def tokens(seq_length: int, micro_batch: int, sizes: Sizes) -> int:
    """Tokens of one micro-batch on one rank (context parallelism splits the sequence)."""
    return ceil(seq_length / sizes.cp) * micro_batch


def mlp_width(shape: ModelShape, moe: bool, imbalance: Fraction) -> Fraction:
    if not moe or shape.moe is None:
        return Fraction(shape.ffn_hidden)
    m = shape.moe
    return m.top_k * m.ffn_hidden * imbalance + m.shared_experts * m.shared_ffn_hidden


def layer_bytes(
    shape: ModelShape, sizes: Sizes, tokens_: int, *, moe: bool, framework: Framework, imbalance: Fraction
) -> Fraction:
    """Activations one layer stores for one micro-batch, without recomputation."""
    h, t, f = shape.hidden, sizes.tp, mlp_width(shape, moe, imbalance)
    sp = sizes.sequence_parallel and t > 1
    if framework == "megatron":
        if sp:
            return tokens_ * (18 * h + 4 * f) / t
        return tokens_ * (10 * h + (8 * h + 4 * f) / t)
    kv = shape.kv_heads * shape.head_dim
    # the two RMSNorms' fp32 inputs and bf16 outputs (12h) are whole on every rank without
    # sequence parallelism; attention (q, output, its reshaped copy, k, v, log-sum-exp) and the
    # MLP are split with the heads and the MLP width
    split = 8 * h + 4 * kv + 8 * f + 4 * shape.heads
    if sp:
        return tokens_ * (12 * h + split) / t
    return tokens_ * (12 * h + split / t)


def layer_input_bytes(shape: ModelShape, sizes: Sizes, tokens_: int) -> Fraction:
    """What full recomputation keeps per layer: its bf16 input."""
    sp = sizes.sequence_parallel and sizes.tp > 1
    return Fraction(2 * tokens_ * shape.hidden, sizes.tp if sp else 1)


def in_flight(stage: int, sizes: Sizes, microbatches: int | None) -> Fraction:
    """Micro-batches of activations a stage holds under the 1F1B schedule (interleaved when vpp
    is set: Megatron's warm-up count of virtual micro-batches, each a 1/vpp slice of the stage)."""
    p = sizes.pp
    if p == 1:
        return Fraction(1)
    if sizes.vpp and sizes.vpp > 1:
        v = sizes.vpp
        chunks = 2 * (p - stage - 1) + (v - 1) * p + 1
        if microbatches is not None:
            chunks = min(chunks, microbatches * v)
        return Fraction(chunks, v)
    held = p - stage
    if microbatches is not None:
        held = min(held, microbatches)
    return Fraction(held)


def for_stage(
    shape: ModelShape,
    sizes: Sizes,
    rank: RankParams,
    *,
    seq_length: int,
    micro_batch: int,
    microbatches: int | None,
    recompute: Recompute,
    framework: Framework,
    imbalance: Fraction = _ONE,
) -> StageActivations:
    """Training activations of one rank on ``rank.stage``."""
    n = tokens(seq_length, micro_batch, sizes)
    t, h, v = sizes.tp, shape.hidden, shape.vocab
    sp = sizes.sequence_parallel and t > 1
    first, last = rank.stage == 0, rank.stage == sizes.pp - 1
    held = in_flight(rank.stage, sizes, microbatches)
    dense_bytes = layer_bytes(shape, sizes, n, moe=False, framework=framework, imbalance=imbalance)
    moe_bytes = layer_bytes(shape, sizes, n, moe=True, framework=framework, imbalance=imbalance)
    # MTP modules sit on the last stage and are MoE layers when the model's layers are
    moe_count = rank.moe_layers + (rank.mtp_layers if shape.moe is not None else 0)
    count = len(rank.layers) + rank.mtp_layers
    dense_count = count - moe_count
    largest = max((moe_bytes if moe_count else Fraction(0)), (dense_bytes if dense_count else Fraction(0)))
    if recompute == "full":
        one = layer_input_bytes(shape, sizes, n) if count else Fraction(0)
        layers = one * count * held
        working = largest
    else:
        one = largest
        layers = (dense_bytes * dense_count + moe_bytes * moe_count) * held
        working = Fraction(0)
    embedding = Fraction(0)
    output = Fraction(0)
    loss = Fraction(0)
    if framework == "megatron":
        if first:
            # token ids (int64) and the embedding dropout mask, per micro-batch in flight
            embedding = (8 * n + n * h) * held / (t if sp else 1)
        if last:
            output = Fraction(4 * n * h, t if sp else 1) + Fraction(4 * n * v, t)
    else:
        if first:
            embedding = 8 * n * held
        if last:
            # final RMSNorm (fp32 input and bf16 output) and the loss's fp32 log-probabilities
            output = Fraction(6 * n * h, t if sp else 1) + Fraction(4 * n * v, t)
            loss = Fraction(8 * n * v, t)
    return StageActivations(
        layers=ceil(layers),
        embedding=ceil(embedding),
        output=ceil(output),
        working=ceil(working),
        loss_transient=ceil(loss),
        one_layer=ceil(one),
        in_flight=held,
    )


def inference_workspace(
    shape: ModelShape, sizes: Sizes, rank: RankParams, *, seq_length: int, micro_batch: int
) -> int:
    """Transient activations of a forward pass: one layer's working set for the prompt, plus
    last-token logits in fp32 on the last stage."""
    n = tokens(seq_length, micro_batch, sizes)
    one = Fraction(0)
    if rank.moe_layers:
        one = layer_bytes(shape, sizes, n, moe=True, framework="megatron", imbalance=Fraction(1))
    if len(rank.layers) > rank.moe_layers:
        dense = layer_bytes(shape, sizes, n, moe=False, framework="megatron", imbalance=Fraction(1))
        one = max(one, dense)
    logits = Fraction(4 * micro_batch * shape.vocab, sizes.tp) if rank.stage == sizes.pp - 1 else 0
    return ceil(one + logits)


def kv_cache_per_token(shape: ModelShape, sizes: Sizes, layers: int) -> int:
    """KV-cache bytes per token on one rank for ``layers`` layers.

    Grouped-query attention keeps keys and values of its kv heads, split over tp (a head is
    replicated once tp exceeds the kv heads); MLA keeps one compressed latent plus the rotary key,
    whole on every tp rank."""
    width = shape.dtype_bytes
    if shape.mla is not None:
        return layers * (shape.mla.kv_lora_rank + shape.mla.qk_rope_head_dim) * width
    heads_here = max(1, -(-shape.kv_heads // sizes.tp))
    return layers * 2 * heads_here * shape.head_dim * width
