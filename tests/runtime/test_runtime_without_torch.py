"""Without torch, the runtime says how to install it instead of a bare ModuleNotFoundError.

Each case is a fresh interpreter in which importing torch fails the way it does where torch was
never installed.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

from tests.support import ROOT

NO_TORCH = """
import importlib.abc, json, sys

class NoTorch(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] == "torch":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NoTorch())
import jobc.runtime  # the torch-free part imports
try:
    STATEMENT
except ModuleNotFoundError as error:
    print(json.dumps({"type": type(error).__name__, "name": error.name, "message": str(error)}))
else:
    print(json.dumps(None))
"""


@pytest.mark.parametrize(
    "statement",
    [
        "from jobc.runtime import init",
        "jobc.runtime.World",
        "import jobc.runtime.world",
        "from jobc.runtime.check import main",
    ],
)
def test_a_missing_torch_names_the_runtime_extra(statement: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", NO_TORCH.replace("STATEMENT", statement)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    raised = json.loads(done.stdout)
    assert raised is not None, f"{statement} imported although torch is missing"
    assert raised["type"] == "TorchMissingError"
    assert raised["name"] == "torch"  # still what code catching a missing torch looks for
    assert "jobc[runtime]" in raised["message"]
    assert "pip install torch" in raised["message"]
    repository = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["urls"]["Repository"]
    assert f"jobc[runtime] @ git+{repository}" in raised["message"]


def test_other_missing_modules_are_not_blamed_on_torch() -> None:
    from jobc.runtime.errors import require_torch

    require_torch(ModuleNotFoundError("No module named 'numpy'", name="numpy"))  # returns
    with pytest.raises(ModuleNotFoundError, match=r"jobc\[runtime\]") as raised:
        require_torch(ModuleNotFoundError("No module named 'torch.distributed'", name="torch.distributed"))
    assert raised.value.name == "torch"
