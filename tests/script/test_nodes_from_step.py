"""`#SBATCH --ntasks=N` without `--nodes` leaves the job's node count to Slurm, but a training
step whose own srun runs one task (`srun --ntasks=1`) or names its nodes (`srun -N 1`) runs on
that many nodes whatever Slurm gives: the import reads resources.nodes from the step, and says
"not known" when the step does not size itself."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

_HEAD = "#!/bin/bash\n#SBATCH --time=00:15:00\n#SBATCH --gpus=1\n#SBATCH --ntasks=2\n"


def _nodes(body: str) -> tuple[object, list[str]]:
    got = imported(read_bytes((_HEAD + body).encode(), "job.sh"))
    return got.data["resources"].get("nodes"), got.unknown


@pytest.mark.parametrize(
    "step",
    [
        # source: mila-iqia/mila-docs docs/examples/good_practices/many_tasks_per_gpu/job.sh
        "srun --ntasks=1 python main.py --lr 5e-4 &\nsrun --ntasks=1 python main.py --lr 2.5e-4 &\nwait\n",
        "srun -n 1 python main.py\n",
        "srun -N 1 python main.py\n",
    ],
)
def test_a_step_that_sizes_itself_gives_the_nodes(step: str) -> None:
    nodes, unknown = _nodes(step)
    assert nodes == 1
    assert not any(u.startswith("resources.nodes") for u in unknown)


@pytest.mark.parametrize(
    "step",
    ["srun python main.py\n", "srun --ntasks=2 python main.py\n", 'srun -n "$N" python main.py\n'],
)
def test_near_miss_a_step_that_does_not_size_itself_leaves_the_nodes_unknown(step: str) -> None:
    nodes, unknown = _nodes(step)
    assert nodes is None
    assert any(u.startswith("resources.nodes") for u in unknown)


@pytest.mark.parametrize(
    "step",
    [
        # pattern seen in: boletteeh/MLOps train_ddp.slurm (torchrun from the batch shell, --ntasks=2)
        "torchrun --nproc_per_node=2 train_ddp.py\n",
        "python -m torch.distributed.run --nnodes=1 --nproc_per_node=2 train.py\n",
    ],
)
def test_torchrun_of_one_node_in_the_batch_shell_runs_on_the_first_node(step: str) -> None:
    nodes, unknown = _nodes(step)
    assert nodes == 1
    assert not any(u.startswith("resources.nodes") for u in unknown)


@pytest.mark.parametrize(
    "step",
    [
        "torchrun --nnodes=2 --nproc_per_node=2 train.py\n",  # waits for another node's torchrun
        "torchrun --nnodes=$N --nproc_per_node=2 train.py\n",
        "deepspeed --hostfile hosts train.py\n",  # reaches the other nodes itself
        "srun python prep.py\ntorchrun --nproc_per_node=2 train.py\n",  # a step under srun besides
    ],
)
def test_near_miss_a_batch_shell_step_that_may_reach_other_nodes_leaves_them_unknown(step: str) -> None:
    nodes, unknown = _nodes(step)
    assert nodes is None
    assert any(u.startswith("resources.nodes") for u in unknown)
