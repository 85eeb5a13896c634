"""`python -m pip install …` installs; it is never the program a step trains with, in the batch
shell or in a step's own shell, while a module of the job's (`python -m pkg.train`) is."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

HEAD = "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --time=1:00:00\n"


def _launch(body: str) -> dict[str, object]:
    return dict(imported(read_bytes((HEAD + body).encode(), "job.sh")).data["launch"])


@pytest.mark.parametrize(
    ("body", "program", "module"),
    [
        # source: the form of a GRPO job in apptainer (shortened): installs, then the program
        (
            'srun bash -c "python3 -m pip install --user trl > /dev/null\npython3 src/train.py"\n',
            "src/train.py",
            None,
        ),
        ('srun bash -c "python -m pip install x; python -m mypkg.train"\n', None, "mypkg.train"),
        ("python -m venv .venv\npython -m ensurepip\npython train.py\n", "train.py", None),
        # near misses: a module of the job's stays the program, in either shell
        ('srun bash -c "python -m mypkg.train --lr 1"\n', None, "mypkg.train"),
        ("python -m pipeline.train\n", None, "pipeline.train"),
    ],
    ids=["inner-pip", "inner-pip-module", "batch-venv", "inner-module", "batch-module"],
)
def test_an_install_module_is_no_program(body: str, program: str | None, module: str | None) -> None:
    launch = _launch(body)
    assert launch.get("program") == program, launch
    assert launch.get("module") == module, launch
