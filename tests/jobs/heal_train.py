"""A light training loop for the self-healing tests on the Slurm cluster: no torch, checkpoints.

    heal_train.py --steps 40 --checkpoint-every 5 --step-sleep 0.2 [--raise-at STEP]

Every rank counts steps; rank 0 writes `step_<N>` into JOBC_CHECKPOINT_DIR every few steps (to a
temporary name, then renamed, so a file with that name is complete), and a run starts after the
highest one, as a program that resumes from its checkpoint does. On SIGTERM (the spec's signal,
passed on by the compiled script) a rank stops after the step in flight; rank 0 saves, and every
rank exits with JOBC_REQUEUE_EXIT_CODE, as `jobc.runtime`'s exit_for_requeue does.

Each rank appends what it did to `<checkpoint dir>/seen/rank<R>.jsonl`: `start` (restart count,
node, first step), `stop` (the step it stopped after) or `done`. `--raise-at STEP`: rank 1 raises
ValueError at that step (a bug); the others finish.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import time
from pathlib import Path

_CHECKPOINT = re.compile(r"step_([0-9]+)")


def rank() -> int:
    return int(os.environ.get("RANK", os.environ.get("SLURM_PROCID", "0")))


def latest(directory: Path) -> int:
    steps = [int(m.group(1)) for p in directory.glob("step_*") if (m := _CHECKPOINT.fullmatch(p.name))]
    return max(steps, default=0)


def save(directory: Path, step: int) -> None:
    tmp = directory / f".step_{step}.tmp"
    tmp.write_text(f"{step}\n")
    tmp.rename(directory / f"step_{step}")


def record(directory: Path, **event: object) -> None:
    seen = directory / "seen"
    seen.mkdir(parents=True, exist_ok=True)
    with (seen / f"rank{rank()}.jsonl").open("a") as out:
        out.write(json.dumps(event) + "\n")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--checkpoint-every", type=int, default=5)
    parser.add_argument("--step-sleep", type=float, default=0.2)
    parser.add_argument("--raise-at", type=int, default=None)
    args = parser.parse_args()
    directory = Path(os.environ["JOBC_CHECKPOINT_DIR"])
    directory.mkdir(parents=True, exist_ok=True)
    stop: list[int] = []
    signal.signal(signal.SIGTERM, lambda n, f: stop.append(n))
    start = latest(directory)
    restart = int(os.environ.get("SLURM_RESTART_COUNT", "0"))
    node = os.environ.get("SLURMD_NODENAME", "?")
    record(directory, event="start", restart=restart, node=node, start_step=start)
    print(f"heal_train: rank {rank()} on {node}, restart {restart}, from step {start}", flush=True)
    for step in range(start + 1, args.steps + 1):
        if args.raise_at == step and rank() == 1:
            raise ValueError(f"bad batch at step {step} on rank {rank()}")
        time.sleep(args.step_sleep)
        if rank() == 0 and step % args.checkpoint_every == 0:
            save(directory, step)
        if stop:
            if rank() == 0:
                save(directory, step)
            record(directory, event="stop", step=step)
            print(f"heal_train: rank {rank()} stops after step {step}", flush=True)
            return int(os.environ.get("JOBC_REQUEUE_EXIT_CODE", "75"))
    record(directory, event="done", step=args.steps)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
