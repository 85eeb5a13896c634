"""Which parameters one rank holds on each pipeline stage.

Megatron-Core's placement: layers are split evenly over pipeline stages; the first stage also
holds the input embedding, the last the final norm, the output layer (a copy of the embedding
when the two are tied and pp > 1) and any MTP modules. Within a stage, tensor parallelism splits
attention, dense MLPs, shared experts and the vocabulary; norms, routers and the other small
pieces are whole on every rank; routed experts are split over ep (whole experts) and etp
(each expert's matrices).
"""

from __future__ import annotations

from jobc.core.record import record
from jobc.memory.params import ParamCounts
from jobc.memory.shape import ModelShape


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


@record
class Sizes:
    """The parallel layout: world = tp·cp·dp·pp and, for experts, world = etp·ep·edp·pp."""

    world: int
    tp: int = 1
    pp: int = 1
    cp: int = 1
    ep: int = 1
    etp: int = 1
    vpp: int | None = None
    sequence_parallel: bool = False

    @classmethod
    def checked(
        cls,
        world: int,
        *,
        tp: int = 1,
        pp: int = 1,
        cp: int = 1,
        ep: int = 1,
        etp: int = 1,
        vpp: int | None = None,
        sequence_parallel: bool = False,
    ) -> Sizes | None:
        """The layout, or None when the sizes do not divide the world (other rules say so)."""
        if world <= 0 or world % (tp * pp * cp) or world % (etp * ep * pp):
            return None
        return cls(world, tp, pp, cp, ep, etp, vpp, sequence_parallel)

    @property
    def dp(self) -> int:
        return self.world // (self.tp * self.pp * self.cp)

    @property
    def edp(self) -> int:
        """Expert data-parallel size: how many ranks hold the same expert shard."""
        return self.world // (self.etp * self.ep * self.pp)


def stage_layers(layers: int, pp: int) -> list[range]:
    """Layer indices on each stage: an even split, the first stages taking one more when
    ``layers`` is not a multiple of ``pp``."""
    base, extra = divmod(layers, pp)
    out, start = [], 0
    for stage in range(pp):
        size = base + (1 if stage < extra else 0)
        out.append(range(start, start + size))
        start += size
    return out


@record
class RankParams:
    """Parameters one rank of one pipeline stage holds."""

    stage: int
    layers: range
    moe_layers: int
    sharded: int  # this rank's share of what tensor parallelism splits
    replicated: int  # what every tensor-parallel rank holds whole
    expert: int  # this rank's routed-expert parameters
    experts_per_layer: int  # routed experts this rank holds in each of its MoE layers
    expert_layers: int  # layers with routed experts on this stage (MoE layers and MoE MTP modules)
    root: int  # of the above: embedding, output layer and final norm (FSDP keeps them gathered)
    largest_layer: int  # the biggest single decoder layer on this rank (FSDP gathers one at a time)
    largest_layer_expert: int  # of which routed experts
    mtp_layers: int

    @property
    def dense(self) -> int:
        """Everything but the routed experts."""
        return self.sharded + self.replicated

    @property
    def total(self) -> int:
        return self.dense + self.expert


def per_rank(shape: ModelShape, counts: ParamCounts, sizes: Sizes) -> list[RankParams]:
    """The parameters of one rank on every pipeline stage, in stage order."""
    moe = shape.moe
    experts_here = ceil_div(moe.experts, sizes.ep) if moe is not None else 0
    # an expert's matrices split over etp; a whole expert is never split over ep
    expert_layer = experts_here * ceil_div(counts.one_expert, sizes.etp)
    out: list[RankParams] = []
    ranges = stage_layers(shape.layers, sizes.pp)
    for stage, span in enumerate(ranges):
        first, last = stage == 0, stage == sizes.pp - 1
        moe_count = shape.moe_layers_in(span.start, span.stop)
        dense_count = len(span) - moe_count
        sharded = dense_count * counts.dense.sharded
        replicated = dense_count * counts.dense.replicated
        largest, largest_expert = 0, 0
        if dense_count:
            largest = ceil_div(counts.dense.sharded, sizes.tp) + counts.dense.replicated
        expert = 0
        if moe_count and counts.moe is not None:
            sharded += moe_count * counts.moe.sharded
            replicated += moe_count * counts.moe.replicated
            expert = moe_count * expert_layer
            moe_size = ceil_div(counts.moe.sharded, sizes.tp) + counts.moe.replicated + expert_layer
            if moe_size > largest:
                largest, largest_expert = moe_size, expert_layer
        root_sharded, root_replicated = 0, 0
        if first:
            root_sharded += counts.embedding
        if last:
            # tied weights still need a copy of the embedding on the last stage when pp > 1
            root_sharded += counts.output if counts.output or sizes.pp == 1 else counts.embedding
            root_replicated += counts.final_norm
        mtp = counts.mtp_layers if last else 0
        expert_layers = moe_count + (mtp if counts.mtp_is_moe and counts.moe is not None else 0)
        if mtp:
            layer = counts.mtp_layer
            sharded += mtp * (layer.sharded + counts.mtp_extra.sharded)
            replicated += mtp * (layer.replicated + counts.mtp_extra.replicated)
            if counts.mtp_is_moe:
                expert += mtp * expert_layer
        sharded += root_sharded
        replicated += root_replicated
        out.append(
            RankParams(
                stage=stage,
                layers=span,
                moe_layers=moe_count,
                sharded=ceil_div(sharded, sizes.tp),
                replicated=replicated,
                expert=expert,
                experts_per_layer=experts_here,
                expert_layers=expert_layers,
                root=ceil_div(root_sharded, sizes.tp) + root_replicated,
                largest_layer=largest,
                largest_layer_expert=largest_expert,
                mtp_layers=mtp,
            )
        )
    return out
