"""A job whose srun steps start a Ray cluster (`srun … ray start --block &`) and whose batch shell
then runs the driver: srun starts the service's tasks itself, so the import's mode is srun's; the
program is the driver's, not the service's, and stays unknown where the driver is not a Python
program. Lint holds no rank rule to a Ray worker: one task drives its node's GPUs."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH -N 3\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-task=4\n#SBATCH -t 1:00:00\n"
)
RAY = (
    "srun -N1 -w $HEAD_NODE ray start --block --head --port=6379 &\n"
    "srun -N2 -x $HEAD_NODE ray start --block --address=$HEAD_NODE:6379 &\n"
    "sleep 30\n"
)


@pytest.mark.parametrize(
    ("driver", "mode"),
    [
        ("vllm serve m --pipeline-parallel-size 3\n", "srun"),
        # near miss: no srun before `ray start`: the batch shell starts it, on its own node only
        (None, None),
    ],
)
def test_ray_service_steps_are_srun_mode(tmp_path: Path, driver: str | None, mode: str | None) -> None:
    body = RAY + (driver or "") if driver else "ray start --head --block &\nsleep 30\n"
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    assert derived.data["launch"].get("mode") == mode
    assert derived.data["launch"].get("program") is None
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    assert not [f for f in lint_path(path).findings if f.code == "JC101"]
