"""Cross-rank consistency of the world, from what every rank reported on arrival.

Each rank posts a small record to the rendezvous store; rank 0 checks them all
before the process group exists, so a bad layout is an error that every rank
raises with the same message instead of a collective that never returns.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from typing import TypedDict

from jobc.runtime.contract import Contract

__all__ = ["Member", "verify_members"]

_MAX_LISTED = 8


class Member(TypedDict):
    rank: int
    local_rank: int
    local_world_size: int
    node_rank: int
    node: str
    host: str
    pid: int
    job_id: str | None
    restart_count: int
    elastic_restart_count: int
    spec_sha256: str | None
    device: str
    gpu_uuid: str | None


def _listed(values: Sequence[object]) -> str:
    shown = ", ".join(str(v) for v in values[:_MAX_LISTED])
    more = len(values) - _MAX_LISTED
    return shown + (f" and {more} more" if more > 0 else "")


def _consistent(members: Sequence[Member], key: str, label: str) -> list[str]:
    by_value: dict[object, list[int]] = defaultdict(list)
    for member in members:
        fields: Mapping[str, object] = member
        by_value[fields[key]].append(member["rank"])
    if len(by_value) <= 1:
        return []
    parts = [f"{value!r} on ranks {_listed(ranks)}" for value, ranks in by_value.items()]
    return [f"{label} differs between ranks: " + "; ".join(parts)]


def verify_members(members: Sequence[Member], contract: Contract) -> list[str]:
    """Problems with the world the members form; empty when it is sound."""
    problems: list[str] = []
    problems += _consistent(members, "job_id", "SLURM_JOB_ID")
    problems += _consistent(members, "restart_count", "SLURM_RESTART_COUNT")
    problems += _consistent(members, "elastic_restart_count", "TORCHELASTIC_RESTART_COUNT")
    problems += _consistent(members, "spec_sha256", "JOBC_SPEC_SHA256")

    by_node: dict[str, list[Member]] = defaultdict(list)
    for member in members:
        by_node[member["node"]].append(member)

    if contract.nodes is not None and len(by_node) != contract.nodes:
        problems.append(
            f"nodes: the spec expects JOBC_NODES={contract.nodes} nodes but ranks arrived "
            f"from {len(by_node)}: {_listed(sorted(by_node))}"
        )
    node_ranks: dict[int, list[str]] = defaultdict(list)
    for node, group in sorted(by_node.items()):
        ranks = sorted(m["rank"] for m in group)
        expected = contract.gpus_per_node or group[0]["local_world_size"]
        if len(group) != expected:
            source = "JOBC_GPUS_PER_NODE" if contract.gpus_per_node else "LOCAL_WORLD_SIZE"
            problems.append(
                f"ranks per node: node {node} runs {len(group)} ranks ({_listed(ranks)}) but "
                f"{source}={expected}"
            )
        local = sorted(m["local_rank"] for m in group)
        if local != list(range(len(group))):
            problems.append(f"local ranks on node {node} are {_listed(local)}, expected 0..{len(group) - 1}")
        seen_node_ranks = sorted({m["node_rank"] for m in group})
        if len(seen_node_ranks) != 1:
            problems.append(f"node {node} reports several node ranks: {_listed(seen_node_ranks)}")
        for node_rank in seen_node_ranks:
            node_ranks[node_rank].append(node)
        problems += _duplicate_devices(node, group)
    for node_rank, nodes in sorted(node_ranks.items()):
        if len(nodes) > 1:
            problems.append(f"node rank {node_rank} is claimed by several nodes: {_listed(nodes)}")
    return problems


def _duplicate_devices(node: str, group: Sequence[Member]) -> list[str]:
    by_gpu: dict[str, list[int]] = defaultdict(list)
    for member in group:
        if member["device"].startswith("cuda"):
            by_gpu[member["gpu_uuid"] or member["device"]].append(member["rank"])
    return [
        f"ranks {_listed(sorted(ranks))} share GPU {gpu} on node {node} (check "
        "CUDA_VISIBLE_DEVICES and the --gpus-per-* options)"
        for gpu, ranks in sorted(by_gpu.items())
        if len(ranks) > 1
    ]
