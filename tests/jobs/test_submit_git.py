"""jobc.jobs.submit.git_commit: the commit a spec was submitted from, read without running what
the repository's configuration names."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from jobc.jobs.submit import git_commit


def _git(where: Path, *args: str) -> str:
    names = {"GIT_AUTHOR_NAME": "a", "GIT_AUTHOR_EMAIL": "a@b", "GIT_COMMITTER_NAME": "a"}
    env = {**os.environ, **names, "GIT_COMMITTER_EMAIL": "a@b"}
    done = subprocess.run(
        ["git", "-C", str(where), *args], capture_output=True, text=True, check=True, env=env
    )
    return done.stdout.strip()


def test_a_hostile_repository_configuration_runs_nothing(tmp_path: Path) -> None:
    # `git status` refreshes the index: it ran core.fsmonitor and the clean filter of every file
    # whose stat changed, so submitting a spec from an unpacked archive ran the archive's commands
    spec = tmp_path / "job.yaml"
    spec.write_text("version: 1\n", encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "job.yaml")
    _git(tmp_path, "commit", "-qm", "spec")
    head = _git(tmp_path, "rev-parse", "HEAD")
    (tmp_path / ".gitattributes").write_text("* filter=x\n", encoding="utf-8")
    _git(tmp_path, "config", "core.fsmonitor", f"touch {tmp_path / 'fsmonitor-ran'}; false")
    _git(tmp_path, "config", "filter.x.clean", f"touch {tmp_path / 'filter-ran'}; cat")
    spec.touch()
    assert git_commit(spec) == (head, False)
    spec.write_text("version: 1\nname: changed\n", encoding="utf-8")
    assert git_commit(spec) == (head, True)
    other = tmp_path / "new.yaml"
    other.write_text("version: 1\n", encoding="utf-8")
    assert git_commit(other) == (head, True)  # not committed at all
    assert not (tmp_path / "fsmonitor-ran").exists()
    assert not (tmp_path / "filter-ran").exists()


def test_a_spec_outside_any_repository_has_no_commit(tmp_path: Path) -> None:
    spec = tmp_path / "job.yaml"
    spec.write_text("version: 1\n", encoding="utf-8")
    assert git_commit(spec) == (None, False)
