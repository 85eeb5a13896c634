"""A launch the script writes in a file it sources, or in a shell function it calls later, is
read there: the function's body, the sourced file's text beside the script. A sourced file jobc
cannot read (by an absolute path, or not beside the script) is said: a command it may set in
front of the program leaves the launch mode not known (srun, or nothing), and a script whose only
launch may be its function says so, never that it starts none."""

from __future__ import annotations

from pathlib import Path

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read

HEAD = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gres=gpu:4\n#SBATCH -t 1:00:00\n"
HELPERS = (
    'launch() { srun --ntasks-per-node=1 torchrun --nnodes=2 --nproc_per_node=4 "$@"; }\n'
    'SRUN_LAUNCH="srun --ntasks-per-node=4"\n'
)


def _import(tmp_path: Path, body: str, helpers: bool = True) -> tuple[dict[str, object], list[str]]:
    if helpers:
        (tmp_path / "helpers.sh").write_text(HELPERS, encoding="utf-8")
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    derived = imported(read(path))
    launch: dict[str, object] = derived.data["launch"]
    return launch, derived.unknown


def test_a_function_called_later(tmp_path: Path) -> None:
    body = 'run() { srun torchrun --nnodes=2 --nproc_per_node=4 "$@"; }\nrun train.py --lr 1\n'
    launch, _ = _import(tmp_path, body, helpers=False)
    assert (launch.get("mode"), launch.get("program"), launch.get("args")) == (
        "torchrun",
        "train.py",
        ["--lr", "1"],
    )


def test_a_function_and_a_launcher_from_a_sourced_file(tmp_path: Path) -> None:
    launch, _ = _import(tmp_path, "source ./helpers.sh\nlaunch train.py --lr 1\n")
    assert (launch.get("mode"), launch.get("program")) == ("torchrun", "train.py")
    launch, _ = _import(tmp_path, "source helpers.sh\n$SRUN_LAUNCH python train.py\n")
    assert (launch.get("mode"), launch.get("program")) == ("srun", "train.py")


def test_a_command_a_sourced_file_jobc_cannot_read_may_set(tmp_path: Path) -> None:
    # source: kh296/dawn-containers pytorch/go_apptainer.sh (the form)
    body = (
        "source /opt/site/setup_apptainer.sh\n"
        'CMD="${SRUN_LAUNCH} apptainer exec ../pytorch.sif python mnist_ddp.py --epochs 2"\n'
        "${CMD}\n"
    )
    launch, unknown = _import(tmp_path, body, helpers=False)
    assert launch.get("program") == "mnist_ddp.py"
    assert "mode" not in launch
    assert any(u.startswith("launch.mode:") and "/opt/site/setup_apptainer.sh" in u for u in unknown)
    path = tmp_path / "job.sh"
    assert "JC805" not in {f.code for f in lint_path(path).findings}
    # near miss: no file it cannot read, so the words before the program are a wrapper set on
    # some paths, and the batch shell starts the program on one node of two (JC805)
    path.write_text(HEAD + body.replace("source /opt/site/setup_apptainer.sh\n", ""), encoding="utf-8")
    assert "JC805" in {f.code for f in lint_path(path).findings}


def test_a_function_only_a_file_jobc_cannot_read_defines(tmp_path: Path) -> None:
    _, unknown = _import(tmp_path, "source /opt/site/helpers.sh\nlaunch_training train.py\n", helpers=False)
    assert any("/opt/site/helpers.sh (line 5), which jobc cannot read" in u for u in unknown)
    _, unknown = _import(tmp_path, "launch_training train.py\n", helpers=False)
    assert unknown == ["launch.program: the script starts no step jobc can read; write it"]


def test_a_command_the_script_reads_from_a_programs_output(tmp_path: Path) -> None:
    # source: PPWangyc/multi-view scripts/greene/pretrain.sh (the form: a helper prints the
    # accelerate command, which may hold srun, and the batch shell runs it before the program)
    body = "accelerate_cmd=$(./scripts/setup_multi_gpu.sh)\n$accelerate_cmd src/pretrain.py $script_args\n"
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    assert "JC805" not in {f.code for f in lint_path(path).findings}
    # near miss: the command's text is in the script, and holds no srun
    path.write_text(HEAD + body.replace("$(./scripts/setup_multi_gpu.sh)", "python3"), encoding="utf-8")
    assert "JC805" in {f.code for f in lint_path(path).findings}
