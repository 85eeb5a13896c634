"""A launcher chosen by an `if` or a `case` when the job runs: the arm the script's own values
(its directives, a variable it sets to a literal) decide is the launch, and said; an arm that
cannot be decided is an alternative, and the mode (and program) that differ are not known."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest
import yaml

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes
from tests.script.roundtrip import round_trip

ONE_GPU = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:1\n#SBATCH --time=1:00:00\n"
NO_GPU = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=1:00:00\n"
TWO_NODES = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node=4\n"
    "#SBATCH --time=1:00:00\n"
)
# source: May-Haps/open-oasis train.slurm (the form; shortened)
GPU_BRANCH = """\
NGPU=${SLURM_GPUS_ON_NODE:-1}
if [ "$NGPU" -gt 1 ]; then
    torchrun --nproc_per_node=$NGPU train.py --lr 1
else
    python train.py --lr 1
fi
"""


def _import(script: str) -> tuple[dict, str]:
    facts = read_bytes(script.encode(), "job.sh")
    derived = imported(facts)
    return derived.data, render(derived, facts)


@pytest.mark.parametrize(
    ("head", "body", "mode", "program", "said"),
    [
        # GPUs per node from --gres, read through a variable set to Slurm's value
        (
            ONE_GPU,
            GPU_BRANCH,
            "srun",
            "train.py",
            "line 9: the `if` on line 6 takes this arm: 1 GPU per node",
        ),
        # nodes from --nodes, in arithmetic
        (
            TWO_NODES,
            "if (( SLURM_NNODES > 1 )); then\n  srun torchrun --nproc_per_node=4 a.py\n"
            "else\n  srun python b.py\nfi\n",
            "torchrun",
            "a.py",
            "the `if` on line 6 takes this arm: 2 nodes",
        ),
        # a `case` on the nodes
        (
            TWO_NODES,
            'case "$SLURM_JOB_NUM_NODES" in\n  1) srun python one.py ;;\n  2|3) srun python few.py ;;\n'
            "  *) srun python many.py ;;\nesac\n",
            "srun",
            "few.py",
            "the `case` on line 6 takes this arm: 2 nodes",
        ),
        # a variable the script sets to a literal, and an `elif` after a clause that holds
        (
            TWO_NODES,
            "LAUNCH=torchrun\nif [[ $LAUNCH == python ]]; then srun python a.py\n"
            'elif [ "$LAUNCH" = torchrun ]; then srun torchrun --nproc_per_node=4 b.py\n'
            "else srun python c.py; fi\n",
            "torchrun",
            "b.py",
            "takes this arm: `$LAUNCH` is torchrun",
        ),
        # tasks per node from the directives, with `test`
        (
            TWO_NODES,
            'if test "$SLURM_NTASKS_PER_NODE" -eq 1; then srun torchrun a.py; else srun python b.py; fi\n',
            "srun",
            "b.py",
            "takes this arm: 4 tasks per node",
        ),
    ],
)
def test_an_arm_the_script_s_values_decide_is_the_launch(
    head: str, body: str, mode: str, program: str, said: str
) -> None:
    data, spec = _import(head + body)
    assert (data["launch"].get("mode"), data["launch"].get("program")) == (mode, program)
    assert said in spec
    assert "Not known: launch.mode" not in spec


def test_the_arm_that_never_runs_is_listed_with_why() -> None:
    _, spec = _import(ONE_GPU + GPU_BRANCH)
    assert (
        "#   line 7: torchrun --nproc_per_node=$NGPU train.py --lr 1 — the `if` on line 6 never takes" in spec
    )


@pytest.mark.parametrize(
    "body",
    [
        # near miss: the script asks for no GPUs, so Slurm's count is not fixed
        GPU_BRANCH,
        # near miss: a count the job computes when it runs
        'NGPU=$(nvidia-smi -L | wc -l)\nif [ "$NGPU" -gt 1 ]; then\n'
        "    torchrun --nproc_per_node=$NGPU train.py --lr 1\nelse\n    python train.py --lr 1\nfi\n",
    ],
)
def test_an_arm_that_cannot_be_decided_leaves_the_mode_not_known(body: str) -> None:
    data, spec = _import(NO_GPU + body)
    assert "mode" not in data["launch"]
    assert "# Not known: launch.mode: the `if` on line" in spec
    assert "torchrun (line " in spec
    assert "srun (line " in spec
    # the program is the same either way: kept
    assert data["launch"]["program"] == "train.py"


def test_programs_that_differ_between_undecided_arms_are_not_known() -> None:
    body = 'if [ "$SLURM_NNODES" -gt 1 ]; then srun torchrun a.py; else srun python b.py; fi\n'
    data, spec = _import(NO_GPU.replace("#SBATCH --nodes=1\n", "") + body)
    assert "program" not in data["launch"]
    assert "module" not in data["launch"]
    assert "# Not known: launch.program:" in spec
    assert "a.py (line 3) or b.py (line 3)" in spec


def test_a_choice_between_jobs_is_said_not_made_unknown() -> None:
    # near miss: a strategy (a name, no count) chooses; the launch taken is said with the other arm
    body = (
        'case "$STRATEGY" in\n  ddp) srun torchrun --nproc_per_node=4 train.py ;;\n'
        "  horovod) srun python train.py ;;\nesac\n"
    )
    data, spec = _import(TWO_NODES + body)
    assert data["launch"]["mode"] == "torchrun"
    assert 'line 7 is one arm of the `case` on line 6, which chooses by "$STRATEGY"' in spec
    assert "another arm of the `case` on line 6" in spec


def _codes(tmp_path: Path, script: str) -> list[str]:
    path = tmp_path / "job.sh"
    path.write_text(script)
    return [f.code for f in lint_path(path).findings]


def test_lint_follows_the_arm_that_runs(tmp_path: Path) -> None:
    body = GPU_BRANCH.replace("--nproc_per_node=$NGPU", "--nproc_per_node=8")
    # the torchrun arm never runs on one GPU: its 8 processes are no JC804
    assert "JC804" not in _codes(tmp_path, ONE_GPU + body)
    # near miss: on 4 GPUs it is the arm that runs, and 8 processes on 4 GPUs are
    assert "JC804" in _codes(tmp_path, ONE_GPU.replace("gpu:1", "gpu:4") + body)


def test_the_decided_arm_round_trips(tmp_path: Path) -> None:
    outcome = round_trip((ONE_GPU + GPU_BRANCH).encode(), tmp_path)
    assert outcome.compiled is not None, outcome.spec
    assert outcome.unlisted == [], outcome.spec
    assert yaml.safe_load(outcome.spec or "")["launch"]["args"] == ["--lr", "1"]


def test_a_variable_set_in_the_arm_that_never_runs_is_not_merged(tmp_path: Path) -> None:
    body = textwrap.dedent(
        """\
        if [ "$SLURM_NNODES" -gt 1 ]; then
            LAUNCH="torchrun --nproc_per_node=4"
        else
            LAUNCH=python
        fi
        srun $LAUNCH train.py --lr 1
        """
    )
    data, _ = _import(TWO_NODES + body)
    assert (data["launch"]["mode"], data["launch"]["program"]) == ("torchrun", "train.py")
    outcome = round_trip((TWO_NODES + body).encode(), tmp_path)
    assert outcome.compiled is not None, outcome.spec
    assert outcome.unlisted == [], outcome.spec
