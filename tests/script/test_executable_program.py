"""A program that is no Python file: a compiled binary or a console script the step runs as it
is (`srun ./train_gpt2cu …`, `srun g4i-train cfg.yaml`, `torchrun --no-python …`). The import
writes it as `launch.python: none`; the compiled job runs it the same way; a name the text does
not show stays unknown."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from jobc.commands.import_ import render
from jobc.compile.errors import CompileError
from jobc.lint.imported import imported
from jobc.script.parse import read_bytes
from tests.compile.support import compile_data, step_script
from tests.script.roundtrip import round_trip

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node=4\n"
    "#SBATCH --time=1:00:00\n"
)


def _launch(script: str) -> dict:
    facts = read_bytes(script.encode(), "job.sh")
    return imported(facts).data["launch"]


@pytest.mark.parametrize(
    ("body", "mode", "program", "args"),
    [
        # source: GNN4ITkTeam/CommonFramework examples/Example_3/PM_submit_job_requeue.sh (form)
        ("srun -u g4i-train config.yaml\n", "srun", "g4i-train", ["config.yaml"]),
        ("srun ./train_gpt2cu -i data.bin -b 64\n", "srun", "./train_gpt2cu", ["-i", "data.bin", "-b", "64"]),
        # source: karpathy/llm.c scripts/multi_node/run_gpt2_124M_fs.sbatch (form)
        (
            'B=/opt/llmc/train_gpt2cu\nsrun -l bash -c "\n  $B -i x.bin \\\n  -pn 8\n"\n',
            "srun",
            "/opt/llmc/train_gpt2cu",
            ["-i", "x.bin", "-pn", "8"],
        ),
        (
            "srun torchrun --no-python --nproc_per_node=4 ./train_gpt2cu -i x\n",
            "torchrun",
            "./train_gpt2cu",
            ["-i", "x"],
        ),
        (
            "srun torchrun --no_python --nproc_per_node=4 train_gpt2cu -i x\n",
            "torchrun",
            "train_gpt2cu",
            ["-i", "x"],
        ),
        # a console script the batch shell runs, whose subcommand says it trains (LLaMA-Factory's,
        # which starts torchrun on a node of several GPUs, is in test_cli_torchrun.py)
        ("hatelens train configs/tinyllama.yaml\n", "srun", "hatelens", None),
    ],
)
def test_an_executable_is_the_program_run_as_it_is(
    body: str, mode: str, program: str, args: list[str] | None
) -> None:
    launch = _launch(HEAD + body)
    assert (launch["mode"], launch["python"], launch["program"]) == (mode, "none", program)
    if args is not None:
        assert launch["args"] == args


@pytest.mark.parametrize(
    "body",
    [
        # a wrapper script: its program is in another file
        "srun ./run.sh config.yaml\n",
        # a name the text does not show
        "srun $PROG config.yaml\n",
        # a tool in front of another program
        "srun mytool input.csv python train.py\n",
        # a builtin or a helper first in the step's own shell, then nothing readable
        "srun bash -c 'cd /x && hostname'\n",
    ],
)
def test_no_executable_is_invented(body: str) -> None:
    launch = _launch(HEAD + body)
    assert "program" not in launch
    assert launch.get("python") != "none"


def test_the_batch_shell_s_tools_are_no_program() -> None:
    # near miss of the console script: `make train_gpt2cu` and `scp` build and copy, they do not train
    facts = read_bytes(
        (HEAD + "make train_gpt2cu\nscp train_gpt2cu n2:x\nsrun python train.py\n").encode(), "j.sh"
    )
    assert [s.line for s in facts.steps] == [8]


def test_a_service_an_executable_starts_is_no_training_step() -> None:
    # `srun ray start …` starts a service, and a server whose name says nothing of training ranks
    # below the trainer the batch shell runs
    launch = _launch(HEAD + "srun --nodes=1 ray start --head --block &\npython -u simple-trainer.py\n")
    assert (launch["program"], launch["python"]) == ("simple-trainer.py", "python")
    launch = _launch(HEAD + "srun --nodes=1 my-server --port 80 &\npython -u simple-trainer.py\n")
    assert (launch["program"], launch["python"]) == ("simple-trainer.py", "python")


def test_the_import_says_it_runs_the_program_as_it_is() -> None:
    facts = read_bytes((HEAD + "srun -u g4i-train config.yaml\n").encode(), "job.sh")
    spec = render(imported(facts), facts)
    assert "the last program run as it is (no interpreter) srun starts" in spec
    assert 'python: "none"  # line 6' in spec


def _spec(mode: str, **launch: object) -> dict:
    return {
        "version": 1,
        "name": "bin",
        "slurm": {"time": "01:00:00"},
        "resources": {"nodes": 2, "gpus_per_node": 4},
        "launch": {
            "mode": mode,
            "python": "none",
            "program": "./train_gpt2cu",
            "args": ["-i", "x"],
            **launch,
        },
    }


def test_srun_mode_runs_the_executable_in_each_task() -> None:
    script = compile_data(_spec("srun"))
    assert "jobc_python=()\n" in script
    assert "jobc_program=('./train_gpt2cu' '-i' 'x')\n" in script
    # the task's shell runs the program words with nothing in front
    assert 'exec "${jobc_python[@]}" "$@"' in step_script(script)
    assert "--no-python" not in script


def test_torchrun_mode_runs_it_with_no_python() -> None:
    script = compile_data(_spec("torchrun"))
    assert "--tee=3 --no-python)" in script
    # the agent that runs torchrun's main is the python on PATH
    assert "jobc_python=('python')\n" in script


def test_a_module_needs_an_interpreter() -> None:
    data = _spec("srun")
    del data["launch"]["program"]
    data["launch"]["module"] = "pkg.train"
    with pytest.raises(CompileError, match=r"launch\.module runs under an interpreter"):
        compile_data(data)


@pytest.mark.parametrize(
    "body",
    [
        "srun -u g4i-train config.yaml --epochs 2\n",
        "srun torchrun --no-python --nproc_per_node=4 train_gpt2cu -i x.bin\n",
    ],
)
def test_the_executable_round_trips(tmp_path: Path, body: str) -> None:
    outcome = round_trip((HEAD + body).encode(), tmp_path)
    assert outcome.compiled is not None, outcome.spec
    assert outcome.unlisted == [], outcome.spec
    assert yaml.safe_load(outcome.spec or "")["launch"]["python"] == "none"


def test_a_uv_run_of_a_command_that_is_no_program_gives_no_interpreter_to_a_later_one() -> None:
    # found by the import fuzz target (seed 10401, input 1,184): `uv run --no-sync pythonexport
    # X=1` in the step's shell runs a command uv cannot find, then the shell runs `train.py` by
    # its `#!` line; jobc took uv for train.py's interpreter
    body = 'srun bash -c "uv sync --frozen && uv run --no-sync pythonexport X=1\n train.py"\n'
    launch = _launch(HEAD + body)
    assert (launch.get("program"), launch.get("python")) == ("train.py", "python")
    # near miss: uv runs the program itself
    launch = _launch(HEAD + 'srun bash -c "uv sync --frozen && uv run --no-sync python train.py"\n')
    assert (launch.get("program"), launch.get("python")) == ("train.py", "uv")


def test_the_round_trip_judge_takes_only_pythons_own_names_for_the_interpreter() -> None:
    from tests.script.roundtrip import _is_python

    assert all(_is_python(n) for n in ("python", "python3", "python3.11", "/usr/bin/python3"))
    assert not any(_is_python(n) for n in ("pythonexport", "python-config", "ipython3x"))
