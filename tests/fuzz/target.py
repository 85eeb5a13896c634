"""One fuzz target for lint and compile, shared by the hypothesis suite and the atheris long run.

`run(directory, raw, sets)` writes ``raw`` as a spec beside the example profiles, lints it with
the ``--set`` overrides and, when lint is clean, compiles it. What must hold for any input:

- lint and compile answer with findings, a script, or one line on stderr: never a traceback or
  an internal error, and only exit codes 0, 1 and 2;
- nothing they print holds a raw control character or an escape sequence from the spec;
- lint clean means compile succeeds, and the script it writes parses with `bash -n` (setup
  lines included: JC509 has bash parse them first).
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import subprocess
from pathlib import Path

from jobc.cli import main
from tests.support import ROOT

SPECS = ROOT / "specs"
# C0 controls but tab and newline, DEL, C1 controls: none of these may reach a terminal
_RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def examples() -> list[Path]:
    return sorted(SPECS.glob("*.yaml"))


def workspace(directory: Path) -> Path:
    """A copy of the examples and their profiles, so a mutated spec's `extends:` still resolves."""
    target = directory / "specs"
    if not target.exists():
        shutil.copytree(SPECS, target)
    return target


def _call(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def _check_answer(verb: str, code: int, out: str, err: str) -> None:
    assert code in (0, 1, 2), (verb, code, err)
    assert "Traceback" not in out + err, (verb, err)
    assert "internal error" not in err, (verb, err)
    if code == 2:
        assert err.count("\n") == 1, (verb, err)
    if verb == "lint":
        assert _RAW_CONTROL.search(out + err) is None, (verb, out + err)


def run(directory: Path, raw: bytes, sets: list[str] | None = None) -> None:
    """Lint ``raw`` as a spec (with ``--set`` overrides) and compile it when lint is clean."""
    spec = workspace(directory) / "fuzzed.yaml"
    spec.write_bytes(raw)
    extra = [arg for s in sets or [] for arg in ("--set", s)]
    code, out, err = _call(["lint", str(spec), *extra])
    _check_answer("lint", code, out, err)
    for fmt in ("github", "sarif"):
        _check_answer("lint", *_call(["lint", "--format", fmt, str(spec), *extra]))
    compiled, script, cerr = _call(["compile", str(spec), *extra])
    _check_answer("compile", compiled, script, cerr)
    if code == 0:
        assert compiled == 0, (out, cerr)
        parsed = subprocess.run(["bash", "-n"], input=script, text=True, capture_output=True, check=False)
        assert parsed.returncode == 0, (parsed.stderr, script)
