"""`jobc submit`, `status`, `logs`, `cancel` and `triage` on the Slurm test cluster.

Each job runs tests/jobs/scenario.py, which fails in one chosen way; triage has to name it. The
cluster has no accounting (no slurmdbd), so status and triage read `scontrol show job`, as they
must wherever sacct is not configured.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from jobc.jobs import ledger
from tests.support.cluster import SlurmCluster

SCENARIO = Path(__file__).with_name("scenario.py")
NODES, GPUS = 2, 2
# Waits for a job are bounded by what the job may run (the spec's time limit below), plus time for
# Slurm to schedule it and end it, not by a guess of how fast the machine is.
LIMIT_S = 5 * 60 + 180


def spec(tmp_path: Path, name: str, mode: str, *args: str, **sections: Any) -> Path:
    data: dict[str, Any] = {
        "version": 1,
        "name": name,
        "slurm": {"partition": "debug", "time": "00:05:00"},
        "resources": {"nodes": NODES, "gpus_per_node": GPUS},
        "launch": {
            "mode": mode,
            "python": sys.executable,
            "uv_sync": "none",
            "workdir": str(tmp_path),
            "program": str(SCENARIO),
            "args": list(args),
            # no master_port: the script derives it from the job id, and each test cluster on
            # this host hands out ids of its own block, so no two jobs derive the same port
        },
        "storage": {"shared": ["/tmp"], "logs": str(tmp_path / "logs")},
    }
    for key, value in sections.items():
        data[key] = {**data.get(key, {}), **value}
    path = tmp_path / f"{name}.yaml"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def jobc(cluster: SlurmCluster, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "jobc", *argv],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=cluster.daemon_env(),
        timeout=300,
        check=False,
    )


def submit(cluster: SlurmCluster, jobs: list[int], cwd: Path, *argv: str) -> str:
    run = jobc(cluster, cwd, "submit", *argv)
    assert run.returncode == 0, run.stderr
    ids = run.stdout.split()
    jobs.extend(int(i) for i in ids)
    assert f"jobc triage {ids[-1]}" in run.stderr
    return ids[-1]


def triage(cluster: SlurmCluster, cwd: Path, job: str) -> dict[str, Any]:
    run = jobc(cluster, cwd, "triage", job, "--format", "json")
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data


def test_submit_two_at_once_status_logs_and_a_clean_triage(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    path = spec(tmp_path, "ok", "srun", "ok")
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    subprocess.run(["git", "-C", str(tmp_path), "add", path.name], check=True)
    subprocess.run(
        ["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "spec"],
        check=True,
    )
    commit = subprocess.run(
        ["git", "-C", str(tmp_path), "rev-parse", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert not (tmp_path / "logs").exists()  # submit creates it

    with concurrent.futures.ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda _: jobc(slurm_cluster, tmp_path, "submit", path.name), range(2)))
    assert [r.returncode for r in runs] == [0, 0], [r.stderr for r in runs]
    ids = sorted((r.stdout.strip() for r in runs), key=int)
    jobs.extend(map(int, ids))
    assert len(set(ids)) == 2

    compiled = jobc(slurm_cluster, tmp_path, "compile", path.name).stdout
    entries = list(ledger.entries(tmp_path / ".jobc"))
    assert [e.job_id for e in entries if isinstance(e, ledger.Entry)] == ids
    for entry in entries:
        assert isinstance(entry, ledger.Entry)
        assert entry.script == compiled
        assert entry.spec == str(path)
        assert entry.partition == "debug"
        assert entry.git_commit == commit
        assert not entry.git_dirty
        assert entry.log == str(tmp_path / "logs" / "ok-%j.out")

    # -f returns once the job has ended, with everything it wrote
    follow = jobc(slurm_cluster, tmp_path, "logs", ids[0], "-f")
    assert follow.returncode == 0, follow.stderr
    for rank in range(NODES * GPUS):
        assert f"{rank}: scenario ok: rank {rank} of 4 starts" in follow.stdout
    assert "jobc: step end " in follow.stdout
    assert "jobc: step start " in follow.stdout
    for job in ids:
        assert slurm_cluster.wait(int(job), LIMIT_S) == "COMPLETED"

    status = jobc(slurm_cluster, tmp_path, "status", "--format", "json")
    assert status.returncode == 0, status.stderr
    rows = json.loads(status.stdout)
    assert [r["job_id"] for r in rows] == ids
    assert {r["state"] for r in rows} == {"COMPLETED"}
    assert {r["exit_code"] for r in rows} == {"0:0"}
    assert {r["restarts"] for r in rows} == {0}
    assert {r["nodes"] for r in rows} == {"2"}
    text = jobc(slurm_cluster, tmp_path, "status", ids[0])
    assert text.stdout.splitlines()[0].split()[:3] == ["JOBID", "NAME", "STATE"]

    one = jobc(slurm_cluster, tmp_path, "logs", ids[1], "--rank", "2")
    assert one.returncode == 0, one.stderr
    assert one.stdout.splitlines()
    assert all(line.startswith("2: ") for line in one.stdout.splitlines())
    # a rank the job does not have is refused; a filter that keeps nothing says so
    beyond = jobc(slurm_cluster, tmp_path, "logs", ids[1], "--rank", "7")
    assert beyond.returncode == 2
    assert f"--rank 7: job {ids[1]} has 4 ranks (0-3)" in beyond.stderr

    clean = triage(slurm_cluster, tmp_path, ids[0])
    assert clean["state"] == "COMPLETED"
    assert not [f for f in clean["findings"] if f["cause"]]


@pytest.mark.parametrize("mode", ["srun", "torchrun"])
def test_triage_names_the_rank_that_raised(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, mode: str
) -> None:
    job = submit(slurm_cluster, jobs, tmp_path, str(spec(tmp_path, f"raise-{mode}", mode, "raise")))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "FAILED"
    report = triage(slurm_cluster, tmp_path, job)
    first = report["findings"][0]
    assert first["cause"], report
    assert first["class"] == "exception", report
    assert first["action"] == "fix_program"
    assert first["rank"] == 3
    # where rank 3 ran, as it said itself: under c10d rendezvous torchrun's node ranks follow
    # arrival order, so rank 3 may run on either node
    assert first["node"] == _node_of_rank(report, 3), report
    assert "ValueError: bad sample in batch 2 on rank 3" in first["summary"]
    assert "load_batch" in first["summary"]
    assert [f["class"] for f in report["findings"] if f["cause"]] == ["exception"], report
    assert any(f["class"] == "collective_timeout" and not f["cause"] for f in report["findings"])
    one = jobc(slurm_cluster, tmp_path, "logs", job, "--rank", "3")
    assert "ValueError: bad sample" in one.stdout
    assert "rank 0 of 4" not in one.stdout


def _node_of_rank(report: dict[str, Any], rank: int) -> str:
    """The node a rank of scenario.py said it started on."""
    text = Path(report["logs"][0]).read_text(encoding="utf-8", errors="replace")
    m = re.search(rf"scenario \w+: rank {rank} of \d+ starts on (\S+)", text)
    assert m is not None, text
    return m.group(1)


def test_triage_sigkill_of_one_rank(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    job = submit(slurm_cluster, jobs, tmp_path, str(spec(tmp_path, "kill", "srun", "kill")))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "FAILED"
    report = triage(slurm_cluster, tmp_path, job)
    first = report["findings"][0]
    assert first["class"] == "signal"
    assert first["signal"] == "SIGKILL"
    assert first["cause"]
    assert first["rank"] == 1
    assert first["node"] == _node_of_rank(report, 1)


def test_triage_rendezvous_on_a_wrong_port(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    job = submit(slurm_cluster, jobs, tmp_path, str(spec(tmp_path, "rdzv", "srun", "wrongport")))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "FAILED"
    report = triage(slurm_cluster, tmp_path, job)
    first = report["findings"][0]
    master_host, master_port = report["master"].split(":")
    assert first["class"] == "rendezvous"
    assert first["cause"]
    assert f"{master_host}:{int(master_port) + 1}" in first["summary"]


def test_time_limit(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    path = spec(
        tmp_path,
        "late",
        "srun",
        "sleep",
        slurm={"time": "00:01:00"},
        resources={"nodes": 1, "gpus_per_node": 1},
    )
    job = submit(slurm_cluster, jobs, tmp_path, str(path))
    assert slurm_cluster.wait(int(job), 60 + 180) == "TIMEOUT"
    first = triage(slurm_cluster, tmp_path, job)["findings"][0]
    assert first["class"] == "time_limit"
    assert first["action"] == "raise_limit"
    assert "time limit" in first["summary"]
    # Slurm's own SIGTERM at the limit may reach the batch shell's trap, or only the tasks, before
    # the kill, or nothing at all: each is said, none is silent
    summary = first["summary"]
    assert "no checkpoint followed" in summary or "no signal reached the batch shell" in summary, summary


def test_checkpoint_cancel_requeues_and_status_and_triage_show_the_chain(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    path = spec(
        tmp_path,
        "preempt",
        "srun",
        "preempt",
        str(out),
        resilience={"signal": "SIGUSR1", "grace_s": 30, "requeue": True, "max_restarts": 2},
    )
    job = submit(slurm_cluster, jobs, tmp_path, str(path))
    deadline = time.monotonic() + LIMIT_S
    while len(list(out.glob("ready-*"))) < NODES * GPUS:
        if time.monotonic() > deadline:
            pytest.fail("the ranks did not start")
        time.sleep(0.2)
    cancel = jobc(slurm_cluster, tmp_path, "cancel", job, "--checkpoint")
    assert cancel.returncode == 0, cancel.stderr
    assert "SIGUSR1" in cancel.stderr
    slurm_cluster.wait_for(
        int(job), lambda r: r.get("Restarts") == "1" and r.get("JobState") == "PENDING", LIMIT_S, "requeue"
    )
    slurm_cluster.release(int(job))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "COMPLETED"
    rows = json.loads(jobc(slurm_cluster, tmp_path, "status", job, "--format", "json").stdout)
    assert rows[0]["restarts"] == 1
    assert rows[0]["state"] == "COMPLETED"
    report = triage(slurm_cluster, tmp_path, job)
    kinds = [f["kind"] for f in report["findings"]]
    assert report["findings"][0]["class"] == "signal"
    assert "SIGUSR1" in report["findings"][0]["summary"]
    assert "checkpointed" in report["findings"][0]["summary"]
    assert "requeue-chain" in kinds
    assert report["restarts"] == 1


def test_unknown_job_and_broken_ledger_entry(slurm_cluster: SlurmCluster, tmp_path: Path) -> None:
    for argv in (["status", "999999"], ["logs", "999999"], ["triage", "999999"], ["cancel", "999999"]):
        run = jobc(slurm_cluster, tmp_path, *argv)
        assert run.returncode == 2, (argv, run.stdout, run.stderr)
        assert len(run.stderr.strip().splitlines()) == 1, run.stderr
        assert "Traceback" not in run.stderr
    (tmp_path / ".jobc").mkdir()
    (tmp_path / ".jobc" / "12.json").write_text('{"job_id": "12"}', encoding="utf-8")
    run = jobc(slurm_cluster, tmp_path, "status")
    assert run.returncode == 2
    assert "not a ledger entry" in run.stderr
    assert "Traceback" not in run.stderr


def test_outside_slurm_the_commands_exit_2_with_one_line(tmp_path: Path) -> None:
    path = spec(tmp_path, "ok", "srun", "ok")
    env = {**os.environ, "PATH": str(Path(sys.executable).parent)}
    for argv in (["submit", str(path)], ["status", "12"], ["logs", "12"], ["cancel", "12"], ["triage", "12"]):
        run = subprocess.run(
            [sys.executable, "-m", "jobc", *argv],
            capture_output=True,
            text=True,
            cwd=tmp_path,
            env=env,
            check=False,
        )
        assert run.returncode == 2, (argv, run.stderr)
        lines = run.stderr.strip().splitlines()
        assert len(lines) == 1, (argv, run.stderr)
        assert "not a Slurm installation" in lines[0]


def test_a_two_by_three_sweep_runs_six_array_tasks_each_with_its_values(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    path = spec(
        tmp_path,
        "sweep",
        "srun",
        "sweep",
        "--lr",
        "{sweep.lr}",
        "--seed={sweep.seed}",
        resources={"nodes": 1, "gpus_per_node": 1},
        sweep={"values": {"lr": ["0.1", "0.01"], "seed": [1, 2, 3]}, "max_parallel": 3},
    )
    plan = jobc(slurm_cluster, tmp_path, "plan", str(path))
    assert "sweep      6 array tasks (--array=0-5%3)" in plan.stdout, plan.stderr
    job = submit(slurm_cluster, jobs, tmp_path, str(path))
    # Six tasks, three at a time: two rounds of what a task may run.
    deadline = time.monotonic() + 2 * LIMIT_S
    while True:
        rows = json.loads(jobc(slurm_cluster, tmp_path, "status", job, "--format", "json").stdout or "[]")
        done = {r["job_id"] for r in rows if r["state"] == "COMPLETED"}
        if done == {f"{job}_{i}" for i in range(6)}:
            break
        if time.monotonic() > deadline:
            pytest.fail(f"the array tasks did not all complete: {rows}")
        time.sleep(1)
    (entry,) = [e for e in ledger.entries(tmp_path / ".jobc") if isinstance(e, ledger.Entry)]
    assert entry.array == "0-5%3"
    expected = [(lr, seed) for lr in ("0.1", "0.01") for seed in (1, 2, 3)]
    assert [(c["lr"], c["seed"]) for c in entry.sweep] == expected
    for task, (lr, seed) in enumerate(expected):
        log = (tmp_path / "logs" / f"sweep-{job}_{task}.out").read_text(encoding="utf-8")
        assert f"jobc: sweep task {task}: lr={lr} seed={seed}" in log
        assert f"0: sweep args: --lr {lr} --seed={seed}" in log
        shown = jobc(slurm_cluster, tmp_path, "logs", f"{job}_{task}").stdout
        assert f"sweep args: --lr {lr} --seed={seed}" in shown


def test_then_starts_the_next_spec_only_after_the_first_succeeded(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    one_gpu = {"nodes": 1, "gpus_per_node": 1}
    first = spec(tmp_path, "first", "srun", "ok", resources=one_gpu)
    second = spec(tmp_path, "second", "srun", "ok", resources=one_gpu)
    run = jobc(slurm_cluster, tmp_path, "submit", first.name, "--then", second.name)
    assert run.returncode == 0, run.stderr
    ids = run.stdout.split()
    jobs.extend(int(i) for i in ids)
    assert len(ids) == 2, run.stdout
    a, b = ids
    entries = {e.job_id: e for e in ledger.entries(tmp_path / ".jobc") if isinstance(e, ledger.Entry)}
    assert entries[a].after == []
    assert entries[b].after == [a]
    assert slurm_cluster.wait(int(a), LIMIT_S) == "COMPLETED"
    assert slurm_cluster.wait(int(b), LIMIT_S) == "COMPLETED"
    # ISO times compare as text: the second started no earlier than the first ended
    assert slurm_cluster.job(int(b))["StartTime"] >= slurm_cluster.job(int(a))["EndTime"]


def test_dry_run_prints_every_script_of_a_chain_and_submits_nothing(tmp_path: Path) -> None:
    first = spec(tmp_path, "first", "srun", "ok")
    second = spec(tmp_path, "second", "srun", "ok")
    run = subprocess.run(
        [sys.executable, "-m", "jobc", "submit", first.name, "--then", second.name, "--dry-run"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.count("#!/bin/bash") == 2
    assert "#SBATCH --job-name=first" in run.stdout
    assert "#SBATCH --job-name=second" in run.stdout
    assert run.stderr.count("--dry-run: would submit") == 2
    assert not (tmp_path / ".jobc").exists()


def test_triage_sigsegv_of_one_rank(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    job = submit(slurm_cluster, jobs, tmp_path, str(spec(tmp_path, "segv", "srun", "segv")))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "FAILED"
    report = triage(slurm_cluster, tmp_path, job)
    first = report["findings"][0]
    assert (first["class"], first["signal"], first["rank"]) == ("signal", "SIGSEGV", 1), report
    assert first["action"] == "fix_program"
    assert first["node"] == _node_of_rank(report, 1)


@pytest.mark.parametrize("mode", ["srun", "torchrun"])
def test_triage_missing_module(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, mode: str
) -> None:
    job = submit(slurm_cluster, jobs, tmp_path, str(spec(tmp_path, f"import-{mode}", mode, "import")))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "FAILED"
    report = triage(slurm_cluster, tmp_path, job)
    first = report["findings"][0]
    assert first["class"] == "import_error", report
    assert "jobc_no_such_module" in first["summary"]
    assert first["rank"] is not None
    assert "launch." in first["advice"]  # jobc's own log: the advice names the spec's fields


def test_triage_missing_program(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    path = spec(tmp_path, "noprog", "srun", "ok")
    data = json.loads(path.read_text(encoding="utf-8"))
    data["launch"]["program"] = str(tmp_path / "trian.py")
    path.write_text(json.dumps(data), encoding="utf-8")
    job = submit(slurm_cluster, jobs, tmp_path, str(path))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "FAILED"
    report = triage(slurm_cluster, tmp_path, job)
    first = report["findings"][0]
    assert first["class"] == "missing_program", report
    assert "trian.py" in first["summary"]


def test_triage_two_jobs_on_one_port(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    held = tmp_path / "held"
    held.mkdir()
    port = slurm_cluster.spare_ports(1)[0]
    first_spec = spec(
        tmp_path, "holder", "srun", "hold", str(held), "90", resources={"nodes": 1, "gpus_per_node": 1}
    )
    second_spec = spec(tmp_path, "second", "srun", "join", resources={"nodes": 1, "gpus_per_node": 2})
    for path in (first_spec, second_spec):
        data = json.loads(path.read_text(encoding="utf-8"))
        data["launch"]["master_port"] = port
        path.write_text(json.dumps(data), encoding="utf-8")
    holder = submit(slurm_cluster, jobs, tmp_path, str(first_spec))
    deadline = time.monotonic() + LIMIT_S
    while not (held / "holding-0").exists():
        if time.monotonic() > deadline:
            pytest.fail("the first job never held its port")
        time.sleep(0.2)
    job = submit(slurm_cluster, jobs, tmp_path, str(second_spec))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "FAILED"
    report = triage(slurm_cluster, tmp_path, job)
    first = report["findings"][0]
    assert first["class"] == "port_in_use", report
    assert first["action"] == "fix_spec_or_script"
    assert "launch.master_port" in first["advice"]
    slurm_cluster.cancel(int(holder))


def test_triage_sigkill_under_torchrun(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    job = submit(slurm_cluster, jobs, tmp_path, str(spec(tmp_path, "kill-torchrun", "torchrun", "kill")))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "FAILED"
    report = triage(slurm_cluster, tmp_path, job)
    first = report["findings"][0]
    assert (first["class"], first["signal"]) == ("signal", "SIGKILL"), report
    assert first["rank"] == 1  # torchrun's table names the global rank
    assert first["node"] == _node_of_rank(report, 1)


def test_logs_refuses_a_fifo_in_place_of_the_output_instead_of_waiting(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    script = tmp_path / "hello.sh"
    script.write_text("#!/bin/bash\necho hello\n", encoding="utf-8")
    out = tmp_path / "hello.out"
    job = slurm_cluster.sbatch(script, f"--output={out}", cwd=tmp_path)
    jobs.append(job)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED"
    assert jobc(slurm_cluster, tmp_path, "logs", str(job)).stdout == "hello\n"
    # the file Slurm names as the job's output is now a FIFO: opening it would wait for a writer
    out.unlink()
    os.mkfifo(out)
    for argv in (("logs", str(job)), ("logs", str(job), "-f")):
        run = jobc(slurm_cluster, tmp_path, *argv)
        assert run.returncode == 2, run.stderr
        assert run.stderr == f"jobc logs: {out}: cannot read: a FIFO, not a regular file\n"


def test_a_job_is_found_from_any_directory(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    """Submitted from one directory, the job is followed from another: status, logs and triage
    find it in the user's ledger ($XDG_STATE_HOME/jobc/ledger/<cluster>/), and a directory with no
    ledger lists the user's recent jobs instead of saying there are none."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    job = submit(slurm_cluster, jobs, project, str(spec(project, "anywhere", "srun", "ok")))
    assert slurm_cluster.wait(int(job), LIMIT_S) == "COMPLETED"
    state = Path(os.environ["XDG_STATE_HOME"]) / "jobc" / "ledger"
    (recorded,) = list(state.glob(f"*/{job}.json"))
    assert ledger.read(recorded).job_id == job
    assert (project / ".jobc" / f"{job}.json").is_file()

    status = jobc(slurm_cluster, elsewhere, "status", "--format", "json")
    assert status.returncode == 0, status.stderr
    assert [r["job_id"] for r in json.loads(status.stdout)] == [job]
    assert "no jobs in the ledger" in status.stderr
    assert "from the user ledger" in status.stderr
    one = jobc(slurm_cluster, elsewhere, "status", job, "--format", "json")
    assert json.loads(one.stdout)[0]["state"] == "COMPLETED"
    logs = jobc(slurm_cluster, elsewhere, "logs", job)
    assert logs.returncode == 0, logs.stderr
    assert "scenario ok" in logs.stdout
    assert triage(slurm_cluster, elsewhere, job)["state"] == "COMPLETED"

    # nowhere: where jobc looked is said
    empty_state = {**slurm_cluster.daemon_env(), "XDG_STATE_HOME": str(tmp_path / "fresh")}
    none = subprocess.run(
        [sys.executable, "-m", "jobc", "status"],
        capture_output=True,
        text=True,
        cwd=elsewhere,
        env=empty_state,
        timeout=300,
        check=False,
    )
    assert none.returncode == 0
    assert "no jobs in the ledger" in none.stderr
    assert "nor in the user ledger" in none.stderr
