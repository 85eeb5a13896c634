"""A stand-in training program that checkpoints when it gets SIGUSR1.

    await_checkpoint.py OUT_DIR --node-rank=N

It records who it is (the node rank it was given, and the node Slurm started it on), then waits
for SIGUSR1, its checkpoint signal: on it, it records the checkpoint and ends. Any other signal
ends it the default way, without a checkpoint; so does the job's time limit.
"""

from __future__ import annotations

import json
import os
import signal
import sys
from pathlib import Path


def _publish(path: Path, text: str) -> None:
    """Write a record whole, so that a reader never sees half of it."""
    hidden = path.with_name(f".{path.name}.partial")
    hidden.write_text(text, encoding="utf-8")
    os.replace(hidden, path)


def main() -> int:
    out = Path(sys.argv[1])
    given = [a.split("=", 1)[1] for a in sys.argv[2:] if a.startswith("--node-rank=")]
    rank = os.environ.get("SLURM_PROCID", "-1")
    identity = {
        "node_rank": given[0] if given else None,  # what the script told this rank
        "slurm_nodeid": os.environ.get("SLURM_NODEID"),  # the node it really runs on
        "host": os.environ.get("SLURMD_NODENAME"),
    }
    _publish(out / f"rank-{rank}.json", json.dumps(identity))

    def checkpoint(signum: int, frame: object) -> None:
        _publish(out / f"checkpoint-{rank}.json", json.dumps({"signal": signal.Signals(signum).name}))
        sys.exit(0)

    signal.signal(signal.SIGUSR1, checkpoint)
    while True:
        signal.pause()


if __name__ == "__main__":
    sys.exit(main())
