"""The program after a command the step runs first, followed where the text shows it: a runner
found on PATH (`$(which singularity) exec IMG bash -c "…"`), a wrapper script a shell runs
(`bash ./bind.sh --cpu=exclusive -- python3 main.py`), an srun option written in quotes with a
value computed when the job runs (`"--cpus-per-task=$SLURM_CPUS_PER_TASK"`) before a wrapper, and
srun's options in an array some paths add to (`S=(srun …); if …; then S+=(--container-mounts=…);
fi; "${S[@]}" …`). Each has a near miss the import leaves unknown, and each is run both ways under
the behaviour simulator: the imported job runs what the script runs, or lists the difference."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes
from tests.script.roundtrip import round_trip

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node=4\n"
    "#SBATCH --time=1:00:00\n"
)

FORMS = [
    # a container runner named by `$(which …)`, running a launcher in its shell's string
    # (NYU Greene's singularity with an overlay)
    (
        'srun $(which singularity) exec --nv img.sif /bin/bash -c "\n'
        "source /ext3/env.sh\n"
        "python -m torch.distributed.launch --nnodes=2 --nproc_per_node=4 train.py --debug\n"
        '"\n',
        "torchrun",
        "train.py",
    ),
    ("srun `which apptainer` exec img.sif python3 main.py --lr 1\n", "srun", "main.py"),
    # a binding script a shell runs, its own options, then `--` and the program
    # (NVIDIA DeepLearningExamples' bind.sh)
    (
        "srun -l bash ./scripts/bind.sh --cpu=exclusive --ib=single -- python3 main.py --cfg b0.py\n",
        "srun",
        "main.py",
    ),
    ("srun sh wrap.sh python3 main.py\n", "srun", "main.py"),
    # a quoted srun option with a computed value, then a wrapper script (OLMo on Kempner)
    (
        'srun "--cpus-per-task=$SLURM_CPUS_PER_TASK" --kill-on-bad-exit scripts/run_with_environment.sh '
        "$HOME/envs/bin/python -u scripts/train.py c.yaml\n",
        "srun",
        "scripts/train.py",
    ),
    # srun's options in an array, some added on one path only (Megatron-Bridge's SRUN_CMD)
    (
        "S=(srun --mpi=pmix --no-container-mount-home)\n"
        'if [ -n "$M" ]; then\n  S+=(--container-mounts="$M")\nfi\n'
        "\"${S[@]}\" bash -c 'cd /opt/x && python scripts/prepare.py --recipe r'\n",
        "srun",
        "scripts/prepare.py",
    ),
    (
        'S=(srun -l)\nfor m in a b; do S+=(--container-mounts="$m"); done\n"${S[@]}" python train.py\n',
        "srun",
        "train.py",
    ),
    # the image's runscript, a shell, given `-c` and a command string (UCF-VIT on Frontier)
    (
        "srun -n 8 apptainer run ../vit.sif -c \\\n"
        '"python ../training_scripts/train_class_simple.py ../configs/base_config.yaml"\n',
        "srun",
        "../training_scripts/train_class_simple.py",
    ),
    ("srun singularity run --nv -B /data img.sif -c 'cd /code && python train.py'\n", "srun", "train.py"),
]

NEAR_MISSES = [
    # a computed command that is no `which` of a name: what it runs is not known
    'srun $(pick_runner) exec img.sif bash -c "python train.py"\n',
    # the wrapper script's own argument before the interpreter: the interpreter is its input
    "srun bash ./scripts/bind.sh input.csv -- python3 main.py\n",
    # a wrapper script with nothing after it
    "srun bash ./run.sh\n",
    # a quoted word with no option's name: srun's command, not an option
    'srun "$RUNNER" python3 main.py\n',
    # the array's paths add different programs: the program is not known
    'S=(srun -l)\nif [ -n "$M" ]; then S+=(python train.py); else S+=(python eval.py); fi\n"${S[@]}"\n',
    # `exec` runs the command named after the image: `-c` is no runscript's shell option
    "srun apptainer exec img.sif -c 'python train.py'\n",
    # `-c` later among the runscript's arguments: the runscript's own option
    "srun apptainer run img.sif --cfg x -c 'python train.py'\n",
]


def _launch(body: str) -> tuple[object, object]:
    launch = imported(read_bytes((HEAD + body).encode(), "job.sh")).data["launch"]
    return launch.get("mode"), launch.get("program") or launch.get("module")


@pytest.mark.parametrize(("body", "mode", "program"), FORMS)
def test_the_program_after_the_wrapper_is_read(body: str, mode: str, program: str) -> None:
    assert _launch(body) == (mode, program)


@pytest.mark.parametrize("body", NEAR_MISSES)
def test_a_wrapper_whose_program_the_text_does_not_show_leaves_it_unknown(body: str) -> None:
    assert _launch(body)[1] is None


@pytest.mark.parametrize("body", [f[0] for f in FORMS] + NEAR_MISSES)
def test_the_imported_job_runs_what_the_script_runs(body: str, tmp_path: Path) -> None:
    outcome = round_trip((HEAD + body).encode(), tmp_path)
    assert outcome.unlisted == [], outcome.spec


def test_a_fixed_port_in_a_launcher_a_runner_on_path_runs_is_jc104(tmp_path: Path) -> None:
    body = textwrap.dedent(
        """\
        export PORT=32500
        srun $(which singularity) exec --nv img.sif /bin/bash -c "
        python -m torch.distributed.launch --nnodes=2 --nproc_per_node=4 --master_port=$PORT train.py
        "
        """
    )
    script = tmp_path / "job.sh"
    script.write_text(HEAD + body, encoding="utf-8")
    assert [(f.code, f.span.line) for f in lint_path(script).findings if f.code == "JC104"] == [("JC104", 6)]
    # near miss: the port derived from the job id
    script.write_text(HEAD + body.replace("32500", "$((20000 + SLURM_JOB_ID % 9000))"), encoding="utf-8")
    assert [f.code for f in lint_path(script).findings if f.code == "JC104"] == []


@pytest.mark.parametrize(
    ("program", "fires"),
    [
        # each of the 2 processes spans 2 of the node's 4 GPUs, as its arguments say: on purpose
        ("train.py --gpus-per-process 2", False),
        ("train.py --devices_per_rank=2 --epochs 3", False),
        # no word of it: half the GPUs idle (the rule's own case)
        ("train.py --epochs 3", True),
        # near misses: GPUs per process that do not make up the node, or are not written
        ("train.py --gpus-per-process 3", True),
        ("train.py --gpus-per-process $G", True),
        ("train.py --gpus 2", True),
    ],
)
def test_fewer_processes_than_gpus_is_a_mismatch_unless_each_spans_the_rest(
    program: str, fires: bool, tmp_path: Path
) -> None:
    head = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:4\n"
        "#SBATCH --time=1:00:00\n"
    )
    script = tmp_path / "job.sh"
    script.write_text(
        head + f'srun torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=2 {program}\n', encoding="utf-8"
    )
    found = [(f.code, f.span.line) for f in lint_path(script).findings if f.code == "JC804"]
    assert found == ([("JC804", 6)] if fires else [])


def test_a_per_rank_value_in_a_string_over_several_lines_is_reported_on_its_own_line(tmp_path: Path) -> None:
    # AWS's esm2 sample: the launcher in an exported string over lines 6-9, run by `srun $CMD`;
    # the finding is where `$SLURM_PROCID` is written (line 8), the srun line is related
    body = (
        'export LAUNCHER="accelerate launch \\\n'
        "    --num_machines $SLURM_NNODES \\\n"
        "    --machine_rank $SLURM_PROCID \\\n"
        '    "\n'
        'export CMD="$LAUNCHER train.py"\n'
        "srun $CMD\n"
    )
    script = tmp_path / "job.sh"
    script.write_text(HEAD.replace("ntasks-per-node=4", "ntasks-per-node=1") + body, encoding="utf-8")
    found = [f for f in lint_path(script).findings if f.code == "JC106"]
    assert [(f.span.line, f.span.col) for f in found] == [(8, 20)]
    assert [r.span.line for r in found[0].related] == [11]
    # near miss: escaped for the step's own shell, each task expands it
    script.write_text(
        HEAD.replace("ntasks-per-node=4", "ntasks-per-node=1")
        + body.replace("$SLURM_PROCID", "\\$SLURM_PROCID").replace("srun $CMD", 'srun bash -c "$CMD"'),
        encoding="utf-8",
    )
    assert [f.code for f in lint_path(script).findings if f.code == "JC106"] == []
