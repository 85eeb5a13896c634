"""Lint resolves the paths of specs and profiles with their directories remembered for the run:
the answer is `str(Path.resolve())` for every shape of path (symbolic links to files and
directories, `..`, missing files, relative paths from different working directories)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jobc.lint import pipeline


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "real" / "clusters").mkdir(parents=True)
    (tmp_path / "real" / "clusters" / "p.yaml").write_text("profile: p\n")
    (tmp_path / "real" / "specs").mkdir()
    (tmp_path / "real" / "specs" / "s.yaml").write_text("name: s\n")
    (tmp_path / "linked").symlink_to(tmp_path / "real")
    (tmp_path / "real" / "specs" / "to-profile.yaml").symlink_to(tmp_path / "real" / "clusters" / "p.yaml")
    (tmp_path / "real" / "specs" / "up").symlink_to("..")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    return tmp_path


CASES = [
    "real/specs/s.yaml",
    "linked/specs/s.yaml",
    "linked/specs/../clusters/p.yaml",
    "real/specs/to-profile.yaml",
    "linked/specs/up/clusters/p.yaml",
    "linked/specs/missing.yaml",
    "linked/nowhere/missing.yaml",
    "linked/specs/..",
    "linked/specs/.",
]


@pytest.mark.parametrize("case", CASES)
def test_the_same_as_path_resolve(tree: Path, case: str, monkeypatch: pytest.MonkeyPatch) -> None:
    absolute = tree / case
    assert pipeline._resolve(str(absolute)) == str(absolute.resolve())
    assert pipeline._resolve(str(absolute)) == str(absolute.resolve())  # remembered
    monkeypatch.chdir(tree / "real" / "specs")
    relative = Path(os.path.relpath(absolute, tree / "real" / "specs"))
    assert pipeline._resolve(str(relative)) == str(relative.resolve())
    monkeypatch.chdir(tree)  # the same relative words from elsewhere name another file
    assert pipeline._resolve(str(relative)) == str(relative.resolve())


def test_a_symlink_loop_raises_as_resolve_does(tree: Path) -> None:
    for path in (tree / "loop", tree / "loop" / "x.yaml"):
        with pytest.raises(RuntimeError):
            path.resolve()
        with pytest.raises(RuntimeError):
            pipeline._resolve(str(path))
