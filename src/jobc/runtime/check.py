"""``python -m jobc.runtime check``: a smoke test for a new cluster or image.

Run it as the job's program. Every rank reports its host, device and network
interface and joins one all-reduce of ``rank + 1``; rank 0 prints exactly one
JSON line with every rank's report and whether the sum was ``N(N+1)/2``. The
exit status is 0 only if the world came up and every rank saw the right sum.
"""

from __future__ import annotations

import json
import os
import socket
import sys
from typing import Any

from jobc.runtime.errors import require_torch

try:
    import torch
    import torch.distributed as dist
except ModuleNotFoundError as missing:
    require_torch(missing)
    raise

from jobc.runtime.netinfo import describe_interface
from jobc.runtime.world import World, init

__all__ = ["main", "run_check"]


def _report(world: World, allreduce_sum: float) -> dict[str, Any]:
    report: dict[str, Any] = {
        "rank": world.rank,
        "local_rank": world.local_rank,
        "node_rank": world.node_rank,
        "node": world.node_name,
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "device": str(world.device),
        "coordinates": world.coordinates,
        "allreduce_sum": allreduce_sum,
        "cuda_visible_devices": os.environ.get("CUDA_VISIBLE_DEVICES"),
    }
    if world.device.type == "cuda":
        report["gpu"] = torch.cuda.get_device_name(world.device)
    report.update(describe_interface(world.master_addr, os.environ))
    return report


def run_check(world: World) -> dict[str, Any]:
    """The all-reduce and the gathered reports; collective, returns the summary on every rank."""
    tensor_device = world.device if world.backend == "nccl" else torch.device("cpu")
    value = torch.tensor([float(world.rank + 1)], dtype=torch.float64, device=tensor_device)
    dist.all_reduce(value)
    got = float(value.item())
    expected = world.world_size * (world.world_size + 1) / 2
    reports: list[Any] = [None] * world.world_size
    dist.all_gather_object(reports, _report(world, got))
    all_right = all(r["allreduce_sum"] == expected for r in reports)
    return {
        "ok": all_right,
        "spec": world.spec_name,
        "spec_sha256": world.spec_sha256,
        "launch_mode": world.launch_mode,
        "job_id": world.job_id,
        "restart_count": world.restart_count,
        "world_size": world.world_size,
        "num_nodes": world.num_nodes,
        "master": f"{world.master_addr}:{world.master_port}",
        "backend": world.backend,
        "mesh": dict(zip(("pp", "dp", "cp", "tp"), world.parallel.shape, strict=True)),
        "allreduce": {"expected": expected, "ok": all_right},
        "ranks": reports,
    }


def _guess_rank() -> int:
    for name in ("RANK", "SLURM_PROCID"):
        value = os.environ.get(name, "")
        if value.isascii() and value.isdigit() and len(value) <= 18:  # not "²", not 5000 digits
            return int(value)
    return 0


def _fail(rank: int, stage: str, exc: BaseException) -> int:
    message = f"{stage}: {type(exc).__name__}: {exc}"
    print(f"jobc.runtime check: rank {rank}: {message}", file=sys.stderr, flush=True)
    if rank == 0:
        print(json.dumps({"ok": False, "error": message}, sort_keys=True), flush=True)
    return 1


def main() -> int:
    try:
        world = init()
    except Exception as exc:
        return _fail(_guess_rank(), "start", exc)
    try:
        summary = run_check(world)
    except Exception as exc:
        return _fail(world.rank, "all-reduce", exc)
    if world.is_main:
        print(json.dumps(summary, sort_keys=True), flush=True)
    world.close()
    return 0 if summary["ok"] else 1
