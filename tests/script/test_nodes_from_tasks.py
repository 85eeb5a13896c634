"""Nodes that follow from `--ntasks` over `--ntasks-per-node` without `--nodes`: sbatch allocates as
many nodes as the tasks fill, so `--ntasks=2 --ntasks-per-node=1` is a two-node job for lint (JC108,
JC804) as for the import."""

from __future__ import annotations

from pathlib import Path

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

# source: the form of a two-node torchrun job sized by its tasks (one torchrun a node)
TASKS = (
    "#!/bin/bash\n"
    "#SBATCH --job-name=ddp\n"
    "#SBATCH --ntasks={ntasks}\n"
    "#SBATCH --ntasks-per-node=1\n"
    "#SBATCH --gres=gpu:4\n"
    "#SBATCH --cpus-per-task=16\n"
    "{time}"
    "srun torchrun --nnodes={ntasks} --nproc_per_node=4 --rdzv_backend=c10d "
    '--rdzv_endpoint="$(hostname):0" train.py\n'
)


def _codes(text: str) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in lint_path(Path("job.sh"), data=text.encode()).findings]


def test_two_tasks_one_a_node_is_a_two_node_job() -> None:
    codes = _codes(TASKS.format(ntasks=2, time=""))
    assert any(code == "JC108" for code, _ in codes), codes
    # the launcher's two nodes are the job's: no size mismatch
    assert not any(code == "JC804" for code, _ in codes), codes
    data = imported(read_bytes(TASKS.format(ntasks=2, time="").encode(), "job.sh")).data
    assert data["resources"]["nodes"] == 2


def test_a_time_limit_or_one_task_is_no_finding() -> None:
    # near misses: the same job with its limit, and one task on one node
    assert not any(c == "JC108" for c, _ in _codes(TASKS.format(ntasks=2, time="#SBATCH --time=4:00:00\n")))
    codes = _codes(TASKS.format(ntasks=1, time=""))
    assert not any(code in ("JC108", "JC804") for code, _ in codes), codes


def test_tasks_without_tasks_per_node_leave_the_nodes_to_slurm() -> None:
    # near miss: `--ntasks=8` alone may be one node or eight; lint says no multi-node finding
    text = "#!/bin/bash\n#SBATCH --ntasks=8\n#SBATCH --gres=gpu:8\nsrun python train.py\n"
    assert not any(code == "JC108" for code, _ in _codes(text))
