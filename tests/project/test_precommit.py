"""The `jobc-lint` pre-commit hook, installed and run by pre-commit itself.

`pre-commit try-repo` clones a repository, builds the hook's environment from it (a virtualenv
and `pip install .`) and runs the hook on a sample repository, exactly as a user's
`.pre-commit-config.yaml` would. The repository it clones is a fresh commit of this working
tree's package files, so the test checks the code as it is now rather than whatever HEAD holds.

try-repo keeps its clones and environments in a temporary directory of its own, so every run
installs the package again (PyPI must be reachable); the two runs below go in parallel.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

from tests.support import ROOT

# What `pip install .` needs from this repository, and the hook manifest.
PACKAGE_FILES = ("pyproject.toml", "README.md", ".pre-commit-hooks.yaml", "src")

GOOD = """\
version: 1
name: good
slurm:
  time: "01:00:00"
resources:
  nodes: 1
  gpus_per_node: 8
launch:
  program: train.py
"""

BAD = """\
version: 1
name: bad
resources:
  nodes: 1
  gpus_per_node: 8
  tasks_per_nod: 8
launch:
  program: train.py
"""
BAD_FINDING = "specs/bad.yaml:6:3: JC003 [error] unknown key 'tasks_per_nod'"

# YAML that is not a job spec: the hook's default `files:` pattern must leave it alone.
NOT_A_SPEC = "settings:\n  colour: blue\n"

# An sbatch script whose GPU line comes after the first command, so sbatch ignores it.
BAD_SCRIPT = """\
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --time=01:00:00
module load cuda
#SBATCH --gpus-per-node=8
srun python train.py
"""
BAD_SCRIPT_FINDING = "slurm/train.sbatch:5:1: JC801 [error] #SBATCH --gpus-per-node=8 comes after"
# a shell script outside the script directories: not linted
TOOL_SCRIPT = "#!/bin/bash\n#SBATCH --nodes=1\nmodule load cuda\n#SBATCH --time=5\n"

RUN_TIMEOUT_S = 900


def _clean_env(home: Path) -> dict[str, str]:
    # GIT_* variables leak in when the suite itself runs inside a git hook and would point git
    # at the wrong repository; VIRTUAL_ENV would make pip install into this project's venv.
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "VIRTUAL_ENV"}
    env.update(
        PRE_COMMIT_HOME=str(home),
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PIP_NO_INPUT="1",
        GIT_AUTHOR_NAME="jobc tests",
        GIT_AUTHOR_EMAIL="tests@jobc.invalid",
        GIT_COMMITTER_NAME="jobc tests",
        GIT_COMMITTER_EMAIL="tests@jobc.invalid",
        NO_COLOR="1",
    )
    return env


def _git(cwd: Path, env: dict[str, str], *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, env=env, check=True, capture_output=True)


def _package_repo(dest: Path, env: dict[str, str]) -> Path:
    dest.mkdir()
    for name in PACKAGE_FILES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, dest / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        else:
            shutil.copy2(src, dest / name)
    _git(dest, env, "init", "-q")
    _git(dest, env, "add", "-A")
    _git(dest, env, "commit", "-q", "-m", "jobc working tree")
    return dest


def _sample_repo(dest: Path, env: dict[str, str]) -> Path:
    files = {
        "specs/good.yaml": GOOD,
        "specs/bad.yaml": BAD,
        "config/settings.yaml": NOT_A_SPEC,
        "slurm/train.sbatch": BAD_SCRIPT,
        "tools/setup.sh": TOOL_SCRIPT,
    }
    for rel, text in files.items():
        path = dest / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    _git(dest, env, "init", "-q")
    _git(dest, env, "add", "-A")
    return dest


def _fix_runs(
    try_repo: list[str], sample: Path, env: dict[str, str]
) -> list[subprocess.CompletedProcess[str]]:
    """`jobc-fix` twice on the broken script: the first run fixes it (and so fails the commit);
    the user adds the fixed file, and the second run finds nothing left to change."""
    command = [*try_repo[:-3], "jobc-fix", "--color", "never", "--files", "slurm/train.sbatch"]
    runs = []
    for _ in range(2):
        runs.append(
            subprocess.run(
                command,
                cwd=sample,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
                timeout=RUN_TIMEOUT_S,
                check=False,
            )
        )
        _git(sample, env, "add", "-A")
    return runs


@pytest.fixture(scope="module")
def hook_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, subprocess.CompletedProcess[str]]:
    base = tmp_path_factory.mktemp("precommit")
    env = _clean_env(base / "pre-commit-home")
    package = _package_repo(base / "jobc", env)
    sample = _sample_repo(base / "sample", env)
    try_repo = [sys.executable, "-m", "pre_commit", "try-repo", str(package), "jobc-lint", "--color", "never"]
    commands = {
        "all": [*try_repo, "--all-files"],
        "good": [*try_repo, "--files", "specs/good.yaml"],
    }
    fix_sample = _sample_repo(base / "fix-sample", env)
    procs = {
        key: subprocess.Popen(
            cmd, cwd=sample, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
        )
        for key, cmd in commands.items()
    }
    results = {}
    for n, run in enumerate(_fix_runs(try_repo, fix_sample, env)):
        results[f"fix-{n}"] = run
    results["fixed-script"] = subprocess.CompletedProcess(
        [], 0, (fix_sample / "slurm/train.sbatch").read_text(), ""
    )
    for key, proc in procs.items():
        out, _ = proc.communicate(timeout=RUN_TIMEOUT_S)
        results[key] = subprocess.CompletedProcess(commands[key], proc.returncode, out, "")
    return results


@pytest.mark.slow
def test_bad_spec_fails_the_hook_and_its_finding_is_shown(
    hook_runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    run = hook_runs["all"]
    assert run.returncode == 1, run.stdout
    assert re.search(r"^jobc lint\.+Failed$", run.stdout, re.MULTILINE), run.stdout
    assert "- exit code: 1" in run.stdout, run.stdout
    assert BAD_FINDING in run.stdout, run.stdout
    assert "did you mean 'tasks_per_node'?" in run.stdout
    # the good spec has nothing to report, and the YAML outside specs/ was never passed to jobc
    assert "specs/good.yaml:" not in run.stdout
    assert "settings.yaml" not in run.stdout
    # scripts are linted too, but only where the hook looks for them
    assert BAD_SCRIPT_FINDING in run.stdout, run.stdout
    assert "tools/setup.sh" not in run.stdout


@pytest.mark.slow
def test_good_spec_alone_passes(hook_runs: dict[str, subprocess.CompletedProcess[str]]) -> None:
    run = hook_runs["good"]
    assert run.returncode == 0, run.stdout
    assert re.search(r"^jobc lint\.+Passed$", run.stdout, re.MULTILINE), run.stdout


@pytest.mark.slow
def test_fix_hook_fixes_the_script_and_fails_the_commit_once(
    hook_runs: dict[str, subprocess.CompletedProcess[str]],
) -> None:
    first, second = hook_runs["fix-0"], hook_runs["fix-1"]
    assert first.returncode == 1, first.stdout
    assert re.search(r"^jobc fix\.+Failed$", first.stdout, re.MULTILINE), first.stdout
    assert "- files were modified by this hook" in first.stdout, first.stdout
    # the late directive moved above the first command, the rest of the script untouched
    assert hook_runs["fixed-script"].stdout == BAD_SCRIPT.replace(
        "module load cuda\n#SBATCH --gpus-per-node=8\n", "#SBATCH --gpus-per-node=8\nmodule load cuda\n"
    )
    assert second.returncode == 0, second.stdout
    assert re.search(r"^jobc fix\.+Passed$", second.stdout, re.MULTILINE), second.stdout


def _closure(name: str, seen: set[str]) -> set[str]:
    """Distributions `pip install <name>` pulls in, without extras, as installed here."""
    key = name.lower().replace("_", "-")
    if key in seen:
        return seen
    seen.add(key)
    for text in metadata.requires(name) or []:
        req = Requirement(text)
        if req.marker is not None and not req.marker.evaluate({"extra": ""}):
            continue
        _closure(req.name, seen)
    return seen


def test_hook_install_does_not_pull_torch() -> None:
    # The hook's environment is `pip install .`: the package's own dependencies, no extras and
    # no dependency groups. torch belongs to the `runtime` extra only.
    pulled = _closure("jobc", set())
    assert "torch" not in pulled, sorted(pulled)
    assert {"pydantic", "ruamel-yaml", "jsonschema"} <= pulled


def test_hook_command_never_imports_torch() -> None:
    code = textwrap.dedent(
        """
        import sys
        from jobc.cli import main
        rc = main(["lint", "specs"])
        heavy = sorted(m for m in sys.modules if m.split(".")[0] in ("torch", "numpy"))
        print(rc, heavy)
        """
    )
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().splitlines()[-1].endswith(" []"), out


def test_manifest_is_valid_and_matches_spec_directories() -> None:
    from pre_commit.clientlib import load_manifest

    hook, fix = load_manifest(str(ROOT / ".pre-commit-hooks.yaml"))
    # the fixing hook looks at the same files and applies the safe fixes only
    assert (fix["id"], fix["entry"]) == ("jobc-fix", "jobc lint --fix-only")
    assert (fix["files"], fix["types"], fix["language"]) == (hook["files"], hook["types"], hook["language"])
    assert hook["id"] == "jobc-lint"
    assert hook["entry"] == "jobc lint"
    assert hook["language"] == "python"
    assert hook["types"] == ["text"]
    files = re.compile(hook["files"])
    for path in ("specs/a.yaml", "specs/clusters/h100.yml", "ml/jobs/train.yaml", "train.jobc.yaml"):
        assert files.search(path), path
    for path in ("slurm/train.sh", "specs/run.sbatch", "jobs/x/job.slurm", "pretrain.sbatch", "a/b.slurm"):
        assert files.search(path), path
    for path in (".pre-commit-config.yaml", ".github/workflows/ci.yml", "config/settings.yaml"):
        assert not files.search(path), path
    for path in ("tools/setup.sh", "scripts/build.sh", "slurm/notes.txt"):
        assert not files.search(path), path
