"""launch.mode from the task layout alone: an srun step that runs a script the batch script does
not hold (`srun ./scripts/train.sh`, `srun -N1 -n1 bash launch.sh` per node, `srun "$LAUNCHER"`)
with one task asked for on each node of several GPUs is started the way a per-node launcher is,
so the import takes torchrun and says it is inferred, to be checked. A layout that does not say
so (srun's default of one task, a tool by name, a count computed when the job runs) leaves the
mode unknown, and the imported job still runs what the script runs, or lists the difference."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes
from tests.script.roundtrip import round_trip

ONE_PER_NODE = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=8\n"
    "#SBATCH --time=1:00:00\n"
)
NO_TASKS = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n#SBATCH --time=1:00:00\n"
ONE_GPU = ONE_PER_NODE.replace("--gpus-per-node=8", "--gpus-per-node=1")

INFERRED = [
    # foundation-model-stack's fms-fsdp: a wrapper script in the repository
    ONE_PER_NODE + "srun ./scripts/train.sh\n",
    # a shell running a launch file, once per node by name (a per-node loop)
    NO_TASKS + 'for n in a b; do srun -w "$n" -N1 -n1 bash node_launch.sh 2 "$n" &\ndone\nwait\n',
    # the launcher's path in a variable
    ONE_PER_NODE + 'srun "$PT_LAUNCH_SCRIPT" --nodes 2\n',
    # the batch shell runs the job's argument, a script, on its one node of several GPUs
    # source: xingyaoww/code-act scripts/slurm/configs/finetune_4xA100_4tp.slurm (the form; shortened)
    ONE_PER_NODE.replace("--nodes=2", "--nodes=1")
    + "SCRIPT_TO_RUN=$1\napptainer run --nv --no-mount bind-paths --bind $PWD:/workspace img.sif \\\n"
    + '    /bin/bash -c "cd /workspace && $SCRIPT_TO_RUN"\n',
    ONE_PER_NODE.replace("--nodes=2", "--nodes=1") + 'RUN=$1\n"$RUN" --config c.yaml\n',
    # the batch shell runs a script once whatever tasks are asked for: no layout, or one task a
    # GPU that no srun uses (the form of KISTI's and NYU's guides: `bash scripts/lora.sh 4`,
    # `./run_train.sh --multi-gpu 1`)
    NO_TASKS.replace("--nodes=2", "--nodes=1") + 'RUN=$1\n"$RUN"\n',
    NO_TASKS.replace("--nodes=2", "--nodes=1") + "source env.sh\nbash scripts/lora.sh 4\n",
    NO_TASKS.replace("--nodes=2", "--nodes=1").replace("--gpus-per-node=8", "--gpus-per-node=2")
    + "#SBATCH --ntasks-per-node=2\ncd /scratch/repo\n./run_train.sh --sif x.sif --multi-gpu 1\n",
    # srun's default of one task a node (no line asks for tasks) runs the script once on each node
    # of several GPUs, as the batch shell runs it once on its node
    NO_TASKS + "srun ./scripts/train.sh\n",
]
UNKNOWN = [
    # a tool by name starts no program of the job's
    ONE_PER_NODE + "srun enroot import docker://nvcr.io#nvidia/pytorch:24.01-py3\n",
    # the task count is computed when the job runs
    NO_TASKS + 'srun --ntasks-per-node="$PER" ./scripts/train.sh\n',
]


def _mode(script: str) -> tuple[object, list[str]]:
    derived = imported(read_bytes(script.encode(), "job.sh"))
    return derived.data["launch"].get("mode"), derived.notes


@pytest.mark.parametrize("script", INFERRED)
def test_one_task_per_node_of_several_gpus_running_a_script_is_torchrun_inferred(script: str) -> None:
    mode, notes = _mode(script)
    assert mode == "torchrun"
    assert any("launch.mode torchrun is inferred, not read" in n and "check it" in n for n in notes), notes


@pytest.mark.parametrize("script", UNKNOWN)
def test_a_layout_that_does_not_say_leaves_the_mode_unknown(script: str) -> None:
    mode, notes = _mode(script)
    assert mode is None
    assert not any("inferred, not read" in n for n in notes)


def test_one_task_on_a_one_gpu_node_is_one_task_per_gpu_as_before() -> None:
    # one process per GPU and one per node are the same there: srun's one task per GPU, read
    mode, notes = _mode(ONE_GPU + "srun ./scripts/train.sh\n")
    assert mode == "srun"
    assert not any("inferred, not read" in n for n in notes)


def test_a_computed_command_in_the_background_is_no_step() -> None:
    derived = imported(read_bytes((ONE_PER_NODE + 'RUN=$1\n"$RUN" &\nwait\n').encode(), "job.sh"))
    assert derived.data["launch"].get("mode") is None
    assert not any("inferred, not read" in n for n in derived.notes)


def test_a_launcher_the_text_shows_is_read_not_inferred() -> None:
    mode, notes = _mode(ONE_PER_NODE + "srun ./scripts/train.sh python train.py\n")
    assert mode == "srun"
    assert not any("inferred, not read" in n for n in notes)


@pytest.mark.parametrize("script", INFERRED + UNKNOWN)
def test_the_imported_job_runs_what_the_script_runs(script: str, tmp_path: Path) -> None:
    outcome = round_trip(script.encode(), tmp_path)
    assert outcome.unlisted == [], outcome.spec


# a script the batch shell runs once on a node of one GPU: one process, launch.mode srun's one task
# source: HP2706/lolcats train_slurm.sh (the form; shortened)
ONE_PROCESS = [
    NO_TASKS.replace("--nodes=2", "--nodes=1").replace("--gpus-per-node=8", "--gpus-per-node=1")
    + "bash env_setup.bash\nbash train.bash --model_type qwen\n",
    NO_TASKS.replace("--nodes=2", "--nodes=1").replace("--gpus-per-node=8", "--gpus-per-node=1")
    + "./run.sh --epochs 3\n",
]


@pytest.mark.parametrize("script", ONE_PROCESS)
def test_a_script_run_once_on_one_gpu_is_one_process_inferred(script: str) -> None:
    mode, notes = _mode(script)
    assert mode == "srun"
    assert any("launch.mode srun is inferred, not read" in n and "check it" in n for n in notes), notes


def test_a_computed_command_in_front_of_a_program_stays_unknown_from_the_batch_shell() -> None:
    # `$LAUNCHER train.py`: an interpreter or a launcher, the text does not say
    script = NO_TASKS.replace("--nodes=2", "--nodes=1") + "LAUNCHER=$(./pick.sh)\n$LAUNCHER train.py\n"
    mode, notes = _mode(script)
    assert mode is None
    assert not any("inferred, not read" in n for n in notes)


def test_a_helper_script_run_as_a_file_is_the_step_only_when_nothing_else_trains() -> None:
    base = NO_TASKS.replace("--nodes=2", "--nodes=1")
    derived = imported(read_bytes((base + "./setup.sh\npython train.py\n").encode(), "job.sh"))
    assert derived.data["launch"].get("program") == "train.py"
    derived = imported(read_bytes((base + "./setup.sh --x 1\n").encode(), "job.sh"))
    assert derived.data["launch"].get("program") is None
    assert derived.data["launch"].get("mode") == "torchrun"
