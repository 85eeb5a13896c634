"""A console script whose subcommand is a launcher under another name: `oumi distributed torchrun`
runs torchrun on its node with the counts it reads from Slurm's environment, and its other words
are torchrun's. From the batch shell of a multi-node job it starts one launcher (JC805)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:4\n#SBATCH -t 1:00:00\n"
)


@pytest.mark.parametrize(
    ("body", "mode", "module", "jc805"),
    [
        # source: gtseligas/lcn-llama job.sh (the form)
        ("oumi distributed torchrun -m oumi train -c train.yaml\n", "torchrun", "oumi", True),
        ("srun oumi distributed torchrun -m oumi train -c train.yaml\n", "torchrun", "oumi", False),
        # near miss: `oumi train` trains in its own process, no launcher
        ("srun oumi train -c train.yaml\n", "srun", None, False),
    ],
)
def test_oumi_distributed_torchrun(
    tmp_path: Path, body: str, mode: str, module: str | None, jc805: bool
) -> None:
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    launch = derived.data["launch"]
    assert launch.get("mode") == mode
    assert launch.get("module") == module
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    assert [f.span.line for f in lint_path(path).findings if f.code == "JC805"] == ([6] if jc805 else [])
