"""Small programs run as every rank of a multi-process test: ``scenarios.py NAME OUTDIR``.

Each writes what its rank saw to ``OUTDIR/rank<N>.json``.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import torch
import torch.distributed as dist

from jobc.runtime import init


def _write(outdir: Path, rank: int, record: dict[str, object]) -> None:
    outdir.mkdir(parents=True, exist_ok=True)
    (outdir / f"rank{rank}.json").write_text(json.dumps(record, sort_keys=True))


def basic(outdir: Path) -> None:
    world = init()
    again = init()
    groups: dict[str, object] = {}
    for dim in ("pp", "dp", "cp", "tp"):
        group = world.mesh.get_group(dim)
        value = torch.tensor([world.rank], dtype=torch.int64)
        dist.all_reduce(value, group=group)
        groups[dim] = {
            "ranks": dist.get_process_group_ranks(group),
            "sum": int(value.item()),
            "size": world.mesh.size(world.mesh.mesh_dim_names.index(dim)),
        }
    _write(
        outdir,
        world.rank,
        {
            "rank": world.rank,
            "local_rank": world.local_rank,
            "world_size": world.world_size,
            "local_world_size": world.local_world_size,
            "node_rank": world.node_rank,
            "num_nodes": world.num_nodes,
            "node_name": world.node_name,
            "device": str(world.device),
            "backend": world.backend,
            "restart_count": world.restart_count,
            "is_main": world.is_main,
            "idempotent": again is world,
            "mesh_dims": list(world.mesh.mesh_dim_names),
            "coordinates": world.coordinates,
            "groups": groups,
            "launch_mode": world.launch_mode,
            "env": {
                name: os.environ.get(name)
                for name in (
                    "RANK",
                    "LOCAL_RANK",
                    "WORLD_SIZE",
                    "LOCAL_WORLD_SIZE",
                    "NODE_RANK",
                    "MASTER_ADDR",
                    "MASTER_PORT",
                )
            },
        },
    )
    world.close()


def init_only(outdir: Path) -> None:
    world = init()
    _write(outdir, world.rank, {"rank": world.rank})
    world.close()


SCENARIOS = {"basic": basic, "init_only": init_only}

if __name__ == "__main__":
    SCENARIOS[sys.argv[1]](Path(sys.argv[2]))
