"""A training loop that hangs on purpose, for the hang watchdog and the flight-recorder triage.

    python tests/runtime/hang_train.py --hang KIND --rank 1 --at-step 3 [--steps 40]

Every step all-reduces a gradient-sized tensor and then calls ``world.should_stop()``, as a
training loop would. At step ``--at-step``, on rank ``--rank``:

* ``loop``: the rank spins in a Python loop before the step's all-reduce (a stuck data loader, a
  deadlock in user code); the others wait in the all-reduce.
* ``collective``: the rank calls ``broadcast`` where the others call ``all_reduce``.
* ``skip``: the rank skips the step's all-reduce; its next collective (the stop flag) meets the
  others' all-reduce, which differs in size.
* ``size``: the rank all-reduces a tensor of another size.
* ``none``: no hang; the program ends after ``--steps`` steps.

The lines where a rank parts from the others carry a ``# HANG:<kind>`` marker, so that the tests
can find the line number triage must name.
"""

from __future__ import annotations

import argparse
import time

import torch
import torch.distributed as dist

from jobc.runtime import init

SIZE = 64


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hang", choices=["none", "loop", "collective", "skip", "size"], default="none")
    parser.add_argument("--rank", type=int, default=1)
    parser.add_argument("--at-step", type=int, default=3)
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--step-sleep", type=float, default=0.0)
    args = parser.parse_args()

    world = init()
    grad = torch.ones(SIZE)
    odd = world.rank == args.rank
    for step in range(args.steps):
        hang = args.hang if step == args.at_step and odd else "none"
        if hang == "loop":
            spins = 0
            while spins >= 0:  # HANG:loop
                spins += 1
        if hang == "collective":
            dist.broadcast(grad, src=0)  # HANG:collective
        elif hang == "size":
            dist.all_reduce(torch.ones(SIZE + 1))  # HANG:size
        elif hang != "skip":
            dist.all_reduce(grad)
        grad.fill_(1.0)
        if args.step_sleep:
            time.sleep(args.step_sleep)
        if world.should_stop():  # HANG:skip
            break
    print(f"rank {world.rank}: done after {args.steps} steps", flush=True)
    world.close()


if __name__ == "__main__":
    main()
