"""The import contract: jobc's packages form layers along the data path, and imports flow one way.

A module may import its own package and any package of a lower layer; never a package of its own
layer or a higher one, and no import cycle between modules. Lazy imports inside functions and
imports for type checking count too: a lower stage that needs a higher one at run time is the
same tangle, only later. `docs/architecture.md` draws the same layers.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support import ROOT

SRC = ROOT / "src"

#: Lowest first. `jobc` is the top-level package itself (it holds only the version).
LAYERS: tuple[frozenset[str], ...] = (
    frozenset({"jobc", "jobc.core", "jobc.data", "jobc.tables"}),
    frozenset({"jobc.reader"}),
    frozenset({"jobc.spec"}),
    frozenset({"jobc.memory", "jobc.compile"}),
    frozenset({"jobc.script"}),
    frozenset({"jobc.lint"}),
    frozenset({"jobc.jobs"}),
    frozenset({"jobc.commands"}),
    frozenset({"jobc.cli"}),
    frozenset({"jobc.__main__"}),
)
#: Imported by the training program, next to torch: it stands alone and nothing else imports it.
ISLANDS = frozenset({"jobc.runtime"})


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


@functools.cache
def modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted((SRC / "jobc").rglob("*.py"))}


def _imports(name: str, path: Path) -> Iterator[tuple[str, int]]:
    """Every jobc module `name` imports, wherever the import stands, with its line."""
    known = modules()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                targets.append(sub if sub in known else base)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            targets = [node.args[0].value]
        for target in targets:
            if target == "jobc" or target.startswith("jobc."):
                yield target, node.lineno


def _package(module: str) -> str:
    """The stage a module belongs to: `jobc.lint.rules.base` → `jobc.lint`."""
    parts = module.split(".")
    return ".".join(parts[:2])


def _layer(package: str) -> int | None:
    for index, members in enumerate(LAYERS):
        if package in members:
            return index
    return None


def test_every_package_has_a_place() -> None:
    packages = {_package(m) for m in modules()}
    placed = set().union(*LAYERS) | ISLANDS
    assert packages <= placed, f"add these to LAYERS (and docs/architecture.md): {packages - placed}"


def test_every_stage_says_what_it_takes_and_gives() -> None:
    for package in {_package(m) for m in modules()} - {"jobc", "jobc.cli", "jobc.__main__"}:
        init = modules()[package]
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8")))
        assert doc, f"{init}: a docstring saying what the stage takes and gives"
        assert len(doc.split()) >= 20, f"{init}: a docstring saying what the stage takes and gives"


def test_top_level_holds_only_the_entry_points() -> None:
    loose = sorted(p.name for p in (SRC / "jobc").glob("*.py"))
    assert loose == ["__init__.py", "__main__.py", "cli.py"]


def test_imports_flow_down_the_layers() -> None:
    wrong = []
    for name, path in modules().items():
        here = _package(name)
        for target, line in _imports(name, path):
            there = _package(target)
            if there == here:
                continue
            if here in ISLANDS or there in ISLANDS:
                wrong.append(f"{path}:{line}: {name} imports {target} ({'jobc.runtime stands alone'})")
                continue
            mine, theirs = _layer(here), _layer(there)
            assert mine is not None
            assert theirs is not None
            if theirs >= mine:
                what = "its own layer" if theirs == mine else "a higher layer"
                wrong.append(f"{path}:{line}: {name} imports {target}, from {what}")
    assert not wrong, "\n".join(wrong)


def _cycle() -> list[str] | None:
    graph = {
        name: sorted({t for t, _ in _imports(name, path)} & modules().keys())
        for name, path in modules().items()
    }
    state: dict[str, int] = {}  # 1 on the current path, 2 done
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in graph[node]:
            # a package's __init__ importing its own submodules (and back) is how lazy exports
            # work; only a cycle between two modules that are not package and child counts
            if nxt.startswith(node + ".") or node.startswith(nxt + "."):
                continue
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        stack.pop()
        state[node] = 2
        return None

    for name in graph:
        if name not in state and (found := visit(name)):
            return found
    return None


def test_no_two_modules_import_each_other() -> None:
    cycle = _cycle()
    assert cycle is None, "import cycle: " + " → ".join(cycle or [])


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from jobc.lint.pipeline import lint_file\n", "jobc.lint.pipeline"),
        ("def f():\n    from jobc.lint import pipeline\n", "jobc.lint.pipeline"),
        ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import jobc.compile\n", "jobc.compile"),
        ("import importlib\nimportlib.import_module('jobc.lint.rules')\n", "jobc.lint.rules"),
    ],
)
def test_the_check_sees_every_kind_of_import(tmp_path: Path, source: str, expected: str) -> None:
    path = tmp_path / "probe.py"
    path.write_text(source, encoding="utf-8")
    assert expected in [target for target, _ in _imports("jobc.spec.probe", path)]
