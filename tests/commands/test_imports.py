"""What `jobc lint` imports: nothing heavy for a clean spec, the explainers only for a broken one.

Each case is a fresh interpreter run with `-X importtime`, which names every module imported.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from jobc.reader import fastyaml
from tests.support import ROOT

EXAMPLES = sorted((ROOT / "specs").glob("*.yaml"))

# never on the lint path (torch belongs to jobc.runtime); pydantic and jsonschema only explain errors
HEAVY = ("torch", "pydantic", "pydantic_core", "jsonschema", "tree_sitter", "tree_sitter_bash")


def imported(*args: str, cwd: Path = ROOT) -> tuple[int, str, set[str]]:
    """Exit code, stdout and the top-level names of every module the run imported."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "jobc", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        check=False,
        timeout=120,
    )
    modules = set()
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line:
            name = line.rsplit("|", 1)[1].strip()
            modules.add(name.split(".")[0])
    return done.returncode, done.stdout, modules


@pytest.mark.parametrize("spec", EXAMPLES, ids=lambda p: p.name)
def test_a_clean_spec_imports_nothing_heavy(spec: Path) -> None:
    code, out, modules = imported("lint", str(spec.relative_to(ROOT)))
    assert code == 0, out
    assert "jobc" in modules  # the run was observed at all
    assert not modules & set(HEAVY), sorted(modules & set(HEAVY))
    if fastyaml.AVAILABLE:
        assert "ruamel" not in modules  # an ordinary spec is read by libyaml


def test_a_broken_spec_may_load_the_explainers(tmp_path: Path) -> None:
    spec = tmp_path / "broken.yaml"
    text = (ROOT / "specs" / "ddp-two-node.yaml").read_text("utf-8")
    spec.write_text(text.replace("extends: clusters/", "extends: " + str(ROOT / "specs" / "clusters") + "/")
                    + "\nbogus_section: 1\n")  # fmt: skip
    code, out, modules = imported("lint", str(spec), cwd=tmp_path)
    assert code == 1
    assert "JC003" in out
    assert "bogus_section" in out
    assert "torch" not in modules
    assert modules & {"jsonschema", "pydantic"}  # the error explainer ran: the clean test is not vacuous


def test_a_script_loads_the_bash_parser_and_nothing_else_heavy(tmp_path: Path) -> None:
    script = tmp_path / "job.sbatch"
    script.write_text(
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n#SBATCH --ntasks-per-node=8\n"
        "#SBATCH --time=01:00:00\nsrun python train.py\n",
        encoding="utf-8",
    )
    code, out, modules = imported("lint", str(script), cwd=tmp_path)
    assert code == 0, out
    assert {"tree_sitter", "tree_sitter_bash"} <= modules
    assert not modules & {"torch", "pydantic", "pydantic_core", "jsonschema"}, sorted(modules)
