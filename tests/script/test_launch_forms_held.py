"""Launches held in strings, arrays and wrappers, each followed to its launcher and program, with a
near miss that is not: an array spliced into a string (`CMD="torchrun ${ARGS[@]} x.py"`), srun
options set where the job is submitted (`srun $SRUN_ARGS -u bash -c …`), srun's `--wait SECONDS`,
options computed when the job runs between the interpreter and its file (`python $DEBUG_CMD
x.py`), a wrapper script in front of a container runner or of `bash -c` (an entrypoint), and a
word the grammar ends at a `\\`-newline inside it."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes
from tests.script.test_launch_forms_more import HEAD, _launch


@pytest.mark.parametrize(
    ("body", "mode", "program"),
    [
        # an array spliced into a string is one string, its elements parted by blanks (Swiss AI)
        (
            "ARGS=(\n  --nproc-per-node 8\n  --nnodes 2\n)\n"
            'CMD="torchrun ${ARGS[@]} /opt/m/pretrain_gpt.py --lr 1e-4"\nsrun bash -c "numactl -N 0 $CMD"\n',
            "torchrun",
            "/opt/m/pretrain_gpt.py",
        ),
        # srun's --wait takes its seconds: the command is what follows them
        ('CMD="torchrun --nproc_per_node=8 t.py"\nsrun -lu --wait 60 bash -c "$CMD"\n', "torchrun", "t.py"),
        ("srun --wait 60 python train.py\n", "srun", "train.py"),
        # srun options set where the job is submitted, then more options or a shell (nanotron)
        (
            'export LAUNCHER="torchrun --nproc_per_node 8 --nnodes 2"\n'
            'CMD=" run_train.py --config-file c.yaml"\n'
            'srun $SRUN_ARGS -u bash -c "$LAUNCHER --node_rank \\$SLURM_PROCID $CMD"\n',
            "torchrun",
            "run_train.py",
        ),
        ('srun $SRUN_ARGS bash -c "python train.py"\n', "srun", "train.py"),
        # options computed when the job runs between the interpreter and its file (CSCS)
        (
            'srun bash -c "\n  if [ \\"\\$SLURM_PROCID\\" -eq 0 ]; then D=\\"-m debugpy --listen 5678\\"; '
            'else D=\\"\\"; fi\n  python \\${D} train.py --epochs 3\n"\n',
            "srun",
            "train.py",
        ),
        # a wrapper script, then a container runner, then the program (OLMo on LUMI)
        (
            "srun --kill-on-bad-exit scripts/run_with_environment.sh singularity exec -B /a:/a $SIF \\\n"
            "  python scripts/train.py configs/7b.yaml\n",
            "srun",
            "scripts/train.py",
        ),
        # a container's entrypoint script, then `bash -c` (Swiss AI Clariden)
        (
            'srun --container-image=/i.sqsh /opt/pre-entrypoint.sh bash -c "\\\n'
            "  exec accelerate launch --num_machines 2 --num_processes 16 \\\n"
            '  --machine_rank \\$SLURM_NODEID t.py"\n',
            "torchrun",
            "t.py",
        ),
    ],
)
def test_a_held_launch_is_followed_to_its_program_and_mode(body: str, mode: str, program: str | None) -> None:
    got_mode, got_program, _ = _launch(body)
    assert (got_mode, got_program) == (mode, program)


@pytest.mark.parametrize(
    ("body", "mode"),
    [
        # a word computed when the job runs with an argument after it: the program, not options
        ("srun $PROG train.yaml\n", None),
        # a name the script sets (to a launcher on each path) is no srun option, options or not
        (
            'if [ -n "$X" ]; then L=torchrun; else L="python -m torch.distributed.run"; fi\n'
            "srun $L --nnodes 2 t.py\n",
            None,
        ),
        # an interpreter given a file computed when the job runs: not known (srun's, all the same)
        ("srun python $SCRIPT --epochs 3\n", "srun"),
        # a wrapper script with an argument of its own before the shell: no entrypoint of it
        ('srun ./run.sh input.csv bash -c "torchrun --nproc_per_node=8 t.py"\n', None),
        # a wrapper script, then a container runner that builds an image: nothing runs a program
        ("srun scripts/setup.sh singularity build out.sif def.txt\n", None),
    ],
)
def test_near_misses_name_no_program(body: str, mode: str | None) -> None:
    _no_program(body, mode)


def _no_program(body: str, mode: str | None = None) -> None:
    """No program named, and no mode but ``mode`` read: on HEAD's one task per node of 8 GPUs,
    a mode the text does not show is torchrun taken from that layout, said as inferred."""
    got_mode, program, text = _launch(body)
    assert program is None
    if got_mode != mode:
        assert got_mode == "torchrun", text
        assert "launch.mode torchrun is inferred, not read" in text, text


def test_elements_of_an_array_on_the_command_line_stay_words() -> None:
    # near miss of the splice: `"${ARGS[@]}"` as words of the command is one word per element
    facts = read_bytes(
        (HEAD + 'ARGS=(--nproc_per_node 8 --nnodes 2)\nsrun torchrun "${ARGS[@]}" t.py\n').encode(), "job.sh"
    )
    step = facts.main_step
    assert step is not None
    assert step.launcher is not None
    assert step.launcher.options["nproc_per_node"].text == "8"
    assert step.program is not None
    assert step.program.text == "t.py"


def test_srun_options_set_nowhere_are_said_as_such() -> None:
    _, _, text = _launch('srun $SRUN_ARGS -u bash -c "torchrun --nproc_per_node 8 t.py"\n')
    assert "srun $SRUN_ARGS — srun options set nowhere in the script" in text


def test_an_entrypoint_is_said_not_carried() -> None:
    _, _, text = _launch('srun /opt/pre-entrypoint.sh bash -c "torchrun --nproc_per_node 8 t.py"\n')
    assert "line 6: /opt/pre-entrypoint.sh — a command that runs" in text


def test_a_word_continued_on_the_next_line_is_one_word() -> None:
    facts = read_bytes(
        (
            HEAD + "srun --container-image=/i.sqsh --container-mounts=\\\n/a,\\\n/b \\\n  python t.py\n"
        ).encode(),
        "job.sh",
    )
    step = facts.main_step
    assert step is not None
    assert step.srun is not None
    assert step.srun["container-mounts"].text == "/a,/b"
    assert step.program is not None
    assert step.program.text == "t.py"


def test_a_blank_before_the_backslash_parts_the_words() -> None:
    # near miss: `--container-mounts=/a \` then `/b`: two words, the second the command
    facts = read_bytes(
        (HEAD + "srun --container-image=/i.sqsh --container-mounts=/a \\\n/b/python t.py\n").encode(),
        "job.sh",
    )
    step = facts.main_step
    assert step is not None
    assert step.srun is not None
    assert step.srun["container-mounts"].text == "/a"
    assert step.command == "python"


def _lint(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    script = tmp_path / "job.sh"
    script.write_text(textwrap.dedent(text), encoding="utf-8")
    return [(f.code, f.span.line) for f in lint_path(script).findings]


ARRAY_LAUNCH = """\
    #!/bin/bash
    #SBATCH --nodes=2
    #SBATCH --ntasks-per-node=1
    #SBATCH --gpus-per-node=4
    #SBATCH --time=1:00:00
    {exclusive}
    MASTER_ADDR=$(hostname)
    MASTER_PORT=25678
    TORCHRUN_ARGS=(
        --nproc-per-node 4
        --nnodes $SLURM_NNODES
        --rdzv_endpoint $MASTER_ADDR:$MASTER_PORT
        --rdzv_backend c10d
    )
    TRAINING_CMD="torchrun ${{TORCHRUN_ARGS[@]}} pretrain_gpt.py"
    srun -lu --wait 60 bash -c "numactl --membind=0-3 $TRAINING_CMD"
    """


def test_a_fixed_port_in_an_array_launcher_is_found(tmp_path: Path) -> None:
    got = _lint(tmp_path, ARRAY_LAUNCH.format(exclusive=""))
    assert ("JC104", 8) in got


def test_a_fixed_port_on_whole_nodes_is_not(tmp_path: Path) -> None:
    got = _lint(tmp_path, ARRAY_LAUNCH.format(exclusive="#SBATCH --exclusive"))
    assert "JC104" not in {code for code, _ in got}


@pytest.mark.parametrize(
    ("body", "mode", "program"),
    [
        # a script the job writes with a heredoc, then runs in a step (its `\$` kept for the step)
        (
            "cat > run.sh <<EOF\n"
            "torchrun --nnodes 2 --node_rank \\$SLURM_NODEID --nproc_per_node 8 train.py\nEOF\n"
            "srun bash run.sh\n",
            "torchrun",
            "train.py",
        ),
        (
            "cat <<'EOF' > ./run.sh\n#!/bin/bash\npython -u train.py\nEOF\nchmod +x run.sh\nsrun ./run.sh\n",
            "srun",
            "train.py",
        ),
        # ... or runs in the batch shell, where its own srun starts the step
        (
            "cat > launch.sh <<EOF\nsrun torchrun --nnodes 2 --nproc_per_node 8 train.py\nEOF\n./launch.sh\n",
            "torchrun",
            "train.py",
        ),
    ],
)
def test_a_file_the_script_writes_is_read_where_it_runs(body: str, mode: str, program: str) -> None:
    assert _launch(body)[:2] == (mode, program)


@pytest.mark.parametrize(
    "body",
    [
        # written on one path only: what runs is not known
        'if [ -n "$X" ]; then\ncat > run.sh <<EOF\ntorchrun --nproc_per_node 8 train.py\nEOF\nfi\n'
        "srun bash run.sh\n",
        # appended to a file the script did not write whole
        "cat >> run.sh <<EOF\ntorchrun --nproc_per_node 8 train.py\nEOF\nsrun bash run.sh\n",
        # a command by name is looked up on PATH, not in the directory
        "cat > run.sh <<EOF\ntorchrun --nproc_per_node 8 train.py\nEOF\nsrun run.sh\n",
        # another file than the one written
        "cat > run.sh <<EOF\ntorchrun --nproc_per_node 8 train.py\nEOF\nsrun bash other.sh\n",
    ],
)
def test_a_file_not_surely_written_is_not_read(body: str) -> None:
    _no_program(body)


@pytest.mark.parametrize(
    ("body", "mode", "program"),
    [
        # container runners: the command after the image runs inside it
        (
            "srun enroot start --rw --mount /a:/a pytorch torchrun --nproc_per_node 8 train.py\n",
            "torchrun",
            "train.py",
        ),
        ("srun docker run -it --rm --gpus all -v /d:/d img:1 python -u train.py\n", "srun", "train.py"),
        (
            "srun podman-hpc run --gpu --ipc=host img torchrun --nproc_per_node 8 train.py\n",
            "torchrun",
            "train.py",
        ),
    ],
)
def test_a_program_in_a_container_runner_is_read(body: str, mode: str, program: str) -> None:
    got_mode, got_program, text = _launch(body)
    assert (got_mode, got_program) == (mode, program)
    assert "the program runs inside a Singularity, Apptainer, Shifter, enroot, Docker or Podman image" in text


@pytest.mark.parametrize(
    "body",
    [
        # the runners' other commands start no program of the job
        "srun docker pull img:1\n",
        "srun enroot import docker://nvcr.io#nvidia/pytorch:24.01-py3\n",
        "srun podman-hpc migrate img:1\n",
    ],
)
def test_a_container_runner_that_runs_nothing_names_no_program(body: str) -> None:
    assert _launch(body)[:2] == (None, None)


@pytest.mark.parametrize(
    ("body", "program"),
    [
        # the interpreter found on PATH, named through `which`
        ("srun $(which python) train.py\n", "train.py"),
        ('srun "$(command -v python3)" -u train.py\n', "train.py"),
        # environment runners in front of the interpreter
        ("srun pixi run -e cuda python train.py\n", "train.py"),
        ("srun poetry run python train.py\n", "train.py"),
    ],
)
def test_an_interpreter_by_which_or_in_an_environment_runner_is_read(body: str, program: str) -> None:
    mode, got, _ = _launch(body)
    assert (mode, got) == ("srun", program)


def test_an_environment_runner_is_said_not_carried() -> None:
    _, _, text = _launch("srun pixi run python train.py\n")
    assert "the program runs in the environment conda, mamba, pixi, poetry or pdm runs it in" in text


@pytest.mark.parametrize(
    "body",
    [
        # `which` of something that is no interpreter or launcher
        "srun $(which mytool) train.py\n",
        # a substitution that is no lookup on PATH
        "srun $(get_python) train.py\n",
        # the runners' other commands
        "srun poetry install\n",
    ],
)
def test_other_substitutions_and_runner_commands_name_no_program(body: str) -> None:
    _no_program(body)


@pytest.mark.parametrize(
    ("body", "mode", "program"),
    [
        # `bash -c STRING NAME ARGS`: the string's "$@" and $1 are the words after NAME
        ("srun bash -c 'torchrun --nproc_per_node 8 \"$@\"' _ train.py --lr 1\n", "torchrun", "train.py"),
        ("srun bash -c 'cd /w && python -u \"$1\"' bash train.py\n", "srun", "train.py"),
        # near misses: no arguments given, or the script's own (not known before the job runs)
        ("srun bash -c 'torchrun --nproc_per_node 8 \"$@\"'\n", "torchrun", None),
        ('srun bash -c \'torchrun --nproc_per_node 8 "$@"\' _ "$@"\n', "torchrun", None),
    ],
)
def test_the_arguments_of_a_bash_c_string_are_its_own(body: str, mode: str, program: str | None) -> None:
    assert _launch(body)[:2] == (mode, program)
