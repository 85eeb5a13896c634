"""Every example in specs/ compiles to its golden script, and every golden is clean shell."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion

from tests.compile.golden import AttachGolden, SbatchGolden
from tests.compile.support import (
    GOLDEN,
    bash_syntax_ok,
    compile_path,
    example_specs,
    has_shellcheck,
    lint,
    shellcheck,
    step_script,
)

# Goldens are named after the spec, not the test, which syrupy warns about when writing them.
pytestmark = pytest.mark.filterwarnings("ignore:\\s*Can not relate snapshot:UserWarning")

EXAMPLES = example_specs()
# The job id the attach goldens are compiled for.
ATTACH_JOB = "4242"


def _name(path: Path) -> str:
    result = lint(path)
    assert result.spec is not None, f"{path.name} is not a valid job spec"
    return result.spec.name


@pytest.fixture
def sbatch_golden(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(SbatchGolden)


@pytest.fixture
def attach_golden(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(AttachGolden)


def test_there_are_examples() -> None:
    assert len(EXAMPLES) >= 3


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_batch_script_matches_golden(path: Path, sbatch_golden: SnapshotAssertion) -> None:
    assert compile_path(path) == sbatch_golden(name=_name(path))


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_attach_script_matches_golden(path: Path, attach_golden: SnapshotAssertion) -> None:
    assert compile_path(path, attach=ATTACH_JOB) == attach_golden(name=_name(path))


def _goldens() -> list[Path]:
    return sorted([*GOLDEN.glob("*.sbatch"), *GOLDEN.glob("*.attach.sh")])


def test_every_golden_belongs_to_an_example() -> None:
    names = {_name(path) for path in EXAMPLES}
    for golden in _goldens():
        stem = golden.name.removesuffix(".sbatch").removesuffix(".attach.sh")
        assert stem in names, f"{golden.name} has no example in specs/ any more"


@pytest.mark.skipif(not has_shellcheck(), reason="shellcheck is not installed")
@pytest.mark.parametrize("golden", _goldens(), ids=lambda p: p.name)
def test_golden_is_shellcheck_clean(golden: Path) -> None:
    text = golden.read_text(encoding="utf-8")
    assert bash_syntax_ok(text)
    for part, name in ((text, golden.name), (step_script(text), f"{golden.name}.step")):
        result = shellcheck(part, name=name)
        assert result.returncode == 0, result.stdout
