"""`jobc init`: a commented starter spec for each common shape, which lints clean and compiles as
it is; an existing file is never replaced without --force, and never a FIFO or a directory."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.commands.init_ import SHAPES, starter
from jobc.compile import compile_batch
from jobc.lint.pipeline import lint_file


@pytest.mark.parametrize("shape", list(SHAPES))
def test_every_starter_lints_clean_and_compiles(shape: str, tmp_path: Path) -> None:
    path = tmp_path / "job.yaml"
    assert main(["init", str(path), "--shape", shape]) == 0
    assert path.read_text(encoding="utf-8") == starter(shape)
    result = lint_file(path)
    assert result.findings == []
    assert result.context is not None
    script = compile_batch(result.context)
    assert script.startswith("#!/bin/bash\n")
    # the lines a user must change say so
    assert "EDIT" in path.read_text(encoding="utf-8")


def test_the_shapes_are_what_they_say(tmp_path: Path) -> None:
    def spec(shape: str) -> dict:  # type: ignore[type-arg]
        path = tmp_path / f"{shape}.yaml"
        path.write_text(starter(shape), encoding="utf-8")
        result = lint_file(path)
        assert result.context is not None
        return result.context.data

    assert spec("single-node")["resources"]["nodes"] == 1
    assert spec("multi-node")["launch"]["mode"] == "torchrun"
    assert spec("multi-node")["resources"]["nodes"] > 1
    assert spec("srun")["launch"]["mode"] == "srun"
    preempt = spec("preemption")["resilience"]
    assert preempt["requeue"] is True
    assert preempt["signal"] == "SIGTERM"


def test_an_existing_file_is_kept(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "job.yaml"
    path.write_text("mine\n", encoding="utf-8")
    assert main(["init", str(path)]) == 2
    assert "exists; choose another name, or --force" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == "mine\n"
    assert main(["init", str(path), "--force", "--shape", "srun"]) == 0
    assert path.read_text(encoding="utf-8") == starter("srun")


def test_stdout_and_a_fifo(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["init", "-", "--shape", "preemption"]) == 0
    assert capsys.readouterr().out == starter("preemption")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    assert main(["init", str(fifo), "--force"]) == 2
    assert "not a regular file" in capsys.readouterr().err
    assert main(["init", str(tmp_path), "--force"]) == 2


def test_init_is_listed_first_in_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.index("    init ") < out.index("    lint ")
