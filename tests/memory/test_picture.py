"""`jobc plan`'s pictures: the node × GPU grid per parallel dimension and the memory bar, as plain
text, coloured text and SVG; and `--color`, `NO_COLOR` and `TERM=dumb`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.core.colour import wanted
from jobc.memory import picture

ANSI = re.compile(r"\x1b\[[0-9;]*m")

SPEC = """\
version: 1
name: t
resources: {nodes: 2, gpus_per_node: 4, gpu: h100-80gb}
slurm: {time: "01:00:00"}
launch: {program: train.py}
model: {preset: llama3-8b}
parallelism: {tp: 2, pp: 2}
workload: {kind: pretrain, seq_length: 4096, global_batch: 64}
"""


def _data(tp: int = 2, pp: int = 2, nodes: int = 2, gpus: int = 4, memory: dict | None = None) -> dict:
    world = nodes * gpus
    return {
        "spec": "s.yaml",
        "world": world,
        "nodes": nodes,
        "gpus_per_node": gpus,
        "parallelism": {
            "tp": tp,
            "pp": pp,
            "cp": 1,
            "ep": 1,
            "etp": 1,
            "vpp": None,
            "dp": world // (tp * pp),
        },
        "model": None,
        "memory": memory,
    }


def test_each_dimension_has_a_grid_of_its_groups() -> None:
    found = {g.dim: g for g in picture.grids(_data())}
    assert list(found) == ["tp", "dp", "pp"]
    # Megatron's order: tp varies fastest, then dp, pp slowest; ranks fill nodes in blocks
    assert found["tp"].rows == [0, 1]
    assert found["tp"].cols == [0, 1, 2, 3]
    assert found["tp"].cells == [[0, 0, 1, 1], [2, 2, 3, 3]]
    assert found["tp"].nodes_per_group == 1
    assert found["dp"].cells == [[0, 1, 0, 1], [2, 3, 2, 3]]
    # pp is slowest: stage 0 is node 0, stage 1 node 1, so every pp group crosses the nodes
    assert found["pp"].cells == [[0, 1, 2, 3], [0, 1, 2, 3]]
    assert found["pp"].nodes_per_group == 2


def test_a_huge_world_computes_only_what_is_shown() -> None:
    found = {g.dim: g for g in picture.grids(_data(tp=8, pp=4, nodes=16384, gpus=8))}
    tp, dp, pp = found["tp"], found["dp"], found["pp"]
    assert tp.rows[-1] == 16383
    assert -1 in tp.rows
    assert len(tp.rows) == 16
    assert tp.groups == 16384
    assert tp.cells[-1] == [16383] * 8
    assert tp.nodes_per_group == 1
    # dp = 131072 / 32 = 4096 ranks a group, 8 apart: 4096 nodes; pp stages 32768 ranks apart
    assert dp.size == 4096
    assert dp.nodes_per_group == 4096
    assert pp.size == 4
    assert pp.nodes_per_group == 4


@pytest.mark.parametrize(("tp", "gpus"), [(3, 4), (2, 3), (4, 6), (6, 4)])
def test_group_spans_match_counting_every_rank(tp: int, gpus: int) -> None:
    from jobc.memory import placement
    from jobc.memory import ranks as layout

    data = _data(tp=tp, pp=1, nodes=6, gpus=gpus)
    sizes = placement.Sizes(data["world"], tp=tp)
    found = {g.dim: g for g in picture.grids(data)}
    for dim, grid in found.items():
        nodes: dict[tuple[int, ...], set[int]] = {}
        for rank in range(data["world"]):
            c = layout.coords(rank, sizes, gpus)
            key = tuple(getattr(c, d) for d in ("tp", "cp", "dp", "pp") if d != dim)
            nodes.setdefault(key, set()).add(c.node)
        assert grid.nodes_per_group == max(len(n) for n in nodes.values()), dim
        assert grid.groups == len(nodes)


def test_no_grid_when_the_sizes_do_not_divide_the_world() -> None:
    data = _data()
    data["parallelism"]["dp"] = None
    assert picture.grids(data) == []
    assert picture.grid_lines(data, colour=False) == []


def test_colour_adds_escapes_and_nothing_else() -> None:
    plain = picture.grid_lines(_data(), colour=False)
    painted = picture.grid_lines(_data(), colour=True)
    assert not any("\x1b" in line for line in plain)
    assert any("\x1b[" in line for line in painted)
    assert [ANSI.sub("", line) for line in painted] == plain


def test_the_bar_shows_each_part_against_the_gpu() -> None:
    memory = {
        "weights_bytes": 20 * 10**9,
        "gradients_bytes": 20 * 10**9,
        "optimizer_bytes": 0,
        "activations_bytes": 10 * 10**9,
        "kv_cache_bytes": 0,
        "overhead_bytes": 2 * 10**9,
        "total_bytes": 52 * 10**9,
        "gpu_memory_bytes": 80 * 10**9,
        "not_estimated": [],
    }
    bar, legend = picture.bar_lines(memory, colour=False)
    body = bar.strip().split("|")[0]
    assert body.count("W") == 15
    assert body.count("G") == 15
    assert body.count("A") == 8
    # 39 cells in all for 52 of 80 GB: the half cells of activations and overhead go to the first
    assert body.count("*") == 1
    assert len(body) == 60  # the bar's width is the GPU's memory
    assert "52.0 of 80.0 GB (65%)" in bar
    assert legend.strip() == "W weights 20.0  G gradients 20.0  A activations 10.0  * overhead 2.0 (GB)"


def test_a_bar_over_the_gpu_marks_where_the_gpu_ends() -> None:
    memory = {"weights_bytes": 100 * 10**9, "overhead_bytes": 0, "total_bytes": 100 * 10**9}
    memory |= {"gpu_memory_bytes": 80 * 10**9, "not_estimated": []}
    lines = picture.bar_lines(memory, colour=False)
    assert lines[0].strip().startswith("W" * 60)
    assert lines[0].strip().split()[0].endswith("!")
    assert "100.0 of 80.0 GB (125%)" in lines[0]
    assert lines[1].index("^") == 2 + 48  # 80 of 100 GB: the 48th cell of 60
    assert "the GPU's 80.0 GB end here" in lines[1]


def test_a_part_not_estimated_is_not_drawn() -> None:
    memory = {"weights_bytes": 10 * 10**9, "activations_bytes": 0, "overhead_bytes": 10**9}
    memory |= {"total_bytes": 11 * 10**9, "gpu_memory_bytes": 80 * 10**9, "not_estimated": ["activations"]}
    assert "activations" not in "".join(picture.bar_lines(memory, colour=False))


def test_svg_is_one_deterministic_document(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    assert main(["plan", str(spec), "--format", "svg"]) == 0
    first = capsys.readouterr().out
    assert main(["plan", str(spec), "--format", "svg"]) == 0
    assert capsys.readouterr().out == first
    root = ET.fromstring(first)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "tp: 4 groups of 2 ranks, each inside one node" in texts
    assert any(t and t.startswith("memory per GPU:") for t in texts)
    # every GPU of every grid is a coloured cell: 8 GPUs × 3 dimensions, plus the bar's parts
    fills = [r.get("fill") for r in root.iter("{http://www.w3.org/2000/svg}rect")]
    assert sum(1 for f in fills if f in picture._PALETTE) >= 24


def test_svg_escapes_the_spec_path(tmp_path: Path) -> None:
    data = _data()
    data["spec"] = "<script>&.yaml"
    text = picture.svg(data)
    ET.fromstring(text)
    assert "<script>" not in text


@pytest.mark.parametrize(
    ("choice", "env", "tty", "expected"),
    [
        ("auto", {}, True, True),
        ("auto", {}, False, False),
        ("auto", {"NO_COLOR": "1"}, True, False),
        ("auto", {"NO_COLOR": ""}, True, True),  # set but empty does not count (no-color.org)
        ("auto", {"TERM": "dumb"}, True, False),
        ("auto", {"FORCE_COLOR": "1"}, False, True),
        ("always", {"NO_COLOR": "1"}, False, True),
        ("never", {}, True, False),
    ],
)
def test_colour_follows_the_conventions(choice: str, env: dict[str, str], tty: bool, expected: bool) -> None:
    class Stream:
        def isatty(self) -> bool:
            return tty

    assert wanted(Stream(), choice, env) is expected


def test_color_option_before_or_after_the_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    assert main(["plan", str(spec), "--color=always"]) == 0
    assert "\x1b[" in capsys.readouterr().out
    assert main(["--color=always", "plan", str(spec)]) == 0
    assert "\x1b[" in capsys.readouterr().out
    assert main(["--color=always", "plan", str(spec), "--color=never"]) == 0
    assert "\x1b[" not in capsys.readouterr().out


def test_no_color_keeps_a_pipe_plain(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC)
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["plan", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out
    assert "  tp: 4 groups of 2 ranks, each inside one node" in out


def test_lint_text_follows_color_and_no_color(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(SPEC.replace('slurm: {time: "01:00:00"}\n', ""))
    assert main(["lint", str(spec), "--color=always"]) == 1
    painted = capsys.readouterr().out
    assert "\x1b[31mJC108" in painted
    assert main(["lint", str(spec)]) == 1
    plain = capsys.readouterr().out
    assert "\x1b" not in plain
    assert ANSI.sub("", painted) == plain
