"""Triage's lexicon: which lines no signature reads say that something failed, and which class
their words name. Each class has lines of real wording that name it and near misses that do not;
ordinary prose and a log's metrics are no failure."""

from __future__ import annotations

import io

import pytest

from jobc.jobs.lexicon import classify, error_like, open_type
from jobc.jobs.signatures import PREFILTER


@pytest.mark.parametrize(
    ("line", "cls", "fields"),
    [
        (
            "slurmstepd: error: *** STEP 88.0 ON cn7 CANCELLED AT 2024-01-02T03:04:05 DUE TO PREEMPTION ***",
            "preempted",
            {"job": "88"},
        ),
        ("[2024-03-01T06:57:41.752] Time limit exhausted for JobId=230", "time_limit", {"job": "230"}),
        # PBS's and Torque's words for a job's end (the MOM's kill, the server's deletion)
        ("PBS: job killed: walltime 14423 exceeded limit 14400", "time_limit", {}),
        ("=>> PBS: job killed: node 2 (cn7) requested job die, code 15001", "node_fail", {}),
        ("Job deleted at request of alice@login1", "cancelled", {}),
        # LSF's exit reasons
        ("TERM_RUNLIMIT: job killed after reaching LSF run time limit.", "time_limit", {}),
        ("TERM_MEMLIMIT: job killed after reaching LSF memory usage limit.", "host_oom", {}),
        ("TERM_OWNER: job killed by owner.", "cancelled", {}),
        # bhist -l's `Exited by LSF signal REASON` for LSF's other reasons; an external signal
        # names none (B611 reads it)
        ("Exited by LSF signal TERM_CPULIMIT. The CPU time used is 7200.0 seconds;", "time_limit", {}),
        ("Exited by LSF signal TERM_PREEMPT. The CPU time used is 3.0 seconds;", "preempted", {}),
        ("Exited by LSF signal TERM_SWAP. The CPU time used is 3.0 seconds;", "host_oom", {}),
        ("Exited by LSF signal TERM_REQUEUE_ADMIN. The CPU time used is 3.0 seconds;", "cancelled", {}),
        ("Exited by LSF signal TERM_EXTERNAL_SIGNAL. The CPU time us", None, {}),
        ("./run.sh: Zeile 40: git: Kommando nicht gefunden.", "missing_program", {}),
        ("error: job 881 on n12 DUE TO NODE FAILURE", "node_fail", {}),
        (
            "[Mon Nov 27 13:11:44 2023] Memory cgroup out of memory: Killed process 4242 (python)",
            "host_oom",
            {},
        ),
        (
            "XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 6291456 bytes.",
            "cuda_oom",
            {},
        ),
        ("OSError: [Errno 98] Address already in use", "port_in_use", {}),
        ("IOError: [Errno 122] Disk quota exceeded", "disk_full", {}),
        (
            "OSError: libcudart.so.12: cannot open shared object file: No such file or directory",
            "import_error",
            {},
        ),
        (
            "/usr/bin/python3: can't open file '/home/me/trian.py': [Errno 2] No such file or directory",
            "missing_program",
            {},
        ),
        (
            "RuntimeError: Timed out initializing process group in store based barrier on rank: 0",
            "rendezvous",
            {},
        ),
        (
            "[PG 1 Rank 0] Timeout at NCCL work: 158046, last enqueued NCCL work: 158046",
            "collective_timeout",
            {},
        ),
        ("CUDARuntimeError: cudaErrorECCUncorrectable: uncorrectable ECC error encountered", "gpu_error", {}),
        ("XGBoostError: NCCL failure :unhandled system error", "nccl_error", {}),
        (
            "[2024-02-02T12:49:15.289] _slurm_rpc_kill_job: REQUEST_KILL_JOB JobId=12 uid 0",
            "cancelled",
            {"job": "12"},
        ),
        ("SignalException: Process 140 got signal: 15", "signal", {"signal": "SIGTERM"}),
        (
            "[2022-05-27T11:37:57.377] _job_complete: JobId=127441 WTERMSIG 9",
            "signal",
            {"signal": "SIGKILL", "job": "127441"},
        ),
        ("KeyboardInterrupt", "signal", {"signal": "SIGINT"}),
        (
            "python[4242]: segfault at 0 ip 00007f sp 00007ffd error 4 in libc.so.6",
            "signal",
            {"signal": "SIGSEGV"},
        ),
        ("ssh exited with exit code 255", "exit_code", {"exit_code": "255"}),
        (
            "error: *** STEP 5.0 ON nid02 CANCELLED AT 2026-04-29T23:36:37 DUE TO TASK FAILURE ***",
            "exit_code",
            {"job": "5"},
        ),
        # a meeting of the ranks that failed: JAX's coordination service, a resolver on the master's name
        (
            "DEADLINE_EXCEEDED: Barrier timed out. Id: [Init]Wait_for_all_tasks_to_register::0.",
            "rendezvous",
            {},
        ),
        ("nslookup: can't resolve 'job-master-0': Name does not resolve", "rendezvous", {}),
        ("** server can't find node0.cluster: NXDOMAIN", "rendezvous", {}),
        # srun's launch refused by a node, for a reason no signature knows
        (
            "srun: error: Application launch failed: Communication connection failure",
            "slurm_refused",
            {},
        ),
        # ... and a barrier of the running program is a collective's
        ("DEADLINE_EXCEEDED: Barrier timed out. Id: checkpoint_barrier_1200", "collective_timeout", {}),
        # words of an end without its value name no class: a signal not named, a code not given
        ("a non-zero exit code. Per user-direction, the job has been aborted.", None, {}),
        ("the process received a signal and stopped", None, {}),
        # glog's crash header names no signal (the next line does): `Aborted at` is no SIGABRT
        (
            '*** Aborted at 1573079353 (unix time) try "date -d @1573079353" if you are using GNU date ***',
            None,
            {},
        ),
        # click's `Aborted!` is a command it stopped (a Ctrl-C, a SIGTERM): no SIGABRT; the shell's
        # `Aborted` of a process that abort() ended is one
        ("Aborted!", None, {}),
        # the shell's `Killed` under a Chinese locale (glibc's zh_CN words), and a line that is none
        ("已杀死", "signal", {"signal": "SIGKILL"}),
        ("训练已完成", None, {}),
        ("line 14: 94460 Aborted                 python main.py", "signal", {"signal": "SIGABRT"}),
        ("ValueError: bad sample in shard 17", None, {}),
        # Slurm's commands that cannot reach the controller, a launcher's lost node or job
        ("sinfo: fatal: Could not establish a configuration source", "slurm_refused", {}),
        ("squeue: error: Unable to contact slurm controller (connect failure)", "slurm_refused", {}),
        ("ORTE has lost communication with a remote daemon.", "node_fail", {}),
        ("job preempted (node failure)", "preempted", {}),
        (
            "mpirun was unable to launch the specified application as it could not access",
            "missing_program",
            {},
        ),
        # an accelerator's allocator that ran out, in TensorFlow's, PaddlePaddle's and XLA's words;
        # on a CPU device it names no accelerator (the class is the host's, or none)
        # source: tensorflow/tensorflow tensorflow/core/common_runtime/bfc_allocator.cc
        # (`OOM when allocating`)
        (
            "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor with "
            "shape[2,64,400,112,112] and type float on "
            "/job:localhost/replica:0/task:0/device:GPU:0 by allocator "
            "GPU_0_bfc",
            "cuda_oom",
            {},
        ),
        (
            "ResourceExhaustedError: Out of memory error on GPU 0. Cannot allocate 413.281250MB",
            "cuda_oom",
            {},
        ),
        (
            "ResourceExhaustedError: OOM when allocating tensor with shape[1024,1024] on "
            "/job:localhost/replica:0/task:0/device:CPU:0 by allocator cpu",
            None,
            {},
        ),
        ("Out of memory: Killed process 4242 (python) total-vm:1000kB", "host_oom", {}),
        # ROCm's and HIP's GPU faults
        # source: ROCm/ROCR-Runtime src/core/runtime/runtime.cpp (`Memory access fault by GPU node-%u`)
        (
            "Memory access fault by GPU node-2 (Agent handle: 0x55fea5592860) on address 0x7fc133800000. "
            "Reason: Page not present or supervisor privilege.",
            "gpu_error",
            {},
        ),
        (
            ":0:rocdevice.cpp            :2984: 13356666806077 us: [pid:1843  tid:0x7fb7da5c8700] "
            "Callback: Queue 0x7fb7f5800000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: "
            "An HSAIL operation resulted in a "
            "hardware exception. code: 0x1016",
            "gpu_error",
            {},
        ),
        # srun's step whose tasks never all started is Slurm's refusal, not a collective's timeout
        # source: SchedMD/slurm src/srun/srun_job.c, src/api/step_launch.c (`timeout waiting for task launch`)
        ("srun: error: timeout waiting for task launch, started 0 of 1 tasks", "slurm_refused", {}),
        ("srun: StepId=2166087.0 aborted before step completely launched.", "slurm_refused", {}),
        # a coordination service: a peer's lost heartbeat after the job ran, a deadline while connecting;
        # a possibility in a list (`failed, got preempted, or crashed`) is no preemption
        # source: tensorflow/tsl xla/tsl/distributed_runtime/coordination/coordination_service.cc
        (
            "/job:jax_worker/replica:0/task:37 has been set to ERROR in coordination service: "
            "UNAVAILABLE: Task /job:jax_worker/replica:0/task:37 heartbeat timeout. "
            "This indicates that the remote task has failed, "
            "got preempted, or crashed unexpectedly.",
            "collective_timeout",
            {},
        ),
        (
            "jaxlib.xla_extension.XlaRuntimeError: DEADLINE_EXCEEDED: Deadline Exceeded while connecting "
            "to the coordination service",
            "rendezvous",
            {},
        ),
        # the c10d store's client answered by no store
        # source: pytorch/pytorch torch/csrc/distributed/c10d/TCPStore.cpp
        # (`Stop_waiting response is expected`)
        ("RuntimeError: Stop_waiting response is expected", "rendezvous", {}),
        # a launcher that could not exec the program
        # source: pmodels/mpich src/pm/hydra/lib/utils/launch.c (`execvp error on file %s (%s)`)
        (
            "[proxy:1:1@node2] HYD_spawn (hydra_spawn.c:117): execvp error on file ep_server "
            "(No such file or directory)",
            "missing_program",
            {},
        ),
        ("mpiexec: Error: Unable to run the program ./a.out on host n3", "missing_program", {}),
        # the interconnect's own libraries: their timeouts are the network's
        # source: ofiwg/libfabric prov/cxi; Cray's libibgni and DAPL (`open_hca: failed`)
        (
            "nid06489:SCM:22fc4:aab49500: 127246108 us(127246108 us!!!):  open_hca: failed to init cr pipe - "
            "Connection timed out",
            "nccl_error",
            {},
        ),
        (
            "Unidentified node: Error detected by libibgni.so.  Subsequent operation may be unreliable.",
            "nccl_error",
            {},
        ),
        # source: pmodels/mpich src/mpid/ch4/netmod/ofi/ofi_impl.h (`OFI tagged send failed`)
        (
            "MPIDI_OFI_send_normal(368): OFI tagged send failed "
            "(ofi_impl.h:368:MPIDI_OFI_send_normal:No route to host)",
            "nccl_error",
            {},
        ),
        ("fi_getinfo() failed: No data available", "nccl_error", {}),
        ("The user-provided time limit for job execution has been reached:", "time_limit", {}),
        # slurmctld's step killed for a lost node
        ("[2024-05-01T11:00:00.000] Killing StepId=77.0 due to failed node gpu-a17", "node_fail", {}),
    ],
)
def test_the_words_of_a_line_name_its_class(line: str, cls: str | None, fields: dict[str, str]) -> None:
    got = classify(line)
    assert (got[0] if got else None) == cls, line
    if got is not None:
        assert got[1] == fields, line


@pytest.mark.parametrize(
    "line",
    [
        "Lmod has detected the following error: These module(s) or extension(s) exist",
        "slurmstepd: *** JOB 1479012 CANCELLED AT 2015-02-04T06:33:25 *** on sh-2-3",
        "[2022-05-27T11:37:57.377] _job_complete: JobId=127441 WTERMSIG 9",
        "[2024-03-01T06:57:41.752] Time limit exhausted for JobId=230",
        "python[4242]: segfault at 0 ip 00007f sp 00007ffd error 4 in libc.so.6",
        "MPI_ABORT was invoked on rank 3 in communicator MPI_COMM_WORLD with errorcode 1.",
        "rank 0 in job 1  node07_65327   caused collective abort of all ranks",
        "/usr/bin/python3: can't open file '/home/me/trian.py': [Errno 2] No such file or directory",
        "terminate called without an active exception; Aborted (core dumped)",
        "已杀死",
        "|CCL_ERROR| worker thread #0 could not be started",
        "CustomLibraryException: the device went away",
        "nslookup: can't resolve 'job-master-0': Name does not resolve",
        "write_line error; fd=12 buf=:cmd=barrier_in",
        "sinfo: fatal: Could not establish a configuration source",
        "ORTE has lost communication with a remote daemon.",
        "job preempted (node failure)",
        "      Exit status of rank 0: killed by signal 9",
        "Memory access fault by GPU node-2 (Agent handle: 0x55fea5592860) on address 0x7fc133800000.",
        "Callback: Queue 0x7fb7f5800000 aborting with error : HSA_STATUS_ERROR_EXCEPTION: An HSAIL operation",
        "[proxy:1:1@node2] HYD_spawn (hydra_spawn.c:117): execvp error on file ep_server",
        "mpiexec: Unable to run the program ./a.out",
        "srun: error: timeout waiting for task launch, started 0 of 1 tasks",
        "Tue Jul 30 21:43:41: Exited by LSF signal TERM_EXTERNAL_SIGNAL. The CPU time us",
        "Exited with signal termination: Alarm clock.",
        "The user-provided time limit for job execution has been reached:",
        "training time limit reached, stopping at step 4200",
        "*** Your MPI job will now abort.",
    ],
)
def test_a_line_that_says_something_failed_is_error_like(line: str) -> None:
    assert error_like(line, None), line
    # ... and the pre-filter lets it through, so a log of many gigabytes still reads it
    assert PREFILTER.search(line.encode()) is not None, line


@pytest.mark.parametrize(
    "line",
    [
        "Error rate: 0.1% of samples skipped",
        "Epoch 3: val_error: 0.12, train_loss=0.3",
        "Exception handling enabled for the data pipeline",
        "Assertion checks are on (debug build)",
        "We killed two birds with one stone: fewer steps and less memory",
        "The scheduler cancelled nothing this time",
        "slurmstepd: error: couldn't chdir to `/workspace': No such file or directory: going to /tmp instead",
        "config not found in cache, falling back to the default",
        "Connection failed, retrying in 5 s",
        "If an error: message appears, please report it",
        "WARNING: Error while reading the optional file",
        "nslookup: resolved 'job-master-0' to 10.0.0.4",
        "the scheduler may preempt this job; it checkpoints every hour",
        "No process was killed by the scheduler today",
        "Memory access faults are reported by the GPU driver in dmesg",
        "time limit of the job: 24:00:00 (the partition's maximum)",
        "the run will abort if the loss diverges",
        "heartbeat interval: 10 s",
    ],
)
def test_prose_metrics_and_recoveries_are_no_failure(line: str) -> None:
    assert not error_like(line, None), line


def test_a_logging_level_decides_before_the_words() -> None:
    assert error_like("the frobnicator lost its quorum", "E")
    assert not error_like("Error while reading the optional file", "W")
    assert not error_like("FATAL ERRORS: 0", "INFO")


def test_an_exceptions_type_says_whether_its_message_may_name_the_class() -> None:
    assert open_type("RuntimeError")
    assert open_type("jaxlib.xla_extension.XlaRuntimeError")
    assert not open_type("ValueError")
    assert not open_type("builtins.KeyError")


def test_an_exception_of_an_open_type_takes_the_class_its_message_names_at_medium_confidence(
    tmp_path: object,
) -> None:
    from pathlib import Path

    from jobc.jobs.triage import triage_files

    log = Path(str(tmp_path)) / "x.log"
    log.write_text(
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 9, in <module>\n'
        "cupy_backends.cuda.api.runtime.CUDARuntimeError: cudaErrorX: uncorrectable ECC error encountered\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.action) == ("gpu_error", "exclude_node")
    # (the ECC signature reads it; the lexicon would name the same class)
    log.write_text(
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 9, in <module>\n'
        "RuntimeError: the batch scheduler preempted this job\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.confidence) == ("preempted", "medium")
    # a program's own exception type stays the program's, whatever its message says
    log.write_text(
        "Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 9, in <module>\n'
        "ValueError: expected NCCL_SOCKET_IFNAME to name an interface\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert first.cls == "exception"


def test_a_slurm_line_in_a_wrapper_s_output_is_read_with_its_node() -> None:
    from jobc.jobs.events import Scanner
    from jobc.jobs.triage import scan

    scanner = Scanner()
    text = (
        "INFO:wrapper:job 77 submitted\n"
        "slurmstepd: *** JOB 1479012 CANCELLED AT 2015-02-04T06:33:25 *** on sh-2-3\n"
        "slurmstepd: _slurm_cgroup_destroy: problem deleting step cgroup path\n"
    )
    scan([("x.log", io.BytesIO(text.encode()))], scanner)
    d = scanner.diagnosis(None, None, None, ["x.log"])
    first = d.findings[0]
    assert (first.cls, first.node, first.evidence[0].line) == ("cancelled", "sh-2-3", 2)
