"""A stand-in training program for the Slurm tests: records what this rank sees, as JSON.

    record_rank.py OUT_DIR MODE [EXTRA…]

MODE `exit`: record and exit 0. MODE `requeue`: record, then ask for a requeue (exit with
JOBC_REQUEUE_EXIT_CODE) on the first run and exit 0 on a restart. MODE `preempt`: record, then
on the first run (restart count 0) wait for SIGTERM, record that it arrived and exit with
JOBC_REQUEUE_EXIT_CODE, as a program using jobc.runtime does after its checkpoint; on a restart,
record and exit 0.
No torch: this runs with any Python.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys
import time
from pathlib import Path

VARIABLES = (
    "RANK", "LOCAL_RANK", "WORLD_SIZE", "LOCAL_WORLD_SIZE", "GROUP_RANK", "TORCHELASTIC_RUN_ID",
    "SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID", "SLURMD_NODENAME", "SLURM_JOB_ID",
    "SLURM_RESTART_COUNT", "MASTER_ADDR", "MASTER_PORT", "CUDA_VISIBLE_DEVICES",
    "NCCL_SOCKET_IFNAME", "GLOO_SOCKET_IFNAME", "CUDA_DEVICE_MAX_CONNECTIONS",
)  # fmt: skip


def _publish(path: Path, text: str) -> None:
    """Write a record whole: the test polls for the file and reads it as soon as it exists."""
    hidden = path.with_name(f".{path.name}.partial")
    hidden.write_text(text, encoding="utf-8")
    os.replace(hidden, path)


def main() -> int:
    out, mode, extra = Path(sys.argv[1]), sys.argv[2], sys.argv[3:]
    env = {key: value for key, value in os.environ.items() if key in VARIABLES or key.startswith("JOBC_")}
    env.update({key: value for key, value in os.environ.items() if key.startswith("PAYLOAD_")})
    rank = os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0"))
    restart = os.environ.get("SLURM_RESTART_COUNT", "0")
    record = {"env": env, "argv": extra, "pid": os.getpid(), "host": socket.gethostname()}
    signals: list[int] = []

    def on_signal(signum: int, frame: object) -> None:
        signals.append(signum)

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGUSR2, on_signal)
    name = f"rank-{restart}-{rank}"
    _publish(out / f"{name}.json", json.dumps(record))
    if mode == "requeue" and restart == "0":
        return int(os.environ.get("JOBC_REQUEUE_EXIT_CODE", "75"))
    if mode == "exit" or restart != "0":
        return 0
    # As long as the job may run: its time limit ends a rank the signal never reaches.
    while not signals:
        time.sleep(0.1)
    _publish(out / f"{name}.signal", json.dumps(signals))
    return int(os.environ.get("JOBC_REQUEUE_EXIT_CODE", "75"))


if __name__ == "__main__":
    sys.exit(main())
