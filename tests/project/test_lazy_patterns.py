"""The modules a lint imports compile no regular expression when they are imported.

Compiling a pattern costs tens to hundreds of microseconds, and a cold lint of one script
imported about thirty that its file never used (a launcher's wrapper, a sharding flag, bash's
complaint): a module-level pattern is `jobc.core.lazyre.lazy` (or `jobc.tables._later.later` in
the tables), compiled on its first use. The modules named below compile theirs at import on
purpose: they are not on a clean lint's path, or every lint uses the pattern at once.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from tests.support import ROOT

SRC = ROOT / "src" / "jobc"
# the packages a lint of a spec or a script imports from
ON_THE_LINT_PATH = ("core", "data", "tables", "reader", "spec", "memory", "script", "lint")
EAGER = {
    "tables/contract.py": "the compiled script's lines, read by triage, not by lint",
    "reader/fastyaml.py": "the libyaml reader, only for YAML outside the plain subset",
    "spec/profilegen.py": "writes a profile from scontrol's text; lint never imports it",
    "script/writer.py": "writes the YAML of an import; lint never imports it",
}


def _modules() -> list[Path]:
    every = (p for package in ON_THE_LINT_PATH for p in (SRC / package).rglob("*.py"))
    return sorted(p for p in every if str(p.relative_to(SRC)) not in EAGER)


def _eager_compiles(path: Path) -> list[int]:
    """Lines where `re.compile(…)` runs when the module is imported (outside any function)."""
    tree = ast.parse(path.read_text("utf-8"))
    found: list[int] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return  # runs when called, not when imported
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "compile"
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "re"
        ):
            found.append(node.lineno)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(SRC)))
def test_a_module_on_the_lint_path_compiles_no_pattern_at_import(path: Path) -> None:
    relative = path.relative_to(SRC)
    assert _eager_compiles(path) == [], f"{relative}: use jobc.core.lazyre.lazy for module-level patterns"


def test_the_scan_finds_an_eager_pattern(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    module.write_text(
        "import re\nA = re.compile('a')\nB = (re.compile('b'), 1)\n"
        "def f():\n    return re.compile('c')\nC = [lambda: re.compile('d')]\n",
        "utf-8",
    )
    assert _eager_compiles(module) == [2, 3]


def test_the_exceptions_still_exist() -> None:
    for relative in EAGER:
        assert (SRC / relative).is_file(), relative
