"""Test-side helpers: simulated launcher environments and the fork-server client."""

from __future__ import annotations

import json
import os
import random
import select
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
FORKSERVER = HERE / "forkserver.py"
SCENARIOS = HERE / "scenarios.py"
TOY_TRAIN = HERE / "toy_train.py"

# Launcher and runtime variables that must not leak from the machine running the
# tests (CI may itself run inside a Slurm job) into a simulated rank.
_LEAKY_PREFIXES = ("SLURM_", "SLURMD_", "JOBC_", "TORCHELASTIC_", "NCCL_", "GLOO_")
_LEAKY_NAMES = frozenset(
    {
        "RANK",
        "LOCAL_RANK",
        "WORLD_SIZE",
        "LOCAL_WORLD_SIZE",
        "NODE_RANK",
        "GROUP_RANK",
        "GROUP_WORLD_SIZE",
        "MASTER_ADDR",
        "MASTER_PORT",
        "CUDA_VISIBLE_DEVICES",
    }
)


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _LEAKY_NAMES and not k.startswith(_LEAKY_PREFIXES)}
    env["PYTHONUNBUFFERED"] = "1"
    env["OMP_NUM_THREADS"] = "1"
    return env


#: Ports the ranks of these tests listen on: below the local clusters' ranges (20000 and up) and
#: below Linux's ephemeral ports (32768-60999), which any outgoing connection of another test may
#: take between the moment a port is found free and the moment rank 0 listens on it. Each xdist
#: worker draws from a range of its own, so two workers never pick the same port.
_RANK_PORT_BASE = 12000
_RANK_PORTS_PER_WORKER = 1000


def free_port() -> int:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    low = _RANK_PORT_BASE + (int(worker) % 8 if worker.isdigit() else 0) * _RANK_PORTS_PER_WORKER
    for port in random.sample(range(low, low + _RANK_PORTS_PER_WORKER), _RANK_PORTS_PER_WORKER):
        if port_is_free(port):
            return port
    raise RuntimeError(f"no free port in {low}-{low + _RANK_PORTS_PER_WORKER - 1}")


@contextmanager
def closed_port() -> Iterator[int]:
    """A port nothing listens on for as long as the block runs.

    ``free_port`` only says a port was free a moment ago: under ``-n 4`` another worker's store
    or client may take it before the test connects, and the test then meets a stranger instead
    of a closed port. A socket bound but never listening keeps the port out of everyone else's
    reach, and a connection to it is refused, as one to a host whose rank 0 never started.
    """
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        yield port


def port_is_free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def srun_env(
    rank: int,
    *,
    nodes: int = 2,
    per_node: int = 2,
    job_id: int = 4242,
    master_port: int | None = None,
    master_addr: str | None = "127.0.0.1",
    nodelist: str | None = None,
    jobc: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """What srun gives task ``rank`` of a ``nodes`` × ``per_node`` step (block distribution),
    plus job-level variables that disagree with the step, as in a step smaller than its job."""
    env = clean_env()
    node = rank // per_node
    # Loopback addresses as node names: they resolve, and the list exercises a range.
    hosts = [f"127.0.0.{i + 1}" for i in range(nodes)]
    if nodelist is None:
        nodelist = f"127.0.0.[1-{nodes}]" if nodes > 1 else hosts[0]
    env.update(
        {
            "SLURM_JOB_ID": str(job_id),
            "SLURM_STEP_ID": "0",
            "SLURM_PROCID": str(rank),
            "SLURM_LOCALID": str(rank % per_node),
            "SLURM_NODEID": str(node),
            "SLURM_STEP_NUM_TASKS": str(nodes * per_node),
            "SLURM_STEP_NUM_NODES": str(nodes),
            "SLURM_STEP_NODELIST": nodelist,
            "SLURM_STEP_TASKS_PER_NODE": f"{per_node}(x{nodes})",
            "SLURMD_NODENAME": hosts[node],
            # The job is larger than the step: job-level counts must be ignored.
            "SLURM_JOB_NODELIST": f"127.0.0.[1-{nodes * 2}]",
            "SLURM_JOB_NUM_NODES": str(nodes * 2),
            "SLURM_NTASKS": str(nodes * per_node * 2),
            "SLURM_TASKS_PER_NODE": f"{per_node}(x{nodes * 2})",
            "SLURM_NTASKS_PER_NODE": str(per_node),
            "GLOO_SOCKET_IFNAME": "lo",
            "JOBC_LAUNCH_MODE": "srun",
            "JOBC_WORLD_SIZE": str(nodes * per_node),
            "JOBC_NODES": str(nodes),
            "JOBC_GPUS_PER_NODE": str(per_node),
            "JOBC_RENDEZVOUS_TIMEOUT_S": "30",
        }
    )
    if master_addr is not None:
        env["MASTER_ADDR"] = master_addr
    if master_port is not None:
        env["MASTER_PORT"] = str(master_port)
    env.update(jobc or {})
    return env


def toy_envs(
    checkpoints: Path,
    *,
    restart: int = 0,
    nodes: int = 2,
    per_node: int = 2,
    requeue_exit_code: int | None = None,
) -> list[dict[str, str]]:
    """srun step environments for the toy trainer, checkpointing to ``checkpoints``."""
    port = free_port()
    jobc = {
        "JOBC_CHECKPOINT_DIR": str(checkpoints),
        "JOBC_SIGNAL": "SIGTERM",
        "JOBC_GRACE_S": "20",
        "SLURM_RESTART_COUNT": str(restart),
        # an hour left: a signal now is a preemption, not the time limit
        "SLURM_JOB_END_TIME": str(int(time.time()) + 3600),
    }
    if requeue_exit_code is not None:
        jobc["JOBC_REQUEUE_EXIT_CODE"] = str(requeue_exit_code)
    return [
        srun_env(r, nodes=nodes, per_node=per_node, master_port=port, jobc=jobc)
        for r in range(nodes * per_node)
    ]


def seen(checkpoints: Path, rank: int) -> list[dict[str, Any]]:
    """What the toy trainer recorded on ``rank``, in order (see toy_train.py)."""
    path = checkpoints / "seen" / f"rank{rank}.jsonl"
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


def steps_done(checkpoints: Path, rank: int) -> int:
    return sum(1 for event in seen(checkpoints, rank) if event["event"] == "step")


@dataclass
class Group:
    """The ranks of one launch."""

    server: ForkServer
    pids: list[int]
    logs: Path
    codes: list[int] | None = None
    timed_out: list[int] = field(default_factory=list)

    def stdout(self, index: int) -> str:
        return (self.logs / f"rank{index}.out").read_text()

    def stderr(self, index: int) -> str:
        return (self.logs / f"rank{index}.err").read_text()

    def signal(self, index: int, sig: signal.Signals = signal.SIGTERM, *, group: bool = True) -> None:
        """Signal one rank; with ``group`` also its DataLoader workers, as slurmstepd does."""
        if group:
            os.killpg(self.pids[index], sig)
        else:
            os.kill(self.pids[index], sig)

    def exited(self) -> list[int]:
        """Indices of ranks that have already ended (zombies until the server reaps them)."""
        ended = []
        for index, pid in enumerate(self.pids):
            try:
                state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
            except (FileNotFoundError, IndexError):
                state = "Z"
            if state in ("Z", "X"):
                ended.append(index)
        return ended

    def wait(self, timeout: float = 30.0) -> list[int]:
        reply = self.server.request({"op": "wait", "pids": self.pids, "timeout": timeout}, timeout + 10)
        self.codes = list(reply["codes"])
        self.timed_out = list(reply["timed_out"])
        return self.codes

    def describe(self) -> str:
        parts = [f"exit codes {self.codes}, timed out {self.timed_out}"]
        for i in range(len(self.pids)):
            parts.append(
                f"--- rank {i} stdout ---\n{self.stdout(i)}--- rank {i} stderr ---\n{self.stderr(i)}"
            )
        return "\n".join(parts)


class ForkServer:
    def __init__(self) -> None:
        env = clean_env()
        env["PYTHONPATH"] = os.pathsep.join(
            [str(REPO / "src"), str(REPO), *filter(None, [env.get("PYTHONPATH")])]
        )
        # A file, not a pipe: nobody drains the server's stderr while tests run.
        self.stderr_log = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, str(FORKSERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr_log,
            text=True,
            cwd=REPO,
            env=env,
        )
        self.counter = 0
        try:
            ready = self._read(120)
        except RuntimeError:
            self.stderr_log.seek(0)
            message = self.stderr_log.read()
            self.close()
            raise ForkServerUnavailable(message) from None
        if not ready.get("ready"):
            raise RuntimeError(f"fork server said {ready}")

    def _read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        line = self.proc.stdout.readline() if ready else ""
        if not line:
            raise RuntimeError("fork server did not answer")
        reply: dict[str, Any] = json.loads(line)
        return reply

    def request(self, payload: Mapping[str, Any], timeout: float) -> dict[str, Any]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps(payload) + "\n")
        self.proc.stdin.flush()
        return self._read(timeout)

    def launch(
        self,
        envs: Sequence[Mapping[str, str]],
        logs: Path,
        *,
        path: Path | None = None,
        module: str | None = None,
        args: Sequence[str] = (),
    ) -> Group:
        logs.mkdir(parents=True, exist_ok=True)
        ranks = []
        for index, env in enumerate(envs):
            spec: dict[str, Any] = {
                "env": dict(env),
                "cwd": str(REPO),
                "stdout": str(logs / f"rank{index}.out"),
                "stderr": str(logs / f"rank{index}.err"),
            }
            if module is not None:
                spec["module"] = module
                spec["argv"] = [module, *args]
            else:
                assert path is not None
                spec["path"] = str(path)
                spec["argv"] = [str(path), *args]
            ranks.append(spec)
        reply = self.request({"op": "launch", "ranks": ranks}, 30)
        return Group(server=self, pids=list(reply["pids"]), logs=logs)

    def close(self) -> None:
        if self.proc.poll() is None:
            if self.proc.stdin:
                self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self.proc.stdout:
            self.proc.stdout.close()
        self.stderr_log.close()


class ForkServerUnavailable(RuntimeError):
    """The server could not start; the message is its stderr."""


def wait_for(predicate: Any, timeout: float, what: str, group: Group | None = None) -> None:
    """Poll ``predicate``; fail early, with the ranks' logs, if a rank of ``group`` ended."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if group is not None and group.exited():
            group.wait(10)
            raise AssertionError(f"a rank ended while waiting for {what}:\n{group.describe()}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.02)
