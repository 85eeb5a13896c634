"""Triage's identity stage: ranks, tasks and nodes joined only where the log pairs them."""

from __future__ import annotations

from pathlib import Path

from jobc.jobs.findings import Facts, Finding
from jobc.jobs.identity import borrow_abort_rank, borrow_node, nth_host, rank_of_task, tasks_are_ranks
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


def test_a_crash_seen_on_several_nodes_takes_the_one_rank_of_its_node() -> None:
    # Open MPI's segfault banner names host and pid, srun's report task and host: on each node
    # one task ended by SIGSEGV, so the banner's process is that task
    first = Finding(kind="x", summary="", cause=True, cls="signal", node="nid1", signal="SIGSEGV")
    one = Finding(kind="y", summary="", cause=False, cls="signal", node="nid1", rank=0, signal="SIGSEGV")
    two = Finding(kind="y", summary="", cause=False, cls="signal", node="nid2", rank=2, signal="SIGSEGV")
    borrow_node(first, [first, one, two])
    assert (first.rank, first.inferred) == (0, True)
    # near miss: two tasks of its node ended the same way, which one is not said
    first = Finding(kind="x", summary="", cause=True, cls="signal", node="nid1", signal="SIGSEGV")
    three = Finding(kind="y", summary="", cause=False, cls="signal", node="nid1", rank=1, signal="SIGSEGV")
    borrow_node(first, [first, one, two, three])
    assert first.rank is None


def test_an_exception_that_names_no_rank_takes_the_rank_mpi_says_aborted() -> None:
    # mpi4py's hook on an uncaught exception calls MPI_Abort: Open MPI's `MPI_ABORT was invoked on
    # rank 1` after a bare exception names the rank that raised it (py-pde#853)
    exc = Finding(kind="x", summary="", cause=True, cls="exception", order=1)
    abort = Finding(kind="mpi-abort", code="L237", summary="", cause=False, cls="exit_code", rank=1, order=2)
    borrow_abort_rank(exc, [exc, abort])
    assert (exc.rank, exc.inferred) == (1, True)
    # near misses: two ranks aborted (which raised is not said); an abort before the exception
    exc = Finding(kind="x", summary="", cause=True, cls="exception", order=1)
    other = Finding(kind="mpi-abort", code="L237", summary="", cause=False, cls="exit_code", rank=3, order=3)
    borrow_abort_rank(exc, [exc, abort, other])
    assert exc.rank is None
    late = Finding(kind="x", summary="", cause=True, cls="exception", order=5)
    borrow_abort_rank(late, [late, abort])
    assert late.rank is None


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


def test_a_launcher_is_seen_in_its_own_lines_not_in_a_programs_words(tmp_path: Path) -> None:
    from jobc.jobs.identity import LAUNCHER_LINE

    for line in (
        "+ torchrun --nproc_per_node=8 train.py",
        '  File "/usr/lib/python3/site-packages/torch/distributed/run.py", line 9, in main',
        "torch.distributed.elastic.multiprocessing.api: [ERROR] failed",
        "[2024-01-06 11:41:34,489] [INFO] [launch.py:146:main] WORLD INFO DICT",
        "slurmstepd: error: execve(): accelerate: No such file or directory",
        "deepspeed --num_gpus 8 train.py",
    ):
        assert LAUNCHER_LINE.search(line), line
    for line in (
        "DeepSpeed config: /tmp/workspace/ds_config.json",
        "[INFO] [real_accelerator.py:161:get_accelerator] Setting ds_accelerator to cuda",
        "python train.py --deepspeed ds.json",
        "Using the elasticity of the learning rate",
    ):
        assert not LAUNCHER_LINE.search(line), line
    # srun's tasks stay ranks when a program only names DeepSpeed: rank 1's node is its task's
    log = tmp_path / "d.out"
    log.write_text(
        "srun: error: gpu-node2: task 1: Exited with exit code 1\n"
        "srun: error: gpu-node1: task 0: Exited with exit code 1\n"
        "DeepSpeed config: /tmp/workspace/ds_config.json\n"
        "[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "/app/run.py", line 484, in <module>\n'
        "[rank1]: ValueError: model.layers.0 doesn't have any device set.\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.rank, first.node, first.inferred) == (1, "gpu-node2", True)


def test_a_rank_and_a_node_named_in_a_message_are_read() -> None:
    from jobc.jobs.identity import node_in_message, rank_in_message

    assert rank_in_message("Timed out initializing process group in store based barrier on rank: 0, for") == 0
    assert rank_in_message("[PG 0 (default_pg) Rank 12] Exception (either an error or timeout)") == 12
    assert rank_in_message("world_size=2, worker_count=1") is None
    assert rank_in_message("a rank 3 of the ring") is None
    assert (
        node_in_message("slurmstepd: *** JOB 1479012 CANCELLED AT 2015-02-04T06:33:25 *** on sh-2-3")
        == "sh-2-3"
    )
    assert node_in_message("sched: Allocate JobId=127441 NodeList=c014 #CPUs=2") == "c014"
    assert node_in_message("the job failed on node gpu-a07.") == "gpu-a07"
    assert node_in_message("NodeList=gpu[01-04]") is None  # several nodes: which one is not said
    assert node_in_message("failed on cuda0 while copying") is None
    assert node_in_message("failed on cn7 while copying") is None  # a bare `on NAME` of a node not seen
    assert node_in_message("failed on cn7 while copying", {"cn7"}) == "cn7"
    # ssh's words and a launcher's ssh command name the host it could not reach
    assert node_in_message("ssh: connect to host gpu-17 port 22: Connection refused") == "gpu-17"
    assert node_in_message("ssh: Could not resolve hostname node-03: Name or service not known") == "node-03"
    assert (
        node_in_message(
            "CalledProcessError: Command 'ssh -o PasswordAuthentication=no gadi-gpu-0011 hostname' "
            "returned non-zero exit status 255."
        )
        == "gadi-gpu-0011"
    )
    # an option's value is no host, and a command word is not host-shaped
    assert node_in_message("Command 'ssh -v master hostname' returned non-zero exit status 255.") is None
