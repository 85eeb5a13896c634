"""A profile that many specs extend is read once per process, and read again once it changes."""

from __future__ import annotations

import os
from pathlib import Path

from jobc.lint import pipeline as lint
from jobc.lint.pipeline import lint_file

PROFILE = "profile: site\nresources:\n  gpus_per_node: {gpus}\n"
SPEC = """\
version: 1
name: job-{i}
extends: site.yaml
slurm: {{time: "1:00:00"}}
resources: {{nodes: 2}}
launch: {{program: train.py}}
storage: {{shared: [/shared]}}
"""


def test_a_shared_profile_is_read_once(tmp_path: Path, monkeypatch: object) -> None:
    (tmp_path / "site.yaml").write_text(PROFILE.format(gpus=8))
    reads: list[str | Path] = []
    original = lint._source.read

    def counting(path: str | Path, display: str | None = None) -> lint._source.Source:
        reads.append(path)
        return original(path, display)

    lint._PROFILES.clear()
    lint._source.read = counting  # type: ignore[assignment]
    try:
        for i in range(3):
            (tmp_path / f"s{i}.yaml").write_text(SPEC.format(i=i))
            lint_file(tmp_path / f"s{i}.yaml")
    finally:
        lint._source.read = original  # type: ignore[assignment]
    # the profile's path is text (the spec's is what the test gave)
    assert [os.path.basename(p) for p in reads].count("site.yaml") == 1


def test_an_edited_profile_is_read_again(tmp_path: Path) -> None:
    profile = tmp_path / "site.yaml"
    profile.write_text(PROFILE.format(gpus=8))
    (tmp_path / "s.yaml").write_text(SPEC.format(i=0))

    def gpus() -> int:
        result = lint_file(tmp_path / "s.yaml")
        assert result.context is not None
        return result.context.gpus_per_node

    assert gpus() == 8
    stat = profile.stat()
    profile.write_text(PROFILE.format(gpus=16))
    os.utime(profile, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same time, another size
    assert gpus() == 16
    profile.write_text(PROFILE.format(gpus=32))
    os.utime(profile, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # same size, a later time
    assert gpus() == 32
