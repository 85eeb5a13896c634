"""A script whose work runs in the batch shell with no launcher anywhere (a console program, a
function, GNU parallel over a function): one process, launch.mode srun, said inferred. Where a
launcher or srun is named, a sourced file is unread or a line is read only in part, the mode stays
not known."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from jobc.cli import main

HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=1\n#SBATCH --time=1:00:00\n"


def _import(tmp_path: Path, body: str, capsys: pytest.CaptureFixture[str]) -> tuple[dict, str]:
    script = tmp_path / "job.sh"
    script.write_text(HEAD + body)
    assert main(["import", str(script)]) == 0
    out, err = capsys.readouterr()
    return yaml.safe_load(out), out + err


@pytest.mark.parametrize(
    "body",
    [
        # pattern seen in: KempnerInstitute/optimizing-ml-workflow (a W&B sweep agent in an array)
        "module load python\nwandb agent --count 1 entity/project/sweep\n",
        # pattern seen in: An-nay-marks/gorilla_apertus (a console program of a Python package)
        "export HF_HOME=/scratch/hf\nbfcl generate --model M --num-threads 1\n",
        # pattern seen in: ikostrikov/jaxrl2 (GNU parallel over a function that runs a container)
        "run () {\n  singularity exec --nv img.sif python train.py --seed $1\n}\nexport -f run\n"
        "parallel -j 4 run {} ::: 1 2 3 4\n",
        # nothing but directives and setup
        "mkdir -p logs\n",
    ],
)
def test_a_script_naming_no_launcher_runs_one_process_inferred(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str
) -> None:
    spec, err = _import(tmp_path, body, capsys)
    assert spec["launch"]["mode"] == "srun"
    assert "launch.mode srun is inferred, not read" in err
    assert "program" not in spec["launch"]  # never invented


@pytest.mark.parametrize(
    "body",
    [
        # near misses: a launcher or srun named where jobc reads no step
        'CMD="torchrun --nproc_per_node=4"\n$CMD_RUN train.py\n',
        'srun "$RUNNER"\n',
        'run () {\n  accelerate launch --config_file c.yaml "$@"\n}\nrun_all\n',
        # a sourced file jobc cannot read may start the training
        "source ./site_env.sh\nstart_training\n",
    ],
)
def test_a_launcher_named_or_a_file_unread_leaves_the_mode_unknown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str
) -> None:
    _, err = _import(tmp_path, body, capsys)
    assert "launch.mode srun is inferred, not read: the script" not in err


@pytest.mark.parametrize("name", ["PY", "PYTHON", "VENV_PY", "PYTHON_BIN", "python3"])
def test_a_variable_named_for_python_given_a_module_is_the_interpreter(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    # pattern seen in: nzxyin/Speech-Articulatory-Coding scripts/train_slurm.sh (the interpreter
    # computed from `uv run python -c 'print(sys.executable)'`, then `"$PY" -m pkg …`)
    body = (
        f"{name}=$(uv run python -c 'import sys; print(sys.executable)')\n"
        f'"${name}" -m sparc.cli.train --lr 1\n'
    )
    spec, text = _import(tmp_path, body, capsys)
    assert spec["launch"]["module"] == "sparc.cli.train"
    assert spec["launch"]["args"] == ["--lr", "1"]
    assert spec["launch"]["mode"] == "srun"
    assert "a variable named for Python" in text


@pytest.mark.parametrize(
    "body",
    [
        # near misses: a variable named for no interpreter; a module name that is not one
        '"$LAUNCHER" -m pkg.train\n',
        '"$PY" -m "$MODULE"\n',
    ],
)
def test_a_computed_command_not_named_for_python_gives_no_module(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], body: str
) -> None:
    spec, _ = _import(tmp_path, body, capsys)
    assert "module" not in spec["launch"]


def test_a_site_command_around_accelerate_is_accelerate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # pattern seen in: idriscnrs/idr_accelerate examples/multi-node/example_multi-node.slurm
    script = tmp_path / "job.sh"
    head = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:4\n"
        "#SBATCH --time=1:00:00\n"
    )
    script.write_text(
        head + "module load llm\nsrun idr_accelerate --mixed_precision bf16 train.py --lr 0.5\n"
    )
    assert main(["import", str(script)]) == 0
    out, _ = capsys.readouterr()
    spec = yaml.safe_load(out)
    assert (spec["launch"]["mode"], spec["launch"]["program"]) == ("torchrun", "train.py")
    assert spec["launch"]["args"] == ["--lr", "0.5"]
    assert "a site's command around accelerate" in out
    # near misses: an option accelerate does not have, and a wrapper script by that name
    for line in ("srun idr_accelerate --nodes-from-env train.py\n", "srun ./run_accelerate.sh train.py\n"):
        script.write_text(head + line)
        assert main(["import", str(script)]) == 0
        out, _ = capsys.readouterr()
        assert "a site's command around accelerate" not in out


def test_mpirun_s_container_runner_is_no_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # pattern seen in: sdsc/sdsc-summer-institute (mpirun -n 8 -npernode 4 singularity exec … python3 x.py)
    script = tmp_path / "job.sh"
    head = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node=4\n"
        "#SBATCH --time=1:00:00\n"
    )
    script.write_text(
        head + "mpirun -n 8 -npernode 4 singularity exec --nv img.sif python3 ./train.py --epochs 2\n"
    )
    assert main(["import", str(script)]) == 0
    spec = yaml.safe_load(capsys.readouterr().out)
    assert (spec["launch"]["mode"], spec["launch"]["program"]) == ("srun", "./train.py")
    assert spec["launch"]["args"] == ["--epochs", "2"]
    # near miss: a program mpirun starts as it is stays the program
    script.write_text(head + "mpirun -n 8 ./solver --steps 2\n")
    assert main(["import", str(script)]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["launch"]["program"] == "./solver"


def test_mpirun_s_shell_string_holds_the_program(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # pattern seen in: Lumi-supercomputer/ml-examples
    # (mpirun singularity exec IMG bash -c 'cd …; python x.py')
    script = tmp_path / "job.sh"
    head = (
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=4\n#SBATCH --gpus-per-node=4\n"
        "#SBATCH --time=1:00:00\n"
    )
    script.write_text(
        head + "mpirun singularity exec img.sif bash -c '\n  cd /work/cnn;\n"
        "  python cnn.py --deepspeed_config ds.json'\n"
    )
    assert main(["import", str(script)]) == 0
    spec = yaml.safe_load(capsys.readouterr().out)
    launch = spec["launch"]
    assert (launch["mode"], launch["program"], launch["workdir"]) == ("srun", "cnn.py", "/work/cnn")
    assert launch["args"] == ["--deepspeed_config", "ds.json"]
    # near misses: a string that starts a launcher of its own stays as written; a shell given a
    # file runs a program the text does not show
    script.write_text(head + "mpirun bash -c 'torchrun --nproc_per_node=4 train.py'\n")
    assert main(["import", str(script)]) == 0
    assert yaml.safe_load(capsys.readouterr().out)["launch"]["program"] == "bash"
    script.write_text(head + "mpirun bash run.sh\n")
    assert main(["import", str(script)]) == 0
    assert "program" not in yaml.safe_load(capsys.readouterr().out)["launch"]
