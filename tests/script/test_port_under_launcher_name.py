"""JC104 on a port a launcher reads under its own name (`SLURM_MASTER_PORT`, as ROCm's Megatron
examples hand it into their container): a fixed number there is a fixed port. A name Slurm does
not set is the script's own, so its `${NAME:-29475}` default is its value; a port derived from the
job id, whole nodes, or a name Slurm itself sets are near misses."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=8\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:8\n"
    "#SBATCH --time=1:00:00\n"
)
STEP = "srun bash -c 'docker run --env SLURM_MASTER_PORT=$SLURM_MASTER_PORT img /bin/bash -c train.sh'\n"


def _jc104(tmp_path: Path, text: str) -> list[tuple[int, int]]:
    path = tmp_path / "job.sh"
    path.write_text(text, encoding="utf-8")
    return [(f.span.line, f.span.col) for f in lint_path(path).findings if f.code == "JC104"]


@pytest.mark.parametrize(
    "line",
    [
        # source: NVIDIA/Megatron-LM examples/deepseek_v3/train_deepseek_v3_slurm.sh
        'export SLURM_MASTER_PORT="${SLURM_MASTER_PORT:-29475}"\n',
        "export SLURM_MASTER_PORT=29475\n",
    ],
)
def test_a_fixed_number_under_a_launcher_s_port_name_is_jc104(tmp_path: Path, line: str) -> None:
    assert [at[0] for at in _jc104(tmp_path, HEAD + line + STEP)] == [6]


@pytest.mark.parametrize(
    ("head", "line"),
    [
        (HEAD, "export SLURM_MASTER_PORT=$((20000 + SLURM_JOB_ID % 9000))\n"),
        (HEAD + "#SBATCH --exclusive\n", "export SLURM_MASTER_PORT=29475\n"),
        # a name Slurm sets may hold anything: its default is not its value
        (HEAD, 'export SLURM_SRUN_COMM_PORT="${SLURM_SRUN_COMM_PORT:-29475}"\n'),
        # a number under another name is no port
        (HEAD, "export SLURM_MASTER_PORTS=29475\n"),
    ],
)
def test_a_derived_port_whole_nodes_or_slurm_s_own_name_is_no_jc104(
    tmp_path: Path, head: str, line: str
) -> None:
    assert _jc104(tmp_path, head + line + STEP) == []
