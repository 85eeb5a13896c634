"""A real cluster's self-description for tests without a cluster: what Slurm 22.05.8 (Debian 12)
printed for `scontrol show partition -o`, `scontrol show node -o` and `scontrol show config` on a
test cluster of two partitions and two kinds of node (slurm_output/):

batch (default): MaxTime 02:00:00, DefaultTime 00:30:00, MaxNodes 2, all three nodes;
short: MaxTime 00:10:00, PreemptMode REQUEUE, the h100 node only. jobc-a0, jobc-a1: 8 CPUs,
8192 MB, gpu:a100:2, features a100,ib; jobc-h0: 4 CPUs, 4096 MB, gpu:h100:4, feature h100.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jobc.spec.slurmfacts import ClusterFacts, build

OUTPUT = Path(__file__).with_name("slurm_output")


def example_facts(**changes: Any) -> ClusterFacts:
    """The cluster above, with the accounts root and jobc-test and the QOS normal and jobc-qos,
    and any field replaced by `changes`."""
    read = build(
        (OUTPUT / "scontrol-22.05-partition.txt").read_text(),
        (OUTPUT / "scontrol-22.05-node.txt").read_text(),
        (OUTPUT / "scontrol-22.05-config.txt").read_text(),
        accounts=["root", "jobc-test"],
        qos=["normal", "jobc-qos"],
    )
    return ClusterFacts(**{**vars(read), **changes})


def replaced(record: Any, **changes: Any) -> Any:
    """A copy of a facts record with some fields changed."""
    return type(record)(**{**vars(record), **changes})
