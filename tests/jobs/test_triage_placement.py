"""Formats that say where a failure happened, read in general: the node slurmctld says it lost,
the worker torch.multiprocessing.spawn says raised, the rank Open MPI says it bound on a host, and
lines a paste wrote with escaped line breaks. Each case: an example that fires, and a near miss
that must not be read the same way."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.jobs.triage import Diagnosis, triage_files


def _triage(tmp_path: Path, text: str) -> Diagnosis:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    return triage_files([log])


# --- slurmctld names the node it lost
# source: SchedMD/slurm src/slurmctld/job_mgr.c (`Killing %pJ on failed node %s`),
# src/slurmctld/step_mgr.c (`Killing %pS due to failed node %s`)


def test_the_controller_names_the_failed_node(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "[2024-05-01T10:00:00.000] sched: Allocate JobId=77 NodeList=n[01-02] #CPUs=8 Partition=gpu\n"
        "[2024-05-01T11:00:00.000] Killing JobId=77 on failed node n02\n"
        "[2024-05-01T11:00:01.000] _job_complete: JobId=77 WTERMSIG 9\n",
    )
    first = d.findings[0]
    assert (first.cls, first.node, first.evidence[0].line) == ("node_fail", "n02", 2)


def test_a_step_killed_due_to_a_failed_node_names_it(tmp_path: Path) -> None:
    d = _triage(tmp_path, "[2024-05-01T11:00:00.000] Killing StepId=77.0 due to failed node gpu-a17\n")
    first = d.findings[0]
    assert (first.cls, first.node) == ("node_fail", "gpu-a17")


def test_the_older_controller_wording_names_the_node(tmp_path: Path) -> None:
    d = _triage(tmp_path, "[2012-03-01T09:00:00] error: Killing job_id 4120 on failed node tux12\n")
    first = d.findings[0]
    assert (first.cls, first.node) == ("node_fail", "tux12")


def test_near_miss_a_failed_node_count_names_no_node(tmp_path: Path) -> None:
    # a summary that counts failed nodes names none of them
    d = _triage(tmp_path, "ERROR: job 77 ended on failed node count 0 of 2\n")
    assert all(f.node is None for f in d.findings)


# --- torch.multiprocessing.spawn: the worker's own exception is the first cause
# source: pytorch/pytorch torch/multiprocessing/spawn.py (ProcessContext.join: `-- Process %d terminated
# with the following error:` and the worker's traceback, raised as ProcessRaisedException; before 1.9 a
# bare Exception)

_SPAWN_HEAD = (
    "Traceback (most recent call last):\n"
    '  File "train.py", line 40, in <module>\n'
    "    mp.spawn(main, nprocs=4)\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 160, in join\n'
    "    raise ProcessRaisedException(msg, error_index, failed_process.pid)\n"
)
_WORKER = (
    "Traceback (most recent call last):\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 69, in _wrap\n'
    "    fn(i, *args)\n"
    '  File "train.py", line 20, in main\n'
    "    loss = model(x)\n"
)


def test_spawns_worker_exception_is_the_first_cause_with_its_index(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        _SPAWN_HEAD
        + "torch.multiprocessing.spawn.ProcessRaisedException: \n\n"
        + "-- Process 2 terminated with the following error:\n"
        + _WORKER
        + "torch.cuda.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB\n",
    )
    first = d.findings[0]
    assert (first.cls, first.local_rank, first.evidence[0].line) == ("cuda_oom", 2, 14)
    assert first.confidence == "medium"  # the index is spawn's, taken as the local rank
    report = next(f for f in d.findings if "ProcessRaisedException" in f.summary)
    assert not report.cause
    assert report.local_rank == 2


def test_older_spawns_bare_exception_is_a_report_too(tmp_path: Path) -> None:
    head = _SPAWN_HEAD.replace(
        "raise ProcessRaisedException(msg, error_index, failed_process.pid)", "raise Exception(msg)"
    )
    d = _triage(
        tmp_path,
        head
        + "Exception:\n\n-- Process 5 terminated with the following error:\n"
        + _WORKER
        + "KeyError: 'labels'\n",
    )
    first = d.findings[0]
    assert (first.cls, first.local_rank, first.evidence[0].line) == ("exception", 5, 14)


def test_near_miss_a_bare_exception_outside_spawn_is_the_programs(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        'Traceback (most recent call last):\n  File "train.py", line 40, in join\n    raise Exception(msg)\n'
        "Exception:\n",
    )
    first = d.findings[0]
    assert first.cause
    assert first.cls == "exception"
    assert first.local_rank is None


def test_near_miss_a_traceback_long_after_spawns_line_takes_no_index(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "-- Process 3 terminated with the following error:\n"
        + "step\n" * 20
        + _WORKER
        + "KeyError: 'labels'\n",
    )
    raised = next(f for f in d.findings if "KeyError" in f.summary)
    assert raised.local_rank is None


# --- Open MPI's report of where it bound each rank pairs the rank with its host
# source: open-mpi/ompi orte/mca/ess/base/ess_base_bind.c (`MCW rank %s bound to %s`, printed by
# opal_output with its `[host:pid] ` prefix under `mpirun --report-bindings`)


def test_open_mpis_bindings_place_the_tagged_rank(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "[jwc09n012:12345] MCW rank 0 bound to socket 0[core 0[hwt 0]]: [B/././.]\n"
        "[jwc09n018:22345] MCW rank 1 bound to socket 0[core 0[hwt 0]]: [B/././.]\n"
        "[1,1]<stderr>:Traceback (most recent call last):\n"
        '[1,1]<stderr>:  File "train.py", line 5, in <module>\n'
        "[1,1]<stderr>:RuntimeError: ncclCommInitRank failed: unhandled system error\n",
    )
    first = d.findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == ("nccl_error", 1, "jwc09n018", 5)


def test_near_miss_a_rank_bound_elsewhere_does_not_place_another(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "[jwc09n012:12345] MCW rank 0 bound to socket 0[core 0[hwt 0]]: [B/././.]\n"
        "[1,1]<stderr>:Traceback (most recent call last):\n"
        '[1,1]<stderr>:  File "train.py", line 5, in <module>\n'
        "[1,1]<stderr>:RuntimeError: ncclCommInitRank failed: unhandled system error\n",
    )
    first = d.findings[0]
    assert (first.rank, first.node) == (1, None)


# --- a log whose line breaks a paste escaped (`\r\n` as text): NCCL's trace keeps its node
# source: NVIDIA/nccl src/include/debug.h (`host:pid:tid [dev] NCCL INFO file:line -> ret`, `NCCL WARN`)


def test_escaped_line_breaks_are_lines(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        r"gpu-a01:1111:1200 [0] NCCL INFO Bootstrap : Using ib0\r\n"
        r"gpu-b07:12345:12400 [3] NCCL INFO init.cc:1641 -> 2\r\n"
        r"gpu-b07:12345:12400 [3] include/socket.h:409 NCCL WARN Net : Connection closed by remote peer\r\n"
        "\n",
    )
    first = d.findings[0]
    assert (first.cls, first.node, first.evidence[0].line) == ("nccl_error", "gpu-b07", 1)
    assert first.summary.endswith("Connection closed by remote peer")


def test_crlf_line_endings_keep_ncclss_node(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "gpu-a01:1111:1200 [0] NCCL INFO Bootstrap : Using ib0\r\n"
        "gpu-b07:12345:12400 [3] NCCL INFO init.cc:1641 -> 2\r\n"
        "RuntimeError: NCCL error: unhandled system error\r\n",
    )
    first = d.findings[0]
    assert (first.cls, first.node, first.evidence[0].line) == ("nccl_error", "gpu-b07", 3)


def test_near_miss_one_escaped_newline_in_a_message_stays_one_line(tmp_path: Path) -> None:
    d = _triage(tmp_path, r"ValueError: bad label 'a\nb' in row 3" + "\n")
    first = d.findings[0]
    assert first.summary.endswith(r"bad label 'a\nb' in row 3")


# --- a build that lacks a backend is the program's setup, whatever backend it names
# source: pytorch/pytorch torch/distributed/distributed_c10d.py
# (`Distributed package doesn't have NCCL built in`)


def test_a_backend_not_built_in_is_no_failure_of_that_backend(tmp_path: Path) -> None:
    d = _triage(tmp_path, "RuntimeError: Distributed package doesn't have NCCL built in\n")
    assert d.findings[0].cls == "exception"


def test_near_miss_a_backends_own_error_keeps_its_class(tmp_path: Path) -> None:
    d = _triage(tmp_path, "RuntimeError: NCCL library failed to load its IB plugin on this build\n")
    assert d.findings[0].cls == "nccl_error"


# --- an exception that left its class open, whose message goes on over the next lines
# source: PaddlePaddle/Paddle paddle/fluid/memory/allocation/cuda_allocator.cc
# (`Out of memory error on GPU %d`, raised through the operator's
# `SystemError: (Fatal) Operator … raises an … exception`)

_PADDLE = (
    "SystemError: (Fatal) Operator conv2d raises an paddle::memory::allocation::BadAlloc exception.\n"
    "The exception content is\n"
    ":ResourceExhaustedError:\n"
    "{gap}"
    "Out of memory error on GPU 0. Cannot allocate 413.281250MB memory on GPU 0.\n"
)


def _raised(d: Diagnosis) -> str:
    return next(f.cls for f in d.findings if "SystemError" in f.summary)


def test_an_open_exceptions_message_over_lines_names_its_class(tmp_path: Path) -> None:
    d = _triage(tmp_path, _PADDLE.format(gap="\n"))
    assert d.findings[0].cls == "cuda_oom"
    assert _raised(d) == "cuda_oom"  # (not a program's exception of its own)
    assert 5 in {ev.line for f in d.findings for ev in f.evidence}


def test_an_open_exception_takes_the_class_of_the_words_a_few_lines_on(tmp_path: Path) -> None:
    d = _triage(tmp_path, _PADDLE.format(gap="\n\n\n"))
    assert d.findings[0].cls == "cuda_oom"
    assert _raised(d) == "cuda_oom"


def test_near_miss_words_far_after_an_open_exception_are_their_own(tmp_path: Path) -> None:
    d = _triage(tmp_path, _PADDLE.format(gap="\n" + "step 3 done\n\n" * 10))
    assert _raised(d) == "exception"


def test_near_miss_another_writers_words_do_not_explain_an_exception(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "0: RuntimeError: worker stopped\n1: Out of memory error on GPU 0. Cannot allocate 413.281250MB\n",
    )
    raised = next(f for f in d.findings if "worker stopped" in f.summary)
    assert raised.cls == "exception"


# --- lines in words of one class from one writer: a line that names its own node stays apart
# source: Cray DAPL (`host:SCM:pid:tid: … open_hca: failed …`) after libibgni's warnings


def test_a_worded_line_naming_its_node_is_not_merged_into_its_fellows(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "Unidentified node: Error detected by libibgni.so.  Subsequent operation may be unreliable.\n"
        "nid06489:SCM:22fc4:aab49500: 127246108 us(127246108 us!!!):  open_hca: failed to init cr pipe - "
        "Connection timed out\n",
    )
    assert any(f.node == "nid06489" and f.evidence[0].line == 2 for f in d.findings)


# --- an inference engine's word that a worker died: shown, with the worker's rank, and explained
# by the worker's own failure
# source: vllm-project/vllm vllm/v1/executor/multiproc_executor.py (`Worker proc %s died unexpectedly,
# shutting down executor.`); sgl-project/sglang python/sglang/srt/entrypoints/engine.py
# (`Rank %s scheduler is dead.`); ray-project/ray src/ray/rpc/rpc_client.h (`Failed to connect to GCS
# within %d seconds. GCS may have been killed.`)


def test_a_dead_engine_worker_alone_is_said_with_its_rank_and_doubt(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "(EngineCore_DP0 pid=265) ERROR 02-27 10:31:24 [multiproc_executor.py:231] Worker proc VllmWorker-2 "
        "died unexpectedly, shutting down executor.\n",
    )
    first = d.findings[0]
    assert (first.cls, first.rank, first.confidence) == ("unknown", 2, "low")


def test_a_dead_engine_workers_own_error_is_the_first_cause(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "(VllmWorker rank=2 pid=4242) ERROR 02-27 10:31:20 torch.OutOfMemoryError: CUDA out of memory. "
        "Tried to allocate 2.00 GiB\n"
        "(EngineCore_DP0 pid=265) ERROR 02-27 10:31:24 [multiproc_executor.py:231] Worker proc VllmWorker-2 "
        "died unexpectedly, shutting down executor.\n",
    )
    first = d.findings[0]
    assert (first.cls, first.evidence[0].line) == ("cuda_oom", 1)


@pytest.mark.parametrize(
    ("text", "rank"),
    [
        ("[2024-01-01 10:00:00] Rank 1 scheduler is dead. Please check if there are relevant logs.\n", 1),
        (
            "ERROR [ray_executor_v2.py:464] RayWorkerProc rank=[3] died unexpectedly, shutting down.\n",
            3,
        ),
        (
            "[2025-12-19 15:55:39,521 E 3044 30260] rpc_client.h:203: Failed to connect to GCS within 60 "
            "seconds. GCS may have been killed.\n",
            None,
        ),
    ],
)
def test_a_process_gone_is_shown_in_words(tmp_path: Path, text: str, rank: int | None) -> None:
    first = _triage(tmp_path, text).findings[0]
    assert (first.evidence[0].line, first.rank) == (1, rank)


def test_near_miss_a_ready_worker_is_no_death(tmp_path: Path) -> None:
    d = _triage(tmp_path, "(EngineCore_DP0 pid=265) INFO 02-27 10:31:24 Worker proc VllmWorker-2 ready.\n")
    assert not d.findings


# --- Ray's ActorDiedError in today's wording: the actor's node died
# source: ray-project/ray python/ray/exceptions.py (`The actor died because its node has died.`)


def test_an_actor_whose_node_died_is_a_node_failure(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "ray.exceptions.ActorDiedError: The actor died because its node has died. Node Id: 8f0a1b2c\n",
    )
    assert d.findings[0].cls == "node_fail"


def test_near_miss_an_actor_whose_worker_died_is_no_node_failure(tmp_path: Path) -> None:
    d = _triage(
        tmp_path,
        "ray.exceptions.ActorDiedError: The actor died because its worker process has died.\n",
    )
    assert d.findings[0].cls != "node_fail"
