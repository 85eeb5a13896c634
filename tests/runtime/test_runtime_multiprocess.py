"""Real ranks on this machine: 2 simulated nodes × 2 ranks, srun-native variables, gloo on loopback.

The ranks are forked from a server that has torch imported already (see
``forkserver.py``); each gets exactly the environment srun would give it.
Nothing of torch.distributed is mocked.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from jobc.runtime.launch import fallback_master_port
from tests.runtime.procs import (
    REPO,
    SCENARIOS,
    TOY_TRAIN,
    ForkServer,
    Group,
    clean_env,
    closed_port,
    free_port,
    port_is_free,
    seen,
    srun_env,
    steps_done,
    toy_envs,
    wait_for,
)

pytestmark = pytest.mark.runtime

WORLD = 4


# A guard against a hang, not a measure: on a busy machine four ranks of gloo may take minutes
# for what takes seconds alone; a rank that ends early fails the wait at once.
LIMIT_S = 600


def launch_scenario(
    forkserver: ForkServer, tmp_path: Path, name: str, envs: list[dict[str, str]]
) -> tuple[Group, Path]:
    results = tmp_path / "results"
    group = forkserver.launch(envs, tmp_path / "logs", path=SCENARIOS, args=[name, str(results)])
    return group, results


def read_results(results: Path) -> list[dict[str, Any]]:
    return [json.loads((results / f"rank{r}.json").read_text()) for r in range(WORLD)]


def job_with_free_fallback_port() -> int:
    """A job id whose documented fallback MASTER_PORT is free on this machine."""
    rng = random.Random()
    for _ in range(200):
        job = rng.randrange(100_000, 10_000_000)
        if port_is_free(fallback_master_port(job, 0)):
            return job
    raise AssertionError("no free port in the fallback range")


def test_ranks_mesh_and_master_from_step_variables(forkserver: ForkServer, tmp_path: Path) -> None:
    job = job_with_free_fallback_port()
    envs = [
        # No MASTER_ADDR/MASTER_PORT and no scontrol on PATH: both come from the step.
        {**srun_env(r, job_id=job, master_addr=None, jobc={"JOBC_TP": "2"}), "PATH": "/nonexistent"}
        for r in range(WORLD)
    ]
    group, results = launch_scenario(forkserver, tmp_path, "basic", envs)
    assert group.wait(LIMIT_S) == [0] * WORLD, group.describe()
    seen = read_results(results)

    assert [s["rank"] for s in seen] == [0, 1, 2, 3]
    assert [s["local_rank"] for s in seen] == [0, 1, 0, 1]
    assert [s["node_rank"] for s in seen] == [0, 0, 1, 1]
    assert [s["node_name"] for s in seen] == ["127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.2"]
    assert [s["is_main"] for s in seen] == [True, False, False, False]
    for s in seen:
        assert (s["world_size"], s["local_world_size"], s["num_nodes"]) == (4, 2, 2)
        assert (s["device"], s["backend"], s["launch_mode"]) == ("cpu", "gloo", "srun")
        assert s["restart_count"] == 0
        assert s["idempotent"] is True
        assert s["mesh_dims"] == ["pp", "dp", "cp", "tp"]
        assert s["env"] == {
            "RANK": str(s["rank"]),
            "LOCAL_RANK": str(s["local_rank"]),
            "WORLD_SIZE": "4",
            "LOCAL_WORLD_SIZE": "2",
            "NODE_RANK": str(s["node_rank"]),
            "MASTER_ADDR": "127.0.0.1",
            "MASTER_PORT": str(fallback_master_port(job, 0)),
        }
        # size-1 dimensions are real groups of one
        for dim in ("pp", "cp"):
            assert s["groups"][dim] == {"ranks": [s["rank"]], "size": 1, "sum": s["rank"]}

    tp = {s["rank"]: s["groups"]["tp"] for s in seen}
    assert tp[0] == tp[1] == {"ranks": [0, 1], "size": 2, "sum": 0 + 1}
    assert tp[2] == tp[3] == {"ranks": [2, 3], "size": 2, "sum": 2 + 3}
    dp = {s["rank"]: s["groups"]["dp"] for s in seen}
    assert dp[0] == dp[2] == {"ranks": [0, 2], "size": 2, "sum": 0 + 2}
    assert dp[1] == dp[3] == {"ranks": [1, 3], "size": 2, "sum": 1 + 3}


def test_world_size_mismatch_fails_fast_with_both_numbers(forkserver: ForkServer, tmp_path: Path) -> None:
    port = free_port()
    envs = [srun_env(r, master_port=port, jobc={"JOBC_WORLD_SIZE": "8"}) for r in range(WORLD)]
    group, results = launch_scenario(forkserver, tmp_path, "init_only", envs)
    # ended by itself, each rank on the world check (not a rendezvous or collective timeout)
    assert group.wait(LIMIT_S) == [1] * WORLD, group.describe()
    for r in range(WORLD):
        err = group.stderr(r)
        assert "WorldMismatchError" in err
        assert "JOBC_WORLD_SIZE=8 ranks but the launcher started 4 (SLURM_STEP_NUM_TASKS=4)" in err
    assert not results.exists()


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        # srun put every task on one node: only the ranks' own reports can show it
        (
            lambda r, env: env.update(SLURMD_NODENAME="samehost"),
            [
                "JOBC_NODES=2 nodes but ranks arrived from 1: samehost",
                "node samehost runs 4 ranks (0, 1, 2, 3) but JOBC_GPUS_PER_NODE=2",
            ],
        ),
        # one rank runs a different version of the spec
        (
            lambda r, env: env.update(JOBC_SPEC_SHA256="b" * 64 if r == 3 else "a" * 64),
            ["JOBC_SPEC_SHA256 differs between ranks: 'aaaa", "on ranks 0, 1, 2; 'bbbb", "on ranks 3"],
        ),
    ],
    ids=["all-ranks-on-one-node", "different-spec"],
)
def test_rendezvous_rejects_an_inconsistent_world_on_every_rank(
    forkserver: ForkServer, tmp_path: Path, change: Any, expected: list[str]
) -> None:
    port = free_port()
    envs = [srun_env(r, master_port=port) for r in range(WORLD)]
    for r, env in enumerate(envs):
        change(r, env)
    group, results = launch_scenario(forkserver, tmp_path, "init_only", envs)
    assert group.wait(LIMIT_S) == [1] * WORLD, group.describe()
    for r in range(WORLD):
        err = group.stderr(r)
        assert "WorldMismatchError: the live world does not match" in err, group.describe()
        for text in expected:
            assert text in err, group.describe()
    assert not results.exists()


def test_a_rank_that_never_arrives_ends_the_rendezvous_with_a_count(
    forkserver: ForkServer, tmp_path: Path
) -> None:
    port = free_port()
    envs = [srun_env(r, master_port=port, jobc={"JOBC_RENDEZVOUS_TIMEOUT_S": "1.5"}) for r in range(WORLD)]
    group, _ = launch_scenario(forkserver, tmp_path, "init_only", envs[:3])  # rank 3 never starts
    # ended by itself on the 1.5 s rendezvous bound, naming the count (asserted below)
    assert group.wait(LIMIT_S) == [1, 1, 1], group.describe()
    for r in range(3):
        err = group.stderr(r)
        assert "RendezvousError" in err, group.describe()
        assert f"MASTER_ADDR:MASTER_PORT = 127.0.0.1:{port}" in err
        assert "3 of 4 ranks arrived; missing ranks: 3" in err


def test_a_missing_rank_zero_is_named_by_the_others(forkserver: ForkServer, tmp_path: Path) -> None:
    with closed_port() as port:
        short = {"JOBC_RENDEZVOUS_TIMEOUT_S": "1.5"}
        envs = [srun_env(r, master_port=port, jobc=short) for r in range(WORLD)]
        group, _ = launch_scenario(forkserver, tmp_path, "init_only", envs[1:])
        assert group.wait(LIMIT_S) == [1, 1, 1], group.describe()
    for r in range(3):
        err = group.stderr(r)
        assert f"rendezvous store at MASTER_ADDR:MASTER_PORT = 127.0.0.1:{port}" in err, group.describe()
        assert "0 of 4 ranks could be counted" in err
        assert "rank 0, which hosts the store, never opened it" in err


def test_check_program_prints_one_json_line(forkserver: ForkServer, tmp_path: Path) -> None:
    port = free_port()
    envs = [
        srun_env(r, master_port=port, jobc={"JOBC_SPEC_NAME": "smoke", "JOBC_TP": "2"}) for r in range(WORLD)
    ]
    group = forkserver.launch(envs, tmp_path / "logs", module="jobc.runtime", args=["check"])
    assert group.wait(LIMIT_S) == [0] * WORLD, group.describe()
    lines = group.stdout(0).splitlines()
    assert len(lines) == 1, group.describe()
    summary = json.loads(lines[0])
    assert summary["ok"] is True
    assert summary["allreduce"] == {"expected": 10.0, "ok": True}
    assert (summary["world_size"], summary["num_nodes"], summary["spec"]) == (4, 2, "smoke")
    assert summary["master"] == f"127.0.0.1:{port}"
    assert summary["mesh"] == {"pp": 1, "dp": 2, "cp": 1, "tp": 2}
    ranks = summary["ranks"]
    assert [r["rank"] for r in ranks] == [0, 1, 2, 3]
    assert [r["node"] for r in ranks] == ["127.0.0.1", "127.0.0.1", "127.0.0.2", "127.0.0.2"]
    for report in ranks:
        assert report["allreduce_sum"] == 10.0
        assert report["device"] == "cpu"
        assert (report["interface"], report["interface_source"]) == ("lo", "GLOO_SOCKET_IFNAME")
        assert report["route_interface"] == "lo"
        assert report["host"]
    for r in range(1, WORLD):
        assert group.stdout(r) == ""


def test_check_program_reports_a_failed_start_as_json(forkserver: ForkServer, tmp_path: Path) -> None:
    envs = [srun_env(r, master_port=free_port(), jobc={"JOBC_NODES": "3"}) for r in range(WORLD)]
    group = forkserver.launch(envs, tmp_path / "logs", module="jobc.runtime", args=["check"])
    assert group.wait(LIMIT_S) == [1] * WORLD, group.describe()
    lines = group.stdout(0).splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["ok"] is False
    assert "JOBC_NODES=3 nodes but the launcher reports 2" in summary["error"]


# --- preemption: the toy training program ---------------------------------------------------

STEPS = 24
REQUEUE = 99  # not the default, to show the contract is read


def run_toy(forkserver: ForkServer, envs: list[dict[str, str]], logs: Path, *extra: str) -> Group:
    args = ["--steps", str(STEPS), "--checkpoint-every", "8", "--workers", "2", *extra]
    return forkserver.launch(envs, logs, path=TOY_TRAIN, args=args)


def test_signal_to_one_rank_stops_every_rank_at_the_same_step_and_resume_is_exact(
    forkserver: ForkServer, tmp_path: Path
) -> None:
    reference = tmp_path / "reference"
    group = run_toy(forkserver, toy_envs(reference, requeue_exit_code=REQUEUE), tmp_path / "logs-reference")
    assert group.wait(LIMIT_S) == [0] * WORLD, group.describe()

    interrupted = tmp_path / "interrupted"
    group = run_toy(
        forkserver,
        toy_envs(interrupted, requeue_exit_code=REQUEUE),
        tmp_path / "logs-first",
        "--step-sleep",
        "0.05",
    )
    wait_for(lambda: steps_done(interrupted, 2) >= 5, LIMIT_S, "rank 2 to run five steps", group)
    # Like slurmstepd: the rank and its DataLoader workers get the signal; the other ranks do not.
    group.signal(2)
    assert group.wait(LIMIT_S) == [REQUEUE] * WORLD, group.describe()
    stops = [next(e for e in seen(interrupted, r) if e["event"] == "stop") for r in range(WORLD)]
    stop_step = stops[0]["step"]
    for stop in stops:
        assert (stop["step"], stop["reason"], stop["signal"]) == (stop_step, "preemption", "SIGTERM")
        assert list(stop["batch_pids_alive"].values()) == [True, True], stop  # both workers
    assert stop_step < STEPS - 1
    for r in range(WORLD):
        assert "killed by signal" not in group.stderr(r), group.describe()

    group = run_toy(
        forkserver, toy_envs(interrupted, restart=1, requeue_exit_code=REQUEUE), tmp_path / "logs-second"
    )
    assert group.wait(LIMIT_S) == [0] * WORLD, group.describe()

    for r in range(WORLD):
        events = seen(interrupted, r)
        starts = [e for e in events if e["event"] == "start"]
        assert [(s["restart_count"], s["start_step"]) for s in starts] == [(0, 0), (1, stop_step + 1)]
        assert starts[1]["resumed_from"] == f"step_{stop_step:08d}.pt"
        executed = [e["step"] for e in events if e["event"] == "step"]
        assert executed == list(range(STEPS)), f"rank {r} executed {executed}"
        assert events[-1] == {"event": "done", "step": STEPS - 1}
        # the losses match the uninterrupted run step for step
        reference_losses = [e["loss"] for e in seen(reference, r) if e["event"] == "step"]
        assert [e["loss"] for e in events if e["event"] == "step"] == reference_losses

    final = json.loads((interrupted / "final.json").read_text())
    assert final == json.loads((reference / "final.json").read_text())


def test_dataloader_workers_need_the_hook_to_survive_the_signal(
    forkserver: ForkServer, tmp_path: Path
) -> None:
    # Control for the test above: a single rank whose workers are left exposed to the
    # step-wide signal loses them to it. Whether the rank then dies of the DataLoader's error
    # at once or first finishes its step and checkpoint (the error comes later, from the
    # iterator's cleanup) depends on which process the scheduler runs first: both happen on a
    # busy machine, so only what holds either way is asserted.
    checkpoints = tmp_path / "exposed"
    envs = toy_envs(checkpoints, nodes=1, per_node=1, requeue_exit_code=REQUEUE)
    group = run_toy(forkserver, envs, tmp_path / "logs", "--step-sleep", "0.1", "--no-worker-init")
    wait_for(lambda: steps_done(checkpoints, 0) >= 3, LIMIT_S, "three steps", group)
    group.signal(0)
    codes = group.wait(LIMIT_S)
    assert codes[0] != 0, group.describe()
    assert re.search(r"DataLoader worker \(pid \d+\) is killed by signal: Terminated", group.stderr(0)), (
        group.describe()
    )


@pytest.mark.slow
def test_python_m_check_in_a_fresh_interpreter(tmp_path: Path) -> None:
    # The real entry point, in a real interpreter (one rank: each interpreter pays torch's import).
    env = {**clean_env(), "PYTHONPATH": os.pathsep.join([str(REPO / "src"), str(REPO)])}
    env.update({"JOBC_SPEC_NAME": "fresh", "JOBC_WORLD_SIZE": "1", "GLOO_SOCKET_IFNAME": "lo"})
    try:
        result = subprocess.run(
            [sys.executable, "-m", "jobc.runtime", "check"],
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
            check=False,
            cwd=tmp_path,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("python -m jobc.runtime check did not finish in 120 s")
    if "No module named 'torch'" in result.stderr:
        pytest.skip(reason="torch is not importable (install jobc[runtime]); the runtime needs it")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert (summary["ok"], summary["spec"], summary["world_size"], summary["launch_mode"]) == (
        True,
        "fresh",
        1,
        "single",
    )
