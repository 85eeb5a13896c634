"""The first hour, walked as a new user walks it: a fresh copy of the repository, the README's
command, then a starter spec linted, planned and compiled, a conda script imported, and a job
submitted from one directory and followed from another on the local Slurm cluster.

Each step checks what a new user should see: the defaults in the open (the effective launch and
every default the spec left, in the plan and the script's header), the spec reference, an import
that runs like the script, the terminal's conventions, and one ledger found from anywhere.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT
from tests.support.cluster import SlurmCluster

pytestmark = pytest.mark.slow

SCENARIO = ROOT / "tests" / "jobs" / "scenario.py"

CONDA_SCRIPT = """\
#!/bin/bash
#SBATCH --job-name=conda-ddp
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=32
#SBATCH --time=04:00:00
#SBATCH --signal=B:USR2@300
#SBATCH --requeue
module load cuda/12.4
source ~/miniconda3/etc/profile.d/conda.sh
conda activate train
cd /shared/proj
srun torchrun --nnodes=2 --nproc_per_node=4 --rdzv_backend=c10d \
  --rdzv_endpoint="$(hostname):29500" train.py --epochs 10
"""


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository's tracked files, as a fresh clone has them (the working tree's version, so
    that a change is walked before it is committed)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode("utf-8", "surrogateescape")
    root = tmp_path_factory.mktemp("clone") / "jobc"
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted in the working tree is not in a fresh clone
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, root / name)
    return root


def _uv() -> str:
    uv = shutil.which("uv")
    if uv is None:
        pytest.fail("uv is not on PATH: the README's first command needs it")
    return uv


def jobc(
    clone: Path, cwd: Path, *argv: str, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`uv run --no-dev jobc …` of the fresh copy, as the README runs it, from `cwd`."""
    environ = {**os.environ, **(env or {})}
    environ.pop("VIRTUAL_ENV", None)  # the copy's own environment, not the test run's
    environ.pop("FORCE_COLOR", None)
    return subprocess.run(
        [_uv(), "run", "--quiet", "--no-dev", "--project", str(clone), "jobc", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=environ,
        timeout=600,
        check=False,
    )


def test_the_readme_command_lints_the_examples(clone: Path) -> None:
    run = jobc(clone, clone, "lint", "specs/")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Traceback" not in run.stderr


def test_a_starter_spec_with_its_defaults_in_the_open(clone: Path, tmp_path: Path) -> None:
    made = jobc(clone, tmp_path, "init", "job.yaml", "--shape", "multi-node")
    assert made.returncode == 0, made.stderr
    assert "edit the lines marked EDIT" in made.stderr
    lint = jobc(clone, tmp_path, "lint", "job.yaml")
    assert (lint.returncode, lint.stdout) == (0, ""), lint.stdout + lint.stderr

    plan = jobc(clone, tmp_path, "plan", "job.yaml", env={"NO_COLOR": "1"})
    assert plan.returncode == 0, plan.stderr
    out = plan.stdout
    assert "\x1b" not in out  # NO_COLOR
    assert "launch     2 nodes × 8 GPUs under torchrun, an agent per node with 8 workers each" in out
    assert "defaults   " in out
    assert "launch.python: chosen when the job starts" in out
    assert "dp: one group of all 16 ranks, across 2 nodes" in out  # the layout as a picture
    coloured = jobc(clone, tmp_path, "plan", "job.yaml", "--set", "parallelism.tp=2", "--color=always")
    assert "\x1b[" in coloured.stdout

    script = jobc(clone, tmp_path, "compile", "job.yaml")
    assert script.returncode == 0, script.stderr
    head = script.stdout.split("#SBATCH", 1)[0]
    assert "# launch: 2 nodes × 8 GPUs under torchrun" in head
    assert "# defaults (not written in the spec; write them to change them):" in head
    # no interpreter named: chosen where the job runs, uv only for a uv project
    assert "if [[ -f uv.lock ]]; then" in script.stdout
    svg = jobc(clone, tmp_path, "plan", "job.yaml", "--format", "svg")
    assert svg.stdout.startswith("<svg ")


def test_the_spec_reference_covers_every_field(clone: Path) -> None:
    from jobc.spec.reference import fields

    text = (clone / "docs" / "spec.md").read_text("utf-8")
    for field in fields():
        assert f"| `{field.path}` |" in text, field.path


def test_an_imported_conda_script_runs_like_the_script(clone: Path, tmp_path: Path) -> None:
    (tmp_path / "job.sh").write_text(CONDA_SCRIPT, encoding="utf-8")
    run = jobc(clone, tmp_path, "import", "job.sh", "-o", "job.yaml")
    assert run.returncode == 0, run.stderr
    text = (tmp_path / "job.yaml").read_text("utf-8")
    import yaml

    spec = yaml.safe_load(text)
    launch = spec["launch"]
    # the environment the script activates is the one the job runs in: its setup lines, in order
    assert launch["setup"][:3] == [
        "module load cuda/12.4",
        "source ~/miniconda3/etc/profile.d/conda.sh",
        "conda activate train",
    ], launch["setup"]
    assert launch.get("python", "python") == "python"  # the python conda put on PATH
    assert (launch["mode"], launch["program"], launch["args"]) == ("torchrun", "train.py", ["--epochs", "10"])
    # the preemption intent
    assert spec["resilience"] == {"signal": "SIGUSR2", "grace_s": 300, "requeue": True}
    # every value names its line; every line not carried is listed once
    for line in text.split("\n# Not mapped", 1)[0].splitlines():
        stripped = line.strip()
        structural = stripped.startswith("version:")  # the format's version, not the script's
        if (
            stripped
            and not stripped.startswith("#")
            and not stripped.endswith(":")
            and "#" not in stripped
            and not structural
        ):
            pytest.fail(f"a value without the line it came from: {line!r}")
    listed = [line for line in text.splitlines() if line.startswith("#   line ")]
    assert len(listed) == len(set(listed)), listed
    compiled = jobc(clone, tmp_path, "compile", "job.yaml")
    assert compiled.returncode == 0, compiled.stderr
    assert "conda activate train" in compiled.stdout


def test_the_terminal_conventions(clone: Path, tmp_path: Path) -> None:
    typo = jobc(clone, tmp_path, "lnt", "x")
    assert typo.returncode == 2
    assert "did you mean 'lint'?" in typo.stderr
    (tmp_path / "configs").mkdir()
    (tmp_path / "configs" / "train.yaml").write_text("lr: 0.001\nepochs: 10\n")
    shutil.copy(clone / "specs" / "kempnerforge-single-node.yaml", tmp_path / "job.yaml")
    shutil.copytree(clone / "specs" / "clusters", tmp_path / "clusters")
    run = jobc(clone, tmp_path, "lint", ".")
    assert run.returncode == 0, run.stdout + run.stderr
    assert "skipped 1 YAML file that is not a job spec" in run.stderr


@pytest.mark.slurm
def test_submit_here_and_follow_from_elsewhere(
    clone: Path, slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    project, home = tmp_path / "project", tmp_path / "home"
    project.mkdir()
    home.mkdir()
    spec = {
        "version": 1,
        "name": "first-hour",
        "slurm": {"partition": "debug", "time": "00:05:00"},
        "resources": {"nodes": 2, "gpus_per_node": 2},
        "launch": {
            "python": sys.executable,
            "workdir": str(project),
            "program": str(SCENARIO),
            "args": ["ok"],
        },
        "storage": {"shared": ["/tmp"], "logs": str(project / "logs")},
    }
    (project / "job.yaml").write_text(json.dumps(spec), encoding="utf-8")
    env = slurm_cluster.daemon_env()
    submitted = jobc(clone, project, "submit", "job.yaml", env=env)
    assert submitted.returncode == 0, submitted.stderr
    job = submitted.stdout.strip()
    jobs.append(int(job))
    assert slurm_cluster.wait(int(job), 8 * 60) == "COMPLETED"
    status = jobc(clone, home, "status", "--format", "json", env=env)
    assert status.returncode == 0, status.stderr
    assert [row["job_id"] for row in json.loads(status.stdout)] == [job]
    one = jobc(clone, home, "status", job, env=env)
    assert one.returncode == 0, one.stderr
    assert "COMPLETED" in one.stdout
    assert "2-2" not in one.stdout
