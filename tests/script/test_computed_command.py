"""A Python file started by a command the text does not show: a command computed when the job
runs (`$LAUNCH_CMD train.py`, `"$LAUNCH_SCRIPT" pretrain_gpt.py …` after bash arrays build the
rest) or a wrapper script the batch script does not hold (`./launch.sh train.py`). Whatever the
command is (an interpreter, a launcher with its options, a wrapper), the file after it is what it
runs: the program. The launch mode is not known, unless srun starts one task per GPU (whatever
each runs), or the variable is named for a per-node launcher (`$accelerate_cmd`): then torchrun,
said as inferred. Near misses: a file that is no Python file, or a name that names no launcher."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes
from tests.script.roundtrip import round_trip

HEAD = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:4\n#SBATCH --time=1:00:00\n"

FORMS = [
    # source: spyysalo/lumi-fineweb-replication train-gpt.sh (the form; shortened)
    (
        'LAUNCH_SCRIPT="$SLURM_SUBMIT_DIR/launch.sh"\nA=(--num-layers 24)\n'
        'COMMAND=" Megatron-LM/pretrain_gpt.py ${A[@]} "\n'
        'srun --ntasks-per-node=4 singularity exec img.sif "$LAUNCH_SCRIPT" $COMMAND\n',
        "srun",
        "Megatron-LM/pretrain_gpt.py",
        ["--num-layers", "24"],
    ),
    ("srun --ntasks-per-node=4 ./launch.sh train.py --lr 1\n", "srun", "train.py", ["--lr", "1"]),
    # source: PPWangyc/multi-view scripts/greene/pretrain.sh (the form; shortened)
    (
        "script_path=src/pretrain.py\naccelerate_cmd=$(./scripts/setup_multi_gpu.sh)\n"
        "$accelerate_cmd $script_path --config c.yaml\n",
        "torchrun",
        "src/pretrain.py",
        ["--config", "c.yaml"],
    ),
    # srun's default of one task a node on nodes of 4 GPUs: started as a per-node launcher is,
    # torchrun inferred from that layout (as with --ntasks-per-node=1 written), said so
    ("CMD=$(./pick_launcher.sh)\nsrun $CMD train.py\n", "torchrun", "train.py", []),
    ("LAUNCHER=$(./pick_launcher.sh)\n$LAUNCHER train.py\n", None, "train.py", []),
]

NEAR_MISSES = [
    # no Python file after the computed command: its own argument, not a program
    ("CMD=$(./pick.sh)\nsrun $CMD train.yaml\n", None),
    ("srun --ntasks-per-node=1 ./launch.sh config.yaml\n", None),
]


@pytest.mark.parametrize(("body", "mode", "program", "args"), FORMS)
def test_the_python_file_after_a_computed_command_is_the_program(
    body: str, mode: str | None, program: str, args: list[str]
) -> None:
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    launch = derived.data["launch"]
    assert (launch.get("mode"), launch.get("program"), launch.get("args")) == (mode, program, args)
    if mode == "torchrun":
        named = "accelerate" in body  # inferred from the variable's name, which the note says
        assert any(
            "inferred, not read" in note and ("accelerate" in note or not named) for note in derived.notes
        )
    assert any("computed when the job runs" in u.why for u in derived.unmapped) or "./launch.sh" in body


@pytest.mark.parametrize(("body", "program"), NEAR_MISSES)
def test_no_python_file_after_it_leaves_the_program_unknown(body: str, program: str | None) -> None:
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    assert derived.data["launch"].get("program") is program


@pytest.mark.parametrize("body", [f[0] for f in FORMS if f[1] is not None])
def test_the_imported_job_runs_what_the_script_runs(body: str, tmp_path: Path) -> None:
    outcome = round_trip((HEAD + body).encode(), tmp_path)
    assert outcome.unlisted == [], outcome.spec
