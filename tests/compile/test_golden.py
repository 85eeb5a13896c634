"""Every golden script is clean shell; `tools/regen.py` keeps each one what its example in specs/
compiles to (`tests/project/test_generated.py` checks that they are current)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.compile.support import (
    GOLDEN,
    bash_syntax_ok,
    example_specs,
    has_shellcheck,
    shellcheck,
    step_script,
)


def test_there_are_examples() -> None:
    assert len(example_specs()) >= 3


def _goldens() -> list[Path]:
    return sorted([*GOLDEN.glob("*.sbatch"), *GOLDEN.glob("*.attach.sh")])


@pytest.mark.skipif(not has_shellcheck(), reason="shellcheck is not installed")
@pytest.mark.parametrize("golden", _goldens(), ids=lambda p: p.name)
def test_golden_is_shellcheck_clean(golden: Path) -> None:
    text = golden.read_text(encoding="utf-8")
    assert bash_syntax_ok(text)
    for part, name in ((text, golden.name), (step_script(text), f"{golden.name}.step")):
        result = shellcheck(part, name=name)
        assert result.returncode == 0, result.stdout
