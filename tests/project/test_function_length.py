"""No function of jobc runs over 100 lines (generated code aside): past that, split it by meaning."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support import ROOT

SRC = ROOT / "src" / "jobc"
LIMIT = 100
#: Every package of jobc, one test each.
STAGES = sorted(p.name for p in SRC.iterdir() if (p / "__init__.py").is_file())
#: Written by tools/regen.py from the models, one long function per class by design.
GENERATED = frozenset({SRC / "spec" / "plain.py"})


def long_functions(root: Path, limit: int = LIMIT, *, recursive: bool = True) -> list[str]:
    """`path:line name (N lines)` for each function under ``root`` longer than ``limit`` lines."""
    out = []
    for path in sorted(root.rglob("*.py") if recursive else root.glob("*.py")):
        if path in GENERATED:
            continue
        for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    out.append(f"{path}:{node.lineno} {node.name} ({length} lines)")
    return out


@pytest.mark.parametrize("stage", STAGES)
def test_no_function_is_over_the_limit(stage: str) -> None:
    assert long_functions(SRC / stage) == []


def test_no_function_of_the_top_level_modules_is_over_the_limit() -> None:
    assert long_functions(SRC, recursive=False) == []  # cli.py, __main__.py


def test_the_measure_counts_decorators_out_and_bodies_in(tmp_path: Path) -> None:
    body = "".join(f"    x = {i}\n" for i in range(LIMIT))
    (tmp_path / "m.py").write_text(f"@staticmethod\ndef f():\n{body}\ndef g():\n    pass\n", encoding="utf-8")
    assert [row.split(" ", 1)[1] for row in long_functions(tmp_path)] == [f"f ({LIMIT + 1} lines)"]
