"""`jobc status` and `jobc triage` read Slurm's accounting (sacct, slurmdbd over MariaDB) of real
jobs: finished jobs with their steps, restarts after a requeue, a time limit, a node lost in the
middle of a job (its slurmd killed) and a step killed for its memory (OUT_OF_MEMORY).

The node failure and the memory limit run on a cluster of their own (`failing_cluster`): its
slurmctld declares a node dead after 10 s without an answer, and its steps are held to their
memory by cgroups; neither belongs in the cluster every other test shares.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.jobs.test_slurm_jobs import jobc, spec, submit, triage
from tests.support.cluster import FINAL_STATES, SlurmCluster
from tests.support.cluster_fixture import started
from tests.support.slurm_jobs import job_log


def require_accounting(cluster: SlurmCluster) -> None:
    if not cluster.accounting:
        reason = "the test cluster runs without accounting (apt-get install mariadb-server slurmdbd)"
        if os.environ.get("JOBC_REQUIRE_SLURM") == "1":
            pytest.fail(f"JOBC_REQUIRE_SLURM=1 but {reason}", pytrace=False)
        pytest.skip(reason)


def status(cluster: SlurmCluster, cwd: Path, job: str) -> dict[str, Any]:
    run = jobc(cluster, cwd, "status", job, "--format", "json")
    assert run.returncode == 0, run.stderr
    rows: list[dict[str, Any]] = json.loads(run.stdout)
    assert len(rows) == 1, rows
    return rows[0]


def poll(what: str, ready: Callable[[], bool], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not ready():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not after {timeout:.0f} s")
        time.sleep(0.5)


def settled(cluster: SlurmCluster, cwd: Path, job: str) -> dict[str, Any]:
    """The job's status once accounting has recorded its end and its steps' (slurmdbd hears of
    them a moment after the controller)."""
    row: dict[str, Any] = {}

    def done() -> bool:
        nonlocal row
        row = status(cluster, cwd, job)
        return (
            row["source"] == "sacct"
            and row["state"] in FINAL_STATES
            and all(s["state"] not in ("RUNNING", "PENDING") for s in row["steps"])
        )

    poll(f"accounting's record of the end of job {job}", done)
    return row


def test_finished_jobs_state_exit_code_elapsed_and_steps(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    require_accounting(slurm_cluster)
    ok = submit(slurm_cluster, jobs, tmp_path, str(spec(tmp_path, "acct-ok", "srun", "ok")))
    killed = submit(slurm_cluster, jobs, tmp_path, str(spec(tmp_path, "acct-kill", "srun", "kill")))
    assert slurm_cluster.wait(int(ok), 120) == "COMPLETED"
    assert slurm_cluster.wait(int(killed), 120) == "FAILED"

    row = settled(slurm_cluster, tmp_path, ok)
    assert row["state"] == "COMPLETED"
    assert (row["exit_code"], row["restarts"], row["nodes"]) == ("0:0", 0, "2")
    assert row["elapsed"]
    assert row["elapsed"].count(":") == 2
    steps = {s["step_id"]: s for s in row["steps"]}
    assert steps[f"{ok}.batch"]["state"] == "COMPLETED"
    numbered = [s for sid, s in steps.items() if sid.split(".", 1)[1].isdigit()]
    assert numbered, steps
    assert {s["state"] for s in numbered} == {"COMPLETED"}
    assert all(s["exit_code"] == "0:0" and s["elapsed"] for s in numbered)

    row = settled(slurm_cluster, tmp_path, killed)
    assert row["state"] == "FAILED"
    assert row["exit_code"] != "0:0"
    main_step = [s for s in row["steps"] if s["step_id"].split(".", 1)[1].isdigit()][-1]
    assert main_step["state"] in ("FAILED", "CANCELLED"), row["steps"]
    assert main_step["exit_code"] != "0:0"

    # the text table lists the steps of the jobs asked for by id
    text = jobc(slurm_cluster, tmp_path, "status", ok)
    assert text.returncode == 0, text.stderr
    assert any(line.split()[0] == f"{ok}.batch" for line in text.stdout.splitlines()[1:])


def test_restarts_after_a_requeue(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    require_accounting(slurm_cluster)
    started_file = tmp_path / "runs"
    script = tmp_path / "requeue.sh"
    script.write_text(f"#!/bin/bash\necho run >> {started_file}\nsleep 20\n")
    job = slurm_cluster.sbatch(script, "--nodes=1", "--requeue", "--time=5", cwd=tmp_path)
    jobs.append(job)
    while not started_file.exists():
        time.sleep(0.2)
    slurm_cluster.run("scontrol", "requeue", str(job))
    slurm_cluster.wait_for(
        job, lambda r: r.get("Restarts") == "1" and r.get("JobState") == "PENDING", 60, "requeue"
    )
    slurm_cluster.release(job)
    assert slurm_cluster.wait(job, 120) == "COMPLETED"
    row = settled(slurm_cluster, tmp_path, str(job))
    assert (row["state"], row["restarts"]) == ("COMPLETED", 1)
    assert started_file.read_text().count("run") == 2


def test_time_limit(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    require_accounting(slurm_cluster)
    path = spec(
        tmp_path,
        "acct-late",
        "srun",
        "sleep",
        slurm={"time": "00:01:00"},
        resources={"nodes": 1, "gpus_per_node": 1},
    )
    job = submit(slurm_cluster, jobs, tmp_path, str(path))
    assert slurm_cluster.wait(int(job), 300) == "TIMEOUT"
    row = settled(slurm_cluster, tmp_path, job)
    assert row["state"] == "TIMEOUT"
    assert row["elapsed"] >= "00:01:00"
    assert triage(slurm_cluster, tmp_path, job)["findings"][0]["class"] == "time_limit"


@pytest.fixture(scope="module")
def failing_cluster() -> Iterator[SlurmCluster]:
    # node names unique on this host: slurmd names its cgroups after the node
    cluster = SlurmCluster(
        nodes=2,
        node_prefix=f"jobc-f{os.getpid()}-",
        accounting=True,
        cgroups=True,
        extra_conf="SlurmdTimeout=10\n",
    )
    yield from started(cluster)


def test_a_node_lost_mid_job(failing_cluster: SlurmCluster, tmp_path: Path) -> None:
    path = spec(tmp_path, "lost", "srun", "sleep", resilience={"requeue": False})
    job = submit(failing_cluster, [], tmp_path, str(path))
    try:
        failing_cluster.wait_for(int(job), lambda r: r.get("JobState") == "RUNNING", 120, "job to run")
        poll("the ranks to start", lambda: "scenario sleep" in job_log(tmp_path / "logs"))
        victim = failing_cluster.node_names[1]
        failing_cluster.kill_slurmd(victim)
        assert failing_cluster.wait(int(job), 300) == "NODE_FAIL"
        row = settled(failing_cluster, tmp_path, job)
        assert row["state"] == "NODE_FAIL"
        assert row["node_list"] == f"{failing_cluster.node_names[0][:-1]}[0-1]"
        assert victim in (row["reason"] or ""), row
        report = triage(failing_cluster, tmp_path, job)
        first = report["findings"][0]
        assert (first["class"], first["cause"], first["node"]) == ("node_fail", True, victim), report
        assert report["state"] == "NODE_FAIL"
    finally:
        failing_cluster.cancel(int(job))
        failing_cluster.restart_slurmd(failing_cluster.node_names[1])


def test_a_step_over_its_memory_is_out_of_memory(failing_cluster: SlurmCluster, tmp_path: Path) -> None:
    path = spec(
        tmp_path,
        "hog",
        "srun",
        "oom",
        resources={"nodes": 1, "gpus_per_node": 1, "mem": "300M"},
    )
    job = submit(failing_cluster, [], tmp_path, str(path))
    try:
        assert failing_cluster.wait(int(job), 300) in ("FAILED", "OUT_OF_MEMORY")
        row = settled(failing_cluster, tmp_path, job)
        # the step the program ran in was killed in its memory cgroup; the batch shell saw srun fail
        assert "OUT_OF_MEMORY" in [s["state"] for s in row["steps"]], row
        report = triage(failing_cluster, tmp_path, job)
        first = report["findings"][0]
        assert first["cause"], report
        assert "memory" in first["summary"], (report, job_log(tmp_path / "logs"))
        assert first["rank"] == 0, report
    finally:
        failing_cluster.cancel(int(job))
