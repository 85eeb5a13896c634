"""srun's other spelling of an option is the option: `--tasks-per-node` is `--ntasks-per-node` (its
man page), so the training step's own layout and GPU request read the same either way."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

HEAD = "#!/bin/bash\n#SBATCH -N 4\n#SBATCH -t 0:05:00\n"


@pytest.mark.parametrize(
    "option",
    [
        # source: olcf/ai-training-series Frontier apptainer example (the form)
        "--tasks-per-node=8",
        "--ntasks-per-node=8",
    ],
)
def test_the_steps_tasks_per_node_either_way(option: str) -> None:
    body = f"srun -N4 {option} -c7 --gpus-per-task=1 --gpu-bind=closest python train.py\n"
    data = imported(read_bytes((HEAD + body).encode(), "job.sh")).data
    assert data["resources"]["gpus_per_node"] == 8
    assert data["launch"]["mode"] == "srun"


def test_no_tasks_per_node_no_gpus_from_the_step() -> None:
    # near miss: GPUs per task without the tasks on a node say no count per node
    body = "srun -N4 -c7 --gpus-per-task=1 python train.py\n"
    data = imported(read_bytes((HEAD + body).encode(), "job.sh")).data
    assert data["resources"].get("gpus_per_node") != 8
