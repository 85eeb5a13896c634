"""A value written for the reader to replace (`HF_TOKEN="<your HuggingFace token>"`) is not known:
its words would split a command where the real value does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path
from jobc.script.parse import read

HEAD = (
    "#!/bin/bash\n#SBATCH -N 3\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-task=4\n#SBATCH -t 1:00:00\n"
)
STEP = (
    'ARGS="--nvccli --env HUGGING_FACE_HUB_TOKEN=${TOK}"\n'
    "srun -N 2 --ntasks-per-node=1 apptainer exec ${ARGS} img.sif ray start --block --address=$HEAD &\n"
    "sleep 30\n"
    "apptainer exec img.sif vllm serve m --pipeline-parallel-size 3\n"
)


@pytest.mark.parametrize(
    ("value", "command"),
    [
        ('"<your HuggingFace token>"', "ray"),  # a placeholder: one unknown word, the service is seen
        ('"two words"', "img.sif"),  # near miss: a real value with a blank splits where bash does
    ],
)
def test_a_placeholder_is_no_value(tmp_path: Path, value: str, command: str) -> None:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + f"TOK={value}\n" + STEP, encoding="utf-8")
    facts = read(path)
    assert [s.command for s in facts.steps] == [command]
    codes = {f.code for f in lint_path(path).findings}
    assert ("JC101" in codes) is (command != "ray")
