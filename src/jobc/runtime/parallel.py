"""The parallel layout: sizes of the mesh dimensions and a rank's coordinates.

The mesh is ``("pp", "dp", "cp", "tp")`` in row-major order, so ``tp`` varies
fastest: tensor-parallel peers are adjacent ranks and therefore share a node
whenever ``tp`` divides the ranks per node.
"""

from __future__ import annotations

from dataclasses import dataclass

from jobc.runtime.contract import Contract
from jobc.runtime.errors import WorldMismatchError

__all__ = ["MESH_DIMS", "Parallelism", "resolve_parallelism"]

MESH_DIMS: tuple[str, str, str, str] = ("pp", "dp", "cp", "tp")


@dataclass(frozen=True)
class Parallelism:
    pp: int
    dp: int
    cp: int
    tp: int
    ep: int = 1

    @property
    def shape(self) -> tuple[int, int, int, int]:
        return (self.pp, self.dp, self.cp, self.tp)

    @property
    def size(self) -> int:
        return self.pp * self.dp * self.cp * self.tp

    def coordinates(self, rank: int) -> dict[str, int]:
        """The (pp, dp, cp, tp) coordinates of ``rank`` in the mesh."""
        coords: dict[str, int] = {}
        rest = rank
        for name, size in reversed(tuple(zip(MESH_DIMS, self.shape, strict=True))):
            coords[name] = rest % size
            rest //= size
        return {name: coords[name] for name in MESH_DIMS}


def resolve_parallelism(contract: Contract, world_size: int) -> Parallelism:
    """Sizes from ``JOBC_*``; dp derived when unset; the product must be the world."""
    model = contract.pp * contract.cp * contract.tp
    if contract.dp is None:
        if world_size % model:
            raise WorldMismatchError(
                f"parallelism: world size {world_size} is not divisible by "
                f"JOBC_PP*JOBC_CP*JOBC_TP = {contract.pp}*{contract.cp}*{contract.tp} = {model}, "
                "so no data-parallel size fits"
            )
        dp = world_size // model
    else:
        dp = contract.dp
        if model * dp != world_size:
            raise WorldMismatchError(
                f"parallelism: JOBC_PP*JOBC_DP*JOBC_CP*JOBC_TP = {contract.pp}*{dp}*"
                f"{contract.cp}*{contract.tp} = {model * dp} but the world has "
                f"{world_size} ranks"
            )
    return Parallelism(pp=contract.pp, dp=dp, cp=contract.cp, tp=contract.tp, ep=contract.ep)
