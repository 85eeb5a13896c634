"""`--gpus=N` counts the GPUs of the whole job, or of the step when srun is given it: the GPUs per
node are N over the nodes when they part evenly, and not read when they do not (Slurm places
them unevenly). One reading for the directives and for the training step's own srun; `--gres`
alike (`gpu:a100` is one GPU of that type)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.allocation import gpus_over_nodes, gres_gpus
from jobc.script.parse import read_bytes


def _gpus(script: str) -> object:
    return imported(read_bytes(script.encode(), "job.sh")).data["resources"].get("gpus_per_node")


@pytest.mark.parametrize(
    ("total", "nodes", "per"), [(8, 2, 4), (8, 1, 8), (6, 4, None), (8, None, None), (8, 0, None)]
)
def test_gpus_over_nodes(total: int, nodes: int | None, per: int | None) -> None:
    assert gpus_over_nodes(total, nodes) == per


@pytest.mark.parametrize(
    ("value", "found"),
    [("gpu", (1, None)), ("gpu:4", (4, None)), ("gpu:a100:8(S:0-1)", (8, "a100")), ("gpu:a100", (1, "a100")),
     ("shard:2,gpu:2", (2, None)), ("shard:2", None), ("gpu:a:b:c", None)],
)  # fmt: skip
def test_gres_gpus(value: str, found: tuple[int, str | None] | None) -> None:
    assert gres_gpus(value) == found


@pytest.mark.parametrize(
    ("lines", "per"),
    [
        ("#SBATCH --nodes=2\n#SBATCH --gpus=8\nsrun python train.py\n", 4),
        ("#SBATCH --nodes=4\n#SBATCH --gpus=6\nsrun python train.py\n", None),  # near miss
        ("#SBATCH --nodes=2\nsrun --gpus=8 python train.py\n", 4),
        ("#SBATCH --nodes=4\nsrun --gpus=6 python train.py\n", None),  # near miss
        ("#SBATCH --nodes=2\nsrun --gres=gpu:a100 python train.py\n", 1),
    ],
)
def test_the_directives_and_the_steps_srun_read_gpus_alike(lines: str, per: int | None) -> None:
    got = _gpus("#!/bin/bash\n#SBATCH --time=1:00:00\n" + lines)
    assert got == per if per is not None else got in (None, 0)


def _lint(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    script = tmp_path / "job.sh"
    script.write_text(text, encoding="utf-8")
    return [(f.code, f.span.line) for f in lint_path(script).findings]


UNEVEN = (
    "#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --gpus=1\n#SBATCH --ntasks-per-node=8\n"
    "#SBATCH --time=1:00:00\nsrun python3 train.py\n"
)


def test_gpus_for_the_whole_job_that_part_unevenly_are_no_request_for_none(tmp_path: Path) -> None:
    # `--gpus=1` on 4 nodes asks for a GPU: the import neither writes the 0 of a script that asks
    # for none nor reads 8 a node from srun's tasks; it says the count is not known
    derived = imported(read_bytes(UNEVEN.encode(), "job.sh"))
    assert derived.data["resources"].get("gpus_per_node") is None
    assert any("gpus_per_node" in u and "--gpus=1" in u and "unevenly" in u for u in derived.unknown)
    # and lint says 32 ranks for 1 GPU, at the directive
    assert ("JC101", 3) in _lint(tmp_path, UNEVEN)


@pytest.mark.parametrize(
    "script",
    [
        UNEVEN.replace("--gpus=1", "--gpus=32"),  # 8 a node: even, the usual reading (no finding)
        UNEVEN.replace("--ntasks-per-node=8", "--ntasks-per-node=1").replace("--gpus=1", "--gpus=4"),
        UNEVEN.replace("--gpus=1", "--gpus=6").replace("--ntasks-per-node=8", "--ntasks=6"),
    ],
)
def test_near_miss_as_many_tasks_as_gpus_in_all_is_no_uneven_finding(tmp_path: Path, script: str) -> None:
    assert not [c for c, _ in _lint(tmp_path, script) if c == "JC101"]
