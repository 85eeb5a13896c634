"""CI checks the repository itself: `.ci/run` runs `.ci/checks` (ruff, mypy, shellcheck of the
goldens, generated files current) before the tests, and `.ci/checks` fails, naming each, when any
of them fails."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import ROOT

CHECKS = ROOT / ".ci" / "checks"

# What the checks read: the code, the goldens, the configuration and the CI scripts.
COPIED = ("pyproject.toml", "src", "tests", "benchmarks", "golden", ".ci", "tools", "specs", "schema")
COPIED += ("README.md", "docs")

pytestmark = pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")


def checks(cwd: Path) -> subprocess.CompletedProcess[str]:
    # The tools of this environment, as `uv run --no-sync .ci/checks` puts them on PATH.
    env = {**os.environ, "PATH": os.pathsep.join([str(Path(sys.executable).parent), os.environ["PATH"]])}
    return subprocess.run(
        ["bash", str(cwd / ".ci" / "checks")],
        capture_output=True,
        text=True,
        env=env,
        timeout=900,
        check=False,
    )


def test_ci_run_runs_the_static_checks_before_the_tests() -> None:
    run = (ROOT / ".ci" / "run").read_text("utf-8")
    lines = [line for line in run.splitlines() if not line.lstrip().startswith("#")]
    checks_at = [i for i, line in enumerate(lines) if ".ci/checks" in line]
    pytest_at = [i for i, line in enumerate(lines) if re.search(r"\brun pytest\b", line)]
    assert checks_at, ".ci/run does not run .ci/checks"
    assert pytest_at, ".ci/run does not run pytest"
    assert checks_at[0] < pytest_at[0]
    assert "set -euo pipefail" in run  # so a failed check stops the run with its exit code


@pytest.mark.slow
def test_the_repository_passes_its_own_checks() -> None:
    done = checks(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ci: static checks passed" in done.stdout


@pytest.mark.slow
def test_each_broken_check_fails_the_run_and_is_named(tmp_path: Path) -> None:
    for name in COPIED:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__", ".*_cache"))
        else:
            shutil.copy2(source, tmp_path / name)
    # One fault for each check: an unused import, unformatted code, a wrong return type, and a
    # golden script with an unquoted expansion (which no spec compiles to: a stale golden too).
    (tmp_path / "tests" / "test_ci_fault.py").write_text("import os\n", encoding="utf-8")
    (tmp_path / "benchmarks" / "ci_fault.py").write_text("faults = [1,2]\n", encoding="utf-8")
    (tmp_path / "src" / "jobc" / "ci_fault.py").write_text(
        'def fault() -> int:\n    return "not an int"\n', encoding="utf-8"
    )
    (tmp_path / "golden" / "ci-fault.sbatch").write_text("#!/bin/bash\necho $1\n", encoding="utf-8")
    done = checks(tmp_path)
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "ci: failed: lint format types goldens generated" in done.stderr, output
    assert "stale: golden/ci-fault.sbatch" in output
    assert "F401" in output
    assert "ci_fault.py" in output
    assert 'Incompatible return value type (got "str", expected "int")' in output
    assert "SC2086" in output
