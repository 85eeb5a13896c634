"""Reports of a failure that are cut, split or said by someone else than the failed process: a
torchrun table cut before its `Root Cause`, a driver's message split over lines that repeat its
tag, a launcher's banner, a node's failure told by the node that survived. Each case is a small
log, the first cause triage must name (class, rank, node, the line of its first evidence) and its
confidence; each format has an example and a near miss."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.jobs.triage import triage_files

_TABLE_HEAD = (
    "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
    "============================================================\n"
    "train.py FAILED\n"
    "------------------------------------------------------------\n"
)


def _block(index: int, time: str, host: str, ranks: tuple[int, int], exitcode: str) -> str:
    rank, local = ranks
    return (
        f"[{index}]:\n  time      : {time}\n  host      : {host}\n"
        f"  rank      : {rank} (local_rank: {local})\n"
        f"  exitcode  : {exitcode} (pid: 4242)\n  error_file: <N/A>\n"
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
    )


CASES: list[tuple[str, str, tuple[str, int | None, str | None, int, str]]] = [
    # --- torchrun's table cut before its `Root Cause` section: a failure it lists stands for it
    (
        "a table cut after its `Failures:` list",
        _TABLE_HEAD + "Failures:\n" + _block(1, "2023-04-25_13:29:47", "gpu-a", (1, 1), "1"),
        ("exception", 1, "gpu-a", 10, "medium"),
    ),
    (
        "a cut table's earliest failure, by its time",
        _TABLE_HEAD
        + "Failures:\n"
        + _block(1, "2023-04-25_13:29:49", "gpu-a", (1, 1), "1")
        + _block(2, "2023-04-25_13:29:47", "gpu-b", (6, 2), "-9"),
        ("signal", 6, "gpu-b", 17, "medium"),
    ),
    (
        "a cut table's failure after a worker's own exception: the exception",
        "[rank1]: ValueError: the batch is empty\n"
        + _TABLE_HEAD
        + "Failures:\n"
        + _block(1, "2023-04-25_13:29:47", "gpu-a", (1, 1), "1"),
        ("exception", 1, "gpu-a", 1, "medium"),
    ),
    (
        "near miss: a whole table, its `Root Cause` named over its `Failures:` list",
        _TABLE_HEAD
        + "Failures:\n"
        + _block(1, "2023-04-25_13:29:47", "gpu-a", (3, 3), "1")
        + "------------------------------------------------------------\n"
        + "Root Cause (first observed failure):\n"
        + _block(0, "2023-04-25_13:29:48", "gpu-a", (0, 0), "-11")
        + "============================================================\n",
        ("signal", 0, "gpu-a", 19, "medium"),
    ),
    # --- a driver's sentence over lines that repeat its tag: cited where it begins
    (
        "dmesg's NVRM message over three lines",
        "[ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0\n"
        "               NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
        "               NVRM: fallen off the bus and is not responding to commands.\n"
        "[ 1843.439662] NVRM: The NVIDIA probe routine failed for 1 device(s).\n",
        ("gpu_error", None, None, 1, "high"),
    ),
    (
        "the same message in a syslog, each line with its host",
        "Nov 28 10:00:01 gpu07 kernel: NVRM: The NVIDIA GPU 0000:b3:00.0\n"
        "Nov 28 10:00:01 gpu07 kernel: NVRM: (PCI ID: 10de:26b5) installed in this system has\n"
        "Nov 28 10:00:01 gpu07 kernel: NVRM: fallen off the bus and is not responding to commands.\n",
        ("gpu_error", None, "gpu07", 1, "high"),
    ),
    (
        "near miss: NVRM records of their own, each a sentence that starts anew",
        "NVRM: GPU at PCI:0000:06:00: GPU-0b6b7808-c002-f593-ac86-cd8e57757b94\n"
        "NVRM: GPU Board Serial Number: 0\n"
        "NVRM: Xid (PCI:0000:06:00): 79, pid=1234, name=python, GPU has fallen off the bus.\n",
        ("gpu_error", None, None, 3, "high"),
    ),
    (
        "near miss: srun's lines that each start with a field of their own",
        "srun: Job step creation temporarily disabled, retrying\n"
        "srun: error: n1: task 0: Exited with exit code 1\n",
        ("exit_code", 0, "n1", 2, "medium"),
    ),
    # --- a launcher passing on its user's Ctrl-C: the interrupt, and the ends it makes are its own
    (
        "mpiexec forwarding the user's Ctrl-C, then its banner",
        "^C[mpiexec@n1] Forwarding Ctrl-C to the processes\n"
        "\n"
        "===================================================================================\n"
        "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
        "=   PID 3925776 RUNNING AT n2\n"
        "=   EXIT CODE: 2\n"
        "===================================================================================\n",
        ("cancelled", None, None, 1, "medium"),
    ),
    (
        "a program that caught its user's Ctrl-C, then srun's report",
        "epoch 3 step 120 loss 0.91\nCaught Ctrl-C, saving a checkpoint and stopping\n"
        "srun: error: n1: task 0: Exited with exit code 130\n",
        ("cancelled", None, None, 2, "medium"),
    ),
    (
        "near miss: the banner alone is the launcher's report of the end",
        "===================================================================================\n"
        "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
        "=   PID 3925776 RUNNING AT n2\n"
        "=   EXIT CODE: 2\n"
        "===================================================================================\n",
        ("exit_code", None, "n2", 3, "medium"),
    ),
    (
        "near miss: a prompt that names Ctrl-C is no interrupt",
        "Press Ctrl-C to stop the server\nValueError: bad config\n",
        ("exception", None, None, 2, "medium"),
    ),
    # --- a launcher's host list with slots places the ranks its prefixes name
    (
        "horovodrun's -H with slots and Open MPI's [1,N] tags",
        "$ horovodrun -np 8 -H gpu1:4,gpu2:4 python train.py\n"
        "[1,0]<stdout>:epoch 1 step 10 loss 2.3\n"
        "[1,5]<stderr>:Traceback (most recent call last):\n"
        '[1,5]<stderr>:  File "train.py", line 9, in <module>\n'
        "[1,5]<stderr>:    main()\n"
        "[1,5]<stderr>:ValueError: bad shape\n",
        ("exception", 5, "gpu2", 6, "medium"),
    ),
    (
        "mpirun's --host with slots and horovodrun's [N] tags",
        "mpirun -np 4 --host n01:2,n02:2 -bind-to none python train.py\n"
        "[2]<stderr>:RuntimeError: NCCL error in: nccl.cpp:42, unhandled system error\n",
        ("nccl_error", 2, "n02", 2, "medium"),
    ),
    (
        "near miss: ranks mapped round robin over the nodes: no host for a rank",
        "mpirun -np 4 --host n01:2,n02:2 --map-by node python train.py\n"
        "[2]<stderr>:RuntimeError: NCCL error in: nccl.cpp:42, unhandled system error\n",
        ("nccl_error", 2, None, 2, "high"),
    ),
    # --- a node's failure told by the node that survived: the lost node where the log names it
    (
        "slurmctld's node that stopped answering, then slurmstepd's NODE FAILURE on the survivor",
        "[2024-01-02T03:03:05.123] error: Nodes cn2 not responding, setting DOWN\n"
        "slurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO NODE FAILURE ***\n",
        ("node_fail", None, "cn2", 1, "medium"),
    ),
    (
        "slurmctld killing the job on its failed node, after slurmstepd's line",
        "slurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO NODE FAILURE ***\n"
        "[2024-01-02T03:04:05.123] Killing JobId=77 on failed node cn2\n",
        ("node_fail", None, "cn2", 2, "medium"),
    ),
    (
        "near miss: slurmstepd's NODE FAILURE alone names no node, never its own",
        "cn1: slurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 "
        "DUE TO NODE FAILURE ***\n",
        ("node_fail", None, None, 1, "high"),
    ),
    (
        "near miss: a node list that stopped answering names no one node",
        "error: Nodes cn[2-3] not responding\n"
        "slurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO NODE FAILURE ***\n",
        ("node_fail", None, None, 2, "high"),
    ),
    (
        "near miss: a node answering again is no failure",
        "Node cn2 now responding\nValueError: bad config\n",
        ("exception", None, None, 2, "medium"),
    ),
    # --- torchx's status of a failed app: the class is the replica's error
    (
        "torchx status: a replica's error_msg holds its exception",
        "AppDef:\n  State: FAILED\n  Num Restarts: -1\nRoles:\n  trainer[0]:\n    state: FAILED\n"
        "    timestamp: 2023-03-01 10:00:09 (exit_code: 1)\n    hostname: compute-1\n"
        "    error_msg: ValueError: expected 3 channels, got 4\n",
        ("exception", None, "compute-1", 9, "medium"),
    ),
    (
        "torchx run: the replica's error file as JSON in its structured_error_msg",
        "torchx 2022-07-05 21:00:05 INFO     Job finished: FAILED\n"
        "torchx 2022-07-05 21:00:05 ERROR    AppStatus:\n"
        "  roles:\n  - replicas:\n    - hostname: ip-10-0-0-7\n      id: 0\n"
        '      structured_error_msg: \'{"message": {"message": "RuntimeError: CUDA error: an illegal memory '
        'access was encountered", "extraInfo": {"timestamp": "1657049163"}}}\'\n'
        "  state: FAILED (5)\n",
        ("gpu_error", None, "ip-10-0-0-7", 7, "high"),
    ),
    (
        "torchx status: a replica with no error but its exit code",
        "AppDef:\n  State: FAILED\nRoles:\n  trainer[0]:\n    state: FAILED\n"
        "    timestamp: 2023-03-01 10:00:09 (exit_code: 137)\n    hostname: compute-1\n"
        "    error_msg: <NONE>\n",
        ("signal", None, None, 6, "medium"),
    ),
    (
        "near miss: a field that names no exception, and an exit code of 0",
        "    error_msg: <NONE>\n    timestamp: 2023-03-01 10:00:09 (exit_code: 0)\nValueError: bad\n",
        ("exception", None, None, 3, "medium"),
    ),
    (
        "near miss: a logger's warning level is no field",
        "WARNING: DeprecationError: old flag\nsrun: error: n1: task 0: Exited with exit code 1\n",
        ("exit_code", 0, "n1", 2, "medium"),
    ),
    # --- who failed, from the lines around an error in words
    (
        "Open MPI's error block: the rank its writer reported, for its error in words",
        "[cn-247:28492] *** An error occurred in MPI_Allreduce\n"
        "[cn-247:28492] *** reported by process [635830273,3]\n"
        "[cn-247:28492] *** the transport failed while it was progressing\n",
        ("unknown", 3, "cn-247", 3, "low"),
    ),
    (
        "near miss: another writer's error in words takes no rank from that block",
        "[cn-247:28492] *** reported by process [635830273,3]\n"
        "[cn-231:1187] *** the transport failed while it was progressing\n",
        ("unknown", None, "cn-231", 2, "low"),
    ),
    (
        "a node named by its index and its name in words (PBS's `node 18 (n314)`)",
        "scheduler: job 4411 ended NODE_FAIL, lost node 18 (n314)\n",
        ("node_fail", None, "n314", 1, "medium"),
    ),
    (
        "near miss: a sister node by its index alone names no node",
        "scheduler: job 4411 ended NODE_FAIL, lost node 18\n",
        ("node_fail", None, None, 1, "medium"),
    ),
    (
        "a command's end in a tool's words: kubectl exec's exit code",
        "mpirun --allow-run-as-root -np 2 python train.py\ncommand terminated with exit code 137\n",
        ("signal", None, None, 2, "medium"),
    ),
    (
        "near miss: a command that ended with code 0, then the error",
        "command terminated with exit code 0\nValueError: bad config\n",
        ("exception", None, None, 2, "medium"),
    ),
    # --- PaddlePaddle's launcher: the rank only when its list holds one (the list is in polling order)
    (
        "paddle's launcher names the one trainer that failed",
        "INFO 2021-06-01 10:00:01,000 launch_utils.py:471] Local start 4 processes.\n"
        "ERROR 2021-06-01 10:05:12,345 launch_utils.py:327] ABORT!!! Out of all 4 trainers, the trainer "
        "process with rank=[3] was aborted. Please check its log.\n",
        # (a Python trainer's end, with no code: an exception its workerlog holds, at medium)
        ("exception", 3, None, 2, "medium"),
    ),
    (
        "paddle's launcher lists two trainers: no first one is named",
        "ERROR 2020-11-30 13:01:49,988 utils.py:413] ABORT!!! Out of all 2 trainers, the trainer process "
        "with rank=[0, 1] was aborted. Please check its log.\n",
        ("exception", None, None, 1, "medium"),
    ),
    (
        "near miss: paddle's launcher ending its processes is no failure of its own",
        "INFO 2021-06-01 10:05:15,000 launch_utils.py:341] terminate all the procs\n"
        'Traceback (most recent call last):\n  File "train.py", line 3, in <module>\n'
        "ValueError: bad shape\n",
        ("exception", None, None, 4, "high"),
    ),
    # --- srun run with an ended job's SLURM_JOB_ID (srun's allocate.c words it two ways)
    (
        "srun finds the job in SLURM_JOB_ID already ended",
        "srun: error: Slurm job 6572146 has expired\n"
        "srun: Check SLURM_JOB_ID environment variable. Expired or invalid job 6572146\n",
        ("slurm_refused", None, None, 1, "high"),
    ),
    # --- Open MPI's report of a process that exited without MPI_Finalize: its node on the next line
    (
        "mpirun names the process that exited improperly, its node on the line after",
        "--------------------------------------------------------------------------\n"
        "mpirun has exited due to process rank 3 with PID 4711 on\n"
        "node gpu-a07 exiting improperly. There are three reasons this could occur:\n"
        '1. this process did not call "init" before exiting, but others in\n',
        ("exit_code", 3, "gpu-a07", 2, "medium"),
    ),
    (
        "Open MPI 1.4's wording of the same report",
        "mpiexec has exited due to process rank 45 with PID 19540 on\n"
        'node ci118 exiting without calling "finalize". This may\n',
        ("exit_code", 45, "ci118", 1, "medium"),
    ),
]


@pytest.mark.parametrize(("name", "text", "want"), CASES, ids=[c[0] for c in CASES])
def test_a_report_is_read(
    tmp_path: Path, name: str, text: str, want: tuple[str, int | None, str | None, int, str]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    d = triage_files([log])
    assert d.findings, name
    first = next((f for f in d.findings if f.cause), d.findings[0])
    got = (first.cls, first.rank, first.node, first.evidence[0].line, first.confidence)
    assert got == want, first.summary
