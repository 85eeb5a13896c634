"""JC817: `srun VAR=value program`: srun runs `VAR=value` as the command's name (it is no shell and
sets no variable), so every task fails before the program starts. Lint says so, with a safe fix that
puts `env` in front; the import carries the program and lists the word with why, never as an
environment value."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.fix import apply
from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

# source: the form of a per-GPU job that meant to set its threads for the program on srun's line
HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=4\n#SBATCH --gres=gpu:4\n"
    "#SBATCH --time=2:00:00\n"
)


def _found(text: str) -> list[tuple[int, int, str]]:
    findings = lint_path(Path("job.sh"), data=text.encode()).findings
    return [(f.span.line, f.span.col, f.message) for f in findings if f.code == "JC817"]


@pytest.mark.parametrize(
    ("step", "col"),
    [
        ("srun OMP_NUM_THREADS=4 python train.py\n", 6),
        ("srun --cpu-bind=cores OMP_NUM_THREADS=4 CUDA_LAUNCH_BLOCKING=1 python train.py\n", 23),
        ("srun -l NCCL_DEBUG=WARN torchrun --nproc_per_node=4 train.py\n", 9),
    ],
)
def test_an_assignment_srun_runs_as_a_command_is_reported(step: str, col: int) -> None:
    [(line, at, message)] = _found(HEAD + step)
    assert (line, at) == (6, col)
    assert "srun is no shell and sets no variable" in message


@pytest.mark.parametrize(
    "step",
    [
        # near misses: the variable given the ways srun's tasks receive it
        "srun env OMP_NUM_THREADS=4 python train.py\n",
        "OMP_NUM_THREADS=4 srun python train.py\n",
        "srun --export=ALL,OMP_NUM_THREADS=4 python train.py\n",
        "srun bash -c 'OMP_NUM_THREADS=4 python train.py'\n",
        "srun python train.py lr=1e-4 trainer.devices=4\n",
    ],
)
def test_a_variable_given_as_srun_passes_it_is_no_finding(step: str) -> None:
    assert _found(HEAD + step) == []


def test_the_fix_puts_env_in_front() -> None:
    text = HEAD + "srun OMP_NUM_THREADS=4 python train.py\n"
    fixes = [f.fix for f in lint_path(Path("job.sh"), data=text.encode()).findings if f.code == "JC817"]
    fixed, taken = apply(text, [f for f in fixes if f is not None])
    assert len(taken) == 1
    assert fixed.endswith("srun env OMP_NUM_THREADS=4 python train.py\n")
    assert _found(fixed) == []


def test_no_fix_when_no_program_follows_the_assignment() -> None:
    # found by the fix-script fuzz target (seed 1601, input 1,549): `exec srun pyt=06:00:00`, an
    # assignment and nothing after it; `env` in front made srun run env itself, which printed the
    # environment, where the script's step ran nothing. The finding stands, without a fix
    text = HEAD + "srun OMP_NUM_THREADS=4\n"
    findings = [f for f in lint_path(Path("job.sh"), data=text.encode()).findings if f.code == "JC817"]
    assert [(f.span.line, f.span.col) for f in findings] == [(6, 6)]
    assert findings[0].fix is None
    # near miss: a program after it keeps the fix
    text = HEAD + "srun OMP_NUM_THREADS=4 ./train\n"
    findings = [f for f in lint_path(Path("job.sh"), data=text.encode()).findings if f.code == "JC817"]
    assert findings[0].fix is not None


def test_no_fix_when_an_option_follows_the_assignment() -> None:
    # found by the fix-script fuzz target (seed 3401, input 5,173): `srun torchruner_node=8
    # --node_rank= …`; `env` in front reads `--node_rank=` as an option of its own, so the fixed
    # step fails another way where the finding promised the program runs. The finding stands,
    # without a fix
    text = HEAD + "srun OMP_NUM_THREADS=4 --node_rank= python train.py\n"
    findings = [f for f in lint_path(Path("job.sh"), data=text.encode()).findings if f.code == "JC817"]
    assert [(f.span.line, f.span.col) for f in findings] == [(6, 6)]
    assert findings[0].fix is None


def test_the_import_lists_the_word_and_carries_no_variable() -> None:
    derived = imported(read_bytes((HEAD + "srun OMP_NUM_THREADS=4 python train.py\n").encode(), "job.sh"))
    assert derived.data["launch"]["program"] == "train.py"
    assert "OMP_NUM_THREADS" not in derived.data.get("env", {})
    assert any(u.text == "OMP_NUM_THREADS=4" and "JC817" in u.why for u in derived.unmapped)
