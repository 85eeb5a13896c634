"""Near variants of the formats real logs taught triage: other wordings, other tools and other
pastes of the same families, written here so that a fix made for one log reads its fellows too.
Each case is a small log and the first cause triage must name (class, rank, node, the line of
its first evidence)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.jobs.triage import triage_files

TB = 'Traceback (most recent call last):\n  File "/home/u/train.py", line 9, in <module>\n    main()\n'

CASES: list[tuple[str, str, tuple[str, int | None, str | None, int]]] = [
    # --- records glued on one line
    (
        "srun records pasted on one line",
        "srun: error: n1: task 0: Exited with exit code 1 srun: error: n2: task 1: Terminated\n",
        ("exit_code", 0, "n1", 1),
    ),
    (
        "a segfault glued to a progress bar",
        "Epoch 2: 40%|████ | 40/100 [00:12<00:18, 3.3it/s, loss=0.3]Segmentation fault (core dumped)\n",
        ("signal", None, None, 1),
    ),
    (
        "a traceback glued to a progress bar",
        "  0%|          | 0/48 [00:00<?, ?it/s]" + TB + "KeyError: 'labels'\n",
        ("exception", None, None, 4),
    ),
    # --- a message wrapped onto the next line
    (
        "srun's report wrapped after `exit`",
        "srun: error: node1: task 3: Exited with exit\ncode 1\n",
        ("exit_code", 3, "node1", 1),
    ),
    (
        "slurmstepd's time limit wrapped before its reason",
        "slurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO\nTIME LIMIT ***\n",
        ("time_limit", None, "cn1", 1),
    ),
    # --- older slurmstepd wordings
    (
        "an old time limit without its node",
        "slurmstepd: *** JOB 123 CANCELLED AT 2014-04-02T15:49:58 DUE TO TIME LIMIT ***\n",
        ("time_limit", None, None, 1),
    ),
    (
        "an old cancel naming its node after the stars",
        "slurmstepd: *** JOB 123 CANCELLED AT 2015-02-04T06:33:25 *** on node-7\n",
        ("cancelled", None, "node-7", 1),
    ),
    (
        "a step failed in today's wording",
        "slurmstepd: error: *** JOB 7 ON node1 FAILED (non-zero exit code or other failure mode) ***\n",
        ("exit_code", None, "node1", 1),
    ),
    # --- slurmctld's own log
    (
        "a controller's exit status on a two-node allocation names no node",
        "[2024-02-01T13:22:08.955] sched: Allocate JobId=8 NodeList=compute[00-01] #CPUs=4 Partition=normal\n"
        "[2024-02-01T13:22:09.985] _job_complete: JobId=8 WEXITSTATUS 1\n",
        ("exit_code", None, None, 2),
    ),
    (
        "a backfilled job's time limit names its node",
        "[2026-08-17T10:02:10.000] sched/backfill: _start_job: Started JobId=2 in gpu on gpu01\n"
        "[2026-08-17T10:03:10.000] Time limit exhausted for JobId=2\n",
        ("time_limit", None, "gpu01", 2),
    ),
    # --- NCCL's error strings in other libraries' words
    (
        "XLA's NCCL operation",
        "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:297: "
        "NCCL operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled cuda error\n",
        ("nccl_error", None, None, 1),
    ),
    (
        "CuPy's NCCL error name",
        "cupy_backends.cuda.libs.nccl.NcclError: NCCL_ERROR_SYSTEM_ERROR: unhandled system error\n",
        ("nccl_error", None, None, 1),
    ),
    # --- a meeting of the ranks that failed, said in the message
    (
        "the store-based barrier of a newer torch",
        TB + "RuntimeError: Timed out initializing process group in store based barrier on rank 3, for key: "
        "store_based_barrier_key:1 (world_size=4, num_workers_joined=2, timeout=0:30:00)\n",
        ("rendezvous", 3, None, 4),
    ),
    # --- a signal the process received explains its teardown
    (
        "torchrun's agent told to stop, then its own traceback",
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4213 got signal: 15\n"
        + TB
        + "RuntimeError: worker group stopped\n",
        ("signal", None, None, 1),
    ),
    # --- GPU errors: the class, and an action from the words
    (
        "a kernel's assertion line glued to its block and thread",
        "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1236: indexSelectSmallIndex: block: [0,0,0], "
        "thread: [32,0,0] Assertion `srcIndex < srcSelectDimSize` failed.\n",
        ("gpu_error", None, None, 1),
    ),
    # --- a command the shell could not find, in every shell and language
    (
        "bash under a German locale, in a PBS job's script",
        "/var/spool/pbs/mom_priv/jobs/1375020.m02.SC: Zeile 40: torchrun: Kommando nicht gefunden.\n",
        ("missing_program", None, None, 1),
    ),
    (
        "bash under a French locale (a space before the colon)",
        "./train.sh: ligne 12: srun : commande introuvable\n",
        ("missing_program", None, None, 1),
    ),
    (
        "bash under zh_CN's newer catalogue (a full-width colon)",
        "bash: deepspeed：未找到命令\n",
        ("missing_program", None, None, 1),
    ),
    (
        "dash running a script, then srun's report",
        "/var/spool/slurmd/job42/slurm_script: 7: python3: not found\n"
        "srun: error: gpu3: task 0: Exited with exit code 127\n",
        ("missing_program", 0, "gpu3", 1),
    ),
    ("busybox ash", "sh: python3: not found\n", ("missing_program", None, None, 1)),
    ("zsh", "zsh: command not found: accelerate\n", ("missing_program", None, None, 1)),
    ("tcsh", "mpirun: Command not found.\n", ("missing_program", None, None, 1)),
    # --- a container runtime that could not find the program in its image
    (
        "Singularity's FATAL, one task on one node",
        'FATAL:   "python3": executable file not found in $PATH\n'
        "srun: error: cn12: task 0: Exited with exit code 255\n",
        ("missing_program", 0, "cn12", 1),
    ),
    (
        "runc under Docker",
        "docker: Error response from daemon: failed to create task: OCI runtime create failed: "
        'exec: "python": '
        "executable file not found in $PATH: unknown.\n",
        ("missing_program", None, None, 1),
    ),
    (
        "crun under Podman",
        "Error: crun: executable file `train.sh` not found in $PATH: No such file or directory\n",
        ("missing_program", None, None, 1),
    ),
    # --- the dynamic linker, and srun's report of the task it ended
    (
        "a shared library missing, one task",
        "/opt/app/bin/solver: error while loading shared libraries: libmpi.so.40: cannot open shared object "
        "file: No such file or directory\nsrun: error: c07: task 0: Exited with exit code 127\n",
        ("import_error", 0, "c07", 1),
    ),
    (
        "a C library too old for the program",
        "./train: /lib64/libc.so.6: version `GLIBC_2.34' not found (required by ./train)\n",
        ("import_error", None, None, 1),
    ),
    # --- Slurm's authentication and credentials
    (
        "munge's decode on the other side",
        "srun: error: Munge decode failed: Expired credential\nsrun: error: Unable to confirm allocation\n",
        ("slurm_refused", None, None, 1),
    ),
    (
        "a step launch refused for a revoked credential",
        "srun: error: Task launch for StepId=981.0 failed on node gpu-a07: Job credential revoked\n",
        ("slurm_refused", None, "gpu-a07", 1),
    ),
    (
        "authentication error of a batch submission",
        "sbatch: error: slurm_send_node_msg: auth_g_create: REQUEST_SUBMIT_BATCH_JOB has authentication "
        "error\n",
        ("slurm_refused", None, None, 1),
    ),
    # --- PBS and Torque
    (
        "PBS's CPU time kill in OpenPBS's wording",
        "step 400\n=>> PBS: job killed: cput job total 7300 secs exceeded limit 7200\n",
        ("time_limit", None, None, 2),
    ),
    (
        "PBS's vmem kill",
        "=>> PBS: job killed: vmem 9876543kb exceeded limit 8388608kb\n",
        ("host_oom", None, None, 1),
    ),
    (
        "Torque's sister node asking the job to die",
        "=>> PBS: job killed: node 3 (cn17) requested job die, code 15009\n",
        ("node_fail", None, "cn17", 1),
    ),
    (
        "qdel by the job's owner, as the mail says",
        "PBS Job Id: 9021.pbs01\nJob Name:   train\nAborted by PBS Server\nJob deleted at request of "
        "alice@login2\n",
        ("cancelled", None, None, 4),
    ),
    # --- Open MPI losing a node's daemon
    (
        "Open MPI 3's wording, the node on its hostname line",
        "ORTE has lost communication with its daemon located on node:\n\n  hostname:  gpu-17\n\n"
        "This is usually due to either a failure of the TCP network\n",
        ("node_fail", None, "gpu-17", 1),
    ),
    (
        "Open MPI 1.8's wording, then the program's error",
        "The system has lost communication with the following daemon:\n\nDaemon: [[4311,0],2]\n"
        "Node:   r03n12\n\n" + TB + "RuntimeError: MPI job failed\n",
        ("node_fail", None, "r03n12", 1),
    ),
    (
        "mpirun's report with the node redacted",
        "mpirun noticed that process rank 3 with PID <pid> on node <node> exited on signal 11 (Segmentation "
        "fault).\n",
        ("signal", 3, None, 1),
    ),
    # --- timestamps and the GPU's driver
    (
        "a syslog timestamp before a rank's prefix",
        "Mar  4 09:01:02 [rank1]: RuntimeError: No CUDA GPUs are available\n",
        ("gpu_error", 1, None, 1),
    ),
    (
        "torch's CUDA initialisation warning, then a job that only exited",
        "/opt/venv/lib/python3.10/site-packages/torch/cuda/__init__.py:138: UserWarning: CUDA "
        "initialization: Found no NVIDIA driver on your system.\n"
        "srun: error: g04: task 0: Exited with exit code 1\n",
        ("gpu_error", 0, "g04", 1),
    ),
    (
        "a data-loader worker's segfault",
        "RuntimeError: DataLoader worker (pid 771) is killed by signal: Segmentation fault.\n",
        ("signal", None, None, 1),
    ),
    # --- interleaved tracebacks whose exception line came out garbled
    (
        "two ranks' CUDA OOM interleaved",
        TB + TB + "torch.cudatorch.cuda.OutOfMemoryErrorOutOfMemoryError: : CUDA out of memory. Tried to "
        "allocate 56.00 MiB. GPU CUDA out of memory.\n",
        ("cuda_oom", None, None, 7),
    ),
]


@pytest.mark.parametrize(("name", "text", "want"), CASES, ids=[c[0] for c in CASES])
def test_a_near_variant_is_read(
    tmp_path: Path, name: str, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    d = triage_files([log])
    assert d.findings, name
    first = d.findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == want, first.summary


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("RuntimeError: CUDA error: device-side assert triggered\n", "fix_program"),
        ("RuntimeError: CUDA error: an illegal memory access was encountered\n", "fix_program"),
        (
            "NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has fallen off the bus.\n",
            "exclude_node",
        ),
        ("RuntimeError: CUDA error: uncorrectable ECC error encountered\n", "exclude_node"),
        ("RuntimeError: CUDA error: no CUDA-capable device is detected\n", "fix_spec_or_script"),
    ],
)
def test_a_gpu_errors_action_follows_its_words(tmp_path: Path, text: str, action: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.action) == ("gpu_error", action)


def test_shared_memory_that_ran_out_is_a_limit_to_raise(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        "RuntimeError: DataLoader worker (pid 1108) is killed by signal: Bus error. It is possible that "
        "dataloader's workers are out of shared memory. Please try to raise your shared memory limit.\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.signal, first.action) == ("signal", "SIGBUS", "raise_limit")


def test_a_traceback_that_never_closes_still_shows_its_innermost_frame(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(TB + '  File "/usr/lib/python3/site-packages/x.py", line 4, in load\n', encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.confidence, first.evidence[0].line) == ("unknown", "low", 4)
    assert first.evidence[1].line == 1  # with its header
