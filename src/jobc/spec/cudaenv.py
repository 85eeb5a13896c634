"""CUDA_DEVICE_MAX_CONNECTIONS: the value a job needs, from its parallel layout and GPU.

Megatron-style tensor and context parallelism overlap communication with compute only when the
GPU schedules kernels in issue order, which a single hardware work queue guarantees on GPUs
before Blackwell. FSDP2 and Megatron-FSDP need the opposite: several queues, so that their
all-gathers run beside compute. Blackwell orders kernels without it. Overlapping the MoE
expert-parallel all-to-all wants 32 queues.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.spec.catalog import Gpu
    from jobc.spec.plain import JobSpec

FSDP_SHARDING = frozenset({"fsdp2", "megatron-fsdp"})


def device_max_connections(spec: JobSpec, gpu: Gpu | None) -> int | None:
    """The value to export, or None when the variable should stay unset (CUDA's default)."""
    if spec.workload.overlap_moe_ep_comm:
        return 32
    if spec.parallelism.sharding in FSDP_SHARDING:
        return None
    if gpu is not None and gpu.generation == "blackwell":
        return None
    p = spec.parallelism
    # An unknown GPU is treated as pre-Blackwell: there 1 is required, on Blackwell harmless.
    if p.tp > 1 or p.cp > 1:
        return 1
    return None
