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
start, cpu = time.perf_counter(), time.process_time()
for _ in range(steps):
    dist.all_reduce(grad)
    dist.all_reduce(flag)
elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
if rank == 0:
    print(steps / elapsed, 1e6 * cpu / steps)
dist.destroy_process_group()
"""


def one(size: int, steps: int, port: int) -> tuple[float, float]:
    """(steps per second, CPU microseconds per step of rank 0, all its threads)."""
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
    rate, cpu = outs[0].split()
    return float(rate), float(cpu)


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
    off: list[tuple[float, float]] = []
    on: list[tuple[float, float]] = []
    port = 29_000 + os.getpid() % 500
    for round_ in range(args.rounds):
        order = [(0, off), (2000, on)] if round_ % 2 == 0 else [(2000, on), (0, off)]
        for size, bucket in order:
            port += 1
            bucket.append(one(size, args.steps, port))
    off_rate, on_rate = [r for r, _ in off], [r for r, _ in on]
    off_cpu, on_cpu = [c for _, c in off], [c for _, c in on]
    result = {
        "available": True,
        "torch": torch.__version__,
        "rounds": args.rounds,
        "steps": args.steps,
        "off_steps_per_s": statistics.median(off_rate),
        "on_steps_per_s": statistics.median(on_rate),
        "off_range": [min(off_rate), max(off_rate)],
        "on_range": [min(on_rate), max(on_rate)],
        "ratio": statistics.median(on_rate) / statistics.median(off_rate),
        "off_cpu_us_per_step": statistics.median(off_cpu),
        "on_cpu_us_per_step": statistics.median(on_cpu),
        "cpu_ratio": statistics.median(on_cpu) / statistics.median(off_cpu),
        "machine": machine(),
        "root": str(ROOT),
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"torch {result['torch']}: off {result['off_steps_per_s']:.0f} steps/s, "
            f"on {result['on_steps_per_s']:.0f} steps/s, ratio {result['ratio']:.3f}; CPU per step "
            f"{result['off_cpu_us_per_step']:.0f} vs {result['on_cpu_us_per_step']:.0f} µs"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
