"""Shared helpers for the compiler tests: compile a spec file or plain data, take scripts apart."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from jobc.compile import compile_attach, compile_batch
from jobc.compile.launch import STEP_DELIMITER
from jobc.compile.shell import QUOTED_WORD
from jobc.lint.pipeline import Result, lint_file, parse_override
from tests.support import ROOT

SPECS = ROOT / "specs"
GOLDEN = ROOT / "golden"


def example_specs() -> list[Path]:
    """Every example job spec (cluster profiles live in specs/clusters/ and are not jobs)."""
    return sorted(SPECS.glob("*.yaml"))


def lint(path: Path, *overrides: str) -> Result:
    return lint_file(path, overrides=[parse_override(o) for o in overrides], display=path.name)


def compile_path(path: Path, *overrides: str, attach: str | None = None) -> str:
    result = lint(path, *overrides)
    assert not result.errors, "\n".join(map(str, result.errors))
    assert result.context is not None
    return compile_attach(result.context, attach) if attach else compile_batch(result.context)


def compile_data(data: dict[str, Any], *overrides: str, attach: str | None = None) -> str:
    """Compile a spec given as plain data (written as JSON, which YAML reads the same)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "spec.yaml"
        path.write_text(json.dumps(data), encoding="utf-8")
        return compile_path(path, *overrides, attach=attach)


def step_script(script: str) -> str:
    """The per-task script inside the quoted heredoc."""
    start = script.index(f"<<'{STEP_DELIMITER}'")
    body = script[script.index("\n", start) + 1 :]
    return "#!/bin/bash\n" + body[: body.index(f"\n{STEP_DELIMITER}\n") + 1]


def skeleton(script: str) -> str:
    """The command structure: comments dropped, #SBATCH values and single-quoted words replaced
    by placeholders. A small lexer, because a quoted value may span lines or hold a '#'."""
    out: list[str] = []
    i, n = 0, len(script)
    at_line_start = True
    while i < n:
        char = script[i]
        if at_line_start and char == "#":
            end = script.find("\n", i)
            end = n if end < 0 else end
            line = script[i:end]
            if line.startswith("#SBATCH"):
                out.append(re.sub(r"=.*", "=V", line))
            i = end
            continue
        if char == "'":
            match = QUOTED_WORD.match(script, i)
            assert match, f"unbalanced quote at {i}"
            out.append("Q")
            i = match.end()
            at_line_start = False
            continue
        if char == '"':
            end = i + 1
            while script[end] != '"':
                end += 2 if script[end] == "\\" else 1
            out.append(script[i : end + 1])
            i = end + 1
            at_line_start = False
            continue
        out.append(char)
        if char == "\n":
            at_line_start = True
        elif not char.isspace():
            at_line_start = False
        i += 1
    return "".join(out)


def shellcheck(text: str, *, name: str = "script.sh") -> subprocess.CompletedProcess[str]:
    """`shellcheck FILE` with no options: every severity, the shell taken from the shebang, as a
    user runs it on a compiled script."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text(text, encoding="utf-8")
        return subprocess.run(
            ["shellcheck", str(path)],
            capture_output=True,
            text=True,
            check=False,
        )


def has_shellcheck() -> bool:
    return shutil.which("shellcheck") is not None


def bash_syntax_ok(text: str) -> bool:
    result = subprocess.run(["bash", "-n"], input=text, text=True, capture_output=True, check=False)
    return result.returncode == 0
