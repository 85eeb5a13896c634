"""Slurm hostlist and task-count grammar, table-driven."""

from __future__ import annotations

import pytest

from jobc.runtime.errors import HostlistError
from jobc.runtime.hostlist import MAX_HOSTS, expand_hostlist, expand_tasks_per_node, first_host

HOSTLISTS = [
    # (hostlist, expansion) — the first rows are the inputs on which popular parsers disagree.
    (
        "gpu-[001-004,010]-ib,cpu7",
        ["gpu-001-ib", "gpu-002-ib", "gpu-003-ib", "gpu-004-ib", "gpu-010-ib", "cpu7"],
    ),
    ("gpu-[001-004,010],cpu7", ["gpu-001", "gpu-002", "gpu-003", "gpu-004", "gpu-010", "cpu7"]),
    ("cpu7,gpu-[001-002]", ["cpu7", "gpu-001", "gpu-002"]),
    ("linux[1,2]", ["linux1", "linux2"]),
    ("node[1-3]-ib", ["node1-ib", "node2-ib", "node3-ib"]),
    ("alpha,beta,gamma", ["alpha", "beta", "gamma"]),
    ("n1 n2", ["n1", "n2"]),
    ("n1\tn2\nn3", ["n1", "n2", "n3"]),
    ("n1,,n2, ", ["n1", "n2"]),
    ("single", ["single"]),
    ("", []),
    # zero padding comes from the low bound, per item
    ("node[09-11]", ["node09", "node10", "node11"]),
    ("node[9-11]", ["node9", "node10", "node11"]),
    ("node[008-010,7]", ["node008", "node009", "node010", "node7"]),
    ("n[0]", ["n0"]),
    ("n[00]", ["n00"]),
    # several bracket groups: cartesian product, leftmost slowest
    ("rack[1-2]-node[01-02]", ["rack1-node01", "rack1-node02", "rack2-node01", "rack2-node02"]),
    ("r[1,3]n[5]x", ["r1n5x", "r3n5x"]),
    ("a[1-2]b[1-2]c[1]", ["a1b1c1", "a1b2c1", "a2b1c1", "a2b2c1"]),
    # commas inside brackets do not split the list; several groups in one list
    ("a[1,3-4],b[2],c", ["a1", "a3", "a4", "b2", "c"]),
    ("127.0.0.[1-2]", ["127.0.0.1", "127.0.0.2"]),
    ("dgx-a100-[01-02].cluster.local", ["dgx-a100-01.cluster.local", "dgx-a100-02.cluster.local"]),
    ("[1-2]", ["1", "2"]),
    # Slurm keeps duplicates; so do we
    ("n[1-2],n1", ["n1", "n2", "n1"]),
    ("n[1-1]", ["n1"]),
]


@pytest.mark.parametrize(("hostlist", "expected"), HOSTLISTS)
def test_expand_hostlist(hostlist: str, expected: list[str]) -> None:
    assert expand_hostlist(hostlist) == expected


@pytest.mark.parametrize(("hostlist", "expected"), [(h, e) for h, e in HOSTLISTS if e])
def test_first_host_matches_the_expansion(hostlist: str, expected: list[str]) -> None:
    assert first_host(hostlist) == expected[0]


BAD_HOSTLISTS = [
    ("node[1-", "unclosed"),
    ("node1]", "unmatched"),
    ("node[[1]]", "nested"),
    ("node[]", "empty range"),
    ("node[3-1]", "backwards"),
    ("node[1,,2]", "invalid range item"),
    ("node[a-b]", "invalid range item"),
    ("node[-1]", "invalid range item"),
    ("node[1-2-3]", "invalid range item"),
    ("node[1 - 2]", "invalid range item"),
    ("node[0x1-3]", "invalid range item"),
    ("node[٣]", "invalid range item"),  # non-ASCII digits are not Slurm digits
    (f"n[0-{MAX_HOSTS}]", "exceeds"),
]


@pytest.mark.parametrize(("hostlist", "message"), BAD_HOSTLISTS)
def test_malformed_hostlists_are_errors(hostlist: str, message: str) -> None:
    with pytest.raises(HostlistError, match=message):
        expand_hostlist(hostlist)


def test_first_host_of_an_empty_list_is_an_error() -> None:
    with pytest.raises(HostlistError, match="names no host"):
        first_host(" , ")


def test_first_host_does_not_expand_the_rest() -> None:
    # A huge second group would be slow (and refused) if it were expanded.
    assert first_host(f"head,n[0-{MAX_HOSTS * 4}]") == "head"


TASK_COUNTS = [
    ("2(x3),1", [2, 2, 2, 1]),
    ("4", [4]),
    ("8(x2)", [8, 8]),
    ("1,2,3", [1, 2, 3]),
    ("1(x1)", [1]),
    ("2(x2),1,3(x2)", [2, 2, 1, 3, 3]),
    (" 2(x2) , 1 ", [2, 2, 1]),
    ("0,1", [0, 1]),
]


@pytest.mark.parametrize(("value", "expected"), TASK_COUNTS)
def test_expand_tasks_per_node(value: str, expected: list[int]) -> None:
    assert expand_tasks_per_node(value) == expected


@pytest.mark.parametrize(
    "value",
    ["", " ", "2(x0)", "2(3)", "2x3", "(x3)", "2(x)", "-1", "2(x3)1", "2,,1", "two", "2(x3", "1.5"],
)
def test_malformed_task_counts_are_errors(value: str) -> None:
    with pytest.raises(HostlistError):
        expand_tasks_per_node(value)
