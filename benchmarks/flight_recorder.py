"""What torch's flight recorder costs a small gloo job: steps per second with it off and on.

    uv run python benchmarks/flight_recorder.py [--rounds N] [--steps N] [--json]

Two local ranks (gloo on loopback, one thread each) run the shape of a training step that
`jobc.runtime` sees: an all-reduce of a 4096-float gradient, then the stop flag's all-reduce of
two int64 (`world.should_stop()`), so two recorded collectives per step and almost nothing else.
That is the worst case for the recorder: real steps spend their time computing, and the recorder
only adds a record per collective. Off is `TORCH_FR_BUFFER_SIZE=0` (and the older
`TORCH_NCCL_TRACE_BUFFER_SIZE=0`); on is what the compiled script sets by default, 2000 entries.
Rounds alternate off and on; each round is a fresh pair of processes, timed from the first step
after a warm-up to the last, on rank 0.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from typing import Any

from _bench import ROOT, machine

WORKER = """
import os, sys, time
import torch, torch.distributed as dist
rank = int(os.environ["RANK"])
torch.set_num_threads(1)
dist.init_process_group("gloo", rank=rank, world_size=2)
grad = torch.ones(4096)
flag = torch.zeros(2, dtype=torch.int64)
steps = int(sys.argv[1])
for _ in range(50):
    dist.all_reduce(grad); dist.all_reduce(flag)
dist.barrier()
start = time.perf_counter()
for _ in range(steps):
    dist.all_reduce(grad)
    dist.all_reduce(flag)
elapsed = time.perf_counter() - start
if rank == 0:
    print(steps / elapsed)
dist.destroy_process_group()
"""


def one(size: int, steps: int, port: int) -> float:
    base = {
        **os.environ,
        "MASTER_ADDR": "127.0.0.1",
        "MASTER_PORT": str(port),
        "WORLD_SIZE": "2",
        "OMP_NUM_THREADS": "1",
        "GLOO_SOCKET_IFNAME": "lo",
        "TORCH_FR_BUFFER_SIZE": str(size),
        "TORCH_NCCL_TRACE_BUFFER_SIZE": str(size),
    }
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WORKER, str(steps)],
            env={**base, "RANK": str(rank)},
            stdout=subprocess.PIPE,
            text=True,
        )
        for rank in range(2)
    ]
    outs = [p.communicate()[0] for p in procs]
    if any(p.returncode for p in procs):
        raise SystemExit(f"a rank failed: {[p.returncode for p in procs]}")
    return float(outs[0].strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    try:
        import torch
    except ModuleNotFoundError:
        result: dict[str, Any] = {"available": False}
        print(json.dumps(result) if args.json else "torch is not installed")
        return 0
    off: list[float] = []
    on: list[float] = []
    port = 29_000 + os.getpid() % 500
    with tempfile.TemporaryDirectory():
        for round_ in range(args.rounds):
            order = [(0, off), (2000, on)] if round_ % 2 == 0 else [(2000, on), (0, off)]
            for size, bucket in order:
                port += 1
                bucket.append(one(size, args.steps, port))
    result = {
        "available": True,
        "torch": torch.__version__,
        "rounds": args.rounds,
        "steps": args.steps,
        "off_steps_per_s": statistics.median(off),
        "on_steps_per_s": statistics.median(on),
        "off_range": [min(off), max(off)],
        "on_range": [min(on), max(on)],
        "ratio": statistics.median(on) / statistics.median(off),
        "machine": machine(),
        "root": str(ROOT),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"torch {result['torch']}: off {result['off_steps_per_s']:.0f} steps/s, "
            f"on {result['on_steps_per_s']:.0f} steps/s, ratio {result['ratio']:.3f}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
