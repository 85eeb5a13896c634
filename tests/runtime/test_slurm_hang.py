"""Hangs on the Slurm test cluster: each job ends by itself through the hang watchdog, and triage
names the rank that parted, the collective, its sequence number and the rank's line.

Two nodes × two (fake) GPUs, CPU torch and gloo, scripts compiled by `jobc compile` with
`monitoring.hang_s` short and the collective timeout long, so that the watchdog, not gloo's
timeout, ends the job. The program is tests/runtime/hang_train.py: at step 3 rank 1 spins in a
Python loop, calls broadcast where the others all-reduce, skips an all-reduce, or all-reduces a
tensor of another size. In `skip` and `size` gloo aborts one or two ranks (its size check), which
leave no dump; triage names them from the stacks faulthandler printed into the log.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from jobc.cli import main
from tests.compile.support import compile_data
from tests.runtime.test_slurm_e2e import GPUS, NODES, prepare, time_limit_s
from tests.support.cluster import SlurmCluster
from tests.support.slurm_jobs import job_log, submit

if importlib.util.find_spec("torch") is None:
    pytest.skip(
        "torch is not importable (install jobc[runtime]); the runtime needs it", allow_module_level=True
    )

pytestmark = pytest.mark.runtime

HANG_TRAIN = Path(__file__).parent / "hang_train.py"
HANG_EXIT_CODE = 86
HANG_S = 8
# The sequence number of step 3's all-reduce in the default group: init's barrier-free mesh set-up
# records nothing there; each step is one all-reduce and one stop flag.
STEP = 3


def marker_line(kind: str) -> int:
    for number, line in enumerate(HANG_TRAIN.read_text().splitlines(), 1):
        if f"# HANG:{kind}" in line:
            return number
    raise AssertionError(kind)


def hang_spec(root: Path, mode: str, kind: str) -> dict[str, Any]:
    return {
        "version": 1,
        "name": f"hang-{kind}-{mode}",
        "slurm": {"partition": "debug", "time": "00:10:00"},
        "resources": {"nodes": NODES, "gpus_per_node": GPUS},
        "launch": {
            "mode": mode,
            "python": sys.executable,
            "uv_sync": "none",
            "workdir": str(root),
            "program": str(HANG_TRAIN),
            "args": ["--hang", kind, "--rank", "1", "--at-step", str(STEP), "--steps", "40"],
        },
        "storage": {"shared": ["/tmp"], "logs": str(root / "logs")},
        "fabric": {"nccl_timeout_s": 600},
        "monitoring": {"hang_s": HANG_S},
    }


def run_job(
    cluster: SlurmCluster, jobs: list[int], root: Path, mode: str, kind: str
) -> tuple[int, str, Path]:
    logs, _ = prepare(root)
    spec = hang_spec(root, mode, kind)
    job = submit(cluster, jobs, compile_data(spec), root)
    state = cluster.wait(job, time_limit_s(spec) + 120)
    record = cluster.job(job)
    assert state == "FAILED", (state, record, job_log(logs))
    return job, record.get("ExitCode", ""), logs


def triage(log: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    capsys.readouterr()
    assert main(["triage", str(log), "--format", "json"]) == 0
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


CASES = [
    ("srun", "loop", "never entered gloo:all_reduce"),
    ("srun", "collective", "rank 1 calls gloo:broadcast"),
    ("srun", "skip", None),
    ("srun", "size", None),
    ("torchrun", "loop", "never entered gloo:all_reduce"),
    ("torchrun", "collective", "rank 1 calls gloo:broadcast"),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{mode}-{kind}" for mode, kind, _ in CASES])
def test_a_hang_ends_the_job_and_triage_names_rank_collective_and_line(
    slurm_cluster: SlurmCluster,
    jobs: list[int],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    case: tuple[str, str, str | None],
) -> None:
    mode, kind, says = case
    _, exit_code, logs = run_job(slurm_cluster, jobs, tmp_path, mode, kind)
    (log,) = sorted(logs.glob("*.out"))
    text = log.read_text(errors="replace")
    flight = log.with_name(log.stem + ".flight")
    dumps = sorted(p.name for p in flight.glob("*.json"))
    # Every rank that did not die wrote its recorder and stacks; the watchdog said so.
    assert "hang: " in text, text
    assert f"exiting with {HANG_EXIT_CODE}" in text, text
    assert dumps, text
    if kind in ("loop", "collective"):
        # Every rank ended through the watchdog (under torchrun the agent keeps the code).
        assert exit_code == f"{HANG_EXIT_CODE}:0", (exit_code, text)
        assert len(dumps) == 2 * NODES * GPUS, dumps
    else:
        # gloo aborted a rank on the size mismatch (SIGABRT, 128 + 6, is the step's highest code);
        # the ranks it left waiting ended through the watchdog, as srun reports for each.
        assert exit_code == "134:0", (exit_code, text)
        # srun groups the tasks of one node that ended alike: `tasks 2-3: Exited with …`
        assert re.search(rf"tasks? [0-9,-]+: Exited with exit code {HANG_EXIT_CODE}", text), text
    data = triage(log, capsys)
    first = data["findings"][0]
    assert first["kind"] == "hang", data
    assert first["cause"] is True
    assert first["rank"] == 1, data
    summary = first["summary"]
    assert "gloo:all_reduce" in summary, summary
    assert re.search(r"#\d+ of process group 0 \(default_pg\)", summary), summary
    if says is not None:
        assert says in summary, summary
    assert f"hang_train.py:{marker_line(kind)}" in summary, summary


def test_a_job_that_does_not_hang_writes_no_dump(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    logs, _ = prepare(tmp_path)
    spec = hang_spec(tmp_path, "srun", "none")
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)
    assert slurm_cluster.wait(job, time_limit_s(spec) + 120) == "COMPLETED", job_log(logs)
    (log,) = sorted(logs.glob("*.out"))
    flight = log.with_name(log.stem + ".flight")
    assert flight.is_dir()  # made by the batch shell for torch's own dump on a timeout
    assert list(flight.iterdir()) == []
    assert "hang: " not in log.read_text()
