"""The wheel, installed the way a user installs it: a clean virtual environment and pip.

It must carry its data (schema, GPU and model catalogues, NCCL names), give a working `jobc`
script and `python -m jobc`, lint the examples, and leave torch out unless `jobc[runtime]` is
asked for — which is checked with pip's dry-run resolution, so no torch is downloaded.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from jobc import __version__
from tests.support import ROOT

DATA = ("jobc.schema.json", "gpus.json", "models.json", "nccl_env.txt")

pytestmark = pytest.mark.slow


def run(*args: str | Path, cwd: Path | None = None, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, cwd=cwd, timeout=timeout, check=False
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    uv = shutil.which("uv")
    if uv is not None:
        done = run(uv, "build", "--wheel", "--out-dir", out, ROOT, cwd=ROOT)
    else:
        done = run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", out, ROOT, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    (found,) = out.glob("jobc-*.whl")
    return found


@pytest.fixture(scope="module")
def installed(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh virtual environment with the wheel installed by pip; its bin directory."""
    env = tmp_path_factory.mktemp("venv") / "env"
    venv.EnvBuilder(with_pip=True, clear=True).create(env)
    bin_dir = env / "bin"
    # --no-compile: byte-compiling the dependencies would be most of this test's time
    pip = (
        bin_dir / "python",
        "-m",
        "pip",
        "install",
        "--quiet",
        "--disable-pip-version-check",
        "--no-compile",
    )
    done = run(*pip, wheel)
    assert done.returncode == 0, done.stdout + done.stderr
    return bin_dir


def test_the_wheel_carries_the_data(wheel: Path) -> None:
    import zipfile

    names = set(zipfile.ZipFile(wheel).namelist())
    for name in DATA:
        assert f"jobc/data/{name}" in names
    assert not any("__pycache__" in n for n in names)


def test_plain_jobc_does_not_install_torch(installed: Path) -> None:
    done = run(installed / "python", "-c", "import importlib.util as u; print(u.find_spec('torch') is None)")
    assert done.stdout.strip() == "True", done.stderr


def test_the_installed_data_is_found(installed: Path) -> None:
    code = "from jobc.data import read_text; import sys; print(all(read_text(n) for n in sys.argv[1:]))"
    done = run(installed / "python", "-c", code, *DATA)
    assert done.stdout.strip() == "True", done.stderr


def test_version_from_the_script_and_the_module(installed: Path) -> None:
    for argv in ([installed / "jobc", "--version"], [installed / "python", "-m", "jobc", "--version"]):
        done = run(*argv)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() == f"jobc {__version__}"


@pytest.mark.parametrize("example", ["megatron-lm-llama3-8b.yaml", "minimax-m2-convert.yaml"])
def test_the_installed_jobc_lints_an_example(installed: Path, example: str, tmp_path: Path) -> None:
    spec = ROOT / "specs" / example
    done = run(installed / "jobc", "lint", "--format", "json", spec, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert isinstance(json.loads(done.stdout), list)
    assert run(installed / "jobc", "schema", cwd=tmp_path).returncode == 0


def test_the_runtime_extra_brings_torch(installed: Path, wheel: Path, tmp_path: Path) -> None:
    report = tmp_path / "report.json"
    done = run(
        installed / "python",
        "-m",
        "pip",
        "install",
        "--dry-run",
        "--quiet",
        "--disable-pip-version-check",
        "--report",
        report,
        f"jobc[runtime] @ {wheel.as_uri()}",
    )
    assert done.returncode == 0, done.stdout + done.stderr
    wanted = {item["metadata"]["name"].lower() for item in json.loads(report.read_text())["install"]}
    assert "torch" in wanted
