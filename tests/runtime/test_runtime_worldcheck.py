"""Rank 0's verdict on the records every rank posts at the rendezvous, and the interface report."""

from __future__ import annotations

from typing import Any

from jobc.runtime.contract import Contract
from jobc.runtime.netinfo import address_is_local, describe_interface
from jobc.runtime.worldcheck import Member, verify_members


def member(rank: int, per_node: int = 2, **changes: Any) -> Member:
    node = rank // per_node
    record = Member(
        rank=rank,
        local_rank=rank % per_node,
        local_world_size=per_node,
        node_rank=node,
        node=f"gpu-{node:03d}",
        host=f"gpu-{node:03d}",
        pid=1000 + rank,
        job_id="77",
        restart_count=0,
        elastic_restart_count=0,
        spec_sha256="a" * 64,
        device=f"cuda:{rank % per_node}",
        gpu_uuid=f"GPU-{node}-{rank % per_node}",
    )
    record.update(changes)  # type: ignore[typeddict-item]
    return record


CONTRACT = Contract(world_size=4, nodes=2, gpus_per_node=2)


def test_a_sound_world_has_no_problems() -> None:
    assert verify_members([member(r) for r in range(4)], CONTRACT) == []


def test_two_ranks_on_one_gpu() -> None:
    # CUDA_VISIBLE_DEVICES exported once for the whole node: both ranks see GPU 0 only.
    members = [member(r) for r in range(4)]
    members[1] = member(1, device="cuda:0", gpu_uuid="GPU-0-0")
    assert verify_members(members, CONTRACT) == [
        "ranks 0, 1 share GPU GPU-0-0 on node gpu-000 "
        "(check CUDA_VISIBLE_DEVICES and the --gpus-per-* options)"
    ]


def test_restart_counts_and_spec_hashes_must_agree() -> None:
    members = [member(r) for r in range(4)]
    members[3] = member(3, restart_count=1, spec_sha256="b" * 64)
    problems = verify_members(members, CONTRACT)
    assert problems[0] == "SLURM_RESTART_COUNT differs between ranks: 0 on ranks 0, 1, 2; 1 on ranks 3"
    assert problems[1].startswith("JOBC_SPEC_SHA256 differs between ranks: 'aaaa")


def test_uneven_nodes_are_named() -> None:
    members = [member(r, per_node=3) for r in range(4)]  # 3 + 1
    problems = verify_members(members, CONTRACT)
    assert "ranks per node: node gpu-000 runs 3 ranks (0, 1, 2) but JOBC_GPUS_PER_NODE=2" in problems
    assert "ranks per node: node gpu-001 runs 1 ranks (3) but JOBC_GPUS_PER_NODE=2" in problems


def test_node_rank_claimed_twice() -> None:
    members = [member(r) for r in range(4)]
    members[2] = member(2, node_rank=0)
    members[3] = member(3, node_rank=0)
    problems = verify_members(members, CONTRACT)
    assert problems == ["node rank 0 is claimed by several nodes: gpu-000, gpu-001"]


def test_without_a_contract_the_launcher_counts_are_used() -> None:
    members = [member(r) for r in range(3)]  # node 1 should have 2 ranks
    assert verify_members(members, Contract()) == [
        "ranks per node: node gpu-001 runs 1 ranks (2) but LOCAL_WORLD_SIZE=2"
    ]


def test_long_rank_lists_are_shortened() -> None:
    members = [member(r, per_node=20, node="one", node_rank=0) for r in range(20)]
    (problem,) = verify_members(members, Contract(gpus_per_node=8))
    assert (
        problem == "ranks per node: node one runs 20 ranks (0, 1, 2, 3, 4, 5, 6, 7 and 12 more) "
        "but JOBC_GPUS_PER_NODE=8"
    )


def test_interface_of_the_route_to_the_master() -> None:
    report = describe_interface("127.0.0.1", {})
    assert report["interface"] == "lo"
    assert report["interface_source"] == "route to MASTER_ADDR=127.0.0.1"
    assert report["route_address"] == "127.0.0.1"


def test_configured_interface_wins() -> None:
    report = describe_interface("127.0.0.1", {"NCCL_SOCKET_IFNAME": "ib0", "GLOO_SOCKET_IFNAME": "ib0"})
    assert (report["interface"], report["interface_source"]) == ("ib0", "NCCL_SOCKET_IFNAME")
    assert report["route_interface"] == "lo"


def test_unresolvable_master_reports_no_route() -> None:
    report = describe_interface("no-such-host.invalid", {})
    assert report["interface"] is None
    assert report["route_address"] is None


def test_address_is_local() -> None:
    assert address_is_local("127.0.0.1") is True
    assert address_is_local("localhost") is True
    assert address_is_local("192.0.2.123") is False  # TEST-NET-1, never assigned
    assert address_is_local("no-such-host.invalid") is None
