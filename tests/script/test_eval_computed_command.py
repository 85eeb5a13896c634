"""`eval $CMD` of a value computed when the job runs (the environment's, a line of a file) runs a
command the job computes, as `$CMD` alone does, and so does a command named by a directory the
script writes and a name computed when the job runs (`/opt/env/bin/$(sed -n …p cmds.txt)`): a step
of the batch shell whose program is not in the script. On a node of one GPU it is one process
(launch.mode srun, said inferred); the program is never invented. Near misses: an `eval` of a
substitution sets the shell up (`eval "$(conda shell.bash hook)"`) and starts no step, and an
`eval` of a command the script writes is read as that command."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes


def _head(gpus: int) -> str:
    return f"#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:{gpus}\n#SBATCH --time=1:00:00\n"


FORMS = [
    # pattern seen in: KempnerInstitute/optimizing-ml-workflow (a sweep's command from the environment)
    "module load python\neval $CMD\n",
    'eval "${RUN_CMD}"\n',
    # pattern seen in: jonathanking/protein-transformer (an array task's line of a file, in an env's bin)
    'cmd="/opt/envs/pt/bin/$(sed -n "${SLURM_ARRAY_TASK_ID}p" ../cluster/cmds.txt)"\necho $cmd\neval $cmd\n',
    "./bin/$TOOL --config c.yaml\n",
]


@pytest.mark.parametrize("body", FORMS)
def test_a_computed_command_on_one_gpu_is_one_process_inferred(body: str) -> None:
    derived = imported(read_bytes((_head(1) + body).encode(), "job.sh"))
    launch = derived.data["launch"]
    assert launch.get("mode") == "srun"
    assert "program" not in launch  # never invented
    assert "module" not in launch
    assert any("launch.mode srun is inferred, not read" in note for note in derived.notes)


@pytest.mark.parametrize("body", FORMS[:3])
def test_a_computed_command_is_a_step_of_the_batch_shell(body: str) -> None:
    facts = read_bytes((_head(1) + body).encode(), "job.sh")
    assert [s.line for s in facts.steps] == [body.count("\n") + 4]
    assert facts.steps[0].srun is None


@pytest.mark.parametrize(
    ("body", "program"),
    [
        # an eval of a substitution sets the shell up: no step; the srun step after it trains
        ('eval "$(conda shell.bash hook)"\nconda activate env\nsrun python train.py\n', "train.py"),
        # an eval of a value the script writes is the command it holds
        ('CMD="python train.py --lr 1"\neval $CMD\n', "train.py"),
        ('A="train.py"\neval python $A\n', "train.py"),
    ],
)
def test_an_eval_of_a_known_value_or_a_substitution_is_read_as_before(body: str, program: str | None) -> None:
    facts = read_bytes((_head(1) + body).encode(), "job.sh")
    assert not any(s.line == 5 and s.srun is None and s.program is None for s in facts.steps)
    derived = imported(facts)
    assert derived.data["launch"].get("program") == program


def test_a_computed_command_on_several_gpus_is_no_single_process() -> None:
    derived = imported(read_bytes((_head(4) + "eval $CMD\n").encode(), "job.sh"))
    assert derived.data["launch"].get("mode") != "srun"
    assert "program" not in derived.data["launch"]
