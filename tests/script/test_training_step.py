"""Which step trains: a launcher above a Python program above a wrapper above a helper; of equals
the last. Shown by `jobc import`, read by the rules that reason about the training step."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.facts import choose
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=8\n#SBATCH --gpus-per-node=8\n"
    "#SBATCH --time=1:00:00\n"
)


def _step(body: str) -> tuple[int | None, str]:
    facts = read_bytes((HEAD + textwrap.dedent(body)).encode(), "job.sh")
    step, why = choose(facts.steps)
    return (step.span.line if step is not None else None), why


@pytest.mark.parametrize(
    ("body", "line"),
    [
        # a clean-up after the training
        ("srun python train.py\nsrun pkill -f python\n", 6),
        # an environment check before it, in a bash -c
        ("srun bash -c 'python -c \"import deepspeed\"'\nsrun python train.py\n", 7),
        # a short foreground preflight check before the real launch
        ("python preflight_check.py\nsrun python train.py\n", 7),
        ("srun -n1 python sanity_check.py\nsrun torchrun --nproc_per_node=8 train.py\n", 7),
        # evaluation after training: the program named for training
        ("srun python train.py\nsrun python evaluate.py\n", 6),
        # a staging step, then the training step: the program, not the staging shell
        (
            "srun --ntasks-per-node=1 bash -c 'mkdir -p /tmp/d && cp data /tmp/d'\n"
            "srun uv run python main.py\n",
            7,
        ),
        # backgrounded with wait: still the training step
        ("srun python train.py &\nsrun hostname\nwait\n", 6),
        # a Ray cluster's head and worker started by srun, then the driver the batch shell runs
        (
            "srun -N1 -n1 -w $h ray start --head --port=6379 --block &\n"
            "srun -N1 -n1 -w $w ray start --address $h:6379 --block &\npython tune.py --samples 8\n",
            8,
        ),
        # near miss: a step that is not a Ray service stays ahead of the batch shell's program
        ("srun -N1 -n1 ./serve.sh &\npython tune.py --samples 8\n", 6),
        # a check that a file is there, run by srun while a service starts (NeMo-RL's ray.sub): a
        # helper, the step before it trains
        ("srun ./launch_driver.sh &\nwhile ! srun --overlap -N1 -n1 test -f started; do sleep 2; done\n", 6),
        ("srun ./launch_driver.sh &\nuntil srun --overlap -N1 -n1 [ -f started ]; do sleep 2; done\n", 6),
        # near miss: a program named like it is no check
        ("srun ./launch_driver.sh &\nsrun ./test_suite.sh\n", 7),
        # a staging shell, then the program run through `python -c` code that imports the
        # training module (pattern seen in: kutayeroglu/ijepa, MareNostrum 5)
        (
            "srun --ntasks-per-node=1 bash -c 'tar -xf d.tar -C $TMPDIR'\n"
            'srun singularity exec img.sif python -u -c "\nfrom src.train import main\nmain(args={})\n"\n',
            7,
        ),
        # near miss: code that checks the environment stays a helper beside the staging shell
        (
            "srun --ntasks-per-node=1 bash -c 'tar -xf d.tar -C $TMPDIR'\n"
            'srun python -c "import torch; print(torch.cuda.device_count())"\n',
            6,
        ),
    ],
)
def test_the_training_step_is_the_one_that_trains(body: str, line: int) -> None:
    assert _step(body)[0] == line


def test_the_choice_and_the_other_steps_are_said_by_the_import(tmp_path: Path) -> None:
    facts = read_bytes(
        (HEAD + "srun hostname\nsrun torchrun --nproc_per_node=8 train.py\nsrun pkill python\n").encode(),
        "job.sh",
    )
    text = render(imported(facts), facts)
    assert (
        "# jobc: the training step is line 7: the last step that starts a launcher (2 other step(s) listed"
        in text
    )
    assert (
        "#   line 6: srun hostname — a helper step (a check, a preparation, a clean-up); jobc runs one launch"
        in text
    )
    assert "#   line 8: srun pkill python — a helper step" in text


def _codes(tmp_path: Path, body: str) -> list[str]:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + textwrap.dedent(body))
    return [f.code for f in lint_path(path).findings]


def test_rules_reason_about_the_training_step_only(tmp_path: Path) -> None:
    # JC101 on a helper step: gone once the helper is no longer taken for the training step
    assert "JC101" not in _codes(
        tmp_path, "srun python train.py\nsrun -N2 --ntasks-per-node=1 pkill python\n"
    )
    # a near miss: the training step itself has one task per node for 8 GPUs
    assert "JC101" in _codes(tmp_path, "srun --ntasks-per-node=1 python train.py\nsrun pkill python\n")


def test_a_single_task_driver_is_no_jc101(tmp_path: Path) -> None:
    # a Ray driver on the head node, one task in all: it reaches the GPUs through its workers
    body = "srun --nodes=1 --ntasks=1 python3 -m verl.trainer.main_ppo\n"
    assert "JC101" not in _codes(tmp_path, body)
    assert "JC101" in _codes(tmp_path, "srun --nodes=1 --ntasks=2 python3 -m verl.trainer.main_ppo\n")


def test_jc106_leaves_node_level_values_on_a_one_node_job(tmp_path: Path) -> None:
    one = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=4\n#SBATCH --time=1:00:00\n"
    path = tmp_path / "one.sh"
    path.write_text(
        one
        + 'n=$(echo "$CUDA_VISIBLE_DEVICES" | tr , "\\n" | wc -l)\n'
        + "torchrun --nproc_per_node=$n --node_rank=$SLURM_NODEID train.py\n"
    )
    assert "JC106" not in [f.code for f in lint_path(path).findings]
    # a near miss: the rank of a task is never the batch shell's, on one node or many
    path.write_text(one + "torchrun --nproc_per_node=4 train.py --rank $SLURM_PROCID\n")
    assert "JC106" in [f.code for f in lint_path(path).findings]


def test_jc106_leaves_a_launcher_s_node_rank_from_task_0_on_a_one_node_job(tmp_path: Path) -> None:
    # pattern seen in: ashandonay/bedcosmo scripts/slurm/train.sh (srun torchrun, one task on one node)
    head = "#!/bin/bash\n#SBATCH --nodes={n}\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=4\n"
    step = (
        "srun torchrun --nnodes=$SLURM_NNODES --nproc_per_node=4 \\\n"
        "    --node_rank=$SLURM_PROCID --rdzv_endpoint=$(hostname):29500 train.py\n"
    )
    path = tmp_path / "one.sh"
    path.write_text(head.format(n=1) + "#SBATCH --time=1:00:00\n" + step)
    assert "JC106" not in [f.code for f in lint_path(path).findings]
    # near misses: on two nodes every node would claim rank 0; on one node a program's own rank
    path.write_text(head.format(n=2) + "#SBATCH --time=1:00:00\n" + step)
    assert "JC106" in [f.code for f in lint_path(path).findings]
    path.write_text(
        head.format(n=1)
        + "#SBATCH --time=1:00:00\n"
        + step.replace("train.py", "train.py --rank $SLURM_PROCID")
    )
    assert "JC106" in [f.code for f in lint_path(path).findings]


def test_jc802_holds_only_the_training_step_to_the_trap(tmp_path: Path) -> None:
    # the training step in the background with wait, as the rule asks; a preflight check before
    # it and a clean-up after it end by themselves, and the trap runs after them
    body = (
        "#SBATCH --signal=B:USR2@300\ntrap 'kill -USR2 $pid' USR2\n"
        "srun --ntasks=1 python preflight_check.py\nsrun torchrun --nproc_per_node=8 train.py &\n"
        "pid=$!\nwait $pid\nsrun pkill python\n"
    )
    assert "JC802" not in _codes(tmp_path, body)
    # a near miss: the training step in the foreground holds the trap back
    assert "JC802" in _codes(tmp_path, body.replace("train.py &\npid=$!\nwait $pid\n", "train.py\n"))
