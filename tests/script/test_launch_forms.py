"""Every way a launch is written is followed to its program and mode: a command built with `+=`
in an `if` or a loop (the words every path shares kept, the rest said to be on some paths only),
a `bash -c` inside a `bash -c`, a container runner or profiler in front of the program, an
executable Python file, `$(pwd)` and backtick paths, and a launcher seen in the text sets the mode
even when the program it runs is not known."""

from __future__ import annotations

import textwrap

import pytest

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
    "#SBATCH --time=1:00:00\n"
)


def _launch(body: str) -> tuple[str | None, str | None, str]:
    """The imported mode and program (or module), and the spec's text."""
    facts = read_bytes((HEAD + textwrap.dedent(body)).encode(), "job.sh")
    derived = imported(facts)
    launch = derived.data["launch"]
    return launch.get("mode"), launch.get("program") or launch.get("module"), render(derived, facts)


@pytest.mark.parametrize(
    ("body", "mode", "program"),
    [
        # Megatron-Bridge's launcher: srun options added in an if
        (
            """\
            SRUN_CMD="srun --mpi=pmix"
            if [ -n "$CONTAINER" ]; then
              SRUN_CMD+=" --container-image=$CONTAINER --container-mounts=/data:/data"
            fi
            $SRUN_CMD python pretrain.py --lr 1
            """,
            "srun",
            "pretrain.py",
        ),
        # options added in a loop: the launcher is known, what the loop adds is not
        (
            """\
            CMD="torchrun --nproc_per_node=8 --nnodes=2"
            for o in "$@"; do CMD+=" $o"; done
            srun $CMD
            """,
            "torchrun",
            None,
        ),
        # the launch in the second bash -c of a script, and a bash -c inside a step's bash -c
        (
            'bash -c "echo ready"\nsrun bash -c "bash -c \'torchrun --nproc_per_node=8 x.py\'"\n',
            "torchrun",
            "x.py",
        ),
        # pyxis: srun --container-image … bash -c "torchrun …"
        (
            "srun --container-image=nvcr.io#nvidia/pytorch:24.01-py3 "
            'bash -c "torchrun --nproc_per_node=8 x.py"\n',
            "torchrun",
            "x.py",
        ),
        (
            "srun singularity run --nv $SIF "
            "bash -c 'python -m torch.distributed.run --nproc_per_node=8 v.py'\n",
            "torchrun",
            "v.py",
        ),
        (
            "srun apptainer run --nv --bind /w img.sif python3 -m verl.trainer.main_ppo a=1\n",
            "srun",
            "verl.trainer.main_ppo",
        ),
        ('srun -u shifter -V /d:/data bash -c "${PROFILE_CMD} python train.py"\n', "srun", "train.py"),
        ("srun nsys profile -s none -t nvtx,cuda -o prof python3 -u train.py\n", "srun", "train.py"),
        # an executable Python file
        ("srun ./train.py --lr 1\n", "srun", "./train.py"),
        # $(pwd) and `pwd` paths, relative to where the step runs
        ("srun python $(pwd)/train.py\n", "srun", "./train.py"),
        ("cd /home/me/code\nsrun python `pwd`/train.py\n", "srun", "train.py"),  # workdir /home/me/code
        (
            'cd "$WORK/code"\nCMD="`pwd`/run_clm.py --bf16"\n'
            'srun bash -c "python -m torch.distributed.launch $CMD"\n',
            "torchrun",
            "run_clm.py",
        ),
        # the launcher is in the text, the program is not
        ("srun torchrun --nproc_per_node=8 $SCRIPT\n", "torchrun", None),
        ("srun python $SCRIPT\n", "srun", None),
    ],
)
def test_a_launch_form_is_followed_to_its_program_and_mode(body: str, mode: str, program: str | None) -> None:
    got_mode, got_program, text = _launch(body)
    assert (got_mode, got_program) == (mode, program), text


def test_words_some_paths_add_are_said(tmp_path: object) -> None:
    _, _, text = _launch(
        'SRUN_CMD="srun --mpi=pmix"\nif [ -n "$C" ]; then SRUN_CMD+=" --container-image=$C"; fi\n'
        "$SRUN_CMD python pretrain.py\n"
    )
    assert "srun ${SRUN_CMD} — srun options the script adds on some paths only" in text
    _, _, text = _launch("srun nsys profile -o prof python3 -u train.py\n")
    assert "the program runs" not in text or "nsys" in text


def test_a_program_that_differs_between_paths_is_not_known() -> None:
    # a program on one path only is no program of the job's: never one path's guess
    _, program, _ = _launch(
        'CMD="python"\nif [ -n "$EVAL" ]; then CMD+=" eval.py"; else CMD+=" train.py"; fi\nsrun $CMD\n'
    )
    assert program is None
