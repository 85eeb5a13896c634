"""The per-GPU memory estimate for the most loaded rank, with the assumptions it rests on."""

from __future__ import annotations

from math import ceil

from jobc.core.rational import Fraction
from jobc.core.record import field, record
from jobc.memory import activations as act
from jobc.memory import states
from jobc.memory.params import ParamCounts, count, one_expert
from jobc.memory.placement import RankParams, Sizes, per_rank
from jobc.memory.shape import ModelShape

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Literal

    Kind = Literal["training", "inference", "convert"]

GIB = 1 << 30
CONTEXT_BYTES = GIB  # CUDA context plus cuBLAS/cuDNN workspaces
NCCL_BYTES = GIB  # communicator buffers, once there is anyone to talk to
FRAGMENTATION = Fraction(1, 10)  # caching-allocator slack on the parts that come and go


@record
class Job:
    """What the job does with the model."""

    kind: Kind = "training"
    sharding: states.Sharding = "none"
    seq_length: int | None = None
    micro_batch: int = 1
    global_batch: int | None = None
    recompute: act.Recompute = "selective"
    # the code whose activations are counted; None: pytorch under fsdp2, megatron otherwise (a
    # linted spec always says, see jobc.spec.framework)
    framework: act.Framework | None = None
    imbalance: Fraction = Fraction(1)

    @property
    def activation_model(self) -> act.Framework:
        if self.framework is not None:
            return self.framework
        return "pytorch" if self.sharding == "fsdp2" else "megatron"


@record
class Estimate:
    """Bytes on the most loaded GPU, by component; ``total`` is their sum."""

    stage: int
    rank: RankParams
    weights: int  # every weight on the GPU, gathered copies included
    expert_weights: int  # of which routed experts
    gradients: int
    optimizer: int
    activations: int
    kv_cache: int
    overhead: int
    phase: str  # when the peak happens
    stage_totals: tuple[int, ...]
    # what the estimate assumes, in sentences (`assumptions`), written when asked: `jobc plan`
    # prints them, and lint, which asks for an estimate of every spec with a model, never does
    notes: Callable[[], tuple[str, ...]] | None = field(default=None, compare=False)
    # parts the estimate could not count, and the spec field that would let it
    uncounted: tuple[str, ...] = ()
    needs: tuple[str, ...] = ()

    @property
    def assumptions(self) -> tuple[str, ...]:
        return () if self.notes is None else self.notes()

    @property
    def complete(self) -> bool:
        """Whether every part of the job's memory is counted (a total to say "fits" by)."""
        return not self.uncounted

    @property
    def model_states(self) -> int:
        return self.weights + self.gradients + self.optimizer

    @property
    def total(self) -> int:
        return self.model_states + self.activations + self.kv_cache + self.overhead

    def as_dict(self) -> dict[str, int]:
        return {
            "weights_bytes": self.weights,
            "expert_weights_bytes": self.expert_weights,
            "gradients_bytes": self.gradients,
            "optimizer_bytes": self.optimizer,
            "activations_bytes": self.activations,
            "kv_cache_bytes": self.kv_cache,
            "overhead_bytes": self.overhead,
            "total_bytes": self.total,
        }


def gb(n: int | Fraction) -> str:
    return f"{float(n) / 1e9:.1f} GB"


def microbatches(job: Job, sizes: Sizes) -> int | None:
    if job.global_batch is None:
        return None
    return max(1, job.global_batch // (job.micro_batch * sizes.dp))


def estimate(shape: ModelShape, sizes: Sizes, job: Job) -> Estimate:
    """The estimate for the pipeline stage whose ranks need the most memory."""
    counts = count(shape)
    ranks = per_rank(shape, counts, sizes)
    results = [_stage(shape, counts, sizes, job, rank) for rank in ranks]
    best = max(results, key=lambda e: (e.total, -e.stage))
    totals = tuple(e.total for e in results)

    def notes() -> tuple[str, ...]:
        return tuple(_assumptions(shape, counts, sizes, job, best))

    uncounted: tuple[str, ...] = ()
    if job.seq_length is None and job.kind != "convert":
        uncounted = ("activations",) if job.kind == "training" else ("activations", "KV cache")
    return Estimate(
        stage=best.stage,
        rank=best.rank,
        weights=best.weights,
        expert_weights=best.expert_weights,
        gradients=best.gradients,
        optimizer=best.optimizer,
        activations=best.activations,
        kv_cache=best.kv_cache,
        overhead=best.overhead,
        phase=best.phase,
        stage_totals=totals,
        notes=notes,
        uncounted=uncounted,
        needs=("workload.seq_length",) if uncounted else (),
    )


def _overhead(sizes: Sizes, dynamic: int) -> int:
    return CONTEXT_BYTES + (NCCL_BYTES if sizes.world > 1 else 0) + ceil(dynamic * FRAGMENTATION)


def largest_tensor(shape: ModelShape) -> tuple[str, int]:
    """The biggest single full tensor (elements), which conversion gathers on one rank."""
    h = shape.hidden
    mats = 2 if shape.gated_mlp else 1
    candidates = [
        ("the embedding", shape.vocab * h),
        ("a dense MLP's input projection", mats * shape.ffn_hidden * h),
        ("the fused QKV projection", (shape.heads + 2 * shape.kv_heads) * shape.head_dim * h),
    ]
    if shape.moe is not None:
        candidates.append(("an expert's input projection", mats * shape.moe.ffn_hidden * h))
    return max(candidates, key=lambda c: c[1])


def _stage(shape: ModelShape, counts: ParamCounts, sizes: Sizes, job: Job, rank: RankParams) -> Estimate:
    wbytes = shape.dtype_bytes
    if job.kind != "training":
        weights = rank.total * wbytes
        expert = rank.expert * wbytes
        kv = activations = 0
        phase = "conversion" if job.kind == "convert" else "forward pass"
        if job.kind == "convert":
            overhead = _overhead(sizes, 0) + largest_tensor(shape)[1] * wbytes
        else:
            if job.seq_length is not None:
                n = act.tokens(job.seq_length, job.micro_batch, sizes)
                kv = n * act.kv_cache_per_token(shape, sizes, len(rank.layers))
                activations = act.inference_workspace(
                    shape, sizes, rank, seq_length=job.seq_length, micro_batch=job.micro_batch
                )
            overhead = _overhead(sizes, activations + kv)
        return Estimate(rank.stage, rank, weights, expert, 0, 0, activations, kv, overhead, phase, ())

    dense = states.training(shape.dtype, job.sharding, sizes.dp * sizes.cp)
    experts = states.training(shape.dtype, job.sharding, sizes.edp)
    weights = ceil(rank.dense * dense.weights) + ceil(rank.expert * experts.weights)
    expert_weights = ceil(rank.expert * experts.weights)
    gradients = ceil(rank.dense * dense.gradients + rank.expert * experts.gradients)
    optimizer = ceil(rank.dense * dense.optimizer + rank.expert * experts.optimizer)
    stage_acts: act.StageActivations | None = None
    if job.seq_length is not None:
        stage_acts = act.for_stage(
            shape,
            sizes,
            rank,
            seq_length=job.seq_length,
            micro_batch=job.micro_batch,
            microbatches=microbatches(job, sizes),
            recompute=job.recompute,
            framework=job.activation_model,
            imbalance=job.imbalance,
        )
    fsdp = job.sharding in states.FSDP
    acts = stage_acts or act.StageActivations(0, 0, 0, 0, 0, 0, Fraction(1))
    # (moment, decoder layers gathered, gradients, extra optimizer bytes, activations): the peak
    # falls on one of these moments of a training step
    moments: list[tuple[str, int, int, int, int]] = []
    if not fsdp:
        # static gradient buffers and an in-place fused optimizer: only activations move
        moments.append(("backward pass", 0, gradients, 0, max(acts.at_loss, acts.in_backward)))
    else:
        # PyTorch optimizers free gradients between steps (zero_grad sets them to None)
        grads_at_loss = 0 if job.sharding == "fsdp2" else gradients
        moments.append(("loss backward", 1, grads_at_loss, 0, acts.at_loss))
        # a layer's unsharded gradients and their fp32 copy for the reduce-scatter, after its
        # backward has freed its activations
        layer_grads = rank.largest_layer * (wbytes + 4)
        after_layer = max(0, acts.in_backward - acts.one_layer)
        moments.append(("backward of a layer", 2, gradients + layer_grads, 0, after_layer))
        if job.sharding == "fsdp2":
            # torch.optim's default (foreach) step makes one fp32 temporary the size of the rank's
            # shard, which is what the sharded fp32 weights weigh
            moments.append(("optimizer step", 0, gradients, weights, 0))
    best: Estimate | None = None
    for name, gathered_layers, grads, extra_optimizer, activations in moments:
        gathered = gathered_expert = 0
        if fsdp and name != "optimizer step":
            gathered = (rank.root + gathered_layers * rank.largest_layer) * wbytes
            gathered_expert = gathered_layers * rank.largest_layer_expert * wbytes
        candidate = Estimate(
            rank.stage,
            rank,
            weights + gathered,
            expert_weights + gathered_expert,
            grads,
            optimizer + extra_optimizer,
            activations,
            0,
            _overhead(sizes, activations),
            name,
            (),
        )
        if best is None or candidate.total > best.total:
            best = candidate
    assert best is not None
    return best


def _assumptions(shape: ModelShape, counts: ParamCounts, sizes: Sizes, job: Job, e: Estimate) -> list[str]:
    out: list[str] = []
    r = e.rank
    out.append(
        f"Model from {shape.source}: {counts.total:,} parameters, {counts.active:,} active per token "
        "(embedding and output layer included)."
    )
    out += shape.notes
    if shape.checkpoint_mtp_layers and not shape.mtp_layers:
        out.append(
            f"The checkpoint defines {shape.checkpoint_mtp_layers} multi-token-prediction module(s); "
            "they are not counted (set model.mtp_layers when the job trains them)."
        )
    if sizes.pp > 1:
        out.append(
            f"Layers split evenly over pp {sizes.pp} stages, the embedding on the first and the final norm "
            f"and output layer on the last; the most loaded is stage {e.stage} "
            f"(layers {r.layers.start}-{r.layers.stop - 1})."
        )
    out.append(
        f"Tensor parallelism (tp {sizes.tp}) splits attention, dense MLPs, shared experts and the "
        "vocabulary; norms, routers and other small pieces are whole on every rank."
    )
    if shape.moe is not None:
        m = shape.moe
        out.append(
            f"Routed experts: {m.experts} / ep {sizes.ep} = {r.experts_per_layer} per GPU in each MoE layer, "
            f"each expert's matrices split over etp {sizes.etp}; tp splits experts only through etp."
        )
    if shape.checkpoint_dtype and shape.checkpoint_dtype != shape.dtype:
        out.append(
            f"Weights held in {shape.dtype} ({shape.dtype_bytes} bytes per parameter) although the "
            f"checkpoint is {shape.checkpoint_dtype}."
        )
    else:
        out.append(f"Weights held in {shape.dtype} ({shape.dtype_bytes} bytes per parameter).")
    if job.kind == "training":
        out += _training_assumptions(shape, sizes, job, e)
    elif job.kind == "inference":
        if job.seq_length is None:
            out.append("KV cache and activations not counted: workload.seq_length is not set.")
        else:
            out.append(
                f"KV cache for micro_batch × seq_length = {job.micro_batch * job.seq_length:,} tokens "
                f"in {shape.dtype}, every layer keeping the full sequence; a forward pass needs one "
                "layer's activations and last-token logits on top."
            )
        out.append("No optimizer, gradients or activation storage: inference only.")
    else:
        name, elements = largest_tensor(shape)
        out.append(
            f"Conversion holds the rank's weights; one full tensor gathered at a time ({name}, "
            f"{gb(elements * shape.dtype_bytes)}) is counted as overhead."
        )
    out.append(
        "Overhead: 1 GiB for the CUDA context and cuBLAS/cuDNN workspaces"
        + (", 1 GiB for NCCL buffers" if sizes.world > 1 else "")
        + (", 10% of activations and KV cache for allocator fragmentation" if job.kind != "convert" else "")
        + ". Not modelled: grouped-GEMM workspaces that grow with the experts per GPU, CUDA graphs, "
        "communication buckets."
    )
    out.append("GB = 10^9 bytes.")
    return out


def _training_assumptions(shape: ModelShape, sizes: Sizes, job: Job, e: Estimate) -> list[str]:
    out: list[str] = []
    d = sizes.dp * sizes.cp
    formula = states.table(shape.dtype, job.sharding)
    shards = f"d = dp·cp = {d}"
    if shape.moe is not None:
        shards += f" for dense parameters and d = edp = {sizes.edp} for routed experts"
    out.append(
        f"Full-parameter mixed-precision Adam, sharding {job.sharding}: {formula} bytes per parameter, "
        f"{shards}."
    )
    if job.sharding in states.FSDP:
        out.append(
            "FSDP keeps the embedding and output layer gathered through forward and backward and "
            "gathers at most two decoder layers at once (the one in use and the next), with one "
            "layer's unsharded gradients and their fp32 copy for the reduce-scatter"
            + (
                "; gradients exist from the backward pass to the optimizer step (zero_grad frees "
                "them), and the optimizer step needs one fp32 temporary the size of the shard"
                if job.sharding == "fsdp2"
                else ""
            )
            + f"; the peak falls on the {e.phase}."
        )
    if job.seq_length is None:
        out.append("Activations not counted: workload.seq_length is not set.")
        return out
    source = (
        "Megatron (Korthikanti et al. 2022, generalised to any MLP width)"
        if job.activation_model == "megatron"
        else "PyTorch/transformers-style code (SDPA, fp32 RMSNorm; measured per-layer form)"
    )
    tokens = act.tokens(job.seq_length, job.micro_batch, sizes)
    sp = "with" if sizes.sequence_parallel and sizes.tp > 1 else "without"
    out.append(
        f"Activations as in {source}: {tokens:,} tokens per micro-batch per rank "
        f"(seq_length {job.seq_length} / cp {sizes.cp} × micro_batch {job.micro_batch}), {sp} sequence "
        f"parallelism, recompute {job.recompute}; flash attention, so no attention scores are stored."
    )
    if sizes.pp > 1:
        held = act.in_flight(e.stage, sizes, microbatches(job, sizes))
        schedule = f"interleaved 1F1B (vpp {sizes.vpp})" if sizes.vpp and sizes.vpp > 1 else "1F1B"
        out.append(f"Pipeline schedule {schedule}: stage {e.stage} holds {float(held):g} micro-batches.")
    if shape.moe is not None:
        out.append(
            "MoE layers store activations for top_k routed experts per token with perfectly "
            "balanced routing; the busiest expert rank holds more."
        )
    return out


def expert_weights_per_gpu(shape: ModelShape, sizes: Sizes) -> tuple[int, RankParams]:
    """Routed-expert weight bytes on the GPU that holds the most, and that GPU's stage."""
    ranks = per_rank(shape, count(shape), sizes)
    best = max(ranks, key=lambda r: (r.expert, -r.stage))
    return best.expert * shape.dtype_bytes, best


def expert_weights_at(shape: ModelShape, rank: RankParams, *, ep: int, etp: int) -> int:
    """What ``rank``'s routed-expert weights would weigh with another ep and etp."""
    if shape.moe is None:
        return 0
    per_expert = -(-one_expert(shape) // etp)
    return rank.expert_layers * -(-shape.moe.experts // ep) * per_expert * shape.dtype_bytes


# A pipeline deeper than this is no real job; the estimate walks its stages one by one.
MAX_STAGES = 4096


def estimable(shape: ModelShape, sizes: Sizes) -> bool:
    """Whether every stage has a layer to hold and the stages are few enough to walk."""
    return sizes.pp <= min(shape.layers, MAX_STAGES)
