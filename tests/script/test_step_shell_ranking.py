"""In a step's own shell (`srun bash -c '…'`, a pyxis container's shell), an executable run as it
is does not hide a launcher the same shell starts after it, or in another arm of an `if`: the
launcher is the step's, as it outranks an executable among steps, and the rules reason on it
(JC102: eight tasks per node each start torchrun). A Python program whose name says it trains
outranks an executable whose name does not; any other command after the program is one the step's
shell runs too."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gres=gpu:8\n#SBATCH -t 1:00:00\n"
)
# source: paragao/nuformer-transactional-transformer-replica slurm/nccl_test.sbatch (the form)
PYXIS = """srun --container-image="$IMAGE" --container-mounts=/fsx:/fsx bash -c '
    fi_info -p efa 2>/dev/null | head -5 || echo "EFA not found"
    if command -v all_reduce_perf &>/dev/null; then
        all_reduce_perf -b 8 -e 4G -f 2 -g 1
    else
        torchrun --nnodes=2 --nproc-per-node=8 --rdzv_backend=c10d --rdzv_endpoint=$MASTER_ADDR:29500 bench.py
    fi
'
"""


def test_a_launcher_after_an_executable_in_the_step_shell(tmp_path: Path) -> None:
    launch = imported(read_bytes((HEAD + PYXIS).encode(), "job.sh")).data["launch"]
    assert (launch.get("mode"), launch.get("program")) == ("torchrun", "bench.py")
    path = tmp_path / "job.sh"
    path.write_text(HEAD + PYXIS, encoding="utf-8")
    assert [f.span.line for f in lint_path(path).findings if f.code == "JC102"] == [3]
    # near miss: one task per node, one torchrun on each
    path.write_text(HEAD.replace("=8\n#SBATCH --gres", "=1\n#SBATCH --gres") + PYXIS, encoding="utf-8")
    assert "JC102" not in {f.code for f in lint_path(path).findings}


@pytest.mark.parametrize(
    ("inner", "program"),
    [
        ("fi_info -p efa; python train.py", "train.py"),
        # near misses: the executable says it trains, or the Python program does not
        ("./train_gpt2cu -i data; python eval.py", "./train_gpt2cu"),
        ("fi_info -p efa; python report.py", "fi_info"),
    ],
)
def test_a_python_program_outranks_an_executable_by_its_name(inner: str, program: str) -> None:
    body = f"srun bash -c '{inner}'\n"
    launch = imported(read_bytes((HEAD + body).encode(), "job.sh")).data["launch"]
    assert launch.get("program") == program
