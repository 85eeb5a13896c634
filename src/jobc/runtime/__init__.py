"""jobc's runtime: the part of jobc that the training program imports.

::

    from jobc.runtime import init

    world = init()                      # idempotent
    loader = DataLoader(..., num_workers=4, worker_init_fn=world.worker_init_fn)
    for step in range(start, steps):
        train_step(...)
        if world.should_stop():         # collective, every rank, every step
            save_checkpoint(world.checkpoint_dir, step)
            world.exit_for_requeue()    # exits with JOBC_REQUEUE_EXIT_CODE
    world.close()

It reads the environment the compiled sbatch script exports (see
``jobc.runtime.contract`` and ``docs/runtime.md``), derives rank, world and
master from torchrun or srun, checks the live world against the spec, starts
``torch.distributed`` and a ``("pp", "dp", "cp", "tp")`` device mesh, and turns
the preemption signal into a collective stop flag.

Only ``init``/``World``/``current`` need torch, and they are loaded on first
use: the contract, hostlist and launch modules stay importable (and cheap) for
the compiler and the CLI.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from jobc.runtime.contract import Contract
from jobc.runtime.errors import (
    ContractError,
    DeviceError,
    HostlistError,
    LaunchError,
    RendezvousError,
    RuntimeSetupError,
    TorchMissingError,
    WorldMismatchError,
)
from jobc.runtime.hostlist import expand_hostlist, expand_tasks_per_node
from jobc.runtime.signals import worker_init_fn

if TYPE_CHECKING:
    from jobc.runtime.world import World, current, init

__all__ = [
    "Contract",
    "ContractError",
    "DeviceError",
    "HostlistError",
    "LaunchError",
    "RendezvousError",
    "RuntimeSetupError",
    "TorchMissingError",
    "World",
    "WorldMismatchError",
    "current",
    "expand_hostlist",
    "expand_tasks_per_node",
    "init",
    "worker_init_fn",
]

_NEEDS_TORCH = frozenset({"World", "current", "init"})


def __getattr__(name: str) -> Any:
    if name in _NEEDS_TORCH:
        from jobc.runtime import world

        return getattr(world, name)
    raise AttributeError(f"module 'jobc.runtime' has no attribute {name!r}")
