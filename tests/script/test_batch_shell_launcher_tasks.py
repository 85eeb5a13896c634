"""JC102 on a per-node launcher the batch shell starts itself on several nodes (JC805) while the
directives ask for several tasks per node: the srun it needs starts that many copies on each node.
The finding lands on the directive (either of sbatch's names for it), with a repair that is unsafe
there (the batch shell's launcher loses the tasks' CPUs and still runs on one node); under srun the
`--tasks-per-node` spelling is repaired as `--ntasks-per-node` is. Near misses: one node, one task
per node, a launcher that reaches the other nodes itself, a program that is no launcher."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.core.diagnostics import Applicability
from jobc.lint.scripts import lint_path

HEAD = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\n#SBATCH --time=0:10:00\n"
ACCELERATE = (
    "accelerate launch --config_file ds.yaml --main_process_ip $MASTER_ADDR "
    "--num_processes=$(($SLURM_NNODES * $SLURM_GPUS_PER_NODE)) --num_machines=$SLURM_NNODES train.py\n"
)


def _jc102(tmp_path: Path, text: str) -> list[tuple[int, int, Applicability | None]]:
    path = tmp_path / "job.sh"
    path.write_text(text, encoding="utf-8")
    return [
        (f.span.line, f.span.col, f.fix.applicability if f.fix is not None else None)
        for f in lint_path(path).findings
        if f.code == "JC102"
    ]


@pytest.mark.parametrize(
    ("directive", "step"),
    [
        # pattern seen in: HPC-TUE/multi-gpu example_accelerate/jobs/accelerate-slurm-deepspeed.sh
        ("#SBATCH --tasks-per-node=4 # one task per node!\n", ACCELERATE),
        ("#SBATCH --ntasks-per-node=4\n", "torchrun --nnodes=2 --nproc_per_node=4 train.py\n"),
        ("#SBATCH --ntasks=8\n", "torchrun --nnodes=2 --nproc_per_node=4 train.py\n"),
    ],
)
def test_a_batch_shell_launcher_with_several_tasks_a_node_is_jc102_at_the_directive(
    tmp_path: Path, directive: str, step: str
) -> None:
    assert _jc102(tmp_path, HEAD + directive + step) == [(5, 9, Applicability.UNSAFE)]


def test_the_other_name_for_tasks_per_node_is_repaired_under_srun(tmp_path: Path) -> None:
    text = HEAD + "#SBATCH --tasks-per-node=4\nsrun torchrun --nnodes=2 --nproc_per_node=4 train.py\n"
    assert _jc102(tmp_path, text) == [(5, 9, Applicability.SAFE)]


@pytest.mark.parametrize(
    ("head", "directive", "step"),
    [
        (HEAD.replace("--nodes=2", "--nodes=1"), "#SBATCH --tasks-per-node=4\n", ACCELERATE),
        (HEAD, "#SBATCH --ntasks-per-node=1\n", ACCELERATE),
        (HEAD, "#SBATCH --ntasks-per-node=4\n", "deepspeed --hostfile hosts.txt --num_gpus 4 train.py\n"),
        (HEAD, "#SBATCH --ntasks-per-node=4\n", "python train.py\n"),
        (HEAD, "#SBATCH --ntasks=3\n", "torchrun --nnodes=2 --nproc_per_node=4 train.py\n"),
    ],
)
def test_one_node_one_task_or_no_per_node_launcher_is_no_jc102(
    tmp_path: Path, head: str, directive: str, step: str
) -> None:
    assert _jc102(tmp_path, head + directive + step) == []
