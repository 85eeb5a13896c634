"""`jobc plan`: world, rank layout, per-GPU memory and assumptions; exit codes like lint."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jobc.cli import main

MINIMAX = """\
version: 1
name: minimax
slurm: {time: "04:00:00"}
resources: {nodes: 8, gpus_per_node: 8, gpu: h100-80gb}
launch: {program: train.py}
model: {preset: minimax-m2}
parallelism: {tp: 2, ep: 32, etp: 1, sharding: distributed-optimizer, sequence_parallel: true}
workload: {kind: pretrain, seq_length: 4096, global_batch: 512}
"""

SERVING = """\
version: 1
name: serve
resources: {nodes: 1, gpus_per_node: 8, gpu: h100-80gb}
launch: {program: serve.py}
model: {preset: llama3-70b}
parallelism: {tp: 4, pp: 2}
workload: {kind: inference, seq_length: 8192, micro_batch: 4}
"""


def _write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "spec.yaml"
    path.write_text(text)
    return str(path)


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    code = main(["plan", "--format", "json", *args])
    out = capsys.readouterr()
    return code, json.loads(out.out), out.err


def test_json_plan_of_a_job_that_does_not_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, err = _json(capsys, _write(tmp_path, MINIMAX))
    assert code == 1
    assert "JC302 [error]" in err
    assert data["params"]["total"] == 228_689_748_992
    assert data["params"]["active"] == 11_030_537_216
    assert (data["world"], data["parallelism"]["dp"], data["parallelism"]["edp"]) == (64, 32, 2)
    memory = data["memory"]
    for key in (
        "weights_bytes",
        "expert_weights_bytes",
        "gradients_bytes",
        "optimizer_bytes",
        "activations_bytes",
        "overhead_bytes",
        "total_bytes",
    ):
        assert isinstance(memory[key], int)
    parts = ("weights", "gradients", "optimizer", "activations", "kv_cache", "overhead")
    assert memory["total_bytes"] == sum(memory[f"{p}_bytes"] for p in parts)
    assert round(memory["weights_bytes"] / 1e9, 1) == 18.1
    model_states = memory["weights_bytes"] + memory["gradients_bytes"] + memory["optimizer_bytes"]
    assert round(model_states / 1e9, 1) == 97.2
    assert memory["fits"] is False
    assert data["layout"]["order"] == "tp-cp-ep-dp-pp"
    ranks = data["layout"]["ranks"]
    assert len(ranks) == 64
    assert ranks[13] == {
        "rank": 13,
        "node": 1,
        "local_rank": 5,
        "tp": 1,
        "cp": 0,
        "dp": 6,
        "pp": 0,
        "etp": 0,
        "ep": 13,
        "edp": 0,
    }
    assert any("6 + 12/d" in a for a in data["assumptions"])
    assert all(isinstance(a, str) and a.endswith(".") for a in data["assumptions"])


def test_text_plan_reads_at_a_glance(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", _write(tmp_path, MINIMAX)]) == 1
    out = capsys.readouterr().out
    assert "world      64 = 8 nodes × 8 GPUs, h100-80gb (80.0 GB)" in out
    assert "dense      tp 2 × cp 1 × dp 32 × pp 1, sequence parallel, sharding distributed-optimizer" in out
    assert "experts    etp 1 × ep 32 × edp 2 × pp 1" in out
    assert "rank layout (Megatron order tp-cp-ep-dp-pp" in out
    # a grid per dimension: tp 2 pairs neighbouring GPUs inside a node; ep 32 spans 4 nodes
    assert "  tp: 32 groups of 2 ranks, each inside one node" in out
    assert "  node 1   4  4  5  5  6  6  7  7" in out
    assert "  ep: 2 groups of 32 ranks, each spanning up to 4 nodes" in out
    # the rank table is gone from the text (the JSON keeps every rank)
    assert "rank  node  local" not in out
    assert "  weights                 18.1 GB     16.9 GiB" in out
    assert "does not fit" in out
    assert "assumptions\n  - " in out


def test_plan_of_a_fitting_job_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, _ = _json(capsys, _write(tmp_path, SERVING))
    assert code == 0
    assert data["memory"]["fits"] is True
    assert data["memory"]["kv_cache_bytes"] == 8192 * 4 * 40 * 2 * 2 * 128 * 2
    assert len(data["stages"]) == 2
    assert main(["plan", _write(tmp_path, SERVING)]) == 0
    out = capsys.readouterr().out
    # tp 4 × pp 2 on one node: two tp groups of four GPUs, the two pipeline stages side by side
    assert "  tp: 2 groups of 4 ranks, each inside one node" in out
    assert "  pp: 4 groups of 2 ranks, each inside one node" in out
    assert "  node 0  0 0 0 0 1 1 1 1" in out
    assert "  node 0  0 1 2 3 0 1 2 3" in out
    assert "KV cache" in out
    assert "per stage: 0: " in out


NO_SEQUENCE = """\
version: 1
name: t
resources: {nodes: 1, gpus_per_node: 8, gpu: h100-80gb}
launch: {program: train.py}
model: {preset: llama3-8b}
parallelism: {sharding: fsdp2}
"""


def test_fits_only_when_everything_is_counted(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, data, _ = _json(capsys, _write(tmp_path, NO_SEQUENCE))
    assert code == 0
    memory = data["memory"]
    assert memory["complete"] is False
    assert memory["not_estimated"] == ["activations"]
    assert memory["needs"] == ["workload.seq_length"]
    assert memory["fits"] is None  # 28 % of the GPU before any activation: not known
    assert "activations not estimated: set workload.seq_length; the total is a lower bound" in data["notes"]
    assert main(["plan", _write(tmp_path, NO_SEQUENCE)]) == 0
    out = capsys.readouterr().out
    assert "  activations         not estimated: set workload.seq_length" in out
    assert "activations               0.0 GB" not in out
    assert "not known to fit: activations not estimated (set workload.seq_length)" in out
    assert ": fits" not in out
    # with the sequence length everything is counted and the verdict is given
    code, data, _ = _json(capsys, _write(tmp_path, NO_SEQUENCE + "workload: {seq_length: 2048}\n"))
    assert (data["memory"]["complete"], data["memory"]["fits"], data["memory"]["not_estimated"]) == (
        True,
        True,
        [],
    )


def test_a_lower_bound_above_the_gpu_does_not_fit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = NO_SEQUENCE.replace("{sharding: fsdp2}", "{}").replace("llama3-8b", "llama3-70b")
    _, data, _ = _json(capsys, _write(tmp_path, text + "workload: {kind: inference}\n"))
    assert data["memory"]["not_estimated"] == ["activations", "KV cache"]
    assert data["memory"]["fits"] is False
    assert main(["plan", _write(tmp_path, text + "workload: {kind: inference}\n")]) == 1
    out = capsys.readouterr().out
    assert "does not fit, even without activations and KV cache" in out
    assert "  KV cache            not estimated: set workload.seq_length" in out


def test_plan_shows_the_assumed_expert_tensor_parallelism(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # MiniMax-M2 at TP2 · EP4: with etp = tp it plans as fitting; JC211 says what etp 1 gives
    text = MINIMAX.replace("nodes: 8", "nodes: 1").replace(
        "{tp: 2, ep: 32, etp: 1, sharding: distributed-optimizer, sequence_parallel: true}", "{tp: 2, ep: 4}"
    )
    text = text.replace("{kind: pretrain, seq_length: 4096, global_batch: 512}", "{kind: convert}")
    code, data, err = _json(capsys, _write(tmp_path, text))
    assert code == 0
    assert data["parallelism"]["etp"] == 2
    assert data["memory"]["fits"] is True
    assert "JC211 [warning]" in err
    assert "112.3 GB of expert weights" in err
    assert any("parallelism.etp" in a and "JC211" in a for a in data["assumptions"])


def test_plan_names_the_training_code(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, data, _ = _json(capsys, _write(tmp_path, MINIMAX))
    assert (data["workload"]["framework"], data["workload"]["framework_inferred"]) == ("megatron", True)
    assert main(["plan", _write(tmp_path, MINIMAX)]) == 1
    assert ", recompute selective, megatron code (inferred)" in capsys.readouterr().out
    stated = MINIMAX.replace("global_batch: 512}", "global_batch: 512, framework: pytorch}")
    _, data, _ = _json(capsys, _write(tmp_path, stated))
    assert (data["workload"]["framework"], data["workload"]["framework_inferred"]) == ("pytorch", False)


def test_set_overrides_the_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _write(tmp_path, MINIMAX)
    code, data, err = _json(capsys, path, "--set", "parallelism.ep=64", "--set", "resources.nodes=16")
    assert (data["world"], data["parallelism"]["ep"], data["parallelism"]["edp"]) == (128, 64, 2)
    assert round(data["memory"]["expert_weights_bytes"] / 1e9, 1) == 7.0
    # twice the GPUs for the experts: it fits, tightly (a warning, so exit 0 as lint would)
    assert code == 0
    assert "JC302 [warning]" in err
    assert "(from --set parallelism.ep=64)" in err or "92%" in err


def test_big_worlds_are_compressed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = MINIMAX.replace("nodes: 8,", "nodes: 128,").replace("ep: 32", "ep: 64")
    main(["plan", _write(tmp_path, big)])
    out = capsys.readouterr().out
    # 128 nodes: the grids show the first twelve, an ellipsis and the last three
    grid = out.split("  tp: ")[1].split("\n\n")[0].splitlines()
    assert len(grid) < 20
    assert any(line.strip() == "…" for line in grid)
    assert grid[-1].split()[:2] == ["node", "127"]


def test_plan_without_a_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 4}\nlaunch: {program: a.py}\n"
    code, data, _ = _json(capsys, _write(tmp_path, text))
    assert code == 0
    assert data["memory"] is None
    assert data["params"] is None
    assert len(data["layout"]["ranks"]) == 4
    assert "no model" in data["notes"][0]


def test_plan_of_an_incomplete_model_says_what_is_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 4}\nlaunch: {program: a.py}\n"
        "model: {layers: 32, heads: 32}\n"
    )
    code, data, _ = _json(capsys, _write(tmp_path, text))
    assert code == 0
    assert data["notes"] == [
        "model incomplete: memory not estimated (missing model.hidden, model.vocab, model.ffn_hidden)"
    ]


def test_plan_with_a_world_that_does_not_divide(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = SERVING.replace("{tp: 4, pp: 2}", "{tp: 3}")
    code, data, err = _json(capsys, _write(tmp_path, text))
    assert code == 1
    assert "JC201" in err
    assert data["layout"]["ranks"] == []
    assert data["memory"] is None
    assert "does not divide the world of 8 GPUs" in data["notes"][0]


def test_plan_refuses_an_unreadable_spec(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", _write(tmp_path, "version: 1\nname: t\nresources: {nodes: x}\n")]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "no plan" in captured.err


def test_plan_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["plan", str(tmp_path / "missing.yaml")]) == 2
    assert main(["plan", _write(tmp_path, SERVING), "--set", "novalue"]) == 2
    assert main(["plan", _write(tmp_path, SERVING), "--format", "xml"]) == 2
    capsys.readouterr()


def test_huge_worlds_leave_the_rank_list_out_of_the_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = MINIMAX.replace("nodes: 8,", "nodes: 16384,").replace("ep: 32", "ep: 256")
    code, data, _ = _json(capsys, _write(tmp_path, huge))
    assert data["world"] == 131072
    assert data["layout"]["ranks"] == []
    assert any("layout.ranks lists worlds of up to 65,536 ranks" in n for n in data["notes"])
    assert data["memory"] is not None
    assert main(["plan", _write(tmp_path, huge)]) == code
    out = capsys.readouterr().out
    assert "  node 16383" in out
