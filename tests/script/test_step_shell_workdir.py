"""A `cd` in the step's own shell (`srun bash -c "cd dir/ …"`) gives launch.workdir; when that
shell runs on past a failed `cd` (no `set -e`, nothing after the `cd` that stops on its failure),
the import says that the compiled job, which stops when it cannot enter the directory, differs."""

from __future__ import annotations

from pathlib import Path

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.script.parse import read

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n"
    "#SBATCH --gpus-per-node=4\n#SBATCH --time=1:00:00\n"
)
SAID = "runs on past its failed change of directory (line 7)"


def _spec(tmp_path: Path, body: str) -> str:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    facts = read(path)
    spec = imported(facts)
    assert spec.data["launch"]["workdir"] == "nanotron/"
    return render(spec, facts)


def test_a_step_shell_that_runs_on_past_its_cd_is_said(tmp_path: Path) -> None:
    body = 'srun bash -c "\n  cd nanotron/\n  torchrun --nnodes=2 --nproc-per-node=4 run_train.py\n"\n'
    assert SAID in _spec(tmp_path, body)


def test_a_step_shell_that_stops_at_its_cd_is_not(tmp_path: Path) -> None:
    body = 'srun bash -c "\n  cd nanotron/ && torchrun --nnodes=2 --nproc-per-node=4 run_train.py\n"\n'
    assert "failed change of directory" not in _spec(tmp_path, body)
    body = (
        'srun bash -c "\n  set -e\n  cd nanotron/\n  torchrun --nnodes=2 --nproc-per-node=4 run_train.py\n"\n'
    )
    assert "failed change of directory" not in _spec(tmp_path, body)
