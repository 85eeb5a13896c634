"""The compiled scripts on a real Slurm cluster: 2 nodes × 2 (fake) GPUs.

Each launch test runs one job whose program records what every rank sees, preempts it with
`scancel --signal=SIG --batch` (what `--signal=B:SIG@grace` does at the time limit), checks that
every rank got the signal and that the job requeued itself, releases it and checks the restart.
"""

from __future__ import annotations

import json
import signal as signals
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from jobc.compile import compile_batch
from tests.compile.support import compile_data, example_specs, lint
from tests.support.cluster import SlurmCluster
from tests.support.slurm_jobs import job_log, submit, wait_for_files

RECORDER = Path(__file__).with_name("record_rank.py")
NODES, GPUS = 2, 2
# Waits for a job are bounded by what the job may run (the longest time limit of the specs here,
# 10 minutes), plus time for Slurm to schedule it and end it, not by a guess of how fast a busy
# machine is.
LIMIT_S = 10 * 60 + 180

# Site-specific fields of the examples are dropped, and the shape made to fit this cluster.
SITE_SLURM = ("partition", "account", "qos", "constraint", "reservation", "dependency", "time")
SITE_RESOURCES = ("nodes", "gpus_per_node", "tasks_per_node", "cpus_per_task", "mem", "mem_per_gpu")


def _site_overrides(path: Path, logs: Path) -> list[str]:
    context = lint(path).context
    assert context is not None
    data = context.data
    slurm = {k: v for k, v in data.get("slurm", {}).items() if k not in SITE_SLURM}
    slurm |= {"partition": "debug", "time": "00:10:00"}
    resources = {k: v for k, v in data.get("resources", {}).items() if k not in SITE_RESOURCES}
    resources |= {"nodes": NODES, "gpus_per_node": GPUS, "cpus_per_task": 1, "mem": "0"}
    return [
        f"slurm={json.dumps(slurm)}",
        f"resources={json.dumps(resources)}",
        f"cluster={json.dumps({'gpus_per_node': GPUS, 'cpus_per_node': 8})}",
        "parallelism={}",
        f"storage.logs={logs}",
    ]


def _without_container() -> list[Path]:
    return [p for p in example_specs() if (spec := lint(p).spec) is not None and spec.container is None]


NO_CONTAINER = _without_container()


@pytest.mark.parametrize("path", NO_CONTAINER, ids=lambda p: p.stem)
def test_example_passes_sbatch_test_only(slurm_cluster: SlurmCluster, path: Path, tmp_path: Path) -> None:
    result = lint(path, *_site_overrides(path, tmp_path))
    assert result.context is not None, "\n".join(map(str, result.errors))
    # Only the directives are on trial here: the examples' parallelism and memory findings about
    # this much smaller cluster do not matter to sbatch.
    script = tmp_path / "job.sh"
    script.write_text(compile_batch(result.context), encoding="utf-8")
    run = slurm_cluster.run("sbatch", "--test-only", str(script), check=False, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "to start at" in run.stderr


def _spec(tmp_path: Path, mode: str, signal: str, payload: str, rdzv: str = "c10d") -> dict[str, Any]:
    return {
        "version": 1,
        "name": f"cluster-{mode}",
        "slurm": {"partition": "debug", "time": "00:05:00"},
        "resources": {"nodes": NODES, "gpus_per_node": GPUS},
        "launch": {
            "mode": mode,
            "python": sys.executable,
            "uv_sync": "none",
            "workdir": str(tmp_path),
            "program": str(RECORDER),
            "torchrun": {"rdzv": rdzv},
            "args": [str(tmp_path / "out"), "preempt", f"$(touch {payload})", f"`touch {payload}`"],
        },
        "env": {"PAYLOAD_DOLLAR": f"$(touch {payload})", "PAYLOAD_TICK": f"it's `touch {payload}` $HOME"},
        "fabric": {"interface": "auto"},
        "storage": {"shared": ["/tmp"], "logs": str(tmp_path / "logs")},
        "resilience": {"signal": signal, "grace_s": 30, "requeue": True, "max_restarts": 2},
        "monitoring": {"heartbeat_s": 1, "gpu_dmon_s": 1},
    }


def _records(out: Path, restart: int) -> dict[int, dict[str, Any]]:
    found = {}
    for path in out.glob(f"rank-{restart}-*.json"):
        found[int(path.stem.rsplit("-", 1)[1])] = json.loads(path.read_text(encoding="utf-8"))
    return found


@pytest.mark.parametrize(
    "case",
    [
        ("srun", "SIGTERM", "c10d"),
        ("srun", "SIGUSR2", "c10d"),
        ("torchrun", "SIGTERM", "c10d"),
        # Static rendezvous trusts --node-rank: two nodes that both said 0 would never meet.
        ("torchrun", "SIGUSR2", "static"),
    ],
    ids=["srun-TERM", "srun-USR2", "torchrun-c10d-TERM", "torchrun-static-USR2"],
)
def test_launch_signal_requeue_restart(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, case: tuple[str, str, str]
) -> None:
    mode, signal, rdzv = case
    payload = Path(f"/tmp/pwned-{uuid.uuid4().hex}")
    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    world = NODES * GPUS
    spec = _spec(tmp_path, mode, signal, str(payload), rdzv)
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)

    # First run: every rank records itself, then waits for the signal.
    wait_for_files(out, "rank-0-*.json", world, LIMIT_S, logs)
    first = _records(out, 0)
    assert sorted(first) == list(range(world))
    masters = {(r["env"]["MASTER_ADDR"], r["env"]["MASTER_PORT"]) for r in first.values()}
    assert len(masters) == 1, masters
    for rank, record in first.items():
        env = record["env"]
        node, local = divmod(rank, GPUS)
        assert env["CUDA_VISIBLE_DEVICES"] == "0,1"  # from the GRES, not from jobc
        assert env["JOBC_WORLD_SIZE"] == str(world)
        assert env["JOBC_LAUNCH_MODE"] == mode
        assert env["SLURM_RESTART_COUNT"] == "0"
        # Spec values arrive as written: no command substitution, no expansion.
        assert record["argv"] == [f"$(touch {payload})", f"`touch {payload}`"]
        assert env["PAYLOAD_DOLLAR"] == f"$(touch {payload})"
        assert env["PAYLOAD_TICK"] == f"it's `touch {payload}` $HOME"
        if mode == "srun":
            assert env["SLURM_PROCID"] == str(rank)
            assert (env["SLURM_NODEID"], env["SLURM_LOCALID"]) == (str(node), str(local))
            assert env["SLURMD_NODENAME"] == slurm_cluster.node_names[node]
            assert masters == {(slurm_cluster.node_names[0], str(20000 + job % 9000))}
        else:
            # torchrun's own variables; its agent is the one Slurm task on each node.
            assert env["RANK"] == str(rank)
            assert env["WORLD_SIZE"] == str(world)
            assert env["SLURM_LOCALID"] == "0"
            # Ranks are contiguous per node in rendezvous order, which c10d makes arrival order.
            assert int(env["RANK"]) == int(env["GROUP_RANK"]) * GPUS + int(env["LOCAL_RANK"])
            if rdzv == "static":
                assert env["GROUP_RANK"] == env["SLURM_NODEID"]
    if mode == "torchrun":
        assert sorted((r["env"]["GROUP_RANK"], r["env"]["LOCAL_RANK"]) for r in first.values()) == [
            (str(node), str(local)) for node in range(NODES) for local in range(GPUS)
        ]
    assert not payload.exists()

    # Preemption: the signal reaches the batch shell only, as with --signal=B:…
    slurm_cluster.run("scancel", f"--signal={signal.removeprefix('SIG')}", "--batch", str(job))
    wait_for_files(out, "rank-0-*.signal", world, LIMIT_S, logs)
    for path in out.glob("rank-0-*.signal"):
        got = json.loads(path.read_text(encoding="utf-8"))
        assert got[:1] == [int(getattr(signals, signal))], (path.name, got)
    slurm_cluster.wait_for(
        job, lambda r: r.get("Restarts") == "1" and r.get("JobState") == "PENDING", LIMIT_S, "requeue of job"
    )
    log = job_log(logs)
    assert "jobc: requeueing job" in log
    # Each rank exited with the requeue code, and so did the step, in both modes.
    assert "jobc: the step ended with exit code 75" in log, log

    # The restart runs and knows it is one.
    slurm_cluster.release(job)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(logs)
    second = _records(out, 1)
    assert sorted(second) == list(range(world))
    assert {r["env"]["SLURM_RESTART_COUNT"] for r in second.values()} == {"1"}
    assert not payload.exists()


def test_allocation_mismatch_stops_at_once(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    (tmp_path / "out").mkdir()
    (tmp_path / "logs").mkdir()
    script = compile_data(_spec(tmp_path, "srun", "SIGTERM", "/nonexistent"))
    job = submit(slurm_cluster, jobs, script, tmp_path, "--nodes=1")
    assert slurm_cluster.wait(job, LIMIT_S) == "FAILED"
    log = job_log(tmp_path / "logs")
    assert "SLURM_JOB_NUM_NODES=1, but spec cluster-srun asks for 2 (resources.nodes)" in log
    assert not list((tmp_path / "out").iterdir())


def test_attach_runs_the_launch_inside_an_allocation(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (tmp_path / "logs").mkdir()
    # What `salloc` with the spec's shape would hold.
    shape = (f"--nodes={NODES}", f"--ntasks-per-node={GPUS}", f"--gpus-per-node={GPUS}")
    holder = submit(slurm_cluster, jobs, "#!/bin/bash\nsleep 300\n", tmp_path, *shape)
    slurm_cluster.wait_for(holder, lambda r: r.get("JobState") == "RUNNING", LIMIT_S, "allocation")
    spec = _spec(tmp_path, "srun", "SIGTERM", "/nonexistent")
    spec["launch"]["args"][1] = "exit"
    script = tmp_path / "attach.sh"
    script.write_text(compile_data(spec, attach=str(holder)), encoding="utf-8")
    run = slurm_cluster.run("bash", str(script), check=False, timeout=LIMIT_S, cwd=tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    records = _records(out, 0)
    assert sorted(records) == list(range(NODES * GPUS))
    assert {r["env"]["SLURM_JOB_ID"] for r in records.values()} == {str(holder)}
    assert {r["env"]["MASTER_PORT"] for r in records.values()} == {str(20000 + holder % 9000)}


SECRET_PROGRAM = """\
import hashlib, os, sys
value = os.environ.get("JOBC_TEST_TOKEN", "")
rank = os.environ.get("SLURM_PROCID", "0")
with open(os.path.join(sys.argv[1], f"rank-{rank}.sha256"), "w") as fh:
    fh.write(hashlib.sha256(value.encode()).hexdigest())
"""


def test_secret_reaches_every_rank_but_never_the_script_or_the_log(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    import hashlib

    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    program = tmp_path / "secret_program.py"
    program.write_text(SECRET_PROGRAM, encoding="utf-8")
    secret = f"hf_{uuid.uuid4().hex}"
    spec = _spec(tmp_path, "srun", "SIGTERM", "/nonexistent")
    # debug mode traces the batch shell (set -x), which is where a written secret would show
    spec.update(debug=True, secrets=["JOBC_TEST_TOKEN"], resilience={})
    spec["launch"] = {**spec["launch"], "program": str(program), "args": [str(out)]}
    script = compile_data(spec)
    assert secret not in script
    path = tmp_path / "job.sh"
    path.write_text(script, encoding="utf-8")
    submitted = slurm_cluster.run(
        "sbatch", "--parsable", str(path), cwd=tmp_path, env={"JOBC_TEST_TOKEN": secret}
    )
    jobs.append(int(submitted.stdout.strip().split(";", 1)[0]))
    assert slurm_cluster.wait(jobs[-1], LIMIT_S) == "COMPLETED", job_log(logs)
    digests = {p.name: p.read_text() for p in out.glob("rank-*.sha256")}
    assert len(digests) == NODES * GPUS
    assert set(digests.values()) == {hashlib.sha256(secret.encode()).hexdigest()}
    log = job_log(logs)
    assert "+ " in log  # the trace is on, so the test would see a leak
    assert secret not in log


def test_missing_secret_stops_the_job_before_the_launch(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    spec = _spec(tmp_path, "srun", "SIGTERM", "/nonexistent")
    spec.update(secrets=["JOBC_TEST_TOKEN_UNSET"], resilience={})
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)
    assert slurm_cluster.wait(job, LIMIT_S) == "FAILED"
    assert "JOBC_TEST_TOKEN_UNSET" in job_log(logs)
    assert not list(out.iterdir())


COUNTER = Path(__file__).with_name("count_signals.py")
OUTLIVE = Path(__file__).with_name("outlive.py")


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def _plain_spec(
    tmp_path: Path, mode: str, program: Path, args: list[str], **resilience: Any
) -> dict[str, Any]:
    return {
        "version": 1,
        "name": f"plain-{mode}",
        "slurm": {"partition": "debug", "time": "00:10:00"},
        "resources": {"nodes": NODES, "gpus_per_node": GPUS},
        "launch": {
            "mode": mode,
            "python": sys.executable,
            "uv_sync": "none",
            "workdir": str(tmp_path),
            "program": str(program),
            "args": args,
        },
        "fabric": {"interface": None},
        "storage": {"shared": ["/tmp"], "logs": str(tmp_path / "logs")},
        "resilience": {"grace_s": 30, **resilience},
    }


def test_a_rank_that_outlives_the_others_is_not_killed(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    from jobc.compile.plan import MIN_STEP_WAIT_S

    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    # Rank 0 writes the last checkpoint for longer than srun used to wait after the first exit.
    long_s = MIN_STEP_WAIT_S + 10
    spec = _plain_spec(tmp_path, "srun", OUTLIVE, [str(out), "0", str(long_s)])
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(logs)
    assert sorted(p.name for p in out.iterdir()) == [f"done-{rank}" for rank in range(NODES * GPUS)]
    assert "jobc: the step ended with exit code 0" in job_log(logs)


def test_a_failed_rank_ends_the_step(slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path) -> None:
    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    # Rank 2 fails at once; rank 0 would run for far longer than the test waits for the job.
    spec = _plain_spec(tmp_path, "srun", OUTLIVE, [str(out), "0", "600", "2"])
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)
    assert slurm_cluster.wait(job, LIMIT_S) == "FAILED", job_log(logs)
    log = job_log(logs)
    assert "task 2: Exited with exit code 3" in log, log
    assert "jobc: a task failed; the step ends in 30 s" in log, log
    assert "jobc: a task failed 30 s ago; ending the step" in log, log
    # The ranks that end at once did; rank 0 was ended with the step, not left running.
    assert sorted(p.name for p in out.iterdir()) == ["done-1", "done-3"]
    assert not [pid for pid in slurm_cluster.processes() if str(OUTLIVE).encode() in _cmdline(pid)]


@pytest.mark.parametrize(
    "case",
    [
        ("srun", "SIGTERM", False),
        ("srun", "SIGUSR2", True),
        ("torchrun", "SIGUSR2", False),
        ("torchrun", "SIGTERM", True),
    ],
    ids=["srun-TERM", "srun-uv-USR2", "torchrun-USR2", "torchrun-uv-TERM"],
)
def test_every_process_gets_the_signal_once_and_keeps_the_grace(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, case: tuple[str, str, bool]
) -> None:
    mode, signal, uv = case
    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    world = NODES * GPUS
    # Each rank stays 8 s after the signal, plus 2 s per rank (its checkpoint; a second copy would
    # land in that time). Rank 0 ends first: under torchrun that used to make the agent stop the
    # others with a SIGTERM, a second signal (jobc.compile.agent now waits for them).
    spec = _plain_spec(tmp_path, mode, COUNTER, [str(out), "8"], signal=signal, grace_s=60, requeue=True)
    if uv:
        # `uv run` forwards the signals it gets to Python; VIRTUAL_ENV picks this interpreter.
        spec["launch"]["python"] = "uv"
        spec["env"] = {"VIRTUAL_ENV": str(Path(sys.executable).parent.parent)}
    if mode == "torchrun":
        # What an older torch does: its agent handles only these signals (a SIGUSR2 kills it) and
        # SIGKILLs the workers a fixed time after it forwarded a signal (30 s; 3 s here).
        spec["env"] = {
            **spec.get("env", {}),
            "PET_SIGNALS_TO_HANDLE": "SIGTERM,SIGINT,SIGHUP,SIGQUIT",
            "TORCH_ELASTIC_SHUTDOWN_TIMEOUT": "3",
        }
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)
    wait_for_files(out, "ready-*", world, LIMIT_S, logs)
    slurm_cluster.run("scancel", f"--signal={signal.removeprefix('SIG')}", "--batch", str(job))
    slurm_cluster.wait_for(
        job, lambda r: r.get("Restarts") == "1" and r.get("JobState") == "PENDING", LIMIT_S, "requeue of job"
    )
    log = job_log(logs)
    records = {p.name: json.loads(p.read_text(encoding="utf-8")) for p in out.glob("rank-*.json")}
    assert len(records) == world, log
    number = int(getattr(signals, signal))
    for name, record in records.items():
        assert record["signals"] == [number], (name, record, log)
    assert len({record["pid"] for record in records.values()}) == world
    # Every rank got its whole hold time and exited with the requeue code, in both modes.
    assert "jobc: the step ended with exit code 75" in log, log
    assert "the program exited with the requeue code 75" in log, log
    slurm_cluster.cancel(job)


@pytest.mark.parametrize("mode", ["srun", "torchrun"])
def test_a_requeue_the_program_asks_for_without_a_signal(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, mode: str
) -> None:
    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    # record_rank.py in `preempt` mode waits for a signal; in `requeue` mode it asks at once.
    spec = _plain_spec(tmp_path, mode, RECORDER, [str(out), "requeue"], requeue=True, max_restarts=2)
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)
    slurm_cluster.wait_for(
        job, lambda r: r.get("Restarts") == "1" and r.get("JobState") == "PENDING", LIMIT_S, "requeue of job"
    )
    log = job_log(logs)
    assert "jobc: the step ended with exit code 75" in log, log
    assert "jobc: requeueing job" in log, log
    slurm_cluster.release(job)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(logs)
    assert len(_records(out, 1)) == NODES * GPUS


UV_PROGRAM = """\
import os, sys
import iniconfig  # from the extra: every rank needs it
rank = os.environ["RANK"]
with open(os.path.join(sys.argv[1], "rank-" + rank), "w") as fh:
    fh.write(iniconfig.__file__)
"""


def test_uv_phase_one_installs_the_extras_the_spec_names(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    import shutil
    import subprocess

    uv = shutil.which("uv")
    if uv is None:
        pytest.fail("uv is not on PATH; the uv tests need it")
    project, out, logs = tmp_path / "project", tmp_path / "out", tmp_path / "logs"
    for directory in (project, out, logs):
        directory.mkdir()
    (project / "pyproject.toml").write_text(
        '[project]\nname = "trainer"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n'
        'dependencies = []\n[project.optional-dependencies]\ntraining = ["iniconfig"]\n'
        "[tool.uv]\npackage = false\n",
        encoding="utf-8",
    )
    (project / "train.py").write_text(UV_PROGRAM, encoding="utf-8")
    subprocess.run([uv, "lock"], cwd=project, check=True, capture_output=True)
    spec = _plain_spec(tmp_path, "srun", project / "train.py", [str(out)])
    spec["launch"] |= {
        "python": "uv",
        "uv_sync": "two-phase",
        "workdir": str(project),
        "uv": {"extras": ["training"], "lock": "frozen"},
    }
    script = compile_data(spec)
    assert "uv sync '--extra' 'training' '--frozen'" in script
    job = submit(slurm_cluster, jobs, script, tmp_path)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(logs)
    written = {p.name: p.read_text(encoding="utf-8") for p in out.iterdir()}
    assert sorted(written) == [f"rank-{rank}" for rank in range(NODES * GPUS)]
    assert all(path.startswith(str(project / ".venv")) for path in written.values()), written


WHICH_PROGRAM = """\
import os, sys
rank = os.environ["RANK"]
with open(os.path.join(sys.argv[1], "rank-" + rank), "w") as fh:
    fh.write(sys.executable)
"""


@pytest.mark.parametrize("locked", [True, False], ids=["uv-project", "plain-project"])
def test_an_unset_interpreter_is_chosen_when_the_job_starts(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, locked: bool
) -> None:
    """launch.python not set: a workdir with a uv.lock runs under uv (synced once), any other under
    the python on PATH, which is what the user's own `python train.py` would have run."""
    import shutil
    import subprocess

    uv = shutil.which("uv")
    if uv is None:
        pytest.fail("uv is not on PATH; the uv tests need it")
    project, out, logs = tmp_path / "project", tmp_path / "out", tmp_path / "logs"
    for directory in (project, out, logs):
        directory.mkdir()
    (project / "pyproject.toml").write_text(
        '[project]\nname = "trainer"\nversion = "0.1.0"\nrequires-python = ">=3.11"\n'
        "dependencies = []\n[tool.uv]\npackage = false\n",
        encoding="utf-8",
    )
    (project / "train.py").write_text(WHICH_PROGRAM, encoding="utf-8")
    if locked:
        subprocess.run([uv, "lock"], cwd=project, check=True, capture_output=True)
    spec = _plain_spec(tmp_path, "srun", project / "train.py", [str(out)])
    del spec["launch"]["python"], spec["launch"]["uv_sync"]
    spec["launch"]["workdir"] = str(project)
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(logs)
    used = {p.read_text(encoding="utf-8") for p in out.iterdir()}
    assert len(list(out.iterdir())) == NODES * GPUS
    log = job_log(logs)
    if locked:
        assert all(path.startswith(str(project / ".venv")) for path in used), used
        assert "jobc: interpreter uv run --no-sync python (launch.python not set)" in log
    else:
        on_path = shutil.which("python")
        assert on_path is not None
        assert used == {str(Path(on_path).resolve())} or used == {on_path}, (used, on_path)
        assert "jobc: interpreter python (launch.python not set)" in log
        assert not (project / ".venv").exists()


# -- #SBATCH values as sbatch reads them back -----------------------------------------------------

AWKWARD = ["it's", 'say "hi"', "a#b", "back\\slash", "two words", "'both' \"kinds\" # \\", 'x\\"y z']
# where each value goes in the spec, and the name `sbatch -vv` lists it under; not
# slurm.dependency (nor array, mem): JC110 holds it to sbatch's grammar, which no such value meets
ROUND_TRIP: list[tuple[tuple[str, ...], str]] = [
    (("slurm", "partition"), "partition"),
    (("slurm", "account"), "account"),
    (("slurm", "qos"), "qos"),
    (("slurm", "constraint"), "constraint"),
    (("slurm", "reservation"), "reservation"),
    (("slurm", "mail", "user"), "mail-user"),
    (("slurm", "extra", "comment"), "comment"),
    (("storage", "logs"), "output"),
]


def _defined_options(stderr: str) -> dict[str, str]:
    """The option table `sbatch -vv` prints once it has read the script's #SBATCH lines."""
    out: dict[str, str] = {}
    inside = False
    for row in stderr.splitlines():
        text = row.removeprefix("sbatch: ")
        if text.startswith("defined options"):
            inside = True
        elif text.startswith("end of defined options"):
            break
        elif inside and " : " in text:
            name, _, value = text.partition(" : ")
            out[name.strip()] = value
    return out


@pytest.mark.slurm
@pytest.mark.parametrize("value", AWKWARD)
def test_sbatch_reads_back_every_value_jobc_writes(
    slurm_cluster: SlurmCluster, tmp_path: Path, value: str
) -> None:
    data: dict[str, Any] = {
        "version": 1,
        "name": "quoting",
        "slurm": {"time": "00:05:00", "mail": {"type": ["END"]}},
        "resources": {"nodes": 1, "gpus_per_node": GPUS},
        "launch": {"program": "train.py", "python": sys.executable, "uv_sync": "none"},
        "storage": {"shared": ["/tmp"]},
    }
    for path, _ in ROUND_TRIP:
        node = data
        for part in path[:-1]:
            node = node.setdefault(part, {})
        node[path[-1]] = value if path != ("storage", "logs") else str(tmp_path / value)
    script = tmp_path / "job.sh"
    script.write_text(compile_data(data), encoding="utf-8")
    run = slurm_cluster.run("sbatch", "-vv", "--test-only", str(script), check=False, cwd=tmp_path)
    # the partition and the account do not exist, so sbatch stops at the controller; what
    # matters is what it read from the script before that
    assert "Unmatched" not in run.stderr, run.stderr
    options = _defined_options(run.stderr)
    for _, name in ROUND_TRIP:
        want = value if name != "output" else f"{tmp_path / value}/%x-%j.out"
        assert options.get(name) == want, (name, run.stderr)


# An executable run as it is (`launch.python: none`): a shell script, which any python in front
# of it would refuse as a syntax error, so a rank's file says it ran with nothing in front.
EXECUTABLE = """\
#!/bin/sh
set -eu
printf '%s %s\\n' "$0" "$*" > "$1/rank-$RANK"
"""


@pytest.mark.parametrize("mode", ["srun", "torchrun"])
def test_an_executable_runs_as_it_is_in_every_rank(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, mode: str
) -> None:
    out, logs = tmp_path / "out", tmp_path / "logs"
    out.mkdir()
    logs.mkdir()
    program = tmp_path / "train_bin"
    program.write_text(EXECUTABLE)
    program.chmod(0o755)
    spec = _plain_spec(tmp_path, mode, program, [str(out), "--steps", "2"])
    spec["launch"]["python"] = "none"
    # torchrun's agent runs under the python on PATH after launch.setup: the one with torch
    spec["launch"]["setup"] = [f'export PATH="{Path(sys.executable).parent}:$PATH"']
    job = submit(slurm_cluster, jobs, compile_data(spec), tmp_path)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(logs)
    ranks = sorted(out.iterdir())
    assert [p.name for p in ranks] == [f"rank-{rank}" for rank in range(NODES * GPUS)], job_log(logs)
    assert {p.read_text() for p in ranks} == {f"{program} {out} --steps 2\n"}
