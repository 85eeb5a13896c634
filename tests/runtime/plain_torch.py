"""A torch program that knows nothing of jobc or Slurm: `init_process_group` with the env://
rendezvous, which reads RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT, then one all-reduce.

    plain_torch.py OUT_DIR
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist


def main() -> int:
    out = Path(sys.argv[1])
    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    value = torch.tensor([float(rank + 1)])
    dist.all_reduce(value)
    names = ("LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK", "GROUP_WORLD_SIZE", "SLURM_PROCID")
    record = {"rank": rank, "world": world, "sum": value.item(), **{n: os.environ.get(n) for n in names}}
    (out / f"rank-{rank}.json").write_text(json.dumps(record), encoding="utf-8")
    dist.destroy_process_group()
    return 0


if __name__ == "__main__":
    sys.exit(main())
