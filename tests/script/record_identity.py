"""A stand-in training program: records who this rank is, the way a training program finds out.

    record_identity.py OUT_DIR

Rank, local rank and world size come from torchrun's variables when it started the process, and
from Slurm's when srun did; the master address is MASTER_ADDR either way. No torch is imported.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from pathlib import Path


def _publish(path: Path, text: str) -> None:
    """Write a record whole: the test polls for the file and reads it as soon as it exists."""
    hidden = path.with_name(f".{path.name}.partial")
    hidden.write_text(text, encoding="utf-8")
    os.replace(hidden, path)


def main() -> int:
    out = Path(sys.argv[1])
    env = os.environ
    rank = int(env.get("RANK", env.get("SLURM_PROCID", "-1")))
    identity = {
        "rank": rank,
        "local_rank": int(env.get("LOCAL_RANK", env.get("SLURM_LOCALID", "-1"))),
        "world_size": int(env.get("WORLD_SIZE", env.get("SLURM_NTASKS", "-1"))),
        "master_addr": env.get("MASTER_ADDR"),
        # the test cluster's nodes share one machine: Slurm's node name tells them apart
        "host": env.get("SLURMD_NODENAME", socket.gethostname()),
        "argv": sys.argv[2:],
    }
    _publish(out / f"rank-{rank}.json", json.dumps(identity))
    return 0


if __name__ == "__main__":
    sys.exit(main())
