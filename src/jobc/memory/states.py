"""Bytes per parameter for weights, gradients and optimizer state.

Training uses mixed-precision Adam. Unsharded, per parameter (Megatron-LM's distributed
optimizer guide): bf16 weights 2 + fp32 main gradients 4 + fp32 main weights 4 + two fp32 Adam
moments 8 = 18 bytes; fp16 weights and gradients 2 + 2 + fp32 main weights, main gradients and
moments 16 = 20; fp32 4 + 4 + 8 = 16. The sharding modes divide parts of that by the number of
data-parallel shards d:

- none: nothing sharded;
- distributed-optimizer (Megatron, ZeRO-1): the optimizer part, 6 + 12/d for bf16;
- fsdp2 (PyTorch, mixed precision with fp32 sharded weights): weights, gradients and optimizer,
  16/d, plus the gathered low-precision copies of the layers in use;
- megatron-fsdp (optim_grads_params): all of it, 18/d for bf16, plus gathered layers.
"""

from __future__ import annotations

from jobc.core.rational import Fraction
from jobc.core.record import record
from jobc.memory.shape import DTYPE_BYTES

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Literal

    Sharding = Literal["none", "distributed-optimizer", "fsdp2", "megatron-fsdp"]
FSDP: tuple[Sharding, ...] = ("fsdp2", "megatron-fsdp")


@record
class PerParam:
    weights: Fraction
    gradients: Fraction
    optimizer: Fraction

    @property
    def total(self) -> Fraction:
        return self.weights + self.gradients + self.optimizer


def _unsharded(dtype: str) -> tuple[int, int, int]:
    weights = DTYPE_BYTES[dtype]
    if dtype == "fp16":
        # fp16 gradients; the optimizer keeps fp32 main weights, main gradients and moments
        return weights, 2, 16
    if dtype == "fp32":
        return weights, 4, 8
    # bf16 and fp8 weights: fp32 main gradients, fp32 main weights and moments
    return weights, 4, 12


def training(dtype: str, sharding: Sharding, shards: int) -> PerParam:
    """Bytes per parameter on one rank when the state is sharded over ``shards`` ranks."""
    w, g, o = _unsharded(dtype)
    if sharding == "none":
        return PerParam(Fraction(w), Fraction(g), Fraction(o))
    if sharding == "distributed-optimizer":
        return PerParam(Fraction(w), Fraction(g), Fraction(o, shards))
    if sharding == "fsdp2":
        # fully_shard with a bf16 MixedPrecisionPolicy: fp32 weights, fp32 gradients, fp32 Adam
        return PerParam(Fraction(4, shards), Fraction(4, shards), Fraction(8, shards))
    return PerParam(Fraction(w, shards), Fraction(g, shards), Fraction(o, shards))


def table(dtype: str, sharding: Sharding) -> str:
    """The bytes-per-parameter formula, for the assumptions: "6 + 12/d"."""
    w, g, o = _unsharded(dtype)
    if sharding == "none":
        return f"{w + g + o}"
    if sharding == "distributed-optimizer":
        return f"{w + g} + {o}/d"
    if sharding == "fsdp2":
        return "16/d"
    return f"{w + g + o}/d"
