"""A wrapper script srun starts in the background (`srun ./run.sh &`, then `wait`) is the step: its
mode is inferred from the task layout as for a wrapper the batch shell runs, torchrun for one task a
node of several GPUs (asked for, or srun's default of one), srun for one task per GPU, said as
inferred; a layout that says neither leaves it unknown."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

# source: the form of a job that runs its per-node wrapper in the background and waits for it, so
# that the batch shell can take a signal
TAIL = "srun {srun}./run.sh config.yaml &\nwait\n"


def _job(directives: str, srun: str = "") -> tuple[object, list[str]]:
    text = "#!/bin/bash\n" + directives + "#SBATCH --time=12:00:00\n" + TAIL.format(srun=srun)
    derived = imported(read_bytes(text.encode(), "job.sh"))
    return derived.data["launch"].get("mode"), derived.notes


@pytest.mark.parametrize(
    "directives",
    [
        "#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:8\n",
        # no line asks for tasks: sbatch's one task a node
        "#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\n",
        "#SBATCH --ntasks=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:4\n",
    ],
)
def test_one_task_a_node_of_several_gpus_is_torchrun_inferred(directives: str) -> None:
    mode, notes = _job(directives)
    assert mode == "torchrun"
    assert any("inferred, not read" in n for n in notes), notes


def test_one_task_per_gpu_is_srun() -> None:
    mode, _ = _job("#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node=4\n")
    assert mode == "srun"


@pytest.mark.parametrize(
    ("directives", "srun"),
    [
        # near misses: tasks sized when the job runs, and a node of one GPU
        ("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\n", '-n "$NTASKS" '),
        ("#SBATCH --nodes=2\n#SBATCH --gpus-per-node=1\n", ""),
    ],
)
def test_a_layout_that_says_no_launcher_leaves_torchrun_out(directives: str, srun: str) -> None:
    mode, _ = _job(directives, srun)
    assert mode != "torchrun"
