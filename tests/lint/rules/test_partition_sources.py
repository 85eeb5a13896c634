"""One rule, two sources of facts: a spec that extends the profile `jobc profile` writes of a
cluster gets, without `--live`, the partition findings `--live` gives on that cluster (JC103,
JC108, JC109, JC120, JC121, JC122), with the same codes at the same places; only what a profile
cannot know (accounts, QOS, whether a partition is up) stays with `--live`."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.live import using
from jobc.spec.profilegen import render
from tests.support.lint import lint_text, only, where
from tests.support.slurm_facts import example_facts as facts

# batch (the default): MaxTime 02:00:00, MaxNodes 2, nodes jobc-a0 and jobc-a1 (8 CPUs, a100 × 2,
# features a100, ib) and jobc-h0 (4 CPUs, h100 × 4, feature h100); short: MaxTime 00:10:00, jobc-h0
SPEC = """\
version: 1
name: t
slurm:
  partition: {partition}
  time: "{time}"
  constraint: {constraint}
resources:
  nodes: {nodes}
  gpus_per_node: {gpus}
  gpu: {gpu}
  cpus_per_task: {cpus}
launch: {{mode: torchrun, program: train.py}}
storage: {{shared: [/shared]}}
extends: cluster.yaml
"""
GOOD = {
    "partition": "batch",
    "time": "01:00:00",
    "constraint": "a100",
    "nodes": 2,
    "gpus": 2,
    "gpu": "a100-80gb",
    "cpus": 8,
}
CODES = ("JC103", "JC108", "JC109", "JC120", "JC121", "JC122")
CASES = {
    "fits": {},
    "time over short's MaxTime": {"partition": "short", "time": "00:30:00", "nodes": 1, "gpus": 4},
    "more nodes than batch's MaxNodes and its a100 nodes": {"nodes": 3},
    "more GPUs than a node has": {"gpus": 8, "nodes": 1},
    "more CPUs than a node has": {"cpus": 16, "nodes": 1},
    "two h100 nodes of one": {"gpus": 4, "cpus": 4, "constraint": "h100", "gpu": "h100-80gb"},
    "a feature of another partition": {"partition": "short", "nodes": 1, "gpus": 4, "gpu": "h100-80gb"},
    "a GPU type the partition has not": {"partition": "short", "nodes": 1, "gpus": 4, "constraint": "h100"},
    "no such partition": {"partition": "bacth"},
}


def findings(tmp_path: Path, case: dict[str, object], *, live: bool) -> list[tuple[str, int, int, str]]:
    (tmp_path / "cluster.yaml").write_text(render(facts(), command="jobc profile", date="2026-01-01"))
    with using(facts() if live else None):
        result = lint_text(SPEC.format(**{**GOOD, **case}), tmp_path)
    return sorted(
        (f.code, f.span.line, f.span.col, f.message) for f in result.findings if f.code.startswith(CODES)
    )


@pytest.mark.parametrize("name", list(CASES))
def test_a_written_profile_gives_offline_the_findings_live_gives(tmp_path: Path, name: str) -> None:
    offline = findings(tmp_path, CASES[name], live=False)
    live = findings(tmp_path, CASES[name], live=True)
    assert [f[:3] for f in offline] == [f[:3] for f in live], (offline, live)
    assert bool(offline) == (name != "fits"), offline


def test_the_profiles_counts_of_nodes_are_said_as_an_upper_bound(tmp_path: Path) -> None:
    offline = findings(tmp_path, CASES["two h100 nodes of one"], live=False)
    live = findings(tmp_path, CASES["two h100 nodes of one"], live=True)
    assert [m for *_, m in live] == [
        "2 nodes with 4 GPUs, 4 CPUs, features h100, but partition 'batch' has 1 such node(s) of 3: the "
        "job could never start"
    ]
    assert [m for *_, m in offline] == [
        "2 nodes with 4 GPUs, 4 CPUs, features h100, but partition 'batch' has at most 1 such node(s) of 3 "
        "(as the cluster profile counts them): the job could never start"
    ]


def test_a_hand_written_profile_that_lists_some_partitions_claims_no_other_is_missing(tmp_path: Path) -> None:
    (tmp_path / "cluster.yaml").write_text(
        "version: 1\nprofile: p\ncluster:\n  partitions: {batch: {max_time: '02:00:00'}}\n"
    )
    result = lint_text(SPEC.format(**{**GOOD, "partition": "gpu"}), tmp_path)
    assert where(result, "JC120") == []
    # once it says it lists them all, a partition it does not list does not exist
    (tmp_path / "cluster.yaml").write_text(
        "version: 1\nprofile: p\ncluster:\n  all_partitions: true\n"
        "  partitions: {batch: {max_time: '02:00:00'}}\n"
    )
    result = lint_text(SPEC.format(**{**GOOD, "partition": "gpu"}), tmp_path)
    assert where(result, "JC120") == [(4, 14)]
    assert "partition 'gpu' does not exist in the cluster profile" in only(result, "JC120").message


def test_a_kind_shared_by_partitions_is_no_more_than_the_partitions_nodes(tmp_path: Path) -> None:
    # a hand-written kind of 8 nodes, of which the partition has 2: 3 nodes can never be had there
    (tmp_path / "cluster.yaml").write_text(
        "version: 1\nprofile: p\ncluster:\n"
        "  partitions: {batch: {nodes: 2, node_types: [a]}, other: {nodes: 6, node_types: [a]}}\n"
        "  node_types: {a: {count: 8, gpus: 2, cpus: 8, features: [a100]}}\n"
    )
    assert where(lint_text(SPEC.format(**{**GOOD, "nodes": 3}), tmp_path), "JC121") == [(8, 10)]
    assert where(lint_text(SPEC.format(**GOOD), tmp_path), "JC121") == []
    # a kind whose count the profile does not give: how many nodes it has is not claimed
    (tmp_path / "cluster.yaml").write_text(
        "version: 1\nprofile: p\ncluster:\n"
        "  partitions: {batch: {node_types: [a]}}\n"
        "  node_types: {a: {gpus: 2, cpus: 8, features: [a100]}}\n"
    )
    assert where(lint_text(SPEC.format(**{**GOOD, "nodes": 30}), tmp_path), "JC121") == []
