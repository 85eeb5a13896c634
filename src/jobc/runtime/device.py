"""Which accelerator a rank uses.

With ``--gpus-per-task`` (Slurm ≥ 21.08 binds GPUs per task) or torchrun's
``--virtual-local-rank`` each process sees exactly one GPU, and it is device 0
whatever the local rank; with ``--gpus-per-node`` every process sees the node's
GPUs and picks its local rank. ``CUDA_VISIBLE_DEVICES`` is never rewritten: Slurm
already renumbers devices inside the job's cgroup, and a rewrite after CUDA has
started has no effect anyway.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from jobc.runtime.errors import DeviceError

__all__ = ["DeviceChoice", "select_device"]

_DIAGNOSTIC_VARIABLES = ("CUDA_VISIBLE_DEVICES", "SLURM_STEP_GPUS", "SLURM_GPUS_ON_NODE")


@dataclass(frozen=True)
class DeviceChoice:
    type: str
    index: int | None

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"


def select_device(cuda_count: int, local_rank: int, env: Mapping[str, str]) -> DeviceChoice:
    """``cuda:0`` when one GPU is visible, ``cuda:<local_rank>`` when several, else ``cpu``."""
    if cuda_count <= 0:
        return DeviceChoice("cpu", None)
    if cuda_count == 1:
        return DeviceChoice("cuda", 0)
    if local_rank < cuda_count:
        return DeviceChoice("cuda", local_rank)
    seen = ", ".join(f"{name}={env.get(name, '<unset>')}" for name in _DIAGNOSTIC_VARIABLES)
    raise DeviceError(
        f"local rank {local_rank} has no GPU: this process sees {cuda_count} GPUs "
        f"(cuda:0..cuda:{cuda_count - 1}; {seen}). Either give every rank of the node a "
        "GPU (--gpus-per-node equal to the ranks per node) or bind one GPU per task "
        "(--gpus-per-task=1) so that each process sees exactly one"
    )
