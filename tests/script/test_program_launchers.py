"""A Python program that is a launcher of its own, by file name (GPT-NeoX's `deepy.py`): run once,
it starts DeepSpeed's launcher on each node with a program and arguments built from its YAML
configs. The import takes the per-node launcher's mode, leaves the program and its arguments
unknown and says why; a program of another name, or `deepy.py` as an argument, is read as before.
The imported job runs what the script runs, or lists the difference."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes
from tests.script.roundtrip import round_trip

HEAD = "#!/bin/bash\n#SBATCH --nodes=4\n#SBATCH --gpus-per-node=8\n#SBATCH --time=4:00:00\n"
FORMS = [
    "python ./deepy.py train.py configs/125M.yml configs/local_setup.yml\n",
    "python $NEOX/deepy.py $NEOX/train.py -d configs 34b.yml\n",
    'python3 /opt/gpt-neox/deepy.py train.py "configs/llemma.yml"\n',
    "srun --ntasks-per-node=1 python deepy_torchrun.py train.py config.yml\n",
    # source: EleutherAI/gpt-neox examples/slurm_torchrun/slurm_torchrun_usage.sh (the form; shortened)
    "srun -l apptainer exec --nv $IMG bash -c '\n  cd /code\n  python deepy_torchrun.py train.py c.yml\n'\n",
]
NEAR_MISSES = [
    ("python ./deepy_utils.py train.py\n", "deepy_utils.py"),
    ("python train.py --launcher deepy.py\n", "train.py"),
    ("srun python deepy_torchrun_test.py train.py\n", "deepy_torchrun_test.py"),
]


@pytest.mark.parametrize("body", FORMS)
def test_a_launcher_program_sets_the_mode_and_leaves_the_program_unknown(body: str) -> None:
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    launch = derived.data["launch"]
    assert launch.get("mode") == "torchrun"
    assert launch.get("program") is None
    assert launch.get("module") is None
    assert launch.get("args") == []
    assert any("GPT-NeoX's" in line and "write the program" in line for line in derived.unknown)


@pytest.mark.parametrize(("body", "program"), NEAR_MISSES)
def test_another_name_is_the_program(body: str, program: str) -> None:
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    assert derived.data["launch"].get("program", "").endswith(program)
    assert not any("GPT-NeoX" in line for line in derived.unknown)


@pytest.mark.parametrize("body", FORMS + [b for b, _ in NEAR_MISSES])
def test_the_imported_job_runs_what_the_script_runs(body: str, tmp_path: Path) -> None:
    outcome = round_trip((HEAD + body).encode(), tmp_path)
    assert outcome.unlisted == [], outcome.spec
