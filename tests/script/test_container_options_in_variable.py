"""A variable among a container's options that a branch fills with more options (or leaves empty),
`apptainer exec --nv $WANDB_ENV_FLAG --env A=b $SIF bash -c "…"`: an option follows it, and none
can follow the image, so the image is the later word and the step's program is read. A variable
followed by the command is the image (near miss)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.script.parse import read

HEAD = "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --time=1:00:00\nSIF=img.sif\n"


def _program(tmp_path: Path, body: str) -> str | None:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    step = read(path).main_step
    return step.program.text if step is not None and step.program is not None else None


@pytest.mark.parametrize(
    "body",
    [
        # source: ishantamrakar/vla-research slurm/train.slurm
        'F=""\nif [ -n "$K" ]; then F="--env K=$K"; fi\n'
        'apptainer exec --nv $F --env PYTHONPATH=. $SIF bash -c "uv run python scripts/train.py a=1"\n',
        'F=""\nif [ -n "$K" ]; then F="--env K=$K"; fi\n'
        "singularity exec $F --nv $SIF python scripts/train.py\n",
    ],
)
def test_options_in_a_variable_before_the_image_are_skipped(tmp_path: Path, body: str) -> None:
    assert _program(tmp_path, body) == "scripts/train.py"


def test_a_variable_followed_by_the_command_is_the_image(tmp_path: Path) -> None:
    assert _program(tmp_path, "apptainer exec --nv $SIF python scripts/train.py\n") == "scripts/train.py"
    assert _program(tmp_path, "IMG=$(ls *.sif)\napptainer exec --nv $IMG python scripts/train.py\n") == (
        "scripts/train.py"
    )
