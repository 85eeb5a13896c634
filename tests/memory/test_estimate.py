"""The per-GPU estimate: Megatron parity, the MiniMax-M2 practice table, activations, KV cache."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobc.core.record import replace
from jobc.memory import activations as act
from jobc.memory import presets, states
from jobc.memory.estimate import Job, estimate, expert_weights_per_gpu
from jobc.memory.megatron import weight_and_optimizer_bytes
from jobc.memory.params import count
from jobc.memory.placement import Sizes, per_rank, stage_layers
from jobc.memory.ranks import coords, ranks, span
from jobc.memory.shape import Experts, ModelShape

MIB = 1 << 20


def _sizes(world: int, **kw: Any) -> Sizes:
    sizes = Sizes.checked(world, **kw)
    assert sizes is not None
    return sizes


# ---------------------------------------------------------------------------------------------
# Megatron-LM's unit test for compute_weight_and_optimizer_memory (expert-parallel version)

TINY = ModelShape(
    source="megatron unit test",
    family="custom",
    layers=2,
    hidden=8,
    heads=2,
    kv_heads=2,
    head_dim=4,
    ffn_hidden=16,
    vocab=32,
    tied_embeddings=True,
    gated_mlp=False,
    moe=Experts(
        experts=4, top_k=1, ffn_hidden=16, shared_experts=1, shared_ffn_hidden=8, pattern=(False, True)
    ),
)


def test_megatron_parity_expert_parallel() -> None:
    sizes = _sizes(64, tp=2, pp=2, ep=2, etp=4)
    assert (sizes.dp, sizes.edp) == (16, 4)
    assert weight_and_optimizer_bytes(TINY, sizes) == Fraction(3195)


def test_megatron_parity_latent_moe() -> None:
    assert TINY.moe is not None
    latent = replace(TINY, moe=replace(TINY.moe, latent_size=4))
    assert weight_and_optimizer_bytes(latent, _sizes(32, tp=2, ep=2, etp=4)) == Fraction(5382)


def test_megatron_memory_falls_with_tensor_and_expert_parallelism() -> None:
    by_tp = [
        weight_and_optimizer_bytes(TINY, _sizes(16 * tp, tp=tp), distributed_optimizer=False)
        for tp in (1, 2, 4)
    ]
    assert by_tp[0] > by_tp[1] > by_tp[2]
    by_ep = [
        weight_and_optimizer_bytes(TINY, _sizes(32, tp=2, ep=ep, etp=etp))
        for ep, etp in ((1, 1), (2, 1), (2, 2), (4, 2))
    ]
    assert by_ep[0] > by_ep[1] > by_ep[2] > by_ep[3]


def test_exact_placement_of_the_tiny_model() -> None:
    # stage 0: the dense layer and the embedding; stage 1: the MoE layer, final norm and a copy
    # of the tied embedding for the output layer
    sizes = _sizes(64, tp=2, pp=2, ep=2, etp=4)
    first, last = per_rank(TINY, count(TINY), sizes)
    assert (first.sharded, first.replicated, first.expert) == ((256 + 256 + 256) // 2, 16, 0)
    # two of the four experts, each split over etp 4: 2 × (2·8·16)/4
    assert (last.sharded, last.replicated, last.expert) == ((256 + 128 + 256) // 2, 16 + 32 + 8, 2 * 64)


# ---------------------------------------------------------------------------------------------
# MiniMax-M2 (Megatron-Bridge's multi-node guide; etp 1, bf16, pp 1)

MINIMAX_ROWS = [
    # world, tp, ep, experts per GPU, weights GB, Adam with distributed optimizer GB, without GB
    (8, 2, 4, 64, 116.4, 692.3, 1047.6),
    (16, 2, 8, 32, 60.2, 352.2, 542.1),
    (16, 1, 16, 16, 36.1, 279.8, 324.9),
    (64, 2, 32, 8, 18.1, 97.2, 162.9),
]


@pytest.mark.parametrize("row", MINIMAX_ROWS)
def test_minimax_table(row: tuple[int, int, int, int, float, float, float]) -> None:
    world, tp, ep, per_gpu, weights, dist, plain = row
    shape = presets.shape("minimax-m2")
    sizes = _sizes(world, tp=tp, ep=ep, etp=1)
    served = estimate(shape, sizes, Job(kind="inference"))
    assert served.rank.experts_per_layer == per_gpu
    assert round(served.weights / 1e9, 1) == weights
    trained = estimate(shape, sizes, Job(sharding="distributed-optimizer"))
    assert round(trained.model_states / 1e9, 1) == dist
    assert round(estimate(shape, sizes, Job()).model_states / 1e9, 1) == plain


def test_minimax_etp_halves_the_experts() -> None:
    shape = presets.shape("minimax-m2")
    one = estimate(shape, _sizes(64, tp=2, ep=32, etp=1), Job(kind="inference"))
    two = estimate(shape, _sizes(64, tp=2, ep=32, etp=2), Job(kind="inference"))
    assert two.expert_weights * 2 == one.expert_weights
    assert round(two.weights / 1e9, 1) == 11.1
    assert (
        round(
            estimate(
                shape, _sizes(64, tp=2, ep=32, etp=2), Job(sharding="distributed-optimizer")
            ).model_states
            / 1e9,
            1,
        )
        == 76.1
    )
    expert_bytes, rank = expert_weights_per_gpu(shape, _sizes(8, tp=2, ep=4, etp=1))
    assert (round(expert_bytes / 1e9, 1), rank.experts_per_layer) == (112.3, 64)


def test_bytes_per_parameter_tables() -> None:
    # Megatron-LM's distributed-optimizer guide: without / with the distributed optimizer
    assert states.training("bf16", "none", 8).total == 18
    assert states.training("bf16", "distributed-optimizer", 8).total == 6 + Fraction(12, 8)
    assert states.training("fp16", "none", 8).total == 20
    assert states.training("fp16", "distributed-optimizer", 8).total == 4 + Fraction(16, 8)
    assert states.training("fp32", "none", 8).total == 16
    assert states.training("fp32", "distributed-optimizer", 8).total == 8 + Fraction(8, 8)
    assert states.training("bf16", "fsdp2", 8).total == Fraction(16, 8)
    assert states.training("bf16", "megatron-fsdp", 8).total == Fraction(18, 8)


def test_distributed_optimizer_shards_experts_over_edp() -> None:
    shape = presets.shape("mixtral-8x7b")
    sizes = _sizes(64, tp=2, ep=8, etp=1)
    assert (sizes.dp, sizes.edp) == (32, 8)
    e = estimate(shape, sizes, Job(sharding="distributed-optimizer"))
    rank = e.rank
    expected = -(-rank.dense * 12 // 32) + -(-rank.expert * 12 // 8)
    assert e.optimizer == expected
    assert e.gradients == rank.total * 4
    assert e.weights == rank.total * 2


# ---------------------------------------------------------------------------------------------
# Activations: the measured per-layer rows (MiB per layer, bf16, one micro-batch, no tp)

ACTIVATION_ROWS = [
    # h, f, heads, kv heads, seq, batch, PyTorch-style code (measured: 392.3, 184.1, 504.4), Megatron
    (4096, 14336, 32, 8, 2048, 1, Fraction("392.25"), 256),
    (2048, 5632, 16, 16, 1024, 2, Fraction("184.125"), 116),
    (3072, 8192, 24, 4, 4096, 1, Fraction("504.375"), 344),
]


@pytest.mark.parametrize("row", ACTIVATION_ROWS)
def test_activation_rows(row: tuple[int, int, int, int, int, int, Fraction, int]) -> None:
    h, f, a, kv, s, b, pytorch_mib, megatron_mib = row
    shape = ModelShape("t", "llama", 2, h, a, kv, h // a, f, 32000)
    sizes = _sizes(1)
    n = act.tokens(s, b, sizes)
    one = Fraction(1)
    assert (
        act.layer_bytes(shape, sizes, n, moe=False, framework="pytorch", imbalance=one) == pytorch_mib * MIB
    )
    assert (
        act.layer_bytes(shape, sizes, n, moe=False, framework="megatron", imbalance=one) == megatron_mib * MIB
    )


def test_korthikanti_forms_under_tensor_parallelism() -> None:
    h, s = 4096, 2048
    shape = ModelShape("t", "llama", 2, h, 32, 32, 128, 4 * h, 32000)
    one = Fraction(1)
    no_sp = act.layer_bytes(shape, _sizes(8, tp=8), s, moe=False, framework="megatron", imbalance=one)
    assert no_sp == s * h * (10 + Fraction(24, 8))  # sbh(10 + 24/t)
    sp = act.layer_bytes(
        shape, Sizes(8, tp=8, sequence_parallel=True), s, moe=False, framework="megatron", imbalance=one
    )
    assert sp == Fraction(34 * s * h, 8)  # 34sbh/t
    assert act.layer_input_bytes(shape, _sizes(1), s) == 2 * s * h  # full recompute keeps 2sbh


def test_moe_activation_width() -> None:
    shape = presets.shape("deepseek-v3")
    width = act.mlp_width(shape, True, Fraction(1))
    assert width == 8 * 2048 + 2048  # top_k × expert width + shared width
    assert act.mlp_width(shape, False, Fraction(1)) == 18432


def test_pipeline_in_flight() -> None:
    sizes = _sizes(8, pp=4)
    assert [act.in_flight(s, sizes, None) for s in range(4)] == [4, 3, 2, 1]
    assert act.in_flight(0, sizes, 2) == 2
    interleaved = Sizes(8, pp=4, vpp=2)
    # Megatron's first-stage factor: p·(1 + (p−1)/(p·v)) micro-batches of the stage's layers
    assert act.in_flight(0, interleaved, None) == 4 * (1 + Fraction(3, 8))


def test_first_stage_is_the_most_loaded_for_training() -> None:
    shape = presets.shape("llama3-70b")
    sizes = _sizes(64, tp=8, pp=4)
    e = estimate(shape, sizes, Job(sharding="distributed-optimizer", seq_length=8192, global_batch=64))
    assert e.stage == 0
    assert len(e.stage_totals) == 4
    assert e.stage_totals[0] == max(e.stage_totals)
    assert stage_layers(80, 4)[0] == range(20)
    assert stage_layers(30, 4) == [range(8), range(8, 16), range(16, 23), range(23, 30)]


def test_recompute_full_keeps_less() -> None:
    shape = presets.shape("llama3-8b")
    sizes = _sizes(8, tp=2)
    base = Job(sharding="distributed-optimizer", seq_length=8192)
    selective = estimate(shape, sizes, base)
    full = estimate(shape, sizes, replace(base, recompute="full"))
    assert full.activations < selective.activations / 3


def test_kv_cache() -> None:
    llama = presets.shape("llama3-70b")
    # 80 layers × (k, v) × 8 kv heads / tp 4 × 128 × 2 bytes per token
    assert act.kv_cache_per_token(llama, _sizes(4, tp=4), 80) == 80 * 2 * 2 * 128 * 2
    # tp beyond the kv heads replicates them
    assert act.kv_cache_per_token(llama, _sizes(16, tp=16), 80) == 80 * 2 * 1 * 128 * 2
    ds = presets.shape("deepseek-v3")
    assert act.kv_cache_per_token(ds, _sizes(8, tp=8), 61) == 61 * (512 + 64) * 2
    e = estimate(llama, _sizes(4, tp=4), Job(kind="inference", seq_length=8192, micro_batch=4))
    assert e.kv_cache == 8192 * 4 * 80 * 2 * 2 * 128 * 2
    assert e.gradients == e.optimizer == 0


def test_convert_counts_a_gathered_tensor_as_overhead() -> None:
    shape = presets.shape("llama3-8b")
    e = estimate(shape, _sizes(8, tp=8), Job(kind="convert"))
    assert e.weights == per_rank(shape, count(shape), _sizes(8, tp=8))[0].total * 2
    assert e.overhead == (1 << 30) * 2 + 128256 * 4096 * 2


def test_fsdp_moments() -> None:
    shape = presets.shape("llama3-8b")
    e = estimate(shape, _sizes(64), Job(sharding="fsdp2", seq_length=4096))
    assert e.phase in ("loss backward", "backward of a layer", "optimizer step")
    assert any("FSDP keeps the embedding" in a for a in e.assumptions)
    fsdp_states = count(shape).total * 16 // 64
    assert e.model_states >= fsdp_states


def test_assumptions_are_sentences() -> None:
    e = estimate(
        presets.shape("minimax-m2"),
        _sizes(64, tp=2, ep=32, etp=1, pp=1),
        Job(sharding="distributed-optimizer", seq_length=4096),
    )
    assert e.assumptions
    assert all(a[0].isupper() and a.endswith(".") for a in e.assumptions)
    assert any("6 + 12/d" in a and "edp = 2" in a for a in e.assumptions)
    assert any("not counted" in a and "multi-token" in a for a in e.assumptions)


def test_layout_megatron_order() -> None:
    sizes = _sizes(16, tp=2, pp=2, ep=4, etp=1)
    assert (sizes.dp, sizes.edp) == (4, 2)
    c = coords(13, sizes, 8)
    assert (c.node, c.local_rank, c.tp, c.cp, c.dp, c.pp) == (1, 5, 1, 0, 2, 1)
    assert (c.etp, c.ep, c.edp) == (0, 1, 1)
    everything = ranks(sizes, 8)
    # every (tp, cp, dp, pp) and every (etp, ep, edp, pp) coordinate appears exactly once
    assert len({(r.tp, r.cp, r.dp, r.pp) for r in everything}) == 16
    assert len({(r.etp, r.ep, r.edp, r.pp) for r in everything}) == 16
    assert span([0, 1, 2, 3]) == "0-3"
    assert span([0, 2]) == "0,2"
    assert span([5]) == "5"


@st.composite
def jobs(draw: st.DrawFn) -> tuple[str, Sizes, Job]:
    name = draw(st.sampled_from(sorted(presets.catalogue())))
    shape = presets.shape(name)
    tp = draw(st.sampled_from([1, 2, 4, 8]))
    pp = draw(st.sampled_from([1, 2, 4]))
    cp = draw(st.sampled_from([1, 2]))
    experts = shape.moe.experts if shape.moe is not None else 1
    ep = draw(st.sampled_from([e for e in (1, 2, 4, 8, 16, 32) if experts % e == 0]))
    etp = draw(st.sampled_from([1, tp]))
    dp = draw(st.integers(1, 8))
    world = tp * pp * cp * dp * ep * etp
    sizes = Sizes.checked(
        world,
        tp=tp,
        pp=pp,
        cp=cp,
        ep=ep,
        etp=etp,
        sequence_parallel=draw(st.booleans()),
        vpp=draw(st.sampled_from([None, 2])),
    )
    assert sizes is not None
    job = Job(
        kind=draw(st.sampled_from(["training", "inference", "convert"])),
        sharding=draw(st.sampled_from(["none", "distributed-optimizer", "fsdp2", "megatron-fsdp"])),
        seq_length=draw(st.sampled_from([None, 1, 4096, 131072])),
        micro_batch=draw(st.integers(1, 8)),
        global_batch=draw(st.sampled_from([None, 1, 1024])),
        recompute=draw(st.sampled_from(["none", "selective", "full"])),
    )
    return name, sizes, job


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=jobs())
def test_any_layout_gives_a_consistent_estimate(case: tuple[str, Sizes, Job]) -> None:
    name, sizes, job = case
    shape = presets.shape(name)
    e = estimate(shape, sizes, job)
    parts = (e.weights, e.gradients, e.optimizer, e.activations, e.kv_cache, e.overhead)
    assert all(p >= 0 for p in parts)
    assert e.total == sum(parts)
    assert 0 <= e.expert_weights <= e.weights
    assert e.stage_totals[e.stage] == max(e.stage_totals)
    if job.kind != "training":
        assert e.gradients == e.optimizer == 0
    more = Sizes(sizes.world * 2, sizes.tp, sizes.pp, sizes.cp, sizes.ep * 2, sizes.etp)
    if shape.moe is not None and shape.moe.experts % (sizes.ep * 2) == 0:
        assert expert_weights_per_gpu(shape, more)[0] <= expert_weights_per_gpu(shape, sizes)[0]


def test_records_behave_like_frozen_dataclasses() -> None:
    a = Sizes(8, tp=2)
    assert a == Sizes(8, 2) != Sizes(8, 4)
    assert hash(a) == hash(Sizes(8, 2))
    assert repr(a) == "Sizes(world=8, tp=2, pp=1, cp=1, ep=1, etp=1, vpp=None, sequence_parallel=False)"
    with pytest.raises(AttributeError, match="cannot assign to field 'tp'"):
        a.tp = 4  # type: ignore[misc]
    assert replace(a, tp=4).tp == 4
    with pytest.raises(TypeError, match="no field 'zz'"):
        replace(a, zz=1)
    with pytest.raises(TypeError, match="needs 'world'"):
        Sizes()  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="got 'world' twice"):
        Sizes(8, world=8)  # type: ignore[misc]


def test_the_coordinate_table_names_every_rank_of_a_world_it_can_hold() -> None:
    from jobc.memory.ranks import TABLE_RANKS, coordinate_table

    table = coordinate_table(Sizes(16, tp=2, pp=2), 8)
    assert table is not None
    assert list(table) == list(range(16))
    assert table[0] == {"tp": 0, "pp": 0, "cp": 0, "dp": 0, "ep": 0}
    assert table[13] == {"tp": 1, "pp": 1, "cp": 0, "dp": 2, "ep": 0}
    assert coordinate_table(Sizes(TABLE_RANKS * 2, tp=8), 8) is None
