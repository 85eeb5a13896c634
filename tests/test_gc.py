"""A command runs with the cyclic garbage collector at rest (see jobc.cli.main), which is only
sound while linting makes no cyclic garbage per spec: this holds it to that."""

from __future__ import annotations

import gc
import shutil
from pathlib import Path

import pytest

from jobc.cli import main

ROOT = Path(__file__).resolve().parents[1]


def unreachable_after_lint(directory: Path, capsys: pytest.CaptureFixture[str]) -> int:
    gc.collect()
    gc.disable()
    try:
        main(["lint", str(directory)])
        capsys.readouterr()
        return gc.collect()
    finally:
        gc.enable()


def test_linting_more_specs_makes_no_more_cyclic_garbage(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "specs" / "clusters", tmp_path / "clusters")
    one, many = tmp_path / "one", tmp_path / "many"
    one.mkdir()
    many.mkdir()
    examples = sorted((ROOT / "specs").glob("*.yaml"))
    for i in range(3):
        for example in examples:
            text = example.read_text("utf-8").replace("extends: clusters/", "extends: ../clusters/")
            (many / f"{i}-{example.name}").write_text(text, "utf-8")
    shutil.copy(many / f"0-{examples[0].name}", one)
    unreachable_after_lint(many, capsys)  # first use: caches fill, modules load
    baseline = unreachable_after_lint(one, capsys)
    # garbage that lint makes per spec shows in every round; garbage left by other tests in the
    # same process (finalisers, thread teardown) shows once, so the best of three rounds counts
    rounds = [unreachable_after_lint(many, capsys) for _ in range(3)]
    assert min(rounds) <= baseline + 10, (baseline, rounds)
