"""Submitting compiled scripts to the test cluster and reading what the jobs leave behind.

The `jobs` fixture (tests/support/cluster_fixture.py) collects the ids a test submits, so that whatever still
runs at the end of the test is cancelled.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from tests.support.cluster import SlurmCluster


def submit(cluster: SlurmCluster, jobs: list[int], script: str, cwd: Path, *options: str) -> int:
    """Write `script` into `cwd`, submit it from there with `options`, record and return the id."""
    path = cwd / f"job{len(jobs)}.sh"
    path.write_text(script, encoding="utf-8")
    jobs.append(cluster.sbatch(path, *options, cwd=cwd))
    return jobs[-1]


def job_log(logs: Path) -> str:
    """Every job log (`storage.logs/%x-%j.out`) in `logs`, concatenated."""
    return "\n".join(p.read_text(errors="replace") for p in sorted(logs.glob("*.out")))


def wait_for_files(directory: Path, pattern: str, count: int, timeout: float, logs: Path) -> None:
    """Poll until `count` files match `pattern` in `directory`; fail with the job logs."""
    deadline = time.monotonic() + timeout
    while len(list(directory.glob(pattern))) < count:
        if time.monotonic() > deadline:
            pytest.fail(f"{count} × {pattern} did not appear in {timeout:.0f}s; log:\n{job_log(logs)}")
        time.sleep(0.1)
