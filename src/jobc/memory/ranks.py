"""Where each global rank sits: its node and local rank, and its tp/cp/dp/pp and expert coordinates.

Megatron-Core's default rank order, "tp-cp-ep-dp-pp": tensor-parallel ranks are consecutive
(so a tp group stays inside a node), then context parallel, then data parallel, and pipeline
stages vary slowest. Dense layers use the grid tp × cp × dp × pp; expert layers fold the same
ranks into etp × ep × edp × pp. Ranks go to nodes in blocks (Slurm's default distribution, and
what torchrun's node rank gives): node = rank // gpus_per_node.
"""

from __future__ import annotations

from jobc.core.record import as_dict, record
from jobc.memory.placement import Sizes

ORDER = "tp-cp-ep-dp-pp"


@record
class RankCoords:
    rank: int
    node: int
    local_rank: int
    tp: int
    cp: int
    dp: int
    pp: int
    etp: int
    ep: int
    edp: int

    def as_dict(self) -> dict[str, int]:
        return as_dict(self)


def coords(rank: int, sizes: Sizes, gpus_per_node: int) -> RankCoords:
    tp, cp, dp = sizes.tp, sizes.cp, sizes.dp
    etp, ep, edp = sizes.etp, sizes.ep, sizes.edp
    node, local = divmod(rank, gpus_per_node) if gpus_per_node else (0, rank)
    return RankCoords(
        rank=rank,
        node=node,
        local_rank=local,
        tp=rank % tp,
        cp=rank // tp % cp,
        dp=rank // (tp * cp) % dp,
        pp=rank // (tp * cp * dp),
        etp=rank % etp,
        ep=rank // etp % ep,
        edp=rank // (etp * ep) % edp,
    )


def ranks(sizes: Sizes, gpus_per_node: int) -> list[RankCoords]:
    return [coords(r, sizes, gpus_per_node) for r in range(sizes.world)]


#: Worlds up to this size get a table of every rank (`coordinate_table`); beyond, it would cost
#: more than what it serves (naming the ranks a log mentions).
TABLE_RANKS = 1 << 16
#: The coordinates a rank is named by in triage: the dense grid and the expert-parallel rank.
NAMED = ("tp", "pp", "cp", "dp", "ep")


def coordinate_table(sizes: Sizes, gpus_per_node: int) -> dict[int, dict[str, int]] | None:
    """Every rank's `NAMED` coordinates, by rank; None for a world larger than `TABLE_RANKS`."""
    if sizes.world > TABLE_RANKS:
        return None
    table = {}
    for rank in range(sizes.world):
        c = coords(rank, sizes, gpus_per_node)
        table[rank] = {name: getattr(c, name) for name in NAMED}
    return table


def span(values: list[int]) -> str:
    """``3``, ``0-7``, or ``0,2,4,6`` (long irregular sets shortened)."""
    unique = sorted(set(values))
    if len(unique) == 1:
        return str(unique[0])
    if unique == list(range(unique[0], unique[-1] + 1)):
        return f"{unique[0]}-{unique[-1]}"
    if len(unique) <= 4:
        return ",".join(map(str, unique))
    return f"{unique[0]},{unique[1]},…,{unique[-1]}"


def tp_within_nodes(sizes: Sizes, gpus_per_node: int) -> bool:
    return gpus_per_node > 0 and gpus_per_node % sizes.tp == 0
