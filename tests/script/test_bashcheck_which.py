"""bashcheck finds bash as shutil.which does, without importing shutil."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from jobc.script.bashcheck import which


@pytest.mark.parametrize(
    "path",
    ["", ":", "/usr/bin:/bin", "/nonexistent:/bin", "/bin:/usr/bin:/bin", os.environ.get("PATH", os.defpath)],
)
def test_it_answers_as_shutil_which(path: str) -> None:
    for command in ("bash", "sh", "no-such-command-here"):
        assert which(command, path) == shutil.which(command, path=path)


def test_it_skips_directories_and_files_that_do_not_run(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "tool").mkdir()  # a directory of that name
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "tool").write_text("")  # not executable
    (tmp_path / "c").mkdir()
    (tmp_path / "c" / "tool").write_text("#!/bin/sh\n")
    (tmp_path / "c" / "tool").chmod(0o755)
    path = os.pathsep.join(str(tmp_path / d) for d in "abc")
    assert which("tool", path) == shutil.which("tool", path=path) == str(tmp_path / "c" / "tool")
