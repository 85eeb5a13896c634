"""A command runs with the cyclic garbage collector at rest (see jobc.cli.main), which is only
sound while linting makes no cyclic garbage per spec: this holds it to that.

The count runs in a fresh interpreter: in the test process, threads and finalisers left by other
tests add garbage of their own at random moments.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

from tests.support import ROOT

MEASURE = """
import contextlib, gc, io, json, sys
from jobc.cli import main

def unreachable_after_lint(directory):
    gc.collect()
    gc.disable()
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            main(["lint", directory])
        return gc.collect()
    finally:
        gc.enable()

one, many = sys.argv[1], sys.argv[2]
unreachable_after_lint(many)  # first use: caches fill, modules load
print(json.dumps([unreachable_after_lint(one), unreachable_after_lint(many)]))
"""


def test_linting_more_specs_makes_no_more_cyclic_garbage(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "specs" / "clusters", tmp_path / "clusters")
    one, many = tmp_path / "one", tmp_path / "many"
    one.mkdir()
    many.mkdir()
    examples = sorted((ROOT / "specs").glob("*.yaml"))
    for i in range(3):
        for example in examples:
            text = example.read_text("utf-8").replace("extends: clusters/", "extends: ../clusters/")
            (many / f"{i}-{example.name}").write_text(text, "utf-8")
    shutil.copy(many / f"0-{examples[0].name}", one)
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(one), str(many)],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    baseline, after_many = json.loads(done.stdout)
    assert after_many <= baseline + 10, (baseline, after_many)
