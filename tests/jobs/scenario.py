"""A training program that fails in a chosen way, for the triage tests on the Slurm cluster.

    scenario.py MODE [OUT_DIR]

MODE `ok`: print a line per rank and exit 0. `raise`: every rank joins a gloo group; rank 3
raises ValueError while the others wait in an all-reduce for it and die of the lost peer or the
collective's timeout. `kill`: rank 1 kills itself with SIGKILL, the others finish. `sleep`:
every rank sleeps (for the time limit). `oom`: every rank fills 1 GiB of memory. `segv`: rank
1 crashes with SIGSEGV. `import`: every rank imports a module that does not exist. `hold OUT
SECONDS`: join the group on MASTER_PORT and keep it; `join`: join a group (the second job on a
port the first holds). `preempt`: on the first run wait for the signal and exit with the
requeue code; on a restart exit 0. `wrongport`: ranks other than 0 look for the store one port
above MASTER_PORT, so the rendezvous never completes. `sweep`: print the arguments.
"""

from __future__ import annotations

import os
import signal
import sys
import time
from datetime import timedelta


def rank() -> int:
    return int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))


def world() -> int:
    return int(os.environ.get("WORLD_SIZE", os.environ.get("SLURM_NTASKS", "1")))


def init(port_offset: int = 0) -> None:
    import torch.distributed as dist

    port = int(os.environ["MASTER_PORT"]) + (port_offset if rank() != 0 else 0)
    dist.init_process_group(
        "gloo",
        init_method=f"tcp://{os.environ['MASTER_ADDR']}:{port}",
        rank=rank(),
        world_size=world(),
        timeout=timedelta(seconds=15),
    )


def load_batch(step: int) -> int:
    if rank() == 3 and step == 2:
        raise ValueError(f"bad sample in batch {step} on rank {rank()}")
    return step


def main() -> int:
    mode = sys.argv[1]
    host = os.environ.get("SLURMD_NODENAME", "?")
    print(f"scenario {mode}: rank {rank()} of {world()} starts on {host}", flush=True)
    if mode == "ok":
        return 0
    if mode == "sweep":
        print(f"sweep args: {' '.join(sys.argv[2:])}", flush=True)
        return 0
    if mode == "raise":
        import torch
        import torch.distributed as dist

        init()
        for step in range(5):
            value = torch.ones(1) * load_batch(step)
            dist.all_reduce(value)
            print(f"step {step}: {value.item()}", flush=True)
        return 0
    if mode == "wrongport":
        init(port_offset=1)
        return 0
    if mode == "kill":
        if rank() == 1:
            time.sleep(1)
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(3)
        return 0
    if mode == "oom":
        # far more than the job's --mem: the step's memory cgroup kills it (OUT_OF_MEMORY)
        hog = bytearray(1 << 30)
        hog[:: 1 << 12] = b"1" * len(hog[:: 1 << 12])
        time.sleep(30)
        return 0
    if mode == "sleep":
        time.sleep(600)
        return 0
    if mode == "preempt":
        if os.environ.get("SLURM_RESTART_COUNT", "0") != "0":
            print(f"rank {rank()}: resumed", flush=True)
            return 0
        got: list[int] = []
        signal.signal(signal.SIGUSR1, lambda n, f: got.append(n))
        signal.signal(signal.SIGTERM, lambda n, f: got.append(n))
        out = sys.argv[2]
        open(os.path.join(out, f"ready-{rank()}"), "w").close()
        while not got:
            time.sleep(0.1)
        print(f"rank {rank()}: signal {got[0]}, checkpoint saved, asking to be requeued", flush=True)
        return int(os.environ.get("JOBC_REQUEUE_EXIT_CODE", "75"))
    if mode == "segv":
        if rank() == 1:
            time.sleep(1)
            os.kill(os.getpid(), signal.SIGSEGV)
        time.sleep(3)
        return 0
    if mode == "import":
        import jobc_no_such_module  # type: ignore[import-not-found]  # noqa: F401

        return 0
    if mode == "hold":
        # hold MASTER_PORT with a live store, for a second job that wants the same port
        init()
        open(os.path.join(sys.argv[2], f"holding-{rank()}"), "w").close()
        time.sleep(float(sys.argv[3]))
        return 0
    if mode == "join":
        init()
        return 0
    raise SystemExit(f"unknown mode {mode}")


if __name__ == "__main__":
    sys.exit(main())
