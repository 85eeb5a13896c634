"""Triage's identity stage: ranks, tasks and nodes joined only where the log pairs them."""

from __future__ import annotations

from pathlib import Path

from jobc.jobs.findings import Facts, Finding
from jobc.jobs.identity import borrow_node, nth_host, rank_of_task, tasks_are_ranks
from jobc.jobs.triage import triage_files


def test_an_srun_task_is_a_rank_only_without_a_launcher_of_its_own() -> None:
    facts = Facts()
    assert tasks_are_ranks(facts)
    assert rank_of_task(facts, None, 3, 1) == (3, True)  # inferred
    assert rank_of_task(facts, None, 3, 2) == (None, False)  # `tasks 3-4`: which one is not said
    facts.launcher_seen = True
    assert rank_of_task(facts, None, 3, 1) == (None, False)
    compiled = Facts()
    compiled.compiled = True
    assert rank_of_task(compiled, None, 3, 1) == (3, False)  # jobc's srun launch says so
    compiled.torchrun = True
    assert rank_of_task(compiled, None, 3, 1) == (None, False)


def test_srun_tasks_become_ranks_in_a_plain_srun_log_but_not_under_torchrun(tmp_path: Path) -> None:
    log = tmp_path / "a.out"
    log.write_text("201: Traceback (most recent call last):\n201: ValueError: x\n", encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.rank, first.inferred, first.confidence) == (201, True, "medium")
    log.write_text(
        "1: [default0]:Traceback (most recent call last):\n1: [default0]:ValueError: x\n", encoding="utf-8"
    )
    first = triage_files([log]).findings[0]
    assert (first.rank, first.local_rank) == (None, 0)


def test_a_failure_without_a_node_takes_its_class_fellows_node() -> None:
    first = Finding(kind="x", summary="", cause=True, cls="nccl_error")
    other = Finding(kind="y", summary="", cause=False, cls="nccl_error", node="node2")
    borrow_node(first, [first, other])
    assert (first.node, first.inferred) == ("node2", True)
    # two nodes: which one is not said
    first = Finding(kind="x", summary="", cause=True, cls="nccl_error")
    third = Finding(kind="y", summary="", cause=False, cls="nccl_error", node="node3")
    borrow_node(first, [first, other, third])
    assert first.node is None


def test_the_nth_host_of_a_node_list() -> None:
    assert nth_host("gpu[01-04,07],login1", 4) == "gpu07"
    assert nth_host("gpu[01-04,07],login1", 5) == "login1"
    assert nth_host("gpu[x-y]", 0) is None


def test_a_process_is_paired_with_its_rank_by_nccls_communicator_and_torchruns_table(tmp_path: Path) -> None:
    log = tmp_path / "n.out"
    log.write_text(
        "node1:100:200 [1] NCCL INFO comm 0xabc rank 1 nranks 2 cudaDev 1 busId 1000 - Init COMPLETE\n"
        "node1:100:200 [1] NCCL INFO comm 0xdef rank 5 nranks 8 cudaDev 1 busId 1000 - Init COMPLETE\n"
        "node1:100:300 [1] transport/net_ib.cc:1 NCCL WARN NET/IB : Got completion from peer 10.0.0.2<1> "
        "with error 12\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    # the rank in the largest communicator, said as an inference
    assert (first.cls, first.rank, first.node, first.inferred) == ("nccl_error", 5, "node1", True)
    log.write_text(
        "E0601 10:00:02.000000 111 api.py:863] failed (exitcode: -9) local_rank: 1 (pid: 4242) of py\n"
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-06-01_10:00:01\n  host      : n3\n"
        "  rank      : 7 (local_rank: 1)\n  exitcode  : -9 (pid: 4242)\n  error_file: <N/A>\n"
        "  traceback : Signal 9 (SIGKILL) received by PID 4242\n",
        encoding="utf-8",
    )
    worker = next(f for f in triage_files([log]).findings if f.kind == "torchrun-worker-failed")
    assert (worker.rank, worker.inferred) == (7, False)
