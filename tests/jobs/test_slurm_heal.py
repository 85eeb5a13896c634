"""Self-healing jobs on a Slurm test cluster of four nodes (two per job, so that a node can be
left out): a preflight that fails on one node, a node lost in the middle of a job (its slurmd
and its processes killed), a program that raises, a budget spent, and preemption in the same
budget.

Each job is a spec compiled and submitted by `jobc submit`; the program is tests/jobs/
heal_train.py, a training loop without torch that checkpoints and resumes from
JOBC_CHECKPOINT_DIR. The preflight command (check.sh) fails where `fail-rules` says: a line
`RESTART NODEID` fails the node of that index in that attempt, so a test decides which attempt
fails without knowing which nodes Slurm will choose. After each requeue Slurm holds the job
until its BeginTime; the tests release it (`StartTime=now+1`) once it is pending.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.jobs.test_slurm_jobs import jobc
from tests.support.cluster import FINAL_STATES, SlurmCluster
from tests.support.cluster_fixture import started
from tests.support.slurm_jobs import job_log

TRAIN = Path(__file__).with_name("heal_train.py")
NODES, GPUS = 2, 2
# Each attempt may run for the spec's time limit; a wait is bounded by that plus time for Slurm
# to schedule, requeue and end the job, never by a guess of how fast the machine is.
LIMIT_S = 10 * 60 + 180

CHECK = """#!/bin/bash
# The preflight command: fail the node whose index in this attempt fail-rules names.
echo "check_node: $SLURMD_NODENAME (node $SLURM_NODEID, restart $SLURM_RESTART_COUNT)"
rules="$(dirname "$0")/fail-rules"
if [[ -f $rules ]] && grep -qx "$SLURM_RESTART_COUNT $SLURM_NODEID" "$rules"; then
  echo "check_node: $SLURMD_NODENAME is broken" >&2
  exit 3
fi
"""


@pytest.fixture(scope="module")
def heal_cluster() -> Iterator[SlurmCluster]:
    # four nodes, accounting (what a later attempt learns about a lost one), and a controller
    # that calls a silent node dead after 10 s
    cluster = SlurmCluster(
        nodes=4, node_prefix=f"jobc-h{os.getpid()}-", accounting=True, extra_conf="SlurmdTimeout=10\n"
    )
    yield from started(cluster)


def write_spec(root: Path, name: str, *, args: list[str], **resilience: Any) -> Path:
    (root / "logs").mkdir(exist_ok=True)
    check = root / "check.sh"
    check.write_text(CHECK)
    check.chmod(0o755)
    data = {
        "version": 1,
        "name": name,
        "slurm": {"partition": "debug", "time": "00:10:00"},
        "resources": {"nodes": NODES, "gpus_per_node": GPUS},
        "launch": {
            "mode": "srun",
            "python": sys.executable,
            "uv_sync": "none",
            "workdir": str(root),
            "program": str(TRAIN),
            "args": args,
        },
        "storage": {"shared": ["/tmp"], "logs": str(root / "logs"), "checkpoints": str(root / "ckpt")},
        "resilience": {
            "signal": "SIGTERM",
            "grace_s": 60,
            "requeue": True,
            "max_restarts": 3,
            "retry_on": ["preflight", "node_fail", "gpu_error", "nccl_error", "hang"],
            "preflight": {"command": str(check), "timeout_s": 60},
            **resilience,
        },
    }
    path = root / f"{name}.yaml"
    path.write_text(json.dumps(data))
    return path


def fail_in(root: Path, *rules: tuple[int, int]) -> None:
    """Make the preflight fail node NODEID of attempt RESTART, for each (RESTART, NODEID)."""
    (root / "fail-rules").write_text("".join(f"{r} {n}\n" for r, n in rules))


def submit(cluster: SlurmCluster, root: Path, spec: Path) -> int:
    run = jobc(cluster, root, "submit", spec.name)
    assert run.returncode == 0, run.stderr
    return int(run.stdout.split()[-1])


def poll(cluster: SlurmCluster, job: int, root: Path, what: str, ready: Callable[[], bool]) -> None:
    """Wait for `ready`; fail at once, with the log, if the job ends for good first."""
    deadline = time.monotonic() + LIMIT_S
    while not ready():
        state = cluster.state(job)
        if state in FINAL_STATES or time.monotonic() > deadline:
            pytest.fail(
                f"{what}: not reached (job {job} {state or 'unknown'}); log:\n{job_log(root / 'logs')}"
            )
        time.sleep(0.5)


def release_restart(cluster: SlurmCluster, job: int, root: Path, restarts: int) -> dict[str, str]:
    """Wait until the job is pending again after its `restarts`-th requeue, then let it start."""
    record = cluster.wait_for(
        job,
        lambda r: r.get("Restarts") == str(restarts) and r.get("JobState") == "PENDING",
        LIMIT_S,
        f"requeue {restarts} of job",
    )
    cluster.release(job)
    return record


def final(cluster: SlurmCluster, job: int) -> str:
    return cluster.wait(job, LIMIT_S)


def story(cluster: SlurmCluster, root: Path, job: int) -> dict[str, Any]:
    """`jobc status JOBID --format json`, once every attempt of the job has been closed."""
    row: dict[str, Any] = {}

    def closed() -> bool:
        nonlocal row
        run = jobc(cluster, root, "status", str(job), "--format", "json")
        assert run.returncode == 0, run.stderr
        (row,) = json.loads(run.stdout)
        return bool(row["attempts"]) and all(a["decision"] for a in row["attempts"])

    poll_done(closed, f"the attempts of job {job}")
    return row


def poll_done(ready: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + LIMIT_S
    while not ready():
        if time.monotonic() > deadline:
            pytest.fail(f"{what}: not after {LIMIT_S} s")
        time.sleep(0.5)


def seen(root: Path, rank: int) -> list[dict[str, Any]]:
    path = root / "ckpt" / "seen" / f"rank{rank}.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def checkpoints(root: Path) -> list[int]:
    return sorted(int(p.name.split("_")[1]) for p in (root / "ckpt").glob("step_*"))


TRAIN_ARGS = ["--steps", "60", "--checkpoint-every", "5", "--step-sleep", "0.3"]


def test_a_node_failing_its_preflight_is_excluded_and_the_job_resumes_elsewhere(
    heal_cluster: SlurmCluster, tmp_path: Path
) -> None:
    cluster = heal_cluster
    spec = write_spec(tmp_path, "heal-preflight", args=TRAIN_ARGS)
    # the second attempt (restart 1) finds its second node broken
    fail_in(tmp_path, (1, 1))
    job = submit(cluster, tmp_path, spec)
    try:
        # attempt 1 trains, checkpoints, and is preempted (the spec's signal to the batch shell)
        poll(cluster, job, tmp_path, "a checkpoint of step 10", lambda: 10 in checkpoints(tmp_path))
        cluster.run("scancel", "--signal=TERM", "--batch", str(job))
        release_restart(cluster, job, tmp_path, 1)
        # attempt 2: the preflight fails on its second node, which the job excludes itself
        record = release_restart(cluster, job, tmp_path, 2)
        assert final(cluster, job) == "COMPLETED", job_log(tmp_path / "logs")
        row = story(cluster, tmp_path, job)
    finally:
        cluster.cancel(job)
    log = job_log(tmp_path / "logs")
    first, second, third = row["attempts"]
    bad = second["nodes"][1]
    assert record["ExcNodeList"] == bad, record
    assert f"jobc: preflight {bad} failed command: exited with 3" in log, log
    assert f"check_node: {bad} is broken" in log
    assert f"jobc: requeueing job {job}: retried without {bad} (restart 2 of at most 3)" in log, log
    assert (row["state"], row["restarts"]) == ("COMPLETED", 2)

    assert (first["state"], first["class"], first["decision"], first["excluded"]) == (
        "PREEMPTED",
        "preempted",
        "requeue",
        [],
    )
    assert (second["state"], second["class"], second["decision"]) == ("FAILED", "preflight", "retry")
    assert second["excluded"] == [bad]
    assert second["node"] == bad
    assert f"{bad} (command: exited with 3)" in second["cause"]
    assert (third["state"], third["decision"]) == ("COMPLETED", "done")
    assert bad not in third["nodes"]
    assert len(third["nodes"]) == NODES
    assert [a["slurm_state"] for a in row["attempts"]] == ["REQUEUED", "REQUEUED", "COMPLETED"]

    # the program never started on the broken set of nodes, and resumed where it stopped
    starts = [e for e in seen(tmp_path, 0) if e["event"] == "start"]
    assert [s["restart"] for s in starts] == [0, 2], starts
    stop = next(e for e in seen(tmp_path, 0) if e["event"] == "stop")
    assert starts[1]["start_step"] == stop["step"] >= 10
    assert starts[1]["node"] == third["nodes"][0]
    assert seen(tmp_path, 0)[-1] == {"event": "done", "step": 60}
    # one budget: the preemption was restart 1, the retry restart 2, of at most 3
    assert "jobc: attempt 3 of at most 4 on" in log

    # triage reads each attempt on its own part of the log
    report = json.loads(jobc(cluster, tmp_path, "triage", str(job), "--format", "json").stdout)
    assert [a["state"] for a in report["attempts"]] == ["PREEMPTED", "FAILED", "COMPLETED"]
    assert report["attempts"][1]["class"] == "preflight"
    assert report["state"] == "COMPLETED"
    assert not [f for f in report["findings"] if f["cause"]], report["findings"]

    text = jobc(cluster, tmp_path, "status", str(job))
    assert "attempt 2  FAILED" in text.stdout, text.stdout
    assert f"excluded after it: {bad}" in text.stdout, text.stdout


def test_a_node_lost_mid_job_is_left_out_and_the_job_completes(
    heal_cluster: SlurmCluster, tmp_path: Path
) -> None:
    cluster = heal_cluster
    spec = write_spec(tmp_path, "heal-lost", args=TRAIN_ARGS)
    job = submit(cluster, tmp_path, spec)
    victim = ""
    try:
        poll(cluster, job, tmp_path, "a checkpoint of step 10", lambda: 10 in checkpoints(tmp_path))
        # the batch host dies with everything on it: nothing of this attempt can say why it ended
        victim = cluster.job(job)["BatchHost"]
        cluster.kill_node(victim)
        release_restart(cluster, job, tmp_path, 1)
        assert final(cluster, job) == "COMPLETED", job_log(tmp_path / "logs")
        row = story(cluster, tmp_path, job)
    finally:
        cluster.cancel(job)
        if victim:
            cluster.restart_slurmd(victim)
    log = job_log(tmp_path / "logs")
    lost, rerun = row["attempts"]
    assert victim in lost["nodes"]
    assert (lost["state"], lost["class"], lost["decision"], lost["excluded"]) == (
        "NODE_FAIL",
        "node_fail",
        "retry",
        [victim],
    ), lost
    assert lost["slurm_state"] == "NODE_FAIL"
    assert victim not in rerun["nodes"]
    assert rerun["state"] == "COMPLETED"
    assert "ended without its own word: node_fail" in log, log
    starts = [e for e in seen(tmp_path, 0) if e["event"] == "start"]
    assert [s["restart"] for s in starts] == [0, 1]
    # resumed from the last checkpoint the lost attempt wrote
    assert starts[1]["start_step"] >= 10
    assert starts[1]["start_step"] % 5 == 0
    assert seen(tmp_path, 0)[-1] == {"event": "done", "step": 60}


def test_a_program_that_raises_is_not_retried(heal_cluster: SlurmCluster, tmp_path: Path) -> None:
    cluster = heal_cluster
    spec = write_spec(tmp_path, "heal-bug", args=[*TRAIN_ARGS, "--raise-at", "4"])
    job = submit(cluster, tmp_path, spec)
    try:
        assert final(cluster, job) == "FAILED", job_log(tmp_path / "logs")
        row = story(cluster, tmp_path, job)
    finally:
        cluster.cancel(job)
    (only,) = row["attempts"]
    assert (row["state"], row["restarts"]) == ("FAILED", 0)
    assert (only["class"], only["decision"], only["excluded"]) == ("exception", "stop", []), only
    assert "ValueError: bad batch at step 4 on rank 1" in only["cause"]
    assert "not retried: a Python exception is the program's" in only["reason"]
    log = job_log(tmp_path / "logs")
    assert "jobc: not retried: a Python exception" in log, log
    report = json.loads(jobc(cluster, tmp_path, "triage", str(job), "--format", "json").stdout)
    first = report["findings"][0]
    assert (first["class"], first["rank"], first["cause"]) == ("exception", 1, True), report
    assert "ValueError" in first["summary"]


def test_a_budget_of_one_stops_after_the_second_failure(heal_cluster: SlurmCluster, tmp_path: Path) -> None:
    cluster = heal_cluster
    spec = write_spec(tmp_path, "heal-budget", args=TRAIN_ARGS, max_restarts=1)
    fail_in(tmp_path, (0, 1), (1, 1))
    job = submit(cluster, tmp_path, spec)
    try:
        release_restart(cluster, job, tmp_path, 1)
        assert final(cluster, job) == "FAILED", job_log(tmp_path / "logs")
        row = story(cluster, tmp_path, job)
    finally:
        cluster.cancel(job)
    first, second = row["attempts"]
    assert (first["class"], first["decision"], first["excluded"]) == (
        "preflight",
        "retry",
        [first["nodes"][1]],
    )
    assert (second["class"], second["decision"], second["excluded"]) == ("preflight", "stop", [])
    assert "the restart budget is spent" in second["reason"], second
    assert first["nodes"][1] not in second["nodes"]
    assert (row["state"], row["restarts"]) == ("FAILED", 1)
    log = job_log(tmp_path / "logs")
    assert "jobc: not retried: the restart budget is spent" in log, log
    assert not seen(tmp_path, 0), "the program must not start on a set of nodes that failed its preflight"


def test_preemption_requeues_and_counts_in_the_same_budget(
    heal_cluster: SlurmCluster, tmp_path: Path
) -> None:
    cluster = heal_cluster
    spec = write_spec(tmp_path, "heal-preempt", args=TRAIN_ARGS, max_restarts=1)
    fail_in(tmp_path, (1, 0))
    job = submit(cluster, tmp_path, spec)
    try:
        poll(cluster, job, tmp_path, "a checkpoint of step 5", lambda: 5 in checkpoints(tmp_path))
        cluster.run("scancel", "--signal=TERM", "--batch", str(job))
        release_restart(cluster, job, tmp_path, 1)
        assert final(cluster, job) == "FAILED", job_log(tmp_path / "logs")
        row = story(cluster, tmp_path, job)
    finally:
        cluster.cancel(job)
    preempted, failed = row["attempts"]
    assert (preempted["state"], preempted["decision"]) == ("PREEMPTED", "requeue")
    assert (failed["class"], failed["decision"]) == ("preflight", "stop")
    assert "restart 2 would exceed resilience.max_restarts 1" in failed["reason"], failed
    stop = next(e for e in seen(tmp_path, 0) if e["event"] == "stop")
    assert stop["step"] in checkpoints(tmp_path)  # the checkpoint a resume would start from


def test_a_lost_node_that_comes_back_is_left_out_by_the_next_attempt(
    heal_cluster: SlurmCluster, tmp_path: Path
) -> None:
    cluster = heal_cluster
    spec = write_spec(tmp_path, "heal-back", args=TRAIN_ARGS)
    job = submit(cluster, tmp_path, spec)
    victim = ""
    spares: list[str] = []
    try:
        poll(cluster, job, tmp_path, "a checkpoint of step 10", lambda: 10 in checkpoints(tmp_path))
        record = cluster.job(job)
        # not the batch host this time: the batch shell lives on, and srun names the lost node
        allocated = expand(cluster, record["NodeList"])
        victim = next(n for n in allocated if n != record["BatchHost"])
        cluster.kill_node(victim)
        cluster.wait_for(
            job,
            lambda r: r.get("Restarts") == "1" and r.get("JobState") == "PENDING",
            LIMIT_S,
            "requeue of job",
        )
        # the node comes back (ReturnToService=2) and is the only one free besides the survivor
        cluster.restart_slurmd(victim)
        poll_done(lambda: cluster.node_states().get(victim) == "idle", f"{victim} back")
        spares = [n for n in cluster.node_names if n not in allocated]
        cluster.run("scontrol", "update", f"NodeName={','.join(spares)}", "State=DRAIN", "Reason=jobc-test")
        cluster.release(job)
        # the attempt Slurm gave the node to leaves it at once, excluding it this time
        again = release_restart(cluster, job, tmp_path, 2)
        cluster.run("scontrol", "update", f"NodeName={','.join(spares)}", "State=RESUME")
        assert again["ExcNodeList"] == victim, again
        assert final(cluster, job) == "COMPLETED", job_log(tmp_path / "logs")
        row = story(cluster, tmp_path, job)
    finally:
        cluster.cancel(job)
        if spares:
            cluster.run("scontrol", "update", f"NodeName={','.join(spares)}", "State=RESUME", check=False)
        if victim:
            cluster.restart_slurmd(victim)
    log = job_log(tmp_path / "logs")
    lost, guarded, done = row["attempts"]
    assert (lost["class"], lost["excluded"]) == ("node_fail", [victim]), lost
    assert f"the log names {victim}" in lost["cause"]
    assert victim in guarded["nodes"]
    assert guarded["decision"] == "retry"
    assert f"the allocation holds {victim}" in guarded["cause"]
    assert victim not in done["nodes"]
    assert done["state"] == "COMPLETED"
    assert f"srun: error: Node failure on {victim}" in log
    # the program never ran on the allocation that held the node
    assert [s["restart"] for s in seen(tmp_path, 0) if s["event"] == "start"] == [0, 2]


def expand(cluster: SlurmCluster, node_list: str) -> list[str]:
    return cluster.run("scontrol", "show", "hostnames", node_list).stdout.split()


def test_no_retry_that_would_leave_the_partition_too_small(
    heal_cluster: SlurmCluster, tmp_path: Path
) -> None:
    cluster = heal_cluster
    spec = write_spec(tmp_path, "heal-room", args=TRAIN_ARGS)
    fail_in(tmp_path, (0, 1))
    spares = list(cluster.node_names[2:])
    # two of the four nodes are drained: without a failed node only one would be left for two
    cluster.run("scontrol", "update", f"NodeName={','.join(spares)}", "State=DRAIN", "Reason=jobc-test")
    try:
        job = submit(cluster, tmp_path, spec)
        try:
            assert final(cluster, job) == "FAILED", job_log(tmp_path / "logs")
            row = story(cluster, tmp_path, job)
        finally:
            cluster.cancel(job)
    finally:
        cluster.run("scontrol", "update", f"NodeName={','.join(spares)}", "State=RESUME", check=False)
    (only,) = row["attempts"]
    assert (only["class"], only["decision"], only["excluded"]) == ("preflight", "stop", [])
    assert "usable node, fewer than the job's 2: the retry would never start" in only["reason"], only
    assert row["restarts"] == 0
