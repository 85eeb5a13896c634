"""A GPU directive whose count is no number (`--gres=gpu:v100:x`, a course's template: sbatch
refuses it, JC809) asks for GPUs all the same: the import leaves resources.gpus_per_node out and
says so, never the 0 of a job that asks for none. Near misses: counts it reads (`gpu:v100:2`,
`gpu:a100`, `gpu`) and a gres that asks for no GPU (`--gres=nvme:1`)."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes


def _import(directive: str) -> tuple[dict, list[str]]:
    text = f"#!/bin/bash\n#SBATCH --time=00:05:00\n#SBATCH {directive}\n\nsrun python train.py\n"
    derived = imported(read_bytes(text.encode(), "job.sh"))
    return derived.data["resources"], derived.unknown


@pytest.mark.parametrize(
    "directive",
    [
        "--gres=gpu:v100:x   # x = 1 or 2",  # pattern seen in: hpc2n/intro-course job-pytorch-gpu.sh
        "--gpus-per-node=N",
        "--gres=nvme:1,gpu:a100:<count>",
    ],
)
def test_a_gpu_count_that_is_no_number_is_not_known(directive: str) -> None:
    resources, unknown = _import(directive)
    assert "gpus_per_node" not in resources
    assert any(u.startswith("resources.gpus_per_node") and "no number" in u for u in unknown)


@pytest.mark.parametrize(
    ("directive", "gpus"),
    [("--gres=gpu:v100:2", 2), ("--gres=gpu:a100", 1), ("--gres=gpu", 1), ("--gres=nvme:1", 0)],
)
def test_a_count_read_or_no_gpu_asked_is_written(directive: str, gpus: int) -> None:
    resources, unknown = _import(directive)
    assert resources.get("gpus_per_node") == gpus
    assert not any(u.startswith("resources.gpus_per_node") for u in unknown)
