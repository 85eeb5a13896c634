"""A lazily compiled pattern answers as the compiled one does, and compiles on its first use only."""

from __future__ import annotations

import re

import pytest

from jobc.core.lazyre import lazy, lazy_bytes


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
