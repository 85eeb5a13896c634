"""`jobc status` over a ledger of many jobs asks Slurm once per command, not once per job.

Slurm's commands are stand-ins on PATH (small shell scripts that log how they were called and
print what squeue, sacct and scontrol print), so the count is of real processes started by
jobc; nothing of jobc is replaced.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jobc.jobs import ledger

JOBS = 1000


def fake_slurm(bin_dir: Path, *, sacct: str | None, scontrol: str = "", squeue: str = "") -> Path:
    """squeue, sacct and scontrol that print the given text; each call appends its argv to the log."""
    bin_dir.mkdir()
    log = bin_dir / "calls.log"
    outputs = {"squeue": squeue, "scontrol": scontrol}
    if sacct is not None:
        outputs["sacct"] = sacct
    for name, text in outputs.items():
        (bin_dir / f"{name}.out").write_text(text)
        script = bin_dir / name
        script.write_text(f'#!/bin/sh\necho "{name} $*" >> "{log}"\ncat "{bin_dir / name}.out"\n')
        script.chmod(0o755)
    if sacct is None:  # a cluster without accounting
        script = bin_dir / "sacct"
        disabled = "Slurm accounting storage is disabled"
        script.write_text(f'#!/bin/sh\necho "sacct $*" >> "{log}"\necho "{disabled}" >&2\nexit 1\n')
        script.chmod(0o755)
    return log


def write_ledger(directory: Path, ids: list[str]) -> None:
    for job_id in ids:
        ledger.write(
            directory,
            ledger.Entry(
                job_id=job_id,
                spec="spec.yaml",
                spec_sha256="0" * 64,
                script="#!/bin/bash\n",
                submitted="2026-01-01T00:00:00Z",
                name="t",
            ),
        )


def sacct_rows(ids: list[str]) -> str:
    # sacct -n -P -o JobID,JobName,State,ExitCode,Elapsed,NNodes,NodeList,Partition,Start,End
    lines = []
    for job_id in ids:
        end = "2026-01-01T00:01:00"
        lines.append(f"{job_id}|t|COMPLETED|0:0|00:01:00|2|n[0-1]|debug|2026-01-01T00:00:00|{end}")
        lines.append(f"{job_id}.batch|batch|COMPLETED|0:0|00:01:00|1|n0|||")
        lines.append(f"{job_id}.0|python|COMPLETED|0:0|00:00:59|2|n[0-1]|||")
    return "\n".join(lines) + "\n"


def status(cwd: Path, bin_dir: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    return subprocess.run(
        [sys.executable, "-m", "jobc", "status", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=600,
        check=False,
    )


def calls(log: Path) -> list[str]:
    return [line.split()[0] for line in log.read_text().splitlines()] if log.exists() else []


def test_a_thousand_jobs_cost_one_squeue_and_one_sacct(tmp_path: Path) -> None:
    ids = [str(1000 + i) for i in range(JOBS)]
    write_ledger(tmp_path / ".jobc", ids)
    log = fake_slurm(tmp_path / "bin", sacct=sacct_rows(ids))
    run = status(tmp_path, tmp_path / "bin", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert sorted(calls(log)) == ["sacct", "squeue"]
    rows = json.loads(run.stdout)
    assert [r["job_id"] for r in rows] == ids
    assert {(r["state"], r["exit_code"], r["elapsed"], r["source"]) for r in rows} == {
        ("COMPLETED", "0:0", "00:01:00", "sacct")
    }
    assert [s["step_id"] for s in rows[0]["steps"]] == ["1000.batch", "1000.0"]
    # every job is named once in each call, however many there are
    sacct_call = next(line for line in log.read_text().splitlines() if line.startswith("sacct"))
    assert sacct_call.split(" -j ", 1)[1].split()[0] == ",".join(ids)


def test_without_accounting_one_scontrol_replaces_sacct(tmp_path: Path) -> None:
    ids = [str(i) for i in range(1, 51)]
    write_ledger(tmp_path / ".jobc", ids)
    records = "".join(
        f"JobId={i} JobName=t JobState=COMPLETED Reason=None Restarts=0 RunTime=00:00:05 ExitCode=0:0 "
        f"NumNodes=1 NodeList=n0 StdOut=/tmp/t-{i}.out\n"
        for i in ids
    )
    log = fake_slurm(tmp_path / "bin", sacct=None, scontrol=records)
    run = status(tmp_path, tmp_path / "bin", "--format", "json")
    assert run.returncode == 0, run.stderr
    assert sorted(calls(log)) == ["sacct", "scontrol", "squeue"]
    rows = json.loads(run.stdout)
    assert [(r["job_id"], r["state"], r["source"]) for r in rows] == [
        (i, "COMPLETED", "scontrol") for i in ids
    ]


@pytest.mark.parametrize("queued", [True, False])
def test_the_queue_has_the_last_word_and_a_finished_job_sacct_lags_on_is_asked_of_scontrol(
    tmp_path: Path, queued: bool
) -> None:
    write_ledger(tmp_path / ".jobc", ["7"])
    running = "7|t|RUNNING|0:0|00:00:10|1|n0|debug|2026-01-01T00:00:00|Unknown\n"
    log = fake_slurm(
        tmp_path / "bin",
        sacct=running,
        squeue="7|PENDING|BeginTime\n" if queued else "",
        scontrol="JobId=7 JobName=t JobState=COMPLETED Restarts=0 RunTime=00:00:11 ExitCode=0:0 NumNodes=1\n",
    )
    run = status(tmp_path, tmp_path / "bin", "--format", "json")
    (row,) = json.loads(run.stdout)
    if queued:
        assert (row["state"], row["reason"]) == ("PENDING", "BeginTime")
        assert sorted(calls(log)) == ["sacct", "squeue"]
    else:
        assert (row["state"], row["elapsed"]) == ("COMPLETED", "00:00:11")
        assert sorted(calls(log)) == ["sacct", "scontrol", "squeue"]


def test_unknown_jobs_are_named_and_the_rest_still_shown(tmp_path: Path) -> None:
    write_ledger(tmp_path / ".jobc", ["5", "6"])
    log = fake_slurm(tmp_path / "bin", sacct=sacct_rows(["5"]))
    run = status(tmp_path, tmp_path / "bin")
    assert run.returncode == 2
    assert "job 6: Slurm does not know it" in run.stderr
    assert run.stdout.splitlines()[1].split()[:3] == ["5", "t", "COMPLETED"]
    assert sorted(calls(log)) == ["sacct", "scontrol", "squeue"]


def test_a_cancelled_job_keeps_no_stale_reason_and_nodes_read_as_a_count(tmp_path: Path) -> None:
    write_ledger(tmp_path / ".jobc", ["8", "9"])
    records = (
        # cancelled while it waited for its dependency: scontrol keeps the reason it waited for
        "JobId=8 JobName=t JobState=CANCELLED Reason=Dependency Restarts=0 RunTime=00:00:00 "
        "ExitCode=0:0 NumNodes=2-2 NodeList=(null)\n"
        "JobId=9 JobName=t JobState=PENDING Reason=Priority Restarts=0 RunTime=00:00:00 "
        "ExitCode=0:0 NumNodes=2-4 NodeList=(null)\n"
    )
    fake_slurm(tmp_path / "bin", sacct=None, squeue="9|PENDING|Priority\n", scontrol=records)
    run = status(tmp_path, tmp_path / "bin", "--format", "json")
    assert run.returncode == 0, run.stderr
    rows = {r["job_id"]: r for r in json.loads(run.stdout)}
    assert (rows["8"]["state"], rows["8"]["reason"], rows["8"]["nodes"]) == ("CANCELLED", None, "2")
    assert (rows["9"]["state"], rows["9"]["reason"], rows["9"]["nodes"]) == ("PENDING", "Priority", "2-4")
    text = status(tmp_path, tmp_path / "bin")
    assert "2-2" not in text.stdout
    assert "Dependency" not in text.stdout
