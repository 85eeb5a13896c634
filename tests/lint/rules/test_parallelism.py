"""JC2 rules: each fires at its line and column, and a near miss does not."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.support.lint import codes, lint_text, only, where


def spec(resources: str, parallelism: str, extra: str = "") -> str:
    """A multi-node spec with the given flow mappings; line 4 holds parallelism."""
    return (
        "version: 1\n"
        "name: t\n"
        f"resources: {resources}\n"
        f"parallelism: {parallelism}\n"
        "launch: {program: train.py}\n"
        'slurm: {time: "01:00:00"}\n'
        f"{extra}"
    )


def test_jc201_fires_when_world_is_not_divisible(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources:
          nodes: 2
          gpus_per_node: 6
        parallelism:
          tp: 2
          pp: 4
        launch: {program: train.py}
        slurm: {time: "01:00:00"}
        """,
        tmp_path,
    )
    assert where(result, "JC201") == [(8, 7)]
    assert only(result, "JC201").message == (
        "world 12 (2 nodes × 6 GPUs) is not divisible by tp·pp·cp = 8 (tp 2 × pp 4 × cp 1); "
        "use 4 or 8 nodes, or pp 2 or 3"
    )


def test_jc201_fires_on_a_given_dp_that_disagrees(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 2, gpus_per_node: 8}
        parallelism:
          tp: 2
          dp: 4
        launch: {program: train.py}
        slurm: {time: "01:00:00"}
        """,
        tmp_path,
    )
    assert where(result, "JC201") == [(6, 7)]
    message = only(result, "JC201").message
    assert "dp 4 does not match world 16 (2 nodes × 8 GPUs)" in message
    assert "= 8; remove dp (it is derived) or set it to 8" in message


@st.composite
def layouts(draw: st.DrawFn) -> tuple[int, int, int, int, int]:
    """tp, pp, cp, dp and a gpus_per_node that divides their product (the world)."""
    tp = draw(st.sampled_from([1, 2, 3, 4, 8]))
    pp = draw(st.integers(1, 4))
    cp = draw(st.sampled_from([1, 2]))
    dp = draw(st.integers(1, 6))
    world = tp * pp * cp * dp
    gpus = draw(st.sampled_from([g for g in range(1, 9) if world % g == 0]))
    return tp, pp, cp, dp, gpus


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(layout=layouts())
def test_jc201_never_fires_when_world_is_tp_pp_cp_dp(
    tmp_path: Path, layout: tuple[int, int, int, int, int]
) -> None:
    tp, pp, cp, dp, gpus = layout
    nodes = tp * pp * cp * dp // gpus
    result = lint_text(
        spec(f"{{nodes: {nodes}, gpus_per_node: {gpus}}}", f"{{tp: {tp}, pp: {pp}, cp: {cp}, dp: {dp}}}"),
        tmp_path,
    )
    assert "JC003" not in codes(result)  # the rules ran
    assert "JC201" not in codes(result)


def test_jc202_fires_on_kv_heads_below_tp_for_training(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "{nodes: 2, gpus_per_node: 8}",
            "{tp: 16}",
            "model: {heads: 32, kv_heads: 8}\nworkload: {kind: pretrain}\n",
        ),
        tmp_path,
    )
    assert where(result, "JC202") == [(4, 19)]
    message = only(result, "JC202").message
    assert "model.kv_heads 8 is not divisible by tp 16" in message
    assert "use tp 4 or 8" in message


def test_jc202_fires_on_heads(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 2, gpus_per_node: 8}", "{tp: 8}", "model: {heads: 12}\n"),
        tmp_path,
    )
    assert where(result, "JC202") == [(4, 19)]
    message = only(result, "JC202").message
    assert "model.heads 12 is not divisible by tp 8" in message
    assert "and model.kv_heads 12" in message  # kv_heads defaults to heads
    assert "use tp 2 or 4" in message


def test_jc202_near_miss_inference_replicates_kv_heads(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "{nodes: 2, gpus_per_node: 8}",
            "{tp: 16}",
            "model: {heads: 32, kv_heads: 8}\nworkload: {kind: inference}\n",
        ),
        tmp_path,
    )
    assert "JC202" not in codes(result)


def test_jc203_fires_on_layers_not_divisible_by_pp(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 2, gpus_per_node: 8}", "{pp: 4}", "model: {layers: 30}\n"),
        tmp_path,
    )
    assert where(result, "JC203") == [(4, 19)]
    message = only(result, "JC203").message
    assert "model.layers 30 is not divisible by pp 4" in message
    assert "8, 8, 7, 7 layers" in message
    assert "use pp 3 or 5" in message


def test_jc203_fires_on_vpp(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 2, gpus_per_node: 8}", "{pp: 4, vpp: 3}", "model: {layers: 32}\n"),
        tmp_path,
    )
    assert where(result, "JC203") == [(4, 27)]
    message = only(result, "JC203").message
    assert "pp 4 × vpp 3 = 12 virtual stages" in message
    assert "each pipeline rank holds 8 layers" in message
    assert "use vpp 2 or 4" in message


def test_jc203_near_miss(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 2, gpus_per_node: 8}", "{pp: 4, vpp: 2}", "model: {layers: 32}\n"),
        tmp_path,
    )
    assert "JC203" not in codes(result)


def test_jc204_fires_when_the_expert_grid_does_not_tile_the_world(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 3, gpus_per_node: 8}", "{tp: 2, ep: 8}", "model: {moe: {experts: 64, top_k: 2}}\n"),
        tmp_path,
    )
    assert where(result, "JC204") == [(4, 26)]
    message = only(result, "JC204").message
    assert "ep·etp·pp = 16 (ep 8 × etp 2 from tp × pp 1)" in message
    assert "does not divide world 24 (3 nodes × 8 GPUs)" in message
    assert "use ep 2 or 4" in message


def test_jc204_fires_on_experts_not_divisible_by_ep(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 2, gpus_per_node: 8}", "{ep: 16}", "model: {moe: {experts: 60, top_k: 2}}\n"),
        tmp_path,
    )
    assert where(result, "JC204") == [(4, 19)]
    assert "model.moe.experts 60 is not divisible by ep 16" in only(result, "JC204").message


def test_jc204_near_miss(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 4, gpus_per_node: 8}", "{tp: 2, ep: 8}", "model: {moe: {experts: 64, top_k: 2}}\n"),
        tmp_path,
    )
    assert "JC204" not in codes(result)


def test_jc205_fires_on_a_global_batch_of_partial_micro_steps(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "{nodes: 2, gpus_per_node: 8}",
            "{tp: 2}",
            "workload:\n  micro_batch: 2\n  global_batch: 100\n",
        ),
        tmp_path,
    )
    assert where(result, "JC205") == [(9, 17)]
    message = only(result, "JC205").message
    assert "global_batch 100 is not divisible by micro_batch 2 × dp 8 = 16" in message
    assert "use global_batch 96 or 112" in message


def test_jc205_near_miss(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 2, gpus_per_node: 8}", "{tp: 2}", "workload: {micro_batch: 2, global_batch: 96}\n"),
        tmp_path,
    )
    assert "JC205" not in codes(result)


def test_jc206_fires_on_sequence_length_with_cp_and_sequence_parallel(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "{nodes: 2, gpus_per_node: 8}",
            "{tp: 4, cp: 2, sequence_parallel: true}",
            "workload:\n  seq_length: 8190\n",
        ),
        tmp_path,
    )
    assert where(result, "JC206") == [(8, 15)]
    message = only(result, "JC206").message
    assert "seq_length 8190 is not divisible by 2·cp = 4" in message
    assert "nor by tp·cp = 8 (tp 4 × cp 2)" in message
    assert "use seq_length 8184 or 8192" in message


def test_jc206_near_miss(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "{nodes: 2, gpus_per_node: 8}",
            "{tp: 4, cp: 2, sequence_parallel: true}",
            "workload: {seq_length: 8192}\n",
        ),
        tmp_path,
    )
    assert "JC206" not in codes(result)


def test_jc207_fires_on_sequence_parallel_without_tp(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 2, gpus_per_node: 8}", "{tp: 1, sequence_parallel: true}"),
        tmp_path,
    )
    assert where(result, "JC207") == [(4, 41)]
    assert "sequence_parallel is on but tp is 1" in only(result, "JC207").message


def test_jc207_near_miss(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 2, gpus_per_node: 8}", "{tp: 2, sequence_parallel: true}"),
        tmp_path,
    )
    assert "JC207" not in codes(result)


def test_jc208_fires_on_tp_larger_than_a_node(tmp_path: Path) -> None:
    result = lint_text(spec("{nodes: 2, gpus_per_node: 8}", "{tp: 16}"), tmp_path)
    assert where(result, "JC208") == [(4, 19)]
    assert "tp 16 is more than the 8 GPUs of a node" in only(result, "JC208").message


def test_jc208_fires_on_tp_not_dividing_a_node(tmp_path: Path) -> None:
    result = lint_text(spec("{nodes: 3, gpus_per_node: 8}", "{tp: 3}"), tmp_path)
    assert where(result, "JC208") == [(4, 19)]
    message = only(result, "JC208").message
    assert "tp 3 does not divide the 8 GPUs of a node" in message
    assert "use tp 2 or 4" in message


def test_jc208_near_miss(tmp_path: Path) -> None:
    result = lint_text(spec("{nodes: 2, gpus_per_node: 8}", "{tp: 8, pp: 2}"), tmp_path)
    assert "JC208" not in codes(result)


def test_jc209_fires_on_ep_for_a_dense_model(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 1, gpus_per_node: 8}", "{ep: 8}", "model: {layers: 32, hidden: 4096, heads: 32}\n"),
        tmp_path,
    )
    assert where(result, "JC209") == [(4, 19)]
    assert "ep 8 but the model has no MoE layers" in only(result, "JC209").message


def test_jc209_near_miss_moe_model(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 1, gpus_per_node: 8}", "{ep: 8}", "model: {layers: 32, moe: {experts: 8, top_k: 2}}\n"),
        tmp_path,
    )
    assert "JC209" not in codes(result)


def test_jc210_fires_on_a_moe_model_without_ep(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8}
        launch: {program: train.py}
        model:
          moe:
            experts: 64
            top_k: 8
        """,
        tmp_path,
    )
    assert where(result, "JC210") == [(7, 14)]
    finding = only(result, "JC210")
    assert str(finding.severity) == "info"
    assert finding.message == (
        "ep is 1, so every GPU holds all 64 experts of each MoE layer; "
        "ep 2, 4 or 8 would hold 32, 16 or 8 per GPU"
    )


def test_jc210_near_miss(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 1, gpus_per_node: 8}", "{ep: 8}", "model: {moe: {experts: 64, top_k: 8}}\n"),
        tmp_path,
    )
    assert "JC210" not in codes(result)


# JC211 expert-tp-assumed


def test_jc211_warns_when_etp_decides_whether_it_fits(tmp_path: Path) -> None:
    # the out-of-memory layout of Megatron-Bridge's guide: MiniMax-M2 at TP2 · EP4 on 8 GPUs
    result = lint_text(
        spec(
            "{nodes: 1, gpus_per_node: 8, gpu: h100-80gb}",
            "{tp: 2, ep: 4}",
            "model: {preset: minimax-m2}\nworkload: {kind: convert}\n",
        ),
        tmp_path,
    )
    assert where(result, "JC211") == [(4, 14)]
    finding = only(result, "JC211")
    assert str(finding.severity) == "warning"
    message = finding.message
    assert "assumes etp = tp = 2" in message
    assert "56.2 GB of expert weights" in message
    assert "within h100-80gb's 80.0 GB" in message
    assert "With etp 1" in message
    assert "112.3 GB of expert weights" in message
    assert "above the 60.0 GB expert budget of JC301" in message
    # with etp = tp assumed, the pre-check and the estimate pass: JC211 is the only word of it
    assert "JC301" not in codes(result)
    assert "JC302" not in codes(result)


def test_jc211_is_information_when_both_choices_agree(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "{nodes: 8, gpus_per_node: 8, gpu: h100-80gb}",
            "{tp: 2, ep: 32}",
            "model: {preset: minimax-m2}\nworkload: {kind: inference, seq_length: 4096}\n",
        ),
        tmp_path,
    )
    finding = only(result, "JC211")
    assert str(finding.severity) == "info"
    assert "7.0 GB of expert weights" in finding.message
    assert "14.0 GB of expert weights" in finding.message


def test_jc211_without_a_gpu_still_gives_both_estimates(tmp_path: Path) -> None:
    result = lint_text(
        spec("{nodes: 1, gpus_per_node: 8}", "{tp: 2, ep: 4}", "model: {preset: minimax-m2}\n"),
        tmp_path,
    )
    finding = only(result, "JC211")
    assert "56.2 GB of expert weights" in finding.message
    assert "112.3 GB of expert weights" in finding.message
    assert "within" not in finding.message


@pytest.mark.parametrize(
    ("parallelism", "model"),
    [
        ("{tp: 2, ep: 4, etp: 2}", "{preset: minimax-m2}"),  # stated
        ("{tp: 2, ep: 4, etp: 1}", "{preset: minimax-m2}"),
        ("{tp: 1, ep: 8}", "{preset: minimax-m2}"),  # no tensor parallelism to split experts
        ("{tp: 2}", "{preset: llama3-8b}"),  # no experts
    ],
)
def test_jc211_near_miss(tmp_path: Path, parallelism: str, model: str) -> None:
    result = lint_text(
        spec("{nodes: 1, gpus_per_node: 8, gpu: h100-80gb}", parallelism, f"model: {model}\n"), tmp_path
    )
    assert "JC211" not in codes(result)


def test_absurd_sizes_give_findings_without_suggestions_and_quickly(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "{nodes: 3, gpus_per_node: 1000000007}",
            "{tp: 999999999999, pp: 7, ep: 123456789011, vpp: 99999999977}",
            "model: {layers: 100000000000000, heads: 1000000000000000,\n"
            "        moe: {experts: 99999999977, top_k: 1}}\n"
            "workload: {seq_length: 99999999999, global_batch: 12345678901234}\n",
        ),
        tmp_path,
    )
    assert {"JC201", "JC202", "JC203", "JC204", "JC208"} <= set(codes(result))
