"""More ways a launch is written, each followed to its program and mode, with a near miss that is
not: a wrapper the script names in front of a launcher or an interpreter (`nsys-slurm-exec
torchrun`, `numactl -N 0 python`), torchtune's `tune run` in all its forms, a program file named
in a directory computed when the job runs, a word the grammar cuts at its second `$NAME`, a
command built step by step whose paths differ only in blanks, srun options added in a loop
inside an `if`, and srun's one task on a one-GPU node."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.lint.pipeline import lint_file
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=8\n"
    "#SBATCH --time=1:00:00\n"
)


def _launch(body: str, head: str = HEAD) -> tuple[str | None, str | None, str]:
    """The imported mode and program (or module), and the spec's text."""
    facts = read_bytes((head + textwrap.dedent(body)).encode(), "job.sh")
    derived = imported(facts)
    launch = derived.data["launch"]
    return launch.get("mode"), launch.get("program") or launch.get("module"), render(derived, facts)


@pytest.mark.parametrize(
    ("body", "mode", "program"),
    [
        # a site's profiler wrapper in front of torchrun (AWS nsys-slurm-exec)
        ("srun -l /fsx/nsys-slurm-exec torchrun --nproc_per_node=8 train.py\n", "torchrun", "train.py"),
        # a binder with options (and an option's value) in front of the interpreter
        ("srun numactl --cpunodebind 0 --membind=0 python3 train.py\n", "srun", "train.py"),
        ("srun ncu -o prof --set full python train.py\n", "srun", "train.py"),
        ("srun /opt/wrap.sh accelerate launch --num_processes 16 t.py\n", "torchrun", "t.py"),
        # torchtune: `tune run` with torchrun's options is torchrun; a recipe file is the program
        ("srun tune run --nnodes 2 --nproc_per_node 8 recipes/r.py --config c\n", "torchrun", "recipes/r.py"),
        # ... a recipe by name is torchrun's too, but its file is torchtune's: not named
        ("srun tune run --nproc_per_node=8 full_finetune_distributed --config c\n", "torchrun", None),
        # without torchrun's options it runs the recipe in one process
        ("srun tune run lora_finetune_single_device --config llama3/8B_lora_single_device\n", "srun", None),
        ("srun tune run my_recipe.py --config c.yaml\n", "srun", "my_recipe.py"),
        # a program file in a directory computed when the job runs: kept, the directory unknown
        ("deepspeed ${WORK}/s/run_clm.py --deepspeed ds.json\n", "torchrun", "{unknown.WORK}/s/run_clm.py"),
        ('srun torchrun --nproc_per_node=8 $(dirname "$PWD")/ddp.py\n', "torchrun", "{unknown.value}/ddp.py"),
        (
            "SCRIPT=${SCRIPT:-train_sft.py}\nD=$(dirname $(realpath $0))\n"
            'bash -c "accelerate launch --num_processes 16 --num_machines 2 $D/scripts/$SCRIPT --bf16"\n',
            "torchrun",
            "{unknown.D}/scripts/train_sft.py",
        ),
        # the grammar ends `a.$X.b-$Y.out` at `$`: bash reads one word, and the step runs python
        (
            "for i in 0 1; do\n  srun -N 1 --output l.$SLURM_JOB_ID.w-$i.out python3 main.py &\ndone\n",
            "srun",
            "main.py",
        ),
        # a command built step by step; an `if` that adds an empty value changes only blanks
        (
            'D="$(cd "$(dirname "$0")" && pwd)"\nCMD="torchrun --nproc_per_node=8"\n'
            'CMD="$CMD $D/run_recipe.py"\n'
            'EXTRA=""\nif [ -n "$EXTRA" ]; then\n  CMD="$CMD $EXTRA"\nfi\nsrun bash -c "$CMD"\n',
            "torchrun",
            "{unknown.D}/run_recipe.py",
        ),
        # a command string with a value computed when the job runs, an `if` adding options
        # (Kempner's CMD="torchrun --master_addr=$MASTER_ADDR …"; CMD="$CMD --resume $R")
        (
            'A=$(hostname)\nCMD="torchrun --nproc_per_node=8 --master_addr=$A \\\n  t.py --c x"\n'
            'if [ -n "$R" ]; then\n  CMD="$CMD --resume $R"\nfi\n$CMD\n',
            "torchrun",
            "t.py",
        ),
        # a shell reading its commands from a heredoc, in a container or in the batch shell
        (
            "apptainer exec --nv i.sif bash <<EOF\ncd /w\npython src/train.py\nEOF\nscancel $SLURM_JOB_ID\n",
            "srun",
            "src/train.py",
        ),
        ("srun bash -s <<'EOF'\ntorchrun --nproc_per_node=8 t.py\nEOF\n", "torchrun", "t.py"),
        # IPython runs a file as python does (MPI-KG's Lightning job)
        ("srun ipython train.py --gpus 2\n", "srun", "train.py"),
        # ... and an interactive one (no file) runs no program; `ipythonx` is no IPython
        ("srun ipython\n", "srun", None),
        ("srun ipythonx train.py\n", None, None),
        # srun options added in a loop inside an `if`: still srun's options
        (
            'CMD="torchrun --nproc_per_node=8 t.py"\nS="srun --mpi=pmix"\nif [ -n "$M" ]; then\n'
            '  for m in $M; do S="$S --container-mounts=$m"; done\nfi\n$S bash -c "$CMD"\n',
            "torchrun",
            "t.py",
        ),
    ],
)
def test_a_launch_form_is_followed_to_its_program_and_mode(body: str, mode: str, program: str | None) -> None:
    got_mode, got_program, _ = _launch(body)
    assert (got_mode, got_program) == (mode, program)


@pytest.mark.parametrize(
    "body",
    [
        # a command with an argument of its own before the interpreter: no wrapper of it
        "srun mytool input.csv python train.py\n",
        # a shell running a script file whose arguments name no interpreter or launcher: what the
        # file runs is not read here (`bash run.sh torchrun train.py` is a wrapper, as
        # `./run.sh torchrun train.py` is)
        "srun bash run.sh --config train.yaml\n",
        "srun bash run.sh data.csv torchrun train.py\n",
        # the command itself computed when the job runs, an `if` adding options: not known
        'L=$(pick_launcher)\nCMD="$L --nproc_per_node=8 t.py"\nif [ -n "$R" ]; then\n'
        '  CMD="$CMD --resume $R"\nfi\n$CMD\n',
        # a heredoc on another descriptor, or beside a script file the shell runs, is no script
        "bash 3<<EOF\npython src/train.py\nEOF\n",
        "bash run.sh <<EOF\npython src/train.py\nEOF\n",
        # torchtune's other commands start no training
        "srun tune download meta-llama/Llama-3-8B --output-dir /tmp/m\n",
    ],
)
def test_near_misses_name_no_launcher(body: str) -> None:
    facts = read_bytes((HEAD + textwrap.dedent(body)).encode(), "job.sh")
    step = facts.main_step
    assert step is None or (step.launcher is None and step.python is None and step.recipe is None)


def test_a_file_name_not_written_leaves_the_program_unknown() -> None:
    # near miss of the unknown directory: the file's own name is computed when the job runs
    _, program, text = _launch("deepspeed ${WORK}/scripts/$SCRIPT --deepspeed ds.json\n")
    assert program is None
    assert "Not known: launch.program" in text


def test_a_program_in_an_unknown_directory_fails_lint_until_written(tmp_path: Path) -> None:
    _, _, text = _launch("deepspeed ${WORK}/scripts/run_clm.py --deepspeed ds.json\n")
    assert "# Not known: launch.program: line 6 runs ${WORK}/scripts/run_clm.py, in a directory" in text
    spec = tmp_path / "spec.yaml"
    spec.write_text(text, encoding="utf-8")
    assert "JC008" in {f.code for f in lint_file(spec).findings}


def test_a_torchtune_recipe_by_name_is_said_not_known() -> None:
    _, _, text = _launch("srun tune run --nproc_per_node=8 full_finetune_distributed --config c\n")
    assert "runs the torchtune recipe full_finetune_distributed by name" in text


def test_a_named_wrapper_is_said_not_carried() -> None:
    _, _, text = _launch("srun -l /fsx/nsys-slurm-exec torchrun --nproc_per_node=8 train.py\n")
    assert "/fsx/nsys-slurm-exec — a command that runs the launcher or interpreter after it" in text


def test_paths_that_differ_in_more_than_blanks_stay_unknown() -> None:
    # near miss of the blanks-only merge: a path adds a word, which is said, not taken
    _, program, _ = _launch(
        'CMD="torchrun --nproc_per_node=8 t.py"\nif [ -n "$X" ]; then\n  CMD="$CMD --extra"\nfi\n'
        'srun bash -c "$CMD"\n'
    )
    assert program == "t.py"
    _, program, _ = _launch(
        'CMD="torchrun --nproc_per_node=8"\nif [ -n "$X" ]; then\n  CMD="$CMD a.py"\n'
        'else\n  CMD="$CMD b.py"\nfi\n'
        'srun bash -c "$CMD"\n'
    )
    assert program is None


ONE_GPU = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=1:00:00\n"


def test_one_task_on_a_one_gpu_node_is_srun_whatever_it_runs() -> None:
    head = ONE_GPU + "#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-task=1\n"
    mode, program, _ = _launch('srun "$@"\n', head)
    assert (mode, program) == ("srun", None)


def test_srun_default_task_on_a_one_gpu_node_says_no_mode() -> None:
    # near miss: no line asks for the one task, so nothing says it is one per GPU
    mode, _, _ = _launch('srun "$@"\n', ONE_GPU + "#SBATCH --gpus-per-node=1\n")
    assert mode is None


def _lint(tmp_path: Path, text: str) -> set[str]:
    script = tmp_path / "job.sh"
    script.write_text(textwrap.dedent(text), encoding="utf-8")
    return {f.code for f in lint_path(script).findings}


def test_tune_run_is_linted_as_torchrun(tmp_path: Path) -> None:
    # a fixed rendezvous port on nodes that are not whole (JC104) and several tasks per node
    # for a per-node launcher (JC102), as torchrun's are
    codes = _lint(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=8
        #SBATCH --gpus-per-node=8
        #SBATCH --time=1:00:00
        srun tune run --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint "$(hostname):29500" \\
            full_finetune_distributed --config llama3/8B_full
        """,
    )
    assert {"JC102", "JC104"} <= codes


def test_tune_run_on_whole_nodes_one_task_each_is_clean(tmp_path: Path) -> None:
    codes = _lint(
        tmp_path,
        """\
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --exclusive
        #SBATCH --gpus-per-node=8
        #SBATCH --time=1:00:00
        srun tune run --nnodes 2 --nproc_per_node 8 --rdzv_backend c10d --rdzv_endpoint "$(hostname):29500" \\
            full_finetune_distributed --config llama3/8B_full
        """,
    )
    assert not {"JC102", "JC104"} & codes


def test_a_word_cut_at_its_second_expansion_is_one_word() -> None:
    facts = read_bytes((HEAD + "srun --output a.$X.b-$Y.out python3 main.py\n").encode(), "job.sh")
    step = facts.main_step
    assert step is not None
    assert step.srun is not None
    assert step.srun["output"].text == "a.$X.b-$Y.out"
    assert step.program is not None
    assert step.program.text == "main.py"


def test_a_lone_dollar_before_a_blank_is_its_own_text() -> None:
    # near miss: `$` then a blank is a literal `$`; the next word stays a word of its own
    facts = read_bytes((HEAD + "srun --output a.$X.b-$ python3 main.py\n").encode(), "job.sh")
    step = facts.main_step
    assert step is not None
    assert step.srun is not None
    assert step.srun["output"].text.endswith("b-$")
    assert step.program is not None
    assert step.program.text == "main.py"


@pytest.mark.parametrize(
    ("line", "export"),
    [
        # the grammar cuts `--export=ALL,A=$A,B=$B,C=$C,…` at every other `$NAME`: one word to bash
        (
            "srun --export=ALL,A=$A,B=$B,C=$C,D=INFO torchrun --nnodes=2 -m t.train\n",
            "ALL,A=$A,B=$B,C=$C,D=INFO",
        ),
        (
            "srun --export=ALL,A=$A,B=$B,C=$C,D=$D,E=1 torchrun --nnodes=2 -m t.train\n",
            "ALL,A=$A,B=$B,C=$C,D=$D,E=1",
        ),
        # two names: the grammar keeps the word whole (it cuts only at a third)
        ("srun --export=ALL,A=$A,B=$B torchrun --nnodes=2 -m t.train\n", "ALL,A=$A,B=$B"),
    ],
)
def test_a_word_of_many_names_is_one_word(line: str, export: str) -> None:
    mode, module, _ = _launch(line)
    assert (mode, module) == ("torchrun", "t.train")
    step = read_bytes((HEAD + line).encode(), "job.sh").main_step
    assert step is not None
    assert step.srun is not None
    assert step.srun["export"].raw.removeprefix("--export=") == export


@pytest.mark.parametrize(
    ("line", "found"),
    [
        # what the step's command gives its program is its environment, as an export is
        ("srun --export=ALL,A=$A,B=$B,C=$C,NCCL_DEBUG=INFO torchrun --nnodes=2 -m t.train\n", [(6, 15)]),
        ("NCCL_DEBUG=INFO srun torchrun --nnodes=2 -m t.train\n", [(6, 1)]),
        # near misses: WARN, and INFO given to a command that is not the training step
        ("srun --export=ALL,A=$A,B=$B,C=$C,NCCL_DEBUG=WARN torchrun --nnodes=2 -m t.train\n", []),
        ("NCCL_DEBUG=INFO srun hostname\nsrun torchrun --nnodes=2 -m t.train\n", []),
    ],
)
def test_the_steps_own_environment_is_linted(tmp_path: Path, line: str, found: list[tuple[int, int]]) -> None:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + line, encoding="utf-8")
    findings = lint_path(path).findings
    assert [(f.span.line, f.span.col) for f in findings if f.code == "JC404"] == found


@pytest.mark.parametrize(
    ("jobid", "found"),
    [
        # the job's own id: the step runs in this allocation, and its launcher is compared with it
        ("--jobid $SLURM_JOBID ", [(5, 10)]),
        ('--jobid="${SLURM_JOB_ID}" ', [(5, 10)]),
        ("", [(5, 10)]),
        # near misses: another job's allocation, whose size the script does not say
        ("--jobid 1234 ", []),
        ("--jobid=$OTHER_JOB ", []),
    ],
)
def test_a_step_in_the_jobs_own_allocation_is_sized_by_it(
    tmp_path: Path, jobid: str, found: list[tuple[int, int]]
) -> None:
    # EpiBRAIN: GPUS_PER_NODE=1 exported, read by torchrun in a single-quoted `bash -c` on 3 GPUs
    path = tmp_path / "job.sh"
    path.write_text(
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:3\n#SBATCH --time=1:00:00\nexport G=1\n"
        f"srun {jobid}bash -c 'python -m torch.distributed.run --nproc_per_node $G --nnodes 2 t.py'\n",
        encoding="utf-8",
    )
    findings = lint_path(path).findings
    assert [(f.span.line, f.span.col) for f in findings if f.code == "JC804"] == found
