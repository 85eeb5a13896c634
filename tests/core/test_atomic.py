"""`jobc.core.atomic.replace`: a file is replaced whole or left exactly as it was."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from jobc.core.atomic import replace


def _leftovers(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if p.name.startswith("."))


def test_a_new_file_gets_the_content_and_the_mode_asked_for(tmp_path: Path) -> None:
    target = tmp_path / "job.sh"
    replace(target, "echo hi\n", mode=0o755)
    assert target.read_bytes() == b"echo hi\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o755 & ~_umask()
    assert _leftovers(tmp_path) == []


def test_an_existing_file_keeps_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "spec.yaml"
    target.write_text("old\n")
    target.chmod(0o640)
    replace(target, b"new\n")
    assert target.read_bytes() == b"new\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640


def test_text_that_cannot_be_encoded_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "spec.yaml"
    target.write_text("version: 1\n")
    with pytest.raises(UnicodeEncodeError):
        replace(target, "program: train\udcff.py\n")  # a byte of a non-UTF-8 name, surrogate-escaped
    assert target.read_text() == "version: 1\n"
    assert _leftovers(tmp_path) == []


def test_a_failure_while_writing_leaves_the_old_file_and_no_temporary(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "spec.yaml"
    target.write_text("version: 1\n")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    with pytest.raises(OSError, match="No space"):
        replace(target, "version: 2\n")
    assert target.read_text() == "version: 1\n"
    assert _leftovers(tmp_path) == []


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(IsADirectoryError):
        replace(tmp_path, "x")


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
