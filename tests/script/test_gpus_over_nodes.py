"""`--gpus=N` counts the GPUs of the whole job, or of the step when srun is given it: the GPUs per
node are N over the nodes when they part evenly, and not read when they do not (Slurm places
them unevenly). One reading for the directives and for the training step's own srun; `--gres`
alike (`gpu:a100` is one GPU of that type)."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
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
