"""uv run by a path (`~/.local/bin/uv run train.py`, `$HOME/.local/bin/uv run …`, where uv's
installer puts it when it is not on PATH) is uv run as by its name: the program is the file it
runs, with uv as the interpreter. A command of another name in the same directory is not uv."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes
from tests.script.roundtrip import round_trip

HEAD = "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --time=1:00:00\n"
FORMS = [
    "~/.local/bin/uv run scripts/train.py --epochs 3\n",
    "$HOME/.local/bin/uv run --no-sync scripts/train.py --epochs 3\n",
    '"$HOME/.local/bin/uv" run scripts/train.py --epochs 3\n',
    "srun /opt/uv/bin/uv run scripts/train.py --epochs 3\n",
]
NEAR_MISSES = [
    "~/.local/bin/uvx-helper run scripts/train.py --epochs 3\n",
    "~/.local/bin/uv sync\n",
]


@pytest.mark.parametrize("body", FORMS)
def test_uv_by_a_path_runs_the_program(body: str) -> None:
    launch = imported(read_bytes((HEAD + body).encode(), "job.sh")).data["launch"]
    assert launch.get("python") == "uv"
    assert launch.get("program") == "scripts/train.py"
    assert launch.get("args") == ["--epochs", "3"]


@pytest.mark.parametrize("body", NEAR_MISSES)
def test_another_command_is_not_uv_run(body: str) -> None:
    launch = imported(read_bytes((HEAD + body).encode(), "job.sh")).data["launch"]
    assert launch.get("python") != "uv"
    assert launch.get("program") != "scripts/train.py"


@pytest.mark.parametrize("body", FORMS)
def test_the_imported_job_runs_what_the_script_runs(body: str, tmp_path: Path) -> None:
    outcome = round_trip((HEAD + body).encode(), tmp_path)
    assert outcome.unlisted == [], outcome.spec


def test_every_task_syncing_by_a_path_is_jc504(tmp_path: Path) -> None:
    from jobc.lint.scripts import lint_path

    head = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node=4\n"
    script = tmp_path / "job.sh"
    script.write_text(head + "srun ~/.local/bin/uv run train.py\n")
    assert [f.span.line for f in lint_path(script).findings if f.code == "JC504"] == [5]
    script.write_text(head + "srun ~/.local/bin/uv run --no-sync train.py\n")
    assert [f.code for f in lint_path(script).findings if f.code == "JC504"] == []
