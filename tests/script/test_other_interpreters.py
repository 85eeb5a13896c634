"""An interpreter of another language that runs a script file as python does (`Rscript train.R`,
`julia -t 8 train.jl`), by its name or by a path, quoted or not (`"$CONDA_PREFIX/bin/Rscript"`):
the file is the step's program and the interpreter launch.python, whether srun or the batch shell
runs it; its options are listed as not carried, and code given with `-e` is no program file."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

HEAD = "#!/bin/bash\n#SBATCH --gres=gpu:1\n#SBATCH --time=1:00:00\n"
FORMS = [
    ("srun Rscript train.R --epochs 3\n", "Rscript", "train.R", ["--epochs", "3"]),
    ("srun Rscript --vanilla train.R\n", "Rscript", "train.R", []),
    # source: GenomeNet/virusnet-training train.slurm (the form; shortened)
    ('"$CONDA_PREFIX/bin/Rscript" train_virusnet.R\n', "$CONDA_PREFIX/bin/Rscript", "train_virusnet.R", []),
    ("julia -t 8 --project=. train.jl\n", "julia", "train.jl", []),
    ('"$CONDA_PREFIX/bin/python" train.py\n', "$CONDA_PREFIX/bin/python", "train.py", []),
]


@pytest.mark.parametrize(("body", "python", "program", "args"), FORMS)
def test_the_file_is_the_program_and_the_interpreter_launch_python(
    body: str, python: str, program: str, args: list[str]
) -> None:
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    launch = derived.data["launch"]
    assert launch.get("mode") == "srun"
    assert launch.get("python") == python
    assert launch.get("program") == program
    assert launch.get("args") == args


def test_interpreter_options_are_listed_as_not_carried() -> None:
    derived = imported(read_bytes((HEAD + "srun Rscript --vanilla train.R\n").encode(), "job.sh"))
    assert any("--vanilla" in u.text for u in derived.unmapped), derived.unmapped


@pytest.mark.parametrize(
    "body",
    [
        "srun Rscript -e 'print(1)'\n",  # code, not a file
        "echo Rscript train.R\n",  # a word of another command
        "srun Rscripts train.R\n",  # another command's name: a program run as it is
    ],
)
def test_near_misses_run_no_program_file(body: str) -> None:
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    assert derived.data["launch"].get("program") != "train.R"
