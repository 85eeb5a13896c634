"""A lazily compiled pattern answers as the compiled one does, and compiles on its first use only."""

from __future__ import annotations

import re
from types import ModuleType

import pytest

from jobc.core import compiled as core_compiled
from jobc.core.lazyre import lazy, lazy_bytes
from jobc.tables import compiled as tables_compiled


def test_it_answers_as_the_compiled_pattern() -> None:
    text = "a1 b22 c333"
    for flags in (0, re.IGNORECASE):
        eager, late = re.compile(r"([a-z])(\d+)", flags), lazy(r"([a-z])(\d+)", flags)
        assert late.pattern == eager.pattern
        found = late.search(text)
        assert found is not None
        assert found.group(0) == "a1"
        assert [m.span() for m in late.finditer(text)] == [m.span() for m in eager.finditer(text)]
        assert late.findall(text) == eager.findall(text)
        assert late.sub(r"\2\1", text) == eager.sub(r"\2\1", text)
        assert late.split(text) == eager.split(text)
        assert late.fullmatch("a1") is not None
        assert late.match(" a1") is None
        assert (late.groups, late.flags) == (eager.groups, eager.flags)
    assert lazy_bytes(rb"^#SBATCH").search(b"#SBATCH --nodes=1") is not None


def test_it_compiles_on_first_use_only() -> None:
    pattern = lazy(r"never-used-before-\d{3}")
    assert "search" not in vars(pattern)  # nothing compiled yet
    assert pattern.search("never-used-before-123") is not None
    search = vars(pattern)["search"]
    assert pattern.search is search  # kept: later calls go straight to the compiled pattern


def test_a_bad_pattern_fails_when_used() -> None:
    pattern = lazy("(unclosed")
    with pytest.raises(re.error):
        pattern.search("x")


@pytest.mark.parametrize("table", [core_compiled, tables_compiled], ids=["core", "tables"])
def test_every_precompiled_pattern_is_the_one_re_compiles(table: ModuleType) -> None:
    # Pattern equality is the engine's: flags, the pattern and the whole program
    if not table._USABLE:
        pytest.skip(f"the table is for Python {table.PYTHON}, its engine compiles as usual here")
    assert len(table.PATTERNS) > 10
    for pattern, flags in table.PATTERNS:
        built, made = table.compile(pattern, flags), re.compile(pattern, flags)
        assert built is not made  # built from the table, not re's own cache
        assert built == made, pattern
        assert (built.groups, built.groupindex, built.flags) == (made.groups, made.groupindex, made.flags)


def test_a_pattern_the_table_does_not_hold_is_compiled_as_usual() -> None:
    assert ("not-in-any-table-[0-9]", 0) not in core_compiled.PATTERNS
    assert core_compiled.compile("not-in-any-table-[0-9]").search("x not-in-any-table-7") is not None


def test_the_lint_paths_patterns_are_in_the_tables() -> None:
    from jobc.lint import pipeline, scripts  # noqa: F401 - their imports make the patterns
    from jobc.reader import plainyaml
    from jobc.tables import secrets

    assert (plainyaml._KEY.pattern, 0) in core_compiled.PATTERNS
    assert any(pattern == secrets.PREFILTER.pattern for pattern, _ in tables_compiled.PATTERNS)
