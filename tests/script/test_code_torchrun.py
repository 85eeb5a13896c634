"""`python -c CODE` whose code starts torchrun: the code is parsed as Python (never run), and the
command it builds is read as torchrun's; what the code computes stays unknown, never guessed.
Code that starts no torchrun is code no spec field holds, as before."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:4\n#SBATCH -t 1:00:00\n"
)

# source: hlxie22/codenames-lora slurm/train.slurm (the form: a list run by subprocess)
LIST = """VENV_PY="$(which python)"
srun --ntasks-per-node=1 "$VENV_PY" -c '
import os, subprocess
nnodes = os.environ.get("NNODES", "1")
cmd = [
  sys.executable, "-m", "torch.distributed.run",
  f"--nnodes={nnodes}",
  "--nproc_per_node=4",
  "-m", "src.train_dpo",
  "--config", cfg,
]
raise SystemExit(subprocess.call(cmd))
'
"""


def _launch(body: str) -> dict[str, object]:
    launch: dict[str, object] = imported(read_bytes((HEAD + body).encode(), "job.sh")).data["launch"]
    return launch


def test_a_command_list_built_in_the_code() -> None:
    launch = _launch(LIST)
    assert launch.get("mode") == "torchrun"
    assert launch.get("module") == "src.train_dpo"
    # `cfg` is computed by the code: kept as not known, never as its name
    assert launch.get("args") == ["--config", "{unknown.value}"]


@pytest.mark.parametrize(
    ("body", "program"),
    [
        (
            """srun python -c 'import os; os.system("torchrun --nproc_per_node=4 train.py --lr 1")'\n""",
            "train.py",
        ),
        (
            'srun python -c "from torch.distributed.run import main; main()" --nproc_per_node=4 train.py\n',
            "train.py",
        ),
        # a program the code computes: torchrun all the same, the program not known
        ("""srun python -c 'import subprocess as s; s.run(["torchrun", "--nproc_per_node=4", p])'\n""", None),
        # code the batch shell expands into: torchrun, nothing more is read
        ("""srun python -c "import os; os.system('torchrun --nproc_per_node=$NPROC train.py')"\n""", None),
    ],
)
def test_code_that_starts_torchrun(body: str, program: str | None) -> None:
    launch = _launch(body)
    assert launch.get("mode") == "torchrun"
    assert launch.get("program") == program


@pytest.mark.parametrize(
    "body",
    [
        # near misses: code that starts no torchrun, or imports the module without running it
        """srun python -c 'import torch; print(torch.cuda.device_count())'\n""",
        """srun python -c 'import torch.distributed.run as r; print(r.__file__)'\n""",
        """srun python -c 'import subprocess; subprocess.run(["python", "train.py"])'\n""",
        """srun python -c 'not python at all ('\n""",
    ],
)
def test_code_that_starts_no_torchrun_is_still_code(body: str) -> None:
    launch = _launch(body)
    assert launch.get("mode") != "torchrun"
    assert launch.get("program") is None
