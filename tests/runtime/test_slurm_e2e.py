"""jobc.runtime end to end on the Slurm test cluster: 2 nodes × 2 (fake) GPUs, CPU torch and gloo.

Every job is compiled by `jobc compile` from a spec with tp=2 (so dp=2) and submitted with sbatch,
in both launch modes. The program is the toy trainer (tests/runtime/toy_train.py) or
`python -m jobc.runtime check`.

One job per launch mode carries most of the assertions, because each start pays for four torch
imports on a small machine: the mesh groups, a preemption (`scancel --signal=TERM --batch`, what
`--signal=B:TERM@grace` does) that stops every rank after the same step with its DataLoader
workers alive, the batch shell's requeue, the restart after `release`, and a final state equal,
bit for bit, to an uninterrupted run of the same program on four local ranks.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jobc.jobs.labels import parse as parse_label
from tests.compile.support import compile_data
from tests.runtime.procs import TOY_TRAIN, ForkServer, seen, steps_done, toy_envs
from tests.support.cluster import FINAL_STATES, SlurmCluster
from tests.support.slurm_jobs import job_log, submit

if importlib.util.find_spec("torch") is None:
    pytest.skip(
        "torch is not importable (install jobc[runtime]); the runtime needs it", allow_module_level=True
    )

pytestmark = pytest.mark.runtime

NODES, GPUS = 2, 2
WORLD = NODES * GPUS
TP = 2
STEPS = 60
CHECKPOINT_EVERY = 10
# Steps every rank has run before the signal: well into the run, far from its end.
PROGRESS = 8
TOY_ARGS = ["--steps", str(STEPS), "--checkpoint-every", str(CHECKPOINT_EVERY), "--workers", "1"]
# Idle time per step on the cluster, so that the signal lands mid-run: ~5 s of steps are left
# when it is sent.
STEP_SLEEP = "0.1"
# The batch shell's requeue code for "checkpointed" (JOBC_REQUEUE_EXIT_CODE in the script).
REQUEUE = 75


def job_spec(root: Path, mode: str, **launch: Any) -> dict[str, Any]:
    """A spec for this cluster; the job's files all live under `root` (on /tmp, which every
    "node" of this one-host cluster shares)."""
    return {
        "version": 1,
        "name": f"e2e-{mode}",
        "slurm": {"partition": "debug", "time": "00:10:00"},
        "resources": {"nodes": NODES, "gpus_per_node": GPUS},
        "parallelism": {"tp": TP},
        "launch": {
            "mode": mode,
            "python": sys.executable,
            "uv_sync": "none",
            "workdir": str(root),
            **launch,
        },
        "storage": {
            "shared": ["/tmp"],
            "logs": str(root / "logs"),
            "checkpoints": str(root / "checkpoints"),
        },
        "resilience": {"signal": "SIGTERM", "grace_s": 60, "requeue": True, "max_restarts": 2},
    }


def toy_job(root: Path, mode: str, *extra: str) -> dict[str, Any]:
    return job_spec(root, mode, program=str(TOY_TRAIN), args=[*TOY_ARGS, *extra])


def prepare(root: Path) -> tuple[Path, Path]:
    logs, checkpoints = root / "logs", root / "checkpoints"
    logs.mkdir()  # Slurm does not create the directory of --output
    return logs, checkpoints


# Waits for a job are bounded by what the job may run (job_spec's 10-minute time limit) plus
# time for Slurm to schedule and end it, not by a guess of how fast a busy machine is.
LIMIT_S = 10 * 60 + 180


def poll(
    ready: Callable[[], bool], what: str, *, cluster: SlurmCluster, job: int, logs: Path, timeout: float
) -> None:
    """Wait for `ready`; fail at once, with the job log, if the job ends first."""
    deadline = time.monotonic() + timeout
    while not ready():
        state = cluster.state(job)
        if state in FINAL_STATES or time.monotonic() > deadline:
            pytest.fail(f"{what}: not reached (job {job} {state or 'unknown'}); log:\n{job_log(logs)}")
        time.sleep(0.1)


def time_limit_s(spec: dict[str, Any]) -> int:
    hours, minutes, seconds = (int(part) for part in spec["slurm"]["time"].split(":"))
    return hours * 3600 + minutes * 60 + seconds


def events(checkpoints: Path, rank: int, kind: str) -> list[dict[str, Any]]:
    return [event for event in seen(checkpoints, rank) if event["event"] == kind]


def bits(ranks: list[int]) -> int:
    return sum(2**rank for rank in ranks)


@pytest.fixture(scope="module")
def reference(forkserver: ForkServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same program, uninterrupted, on four local ranks (simulated srun, gloo on loopback)."""
    root = tmp_path_factory.mktemp("reference")
    checkpoints = root / "checkpoints"
    group = forkserver.launch(toy_envs(checkpoints), root / "logs", path=TOY_TRAIN, args=TOY_ARGS)
    assert group.wait(LIMIT_S) == [0] * WORLD, group.describe()
    return checkpoints


def check_first_run(cluster: SlurmCluster, checkpoints: Path, mode: str) -> list[dict[str, Any]]:
    """Placement, mesh groups and the all-reduce of every rank's first start."""
    starts = [events(checkpoints, rank, "start")[0] for rank in range(WORLD)]
    nodes: dict[str, list[int]] = {}
    for rank, start in enumerate(starts):
        assert (start["rank"], start["world_size"], start["restart_count"]) == (rank, WORLD, 0)
        assert start["launch_mode"] == mode
        assert (start["start_step"], start["resumed_from"]) == (0, None)
        assert start["coordinates"] == {"pp": 0, "dp": rank // TP, "cp": 0, "tp": rank % TP}
        # tp varies fastest: a tp group is two neighbouring ranks, a dp group strides by tp.
        tp_group = [rank - rank % TP + i for i in range(TP)]
        dp_group = [rank % TP + TP * i for i in range(WORLD // TP)]
        mesh = start["mesh"]
        assert mesh["tp"] == {"ranks": tp_group, "sum": bits(tp_group)}, (rank, mesh)
        assert mesh["dp"] == {"ranks": dp_group, "sum": bits(dp_group)}, (rank, mesh)
        assert mesh["pp"] == mesh["cp"] == {"ranks": [rank], "sum": bits([rank])}, (rank, mesh)
        nodes.setdefault(start["node"], []).append(rank)
        if mode == "srun":
            node, local = divmod(rank, GPUS)
            assert (start["node_rank"], start["local_rank"]) == (node, local)
            assert start["node"] == cluster.node_names[node]
    # Ranks are contiguous per node (torchrun numbers nodes in rendezvous order), so each tp
    # pair shares a node, as tensor parallelism needs.
    assert sorted(nodes) == sorted(cluster.node_names)
    assert sorted(nodes.values()) == [[0, 1], [2, 3]], nodes
    assert len({start["master"] for start in starts}) == 1
    return starts


@pytest.mark.parametrize("mode", ["srun", "torchrun"])
def test_preempted_training_requeues_resumes_and_matches_an_uninterrupted_run(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, reference: Path, mode: str
) -> None:
    logs, checkpoints = prepare(tmp_path)
    script = compile_data(toy_job(tmp_path, mode, "--step-sleep", STEP_SLEEP))
    job = submit(slurm_cluster, jobs, script, tmp_path)

    poll(
        lambda: min(steps_done(checkpoints, rank) for rank in range(WORLD)) >= PROGRESS,
        f"{PROGRESS} steps on every rank",
        cluster=slurm_cluster,
        job=job,
        logs=logs,
        timeout=LIMIT_S,
    )
    first_starts = check_first_run(slurm_cluster, checkpoints, mode)

    # Preemption: the signal reaches the batch shell only, which forwards it to the step.
    slurm_cluster.run("scancel", "--signal=TERM", "--batch", str(job))
    slurm_cluster.wait_for(
        job, lambda r: r.get("Restarts") == "1" and r.get("JobState") == "PENDING", LIMIT_S, "requeue of job"
    )
    log = job_log(logs)
    assert "jobc: SIGTERM received, forwarding it" in log
    assert "jobc: requeueing job" in log, log
    # Under torchrun the compiled agent keeps the workers' requeue code (torchrun's own is 1).
    assert f"jobc: the step ended with exit code {REQUEUE}" in log, log
    # The agent never shuts the workers down on the signal, so nothing warns about its timeout.
    assert "torchrun kills its workers" not in log, log
    # The workers ignored the signal: the DataLoader never saw one die.
    assert "DataLoader worker" not in log, log
    stops = [events(checkpoints, rank, "stop") for rank in range(WORLD)]
    assert all(len(s) == 1 for s in stops), (stops, log)
    stop_step = stops[0][0]["step"]
    assert PROGRESS - 1 <= stop_step < STEPS - 1
    # Without SLURM_JOB_END_TIME (Slurm 22.05 does not set it) a preemption cannot be told
    # from the time limit.
    reason = "signal" if first_starts[0]["time_left"] is None else "preemption"
    for rank, (stop,) in enumerate(stops):
        assert (stop["step"], stop["reason"], stop["signal"]) == (stop_step, reason, "SIGTERM")
        # Batches came from a DataLoader worker, which was still running after the signal.
        workers = stop["batch_pids_alive"]
        assert workers, stop
        assert str(first_starts[rank]["pid"]) not in workers, stop
        assert all(workers.values()), stop
    assert (checkpoints / f"step_{stop_step:08d}.pt").is_file()
    assert not (checkpoints / "final.json").exists()

    # The restart resumes after the stop step and finishes the run.
    slurm_cluster.release(job)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(logs)
    for rank in range(WORLD):
        starts = events(checkpoints, rank, "start")
        assert [(s["restart_count"], s["start_step"]) for s in starts] == [(0, 0), (1, stop_step + 1)]
        assert starts[1]["resumed_from"] == f"step_{stop_step:08d}.pt"
        assert starts[1]["mesh"] == starts[0]["mesh"]
        executed = [e["step"] for e in events(checkpoints, rank, "step")]
        assert executed == list(range(STEPS)), f"rank {rank} executed {executed}"
        assert seen(checkpoints, rank)[-1] == {"event": "done", "step": STEPS - 1}
        losses = [e["loss"] for e in events(checkpoints, rank, "step")]
        assert losses == [e["loss"] for e in events(reference, rank, "step")], f"rank {rank}"
    final = json.loads((checkpoints / "final.json").read_text())
    assert final == json.loads((reference / "final.json").read_text())


def test_an_sbatch_task_count_override_is_refused_by_the_script(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    # The per-node count and the GPUs still match the spec, but srun would start 2 + 1 ranks.
    logs, checkpoints = prepare(tmp_path)
    job = submit(slurm_cluster, jobs, compile_data(toy_job(tmp_path, "srun")), tmp_path, "--ntasks=3")
    assert slurm_cluster.wait(job, LIMIT_S) == "FAILED", job_log(logs)
    log = job_log(logs)
    assert (
        "jobc: the allocation has SLURM_NTASKS=3, but spec e2e-srun asks for 4 "
        "(resources.nodes x tasks per node for launch.mode srun)"
    ) in log, log
    assert not checkpoints.exists()


@pytest.mark.parametrize(
    ("mode", "actual"), [("srun", "SLURM_STEP_NUM_TASKS=4"), ("torchrun", "WORLD_SIZE=4")]
)
def test_a_world_other_than_the_contract_fails_fast_naming_both_sizes(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, mode: str, actual: str
) -> None:
    # The allocation is right, so the script's check passes; the program's world (4 ranks) is
    # not the one its contract describes (8), and jobc.runtime refuses it before any collective.
    # What matters is that the job ends by itself, with that error, instead of hanging at the
    # rendezvous until Slurm signals and kills it; how long it takes is a benchmark's business
    # (benchmarks/wrong_world.py), since a busy machine stretches it.
    logs, checkpoints = prepare(tmp_path)
    spec = toy_job(tmp_path, mode)
    script = compile_data(spec, "env.JOBC_WORLD_SIZE=8")
    job = submit(slurm_cluster, jobs, script, tmp_path)
    # Waiting past the time limit: a job that hangs ends as TIMEOUT and fails below, with its log.
    state = slurm_cluster.wait(job, time_limit_s(spec) + 120)
    record = slurm_cluster.job(job)
    log = job_log(logs)
    shown = f"job {job}: {record}\n--- the job's log ---\n{log}"
    assert state == "FAILED", shown
    # Ended by its own exit status, not by a signal; and before the signal Slurm sends
    # resilience.grace_s ahead of the time limit, so long before the limit itself.
    assert record.get("ExitCode", "").endswith(":0"), shown
    assert record.get("ExitCode") != "0:0", shown
    assert not re.search(r"jobc: SIG\w+ received", log), shown
    assert "jobc: requeueing" not in log, shown
    # Every rank stopped on its own, before any collective: none had to be ended with the step.
    assert "ending the step" not in log, shown
    expected = f"world size: the spec expects JOBC_WORLD_SIZE=8 ranks but the launcher started 4 ({actual})"
    # Every rank says so, naming both sizes, and none got as far as the trainer's first record.
    assert log.count(expected) == WORLD, shown
    assert log.count("WorldMismatchError: the live world does not match the spec 'e2e-") == WORLD, shown
    assert not (checkpoints / "seen").exists(), shown


@pytest.mark.parametrize("mode", ["srun", "torchrun"])
def test_check_program_as_the_job_prints_one_json_line(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path, mode: str
) -> None:
    logs, _ = prepare(tmp_path)
    spec = job_spec(tmp_path, mode, module="jobc.runtime", args=["check"])
    script = compile_data(spec)
    job = submit(slurm_cluster, jobs, script, tmp_path)
    # bounded by what the job may run (its time limit), not by a guess of the machine's speed
    assert slurm_cluster.wait(job, time_limit_s(spec) + 120) == "COMPLETED", job_log(logs)
    log = job_log(logs)
    # every output line carries its rank label (srun --label, torchrun's prefix), and srun cuts a
    # long line into several labelled pieces: read past the labels, join rank 0's pieces
    pieces = [parse_label(line) for line in log.splitlines()]
    starts = [i for i, piece in enumerate(pieces) if piece.text.startswith("{")]
    assert len(starts) == 1, log
    # the pieces end where the JSON does: what follows (a torchrun agent's warning while it shuts
    # down its rendezvous, under the same label) is not part of it
    text, summary = "", None
    for piece in pieces[starts[0] :]:
        if piece.text.startswith("jobc: "):
            break
        text += piece.text
        try:
            summary = json.loads(text)
        except json.JSONDecodeError:
            continue
        break
    assert summary is not None, log
    assert summary["ok"] is True
    assert summary["allreduce"] == {"expected": WORLD * (WORLD + 1) / 2, "ok": True}
    assert (summary["spec"], summary["launch_mode"], summary["backend"]) == (f"e2e-{mode}", mode, "gloo")
    assert (summary["world_size"], summary["num_nodes"], summary["job_id"]) == (WORLD, NODES, str(job))
    assert summary["mesh"] == {"pp": 1, "dp": WORLD // TP, "cp": 1, "tp": TP}
    if mode == "srun":
        # The script's rendezvous; torchrun gives its workers the address of its own store.
        assert summary["master"] == f"{slurm_cluster.node_names[0]}:{20000 + job % 9000}"
    ranks = summary["ranks"]
    assert [r["rank"] for r in ranks] == list(range(WORLD))
    assert all(r["allreduce_sum"] == WORLD * (WORLD + 1) / 2 for r in ranks)
    assert all(r["device"] == "cpu" and r["cuda_visible_devices"] == "0,1" for r in ranks)
    assert sorted(r["node"] for r in ranks) == sorted(slurm_cluster.node_names * GPUS)


PLAIN_TORCH = Path(__file__).with_name("plain_torch.py")


def test_a_plain_torch_program_finds_its_rank_in_srun_mode(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    # No jobc.runtime: the step itself must give each task what torchrun gives its workers.
    logs, _ = prepare(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    script = compile_data(job_spec(tmp_path, "srun", program=str(PLAIN_TORCH), args=[str(out)]))
    job = submit(slurm_cluster, jobs, script, tmp_path)
    assert slurm_cluster.wait(job, LIMIT_S) == "COMPLETED", job_log(logs)
    records = [json.loads((out / f"rank-{rank}.json").read_text()) for rank in range(WORLD)]
    for rank, record in enumerate(records):
        node, local = divmod(rank, GPUS)
        assert (record["rank"], record["world"], record["SLURM_PROCID"]) == (rank, WORLD, str(rank))
        assert record["sum"] == WORLD * (WORLD + 1) / 2
        assert (record["LOCAL_RANK"], record["LOCAL_WORLD_SIZE"]) == (str(local), str(GPUS))
        assert (record["GROUP_RANK"], record["GROUP_WORLD_SIZE"]) == (str(node), str(NODES))
