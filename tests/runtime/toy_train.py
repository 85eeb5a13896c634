"""A small deterministic training program built on jobc.runtime.

Runs on CPU with gloo under any launcher jobc supports (the multi-process tests
here, or a compiled sbatch script on a Slurm cluster)::

    python tests/runtime/toy_train.py --steps 40 --checkpoint-every 10 --workers 2

* Linear regression with SGD + momentum; the batch of step ``s`` on rank ``r`` is
  a pure function of ``(s, r)``, and gradients are averaged across all ranks, so
  the final state depends only on the number of steps and the world size. The
  momentum update is written out rather than taken from ``torch.optim``, whose
  constructor imports torch's compiler stack and adds seconds to every start.
* Checkpoints go to ``JOBC_CHECKPOINT_DIR`` (``--checkpoint-dir`` otherwise) as
  ``step_<N>.pt``, written by rank 0 to a temporary name and renamed, so a file
  with that name is always complete; a run resumes after the highest one.
* Every rank appends what it saw to ``<dir>/seen/rank<R>.jsonl``: a ``start``
  record (rank, world, node, restart count, first step, seconds left until the
  job's end when Slurm says (``SLURM_JOB_END_TIME``), and for each mesh
  dimension the ranks of its group and the all-reduce of ``2**rank`` over it,
  which names the members that took part), one ``step`` record per executed step
  (with the pid of the process that built its batch: a DataLoader worker when
  ``--workers`` > 0), and ``stop`` (step, reason, signal, and whether every
  worker that built a batch was still alive) or ``done``.
* ``world.should_stop()`` is polled after every step; on a stop the program
  checkpoints and calls ``world.exit_for_requeue()``.
* Rank 0 writes ``<dir>/final.json`` with a digest of the final parameters and
  optimizer state.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import time
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist
from torch.utils.data import DataLoader, Dataset

from jobc.runtime import World, init
from jobc.runtime.parallel import MESH_DIMS

FEATURES = 8
BATCH = 16
_CHECKPOINT = re.compile(r"step_(\d+)\.pt")


class StepBatches(Dataset[tuple[int, torch.Tensor, torch.Tensor, int]]):
    """Item ``i`` is this rank's batch for step ``start + i``, and the pid that built it."""

    def __init__(self, start: int, steps: int, rank: int) -> None:
        self.start, self.steps, self.rank = start, steps, rank
        self.true_w = torch.linspace(-1.0, 1.0, FEATURES).unsqueeze(1)

    def __len__(self) -> int:
        return self.steps - self.start

    def __getitem__(self, index: int) -> tuple[int, torch.Tensor, torch.Tensor, int]:
        step = self.start + index
        generator = torch.Generator().manual_seed(1_000_003 * step + self.rank)
        x = torch.randn(BATCH, FEATURES, generator=generator)
        noise = 0.01 * torch.randn(BATCH, 1, generator=generator)
        return step, x, x @ self.true_w + noise, os.getpid()


def latest_checkpoint(directory: Path) -> Path | None:
    found = [
        (int(m.group(1)), p) for p in directory.glob("step_*.pt") if (m := _CHECKPOINT.fullmatch(p.name))
    ]
    return max(found)[1] if found else None


class Momentum:
    """SGD with momentum (the ``torch.optim.SGD`` update, dampening 0)."""

    def __init__(self, model: torch.nn.Module, lr: float = 0.05, momentum: float = 0.9) -> None:
        self.parameters = list(model.parameters())
        self.lr, self.momentum = lr, momentum
        self.buffers = [torch.zeros_like(p) for p in self.parameters]

    @torch.no_grad()
    def step(self) -> None:
        for parameter, buffer in zip(self.parameters, self.buffers, strict=True):
            assert parameter.grad is not None
            buffer.mul_(self.momentum).add_(parameter.grad)
            parameter.sub_(self.lr * buffer)

    def zero_grad(self) -> None:
        for parameter in self.parameters:
            parameter.grad = None


def save_checkpoint(directory: Path, step: int, model: torch.nn.Module, optimizer: Momentum) -> None:
    final = directory / f"step_{step:08d}.pt"
    temporary = directory / f".step_{step:08d}.pt.tmp"
    torch.save({"step": step, "model": model.state_dict(), "momentum": optimizer.buffers}, temporary)
    with open(temporary, "rb") as handle:
        os.fsync(handle.fileno())
    os.replace(temporary, final)


def state_digest(model: torch.nn.Module, optimizer: Momentum) -> str:
    digest = hashlib.sha256()
    for name, tensor in sorted(model.state_dict().items()):
        digest.update(name.encode())
        digest.update(tensor.detach().contiguous().numpy().tobytes())
    for buffer in optimizer.buffers:
        digest.update(buffer.contiguous().numpy().tobytes())
    return digest.hexdigest()


def mesh_groups(world: World) -> dict[str, dict[str, Any]]:
    """Per mesh dimension: the group's ranks and the all-reduce of ``2**rank`` over it, a bit
    mask of exactly the ranks whose values were summed."""
    groups: dict[str, dict[str, Any]] = {}
    for dim in MESH_DIMS:
        group = world.mesh.get_group(dim)
        value = torch.tensor([2**world.rank], dtype=torch.int64)
        dist.all_reduce(value, group=group)
        groups[dim] = {"ranks": dist.get_process_group_ranks(group), "sum": int(value.item())}
    return groups


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie has ended: its parent just has not reaped it yet)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    except OSError:
        stat = ""
    if stat:
        return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class Seen:
    """Per-rank record of what this rank saw, for the tests and for humans."""

    def __init__(self, directory: Path, rank: int) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self.path = directory / f"rank{rank}.jsonl"

    def write(self, event: str, **fields: Any) -> None:
        with open(self.path, "a") as handle:
            handle.write(json.dumps({"event": event, **fields}, sort_keys=True) + "\n")


def train(world: World, args: argparse.Namespace) -> None:
    directory = world.checkpoint_dir or args.checkpoint_dir
    if directory is None:
        raise SystemExit("set JOBC_CHECKPOINT_DIR or --checkpoint-dir")
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    seen = Seen(directory / "seen", world.rank)

    torch.manual_seed(0)
    model = torch.nn.Linear(FEATURES, 1)
    optimizer = Momentum(model)
    start = 0
    latest = latest_checkpoint(directory)
    if latest is not None:
        state = torch.load(latest, weights_only=True)
        model.load_state_dict(state["model"])
        for buffer, saved in zip(optimizer.buffers, state["momentum"], strict=True):
            buffer.copy_(saved)
        start = int(state["step"]) + 1
    seen.write(
        "start",
        rank=world.rank,
        world_size=world.world_size,
        local_rank=world.local_rank,
        node_rank=world.node_rank,
        node=world.node_name,
        restart_count=world.restart_count,
        start_step=start,
        resumed_from=None if latest is None else latest.name,
        launch_mode=world.launch_mode,
        master=f"{world.master_addr}:{world.master_port}",
        pid=os.getpid(),
        coordinates=world.coordinates,
        mesh=mesh_groups(world),
        workers=args.workers,
        time_left=world.time_left(),
    )

    loader = DataLoader(
        StepBatches(start, args.steps, world.rank),
        batch_size=None,
        num_workers=args.workers,
        worker_init_fn=None if args.no_worker_init else world.worker_init_fn,
    )
    batch_pids: set[int] = set()
    for step, x, y, batch_pid in loader:
        batch_pids.add(batch_pid)
        loss = torch.nn.functional.mse_loss(model(x), y)
        optimizer.zero_grad()
        loss.backward()
        for parameter in model.parameters():
            assert parameter.grad is not None
            dist.all_reduce(parameter.grad)
            parameter.grad /= world.world_size
        optimizer.step()
        seen.write("step", step=step, loss=loss.item(), batch_pid=batch_pid)
        if args.step_sleep:
            time.sleep(args.step_sleep)
        last = step == args.steps - 1
        saved = False
        if world.is_main and (last or (step + 1) % args.checkpoint_every == 0):
            save_checkpoint(directory, step, model, optimizer)
            saved = True
        if not last and world.should_stop():
            seen.write(
                "stop",
                step=step,
                reason=world.stop_reason,
                signal=world.stop_signal,
                batch_pids_alive={str(pid): alive(pid) for pid in sorted(batch_pids)},
            )
            if world.is_main and not saved:
                save_checkpoint(directory, step, model, optimizer)
            world.exit_for_requeue()

    if world.is_main:
        final = {"steps": args.steps, "digest": state_digest(model, optimizer)}
        (directory / "final.json").write_text(json.dumps(final, sort_keys=True))
    seen.write("done", step=args.steps - 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--checkpoint-every", type=int, default=10)
    parser.add_argument("--checkpoint-dir", type=Path, default=None)
    parser.add_argument("--workers", type=int, default=0, help="DataLoader worker processes")
    parser.add_argument("--step-sleep", type=float, default=0.0, help="seconds to idle after each step")
    parser.add_argument(
        "--no-worker-init",
        action="store_true",
        help="leave DataLoader workers exposed to the stop signal (to show why the hook exists)",
    )
    args = parser.parse_args(argv)
    world = init()
    train(world, args)
    world.close()


if __name__ == "__main__":
    main()
