"""Near variants of the formats real logs taught triage: other wordings, other tools and other
pastes of the same families, written here so that a fix made for one log reads its fellows too.
Each case is a small log and the first cause triage must name (class, rank, node, the line of
its first evidence)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.jobs.triage import triage_files

TB = 'Traceback (most recent call last):\n  File "/home/u/train.py", line 9, in <module>\n    main()\n'

_DS_NODES = (
    "[2024-03-20 20:30:00,000] [INFO] [launch.py:235:main] nnodes={nodes}, num_local_procs=8, node_rank=0\n"
)
_DS_EXIT = (
    "[2024-03-20 20:31:29,269] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', 'train.py', "
    "'--local_rank={local}', '--deepspeed', 'ds.json'] exits with return code = {code}\n"
)

CASES: list[tuple[str, str, tuple[str, int | None, str | None, int]]] = [
    # --- a shell's prompt with no error word in it, the paste's first line
    (
        "a prompt whose command ran here names the host of the error below it",
        "(env) ann@ip-10-1-2-3:~/work$ tune run --nproc_per_node 8 recipe --config c.yaml\n"
        "Usage: tune [OPTIONS] COMMAND [ARGS]...\n\nError: No such command 'run'.\n",
        ("missing_program", None, "ip-10-1-2-3", 4),
    ),
    (
        "a prompt whose command ran the program elsewhere names no host",
        "(env) ann@login1:~/work$ srun -N 2 tune run --nproc_per_node 8 recipe\n"
        "Usage: tune [OPTIONS] COMMAND [ARGS]...\n\nError: No such command 'run'.\n",
        ("missing_program", None, None, 4),
    ),
    # --- the node's place in the world from its torchrun command line
    (
        "one process on the node whose command line names its node rank",
        "python -m torch.distributed.launch --nproc_per_node=1 --nnodes=2 --node_rank=1 train.py\n"
        "gpu3:1653:1695 [0] include/socket.h:347 NCCL WARN Call to bind failed : Address already in use\n",
        ("nccl_error", 1, "gpu3", 2),
    ),
    (
        "a node rank read from a variable gives no rank",
        "python -m torch.distributed.launch --nproc_per_node=1 --nnodes=2 --node_rank=$RANK train.py\n"
        "gpu3:1653:1695 [0] include/socket.h:347 NCCL WARN Call to bind failed : Address already in use\n",
        ("nccl_error", None, "gpu3", 2),
    ),
    (
        "several processes on the node and no local rank gives no rank",
        "torchrun --nproc_per_node=4 --nnodes=2 --node_rank=1 train.py\n"
        "gpu3:1653:1695 [0] include/socket.h:347 NCCL WARN Call to bind failed : Address already in use\n",
        ("nccl_error", None, "gpu3", 2),
    ),
    # --- a Python trainer's end its launcher reports without its traceback
    (
        "Paddle's launcher naming an aborted trainer: an exception its workerlog holds",
        "ERROR 2022-02-24 12:04:29,407 launch_utils.py:602] ABORT!!! Out of all 4 trainers, the trainer "
        "process with rank=[3] was aborted. Please check its log.\n",
        ("exception", 3, None, 1),
    ),
    (
        "torchrun's worker that exited with 2: argparse's refusal or an exception",
        "Failures:\n  <NO_OTHER_FAILURES>\n------\nRoot Cause (first observed failure):\n[0]:\n"
        "  time      : 2022-04-07_18:08:41\n  host      : node001\n  rank      : 1 (local_rank: 1)\n"
        "  exitcode  : 2 (pid: 56773)\n  error_file: <N/A>\n",
        ("exception", 1, "node001", 9),
    ),
    (
        "near miss: torchrun's worker that exited with 3 stays an exit code",
        "Failures:\n  <NO_OTHER_FAILURES>\n------\nRoot Cause (first observed failure):\n[0]:\n"
        "  time      : 2022-04-07_18:08:41\n  host      : node001\n  rank      : 1 (local_rank: 1)\n"
        "  exitcode  : 3 (pid: 56773)\n  error_file: <N/A>\n",
        ("exit_code", 1, "node001", 9),
    ),
    (
        "Horovod's Gloo rank waiting in vain for the others' keys in the driver's HTTP store",
        "terminate called after throwing an instance of 'gloo::IoException'\n"
        "  what():  [/tmp/horovod/common/gloo/http_store.cc:57] [/tmp/horovod/common/gloo/http_store.cc:57] "
        "Wait timeout after 30 seconds for key(s): 0. You may want to increase the timeout via "
        "HOROVOD_GLOO_TIMEOUT_SECONDS\n",
        ("rendezvous", None, None, 2),
    ),
    # --- Hydra's report of an error (hydra/_internal/utils.py, run_and_report)
    (
        "Hydra's compact error: the block above its HYDRA_FULL_ERROR line",
        "step 0 loading\n\nCannot find primary config 'config.yaml'. Check that it's in your config "
        "search path.\n\nSet the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n",
        ("exception", None, None, 3),
    ),
    (
        "Hydra after a traceback: the exception line states it",
        TB + "ValueError: bad split\n\nSet the environment variable HYDRA_FULL_ERROR=1 for a complete "
        "stack trace.\n",
        ("exception", None, None, 4),
    ),
    (
        "Hydra's line alone",
        "Set the environment variable HYDRA_FULL_ERROR=1 for a complete stack trace.\n",
        ("exception", None, None, 1),
    ),
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
    (
        "mpirun's report quoted in prose, a sentence beginning with it",
        'I get "Primary job terminated normally. Mpirun noticed that process rank 2 with PID 0 on node '
        'aodexiusi exited on signal 9 (Killed)." when running it\n',
        ("signal", 2, "aodexiusi", 1),
    ),
    (
        "near miss: a word ending in mpirun is not mpirun (its words still name a signal; no rank, no node)",
        "xmpirun noticed that process rank 2 with PID 0 on node aodexiusi exited on signal 9 (Killed).\n",
        ("signal", None, None, 1),
    ),
    (
        "a training script refusing its command line (argparse), then srun's report of its exit 2",
        "usage: train.py [-h] [--lr LR]\ntrain.py: error: unrecognized arguments: --lr_sched cosine\n"
        "srun: error: g04: task 0: Exited with exit code 2\n",
        ("exception", 0, "g04", 2),
    ),
    (
        "the JVM's heap, not the GPU's memory (its OutOfMemoryError is java.lang's)",
        'Exception in thread "main" java.lang.OutOfMemoryError: Java heap space\n'
        "\tat java.base/java.util.Arrays.copyOf(Arrays.java:3512)\n",
        ("exception", None, None, 1),
    ),
    (
        "near miss: torch's OutOfMemoryError after a rank's prefix is the GPU's",
        "[rank3]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB.\n",
        ("cuda_oom", 3, None, 1),
    ),
    (
        "an R program stopping with an error (its message on the next line), then R's workers",
        'Error in socketConnection("localhost", port = port, server = TRUE,  : \n'
        "  all connections are in use\nExecution halted\n"
        "Error in unserialize(node$con) : error reading from connection\nExecution halted\n",
        ("exception", None, None, 1),
    ),
    (
        "a program with a dash in its name before a colon is no host (flux's job command)",
        "flux-job: task(s) exited with exit code 1\n",
        ("exit_code", None, None, 1),
    ),
    (
        "near miss: a numbered host with a dash before a colon is the node",
        "gpu-node07: RuntimeError: CUDA error: an illegal memory access was encountered\n",
        ("gpu_error", None, "gpu-node07", 1),
    ),
    (
        "Grid Engine's execd ending a job at its hard wallclock limit",
        "job 4242 exceeded hard wallclock time - initiate terminate method\n",
        ("time_limit", None, None, 1),
    ),
    (
        "Apptainer unable to start the container, then srun's report of its exit 255",
        "INFO:    Converting SIF file to temporary sandbox...\n"
        "FATAL:   container creation failed: mount /proc/self/fd/3->/var/lib/apptainer/mnt/session/rootfs "
        "error: while mounting image /proc/self/fd/3: failed to find loop device: no loop devices available\n"
        "srun: error: n12: task 0: Exited with exit code 255\n",
        ("exit_code", 0, "n12", 2),
    ),
    (
        "near miss: Apptainer out of disk while unpacking the image is a full disk",
        "FATAL:   while extracting /scratch/u/img.sif: root filesystem extraction failed: extract command "
        "failed: write /tmp/rootfs/x: no space left on device\n",
        ("disk_full", None, None, 1),
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
    # --- a bare exception type has no message to go on: the next line is a record of its own
    (
        "a bare AssertionError, then the batch script's command not found",
        TB + "AssertionError\n/var/spool/slurmd/job37/slurm_script: line 32: oqnd4apl: command not found\n",
        ("exception", None, None, 4),
    ),
    (
        "a bare KeyboardInterrupt-free ValueError, then dash's not found",
        TB + "ValueError\n/bin/sh: 1: resume_run: not found\n",
        ("exception", None, None, 4),
    ),
    # --- Moab's reason for a job PBS deleted, and the host PBS ran it on
    (
        "Moab's wallclock limit below PBS's deletion, one host",
        "PBS Job Id: 26066307.sched\nExec host:  n056/0+n056/1+n056/2\njob deleted\n"
        "Job deleted at request of root@sched\nMOAB_INFO:  job exceeded wallclock limit\n",
        ("time_limit", None, "n056", 5),
    ),
    (
        "Moab's wallclock limit, the job on two hosts (which one is not said)",
        "Exec host:  n056/0+n057/0\nJob deleted at request of root@sched\n"
        "MOAB_INFO:  job exceeded wallclock limit\n",
        ("time_limit", None, None, 3),
    ),
    (
        "Moab's preemption below PBS's deletion at root's request",
        "PBS Job Id: 77.sched\nExec host:  gpu-3-4/0\njob deleted\nJob deleted at request of root@sched\n"
        "job preempted (node failure)\n",
        ("preempted", None, "gpu-3-4", 5),
    ),
    (
        "checkjob's message of a preempted job, without its reason",
        "Message[0] job cancelled - job was preempted\n",
        ("preempted", None, None, 1),
    ),
    (
        "qstat's exec_host of one node, and Torque's own walltime kill",
        "    exec_host = gpu12/0-7\n=>> PBS: job killed: walltime 3616 exceeded limit 3600\n",
        ("time_limit", None, "gpu12", 2),
    ),
    # --- a worker that died without a word, and the program that waited on it
    (
        "Ray's driver on an unavailable actor, then the raylet's dead worker",
        "ray.exceptions.ActorUnavailableError: The actor 5a is unavailable: RpcError: Socket closed.\n"
        "(raylet) A worker died or was killed while executing a task by an unexpected system error. "
        "Worker IP address: 10.0.0.7 Worker port: 38117\n",
        ("signal", None, "10.0.0.7", 2),
    ),
    (
        "datasets' map whose worker died, then slurmstepd's oom_kill count",
        "[rank1]: RuntimeError: One of the subprocesses has abruptly died during map operation.To debug "
        "the error, disable multiprocessing.\n"
        "slurmstepd-gpu016: error: Detected 4 oom_kill events in StepId=25022146.batch. Some of the step "
        "tasks have been OOM Killed.\n",
        ("host_oom", None, "gpu016", 2),
    ),
    (
        "a process pool's broken worker, then the kernel's OOM killer",
        TB + "concurrent.futures.process.BrokenProcessPool: A process in the process pool was terminated "
        "abruptly while the future was running or pending.\n"
        "[123.4] Out of memory: Killed process 4242 (python) total-vm:1000kB, anon-rss:900kB\n",
        ("host_oom", None, None, 5),
    ),
    (
        "joblib's terminated worker alone stays the program's exception",
        TB + "joblib.externals.loky.process_executor.TerminatedWorkerError: A worker process managed by "
        "the executor was unexpectedly terminated.\n",
        ("exception", None, None, 4),
    ),
    # --- MPI's fatal error handler
    (
        "Open MPI's error block: an internal error, reported by rank 3",
        "[cn-247:28492] *** An error occurred in MPI_Allreduce\n"
        "[cn-247:28492] *** reported by process [635830273,3]\n"
        "[cn-247:28492] *** on communicator MPI_COMM_WORLD\n"
        "[cn-247:28492] *** MPI_ERR_INTERN: internal error\n"
        "[cn-247:28492] *** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n",
        ("nccl_error", 3, "cn-247", 4),
    ),
    (
        "Open MPI's error block: a message truncated is the program's call",
        "[cn-247:28492] *** An error occurred in MPI_Recv\n"
        "[cn-247:28492] *** reported by process [635830273,1]\n"
        "[cn-247:28492] *** MPI_ERR_TRUNCATE: message truncated\n",
        # (the rank is the one the block's writer reported itself as)
        ("unknown", 1, "cn-247", 3),
    ),
    # --- NCCL's INFO lines are no failures; its communicator lines place a rank
    (
        "NCCL INFO's missing net plugin, then the watchdog's timeout",
        "gpu017:2971403:2971403 [3] NCCL INFO NET/Plugin : dlerror=libnccl-net.so: cannot open shared "
        "object file: No such file or directory No plugin found (libnccl-net.so), using internal "
        "implementation\n"
        "gpu017:2971403:2971574 [3] NCCL INFO comm 0xada2250 rank 3 nranks 4 cudaDev 3 busId bd000 - Init "
        "COMPLETE\n"
        "[rank3]:[E923 15:45:08.084919234 ProcessGroupNCCL.cpp:607] [Rank 3] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
        "Timeout(ms)=1800000) ran for 1800048 milliseconds before timing out.\n",
        ("collective_timeout", None, None, 3),
    ),
    # --- torchrun numbers a node's workers in one run
    (
        "rank 1's exception, torchrun's table names rank 2 (local rank 2) on its host",
        "[rank1]: RuntimeError: Expected to mark a variable ready only once.\n"
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-09-22_00:49:39\n"
        "  host      : wizard29.cluster\n  rank      : 2 (local_rank: 2)\n  exitcode  : 1 (pid: 12)\n"
        "  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/"
        "elastic/errors.html\n============================================================\n",
        ("exception", 1, "wizard29.cluster", 1),
    ),
    (
        "rank 1's exception, torchrun's table names rank 5 (local rank 1) on another node",
        "[rank1]: RuntimeError: Expected to mark a variable ready only once.\n"
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-09-22_00:49:39\n"
        "  host      : wizard30.cluster\n  rank      : 5 (local_rank: 1)\n  exitcode  : 1 (pid: 12)\n"
        "  error_file: <N/A>\n  traceback : To enable traceback see: https://pytorch.org/docs/stable/"
        "elastic/errors.html\n============================================================\n",
        ("exception", 1, None, 1),
    ),
    # --- the node of the batch script's own process
    (
        "an unlabelled traceback, then slurmstepd ends the job on its node",
        TB + "AttributeError: ckpt_dir\n"
        "slurmstepd: error: *** JOB 20574975 ON agpu4 CANCELLED AT 2022-11-07T11:30:22 DUE TO TIME "
        "LIMIT ***\n",
        ("exception", None, "agpu4", 4),
    ),
    (
        "an unlabelled traceback, then slurmstepd ends a step on a node (an srun's, maybe another)",
        TB + "AttributeError: ckpt_dir\n"
        "slurmstepd: error: *** STEP 20574975.0 ON agpu4 CANCELLED AT 2022-11-07T11:30:22 DUE TO TIME "
        "LIMIT ***\n",
        ("exception", None, None, 4),
    ),
    # --- names in words
    (
        "torchrun's rendezvous names the agent's node",
        "WARNING:torch.distributed.elastic.rendezvous.dynamic_rendezvous:The node "
        "'node04.localdomain_3882442_0' has failed to shutdown the rendezvous 'abc' due to an error of "
        "type RendezvousConnectionError.\n",
        ("rendezvous", None, "node04.localdomain", 1),
    ),
    (
        "the kernel's log after a prompt that ran dmesg",
        "user@skl-node-1:~$ sudo dmesg -T | grep -i kill\n"
        "[Thu Mar 14 01:57:54 2019] Out of memory: Kill process 89746 (python) score 1031 or sacrifice "
        "child\n",
        ("host_oom", None, "skl-node-1", 2),
    ),
    (
        "older kernel's OOM killer, the child's line alone",
        "[Thu Mar 14 01:57:54 2019] Killed process 89879 (python) total-vm:146328kB, anon-rss:0kB\n",
        ("host_oom", None, None, 1),
    ),
    (
        "an OOM line after a prompt that submitted a job names no node",
        "[me@login01 ~]$ sbatch train.sh\n"
        "[123.4] Out of memory: Killed process 4242 (python) total-vm:1000kB, anon-rss:900kB\n",
        ("host_oom", None, None, 2),
    ),
    # --- glog's and Abseil's failure signal handlers: the signal's line, not the header
    (
        "glog's SIGSEGV under a Ray worker's prefix",
        '(pid=77, ip=10.0.0.5) *** Aborted at 1573079353 (unix time) try "date -d @1573079353" if '
        "you are using GNU date ***\n"
        "(pid=77, ip=10.0.0.5) PC: @                0x0 (unknown)\n"
        "(pid=77, ip=10.0.0.5) *** SIGSEGV (@0x88) received by PID 77 (TID 0x7f73221f3700) from PID 136; "
        "stack trace: ***\n"
        "(pid=77, ip=10.0.0.5)     @     0x7f7325ede934 __redisAsyncCommand\n",
        ("signal", None, "10.0.0.5", 3),
    ),
    (
        "Abseil's SIGABRT with its time",
        "I0828 10:00:00.000 train.cc:10] step 5\n*** SIGABRT received at time=1693213612 on cpu 3 ***\n"
        "PC: @     0x7f1c3c29e00b  (unknown)  raise\n",
        ("signal", None, None, 2),
    ),
    # --- a peer lost, in MPI's words, and Horovod shut down by another rank's error: a symptom,
    # the first cause not in the log
    (
        "Open MPI's TCP transport losing a peer",
        "--------------------------------------------------------------------------\n"
        "An MPI communication peer process has unexpectedly disconnected.  This\n"
        "usually indicates a failure in the peer process (e.g., a crash or\n"
        "otherwise exiting without calling MPI_FINALIZE first).\n\n"
        "  Local host: node-a\n  Local PID:  7720\n  Peer host:  node-b\n",
        ("collective_timeout", None, None, 2),
    ),
    (
        "Horovod shut down by another rank's exception",
        "[1,3]<stderr>:tensorflow.python.framework.errors_impl.UnknownError: Horovod has been shut down. "
        "This was caused by an exception on one of the ranks or an attempt to allreduce, allgather or "
        "broadcast a tensor after one of the ranks finished execution.\n",
        ("exception", None, None, 1),
    ),
    # --- the ranks that never met, in words no signature reads
    (
        "JAX's coordination service behind absl's header",
        "I1127 10:00:00.000000 140 coordination_service.cc:300] Waiting for 31 tasks to register\n"
        "E1127 11:00:00.000000 140 coordination_service.cc:512] Stopping coordination service as cluster "
        "registration failed. This may be due to 1) some tasks crashed earlier before connecting\n",
        ("rendezvous", None, None, 2),
    ),
    (
        "a script's nslookup of the master before torchrun",
        "waiting for master\nnslookup: can't resolve 'trainjob-master-0': Name does not resolve\n"
        "waiting for master\n",
        ("rendezvous", None, None, 2),
    ),
    # --- a step's launch refused on one node: the others' tasks are killed by srun, not the cause
    (
        "a CPU binding a node cannot satisfy",
        "srun: error: Task launch for StepId=88.0 failed on node cn12: Unable to satisfy cpu bind request\n"
        "srun: error: Application launch failed: Unable to satisfy cpu bind request\n"
        "srun: Job step aborted: Waiting up to 32 seconds for job step to finish.\n"
        "srun: error: cn13: tasks 4-7: Killed\n",
        ("slurm_refused", None, "cn12", 1),
    ),
    # --- nvidia-smi's words for a GPU it cannot reach, and the host of the prompt that ran it
    (
        "a GPU lost, asked from bash's prompt",
        "[root@gpu07 ~]# nvidia-smi\n"
        "Unable to determine the device handle for GPU 0000:B1:00.0: GPU is lost.  Reboot the system to "
        "recover this GPU\n",
        ("gpu_error", None, "gpu07", 2),
    ),
    (
        "nvidia-smi without its driver, no prompt",
        "+ nvidia-smi\nNVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver. Make "
        "sure that the latest NVIDIA driver is installed and running.\n",
        ("gpu_error", None, None, 2),
    ),
    # --- a launcher that could not start the command on a node: no exit code to report
    (
        "ColossalAI's ssh refused",
        "Error: failed to run torchrun --nproc_per_node=8 --nnodes=2 --node_rank=1 train.py on gpu-9, is "
        "localhost: False, exception: Authentication failed.\n",
        ("unknown", None, "gpu-9", 1),
    ),
    (
        "ColossalAI's ssh timed out: no collective's timeout",
        "Error: failed to run torchrun --nnodes=2 train.py on gpu-9, is localhost: False, exception: "
        "timed out\n",
        ("unknown", None, "gpu-9", 1),
    ),
    (
        "ColossalAI's command that ran and failed",
        "Error: failed to run torchrun --nnodes=2 train.py on gpu-9, is localhost: False, exception: "
        "Encountered a bad command exit code!\n",
        ("exit_code", None, "gpu-9", 1),
    ),
    # --- one node's torchrun: a local rank is the global rank
    (
        "a local rank under a one-node torchrun is the rank",
        "$ torchrun --standalone --nproc_per_node=4 train.py\n"
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 51) of "
        "binary: /usr/bin/python\n",
        ("exception", 2, None, 2),  # (torchrun's Python worker, exit code 1: an exception it did not catch)
    ),
    (
        "a local rank under a two-node torchrun is not",
        "+ torchrun --nnodes=2 --nproc_per_node=4 train.py\n"
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 51) of "
        "binary: /usr/bin/python\n",
        ("exception", None, None, 2),
    ),
    (
        "a local rank under torchrun with its node count in a variable is not",
        "+ torchrun --nnodes=$NNODES --nproc_per_node=4 train.py\n"
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 2 (pid: 51) of "
        "binary: /usr/bin/python\n",
        ("exception", None, None, 2),
    ),
    # --- horovodrun's report of the first worker that exited, raised as its own exception
    (
        "horovodrun's Gloo launcher reporting an exit code 1",
        TB + "RuntimeError: Horovod detected that one or more processes exited with non-zero status, thus "
        "causing the job to be terminated. The first process to do so was:\n"
        "Process name: gpu-3[1]\nExit code: 1\n",
        ("exit_code", None, "gpu-3", 4),
    ),
    # --- srun's reports of several tasks, all on one node: an unplaced failure ran there too
    (
        "an unplaced error in a one-node step",
        "ValueError: bad shard\nsrun: error: cn4: tasks 0,3: Exited with exit code 1\n"
        "srun: error: cn4: task 1: Exited with exit code 1\n",
        ("exception", None, "cn4", 1),
    ),
    (
        "an unplaced error in a two-node step",
        "ValueError: bad shard\nsrun: error: cn4: tasks 0,3: Exited with exit code 1\n"
        "srun: error: cn5: task 5: Exited with exit code 1\n",
        ("exception", None, None, 1),
    ),
    # --- a logger that prefixes a record's first line only: the traceback under it is that rank's
    (
        "a rank's logged traceback, its frames bare",
        "rank:  2 | 2022-04-03 18:44:26,615 ERROR | Traceback (most recent call last):\n"
        '  File "/home/u/train.py", line 9, in <module>\n    main()\n'
        "KeyError: 'labels'\n",
        ("exception", 2, None, 4),
    ),
    # --- a process's host from another line that pairs its pid with a host (UCX's, NCCL's prefix)
    (
        "oneCCL's error, its process's host named by UCX",
        "2025:05:23-19:04:20:(4242) |CCL_ERROR| atl_ofi.cpp:237 init: can't find suitable provider\n"
        "[pvc-3:4242:0:4242] Caught signal 11 (Segmentation fault: address not mapped to object)\n",
        ("nccl_error", None, "pvc-3", 1),
    ),
    (
        "oneCCL's error, another process's host named by UCX",
        "2025:05:23-19:04:20:(4242) |CCL_ERROR| atl_ofi.cpp:237 init: can't find suitable provider\n"
        "[pvc-3:5151:0:5151] Caught signal 11 (Segmentation fault: address not mapped to object)\n",
        ("nccl_error", None, None, 1),
    ),
    # --- older XLA's status words, the message wrapped by the paste
    (
        "older XLA's out of memory, wrapped",
        "2019-06-13 01:17:08.886805: E external/org_tensorflow/tensorflow/compiler/xla/python/"
        "local_client.cc:672] Execution of replica 0 failed: Resource exhausted: Out \n"
        "of memory while trying to allocate 5520758552 bytes.\n",
        ("cuda_oom", None, None, 1),
    ),
    (
        "a watchdog's rank tag under a paste's indentation",
        "Node 0\n [rank3]:[E227 16:30:43.526301625 ProcessGroupNCCL.cpp:1834] [PG ID 2 PG GUID 3 Rank 3] "
        "Timeout at NCCL work: 32, last enqueued NCCL work: 32, last completed NCCL work: 31.\n",
        ("collective_timeout", None, None, 2),  # (only symptoms: the first finding blames no rank)
    ),
    # --- LSF's job report names the host the job ran on: one host is the job's node, two are not
    (
        "LSF's run limit on one host",
        "Job was executed on host(s) <gpu-a1>, in queue <gpuv100>, as user <u> at Tue Nov  3\n"
        "TERM_RUNLIMIT: job killed after reaching LSF run time limit.\n",
        ("time_limit", None, "gpu-a1", 2),
    ),
    (
        "LSF's run limit on two hosts",
        "Job was executed on host(s) <4*gpu-a1>, <4*gpu-a2>, in queue <gpuv100>, as user <u> at Tue Nov  3\n"
        "TERM_RUNLIMIT: job killed after reaching LSF run time limit.\n",
        ("time_limit", None, None, 2),
    ),
    # --- MPICH's fatal error of the library, with the rank that aborted
    (
        "MPICH's internal error in a collective",
        "Abort(609839375) on node 7 (rank 7 in comm 0): Fatal error in PMPI_Allreduce: Other MPI error, "
        "error stack:\nMPIDI_OFI_handle_cq_error(1042): OFI poll failed\n",
        ("nccl_error", 7, None, 1),
    ),
    # --- a paste that indented every line (a markdown code block), or quoted it
    (
        "Open MPI's tagged segfault in an indented block",
        "    [1,12]<stderr>:[n-3:04200] *** Process received signal ***\n"
        "    [1,12]<stderr>:[n-3:04200] Signal: Segmentation fault (11)\n",
        ("signal", 12, "n-3", 2),
    ),
    (
        "a traceback in an indented block cites its exception line",
        "    " + TB.replace("\n", "\n    ").rstrip(" ") + "    KeyError: 'labels'\n",
        ("exception", None, None, 4),
    ),
    (
        "a quoted prompt that ran nvidia-smi",
        "> [root@gpu07 ~]# nvidia-smi\n"
        "> Unable to determine the device handle for GPU 0000:B1:00.0: GPU is lost.\n",
        ("gpu_error", None, "gpu07", 2),
    ),
    # --- NCCL's records where the prefix stage does not look: joined by a terminal, after prose
    (
        "NCCL's WARN joined to INFO lines by a terminal's padding",
        "      gpu-7:118:126 [0] NCCL INFO transport/net.cc:1298 -> 6"
        + " " * 60
        + "gpu-7:118:126 [0] NCCL INFO proxy.cc:694 -> 6"
        + " " * 60
        + "gpu-7:118:126 [0] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer "
        "10.1.1.2<38536> with error 12, opcode 0, len 0, vendor err 129\n",
        ("nccl_error", None, "gpu-7", 1),
    ),
    (
        "NCCL's WARN after a sentence and a backtick names its own host, not the next one's",
        "the error is `gpu-a:19989:20082 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from "
        "peer 10.1.1.2<53249> with error 4, opcode 1, len 1, vendor err 81 (Send)\n\n"
        "gpu-b:9821:9920 [1] transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer "
        "10.1.1.3<44413> with error 4, opcode 1, len 1, vendor err 81 (Send)\n",
        ("nccl_error", None, "gpu-a", 1),
    ),
    # --- a logger's warning: what the program caught and went on from
    (
        "Ray's logger warning of a module it did without, then the trial's error",
        "2019-10-31 13:51:18,139\tWARNING logger.py:343 -- Could not instantiate tf2_compat_logger: "
        "No module named 'tensorflow'.\n" + TB + "KeyError: 'labels'\n",
        ("exception", None, None, 5),
    ),
    (
        "Python logging's warning of a missing module, then a traceback",
        "2024-01-02 03:04:05,123 - WARNING - No module named 'apex', using torch's AdamW\n"
        + TB
        + "ValueError: bad shape\n",
        ("exception", None, None, 5),
    ),
    (
        "an import error logged at error level is the cause",
        "2019-10-31 13:51:18,139\tERROR worker.py:12 -- No module named 'tensorflow'\n"
        + TB
        + "KeyError: 'labels'\n",
        ("import_error", None, None, 1),
    ),
    (
        "a port taken, which torch's c10d writes as a warning, is still the cause",
        "[W socket.cpp:436] [c10d] The server socket has failed to bind to 0.0.0.0:29400 "
        "(errno: 98 - Address already in use).\n",
        ("port_in_use", None, None, 1),
    ),
    # --- a Chinese-locale logger's timestamp before torch's rank prefix, under pasted line numbers
    (
        "a rank's OOM behind lenticular-bracket timestamps and line numbers on lines of their own",
        "1196\n【2025-08-21 11:48:44】[rank7]: ^^^^^^^^^^^^^^^^^\n1197\n"
        "【2025-08-21 11:48:44】[rank7]: torch.OutOfMemoryError: CUDA out of memory. Tried to allocate "
        "260.00 MiB. GPU 7 has a total capacity of 139.81 GiB of which 52.94 MiB is free.\n",
        ("cuda_oom", 7, None, 4),
    ),
    # --- MPICH2's mpd
    (
        "mpd's collective abort by a rank killed by a signal",
        "rank 0 in job 1  node07_65327   caused collective abort of all ranks\n"
        "  exit status of rank 0: killed by signal 9\n",
        ("signal", 0, None, 2),
    ),
    (
        "mpd's collective abort by a rank that returned an error",
        "rank 3 in job 12  node07_40123   caused collective abort of all ranks\n"
        "  exit status of rank 3: return code 1\n",
        ("exit_code", 3, None, 2),
    ),
    # --- Horovod's driver: its task services never registered
    (
        "Horovod's start timeout under Ray's prefix",
        "(pid=23323, ip=172.31.19.90) Traceback (most recent call last):\n"
        '(pid=23323, ip=172.31.19.90)   File "/opt/horovod/runner/common/service/driver_service.py", '
        "line 166, in wait_for_initial_registration\n"
        "(pid=23323, ip=172.31.19.90)     timeout.check_time_out_for('tasks to start')\n"
        "(pid=23323, ip=172.31.19.90) Exception: Timed out waiting for tasks to start. Please check "
        "connectivity between servers.\n",
        ("rendezvous", None, "172.31.19.90", 4),
    ),
    (
        "Horovod's start timeout without its traceback",
        "Exception: Timed out waiting for tasks to start. Please check connectivity between servers. You "
        "may need to increase the --start-timeout parameter if you have too many servers.\n",
        ("rendezvous", None, None, 1),
    ),
    # --- Ray: an actor dead because its node died
    (
        "Ray's dead actor whose node died, under its fields",
        "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: RayTrainWorker\n\tpid: 6420\n\tip: 10.72.56.3\n"
        "The actor is dead because its node has died. Node Id: 677df2a9020c5db45e755b0078c469e2ce51e05e\n",
        ("node_fail", None, "10.72.56.3", 5),
    ),
    (
        "Ray's dead actor whose worker process died is no node's failure",
        "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: RayTrainWorker\n\tpid: 6420\n\tip: 10.72.56.3\n"
        "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR\n",
        ("signal", None, "10.72.56.3", 1),
    ),
    (
        "Ray's GCS marking a node dead",
        "[2024-05-01 10:00:00,000 E 12 12] (gcs_server) gcs_health_check_manager.cc:110: "
        "The node with node id: 6a1f and address: 10.0.0.7 and node name: 10.0.0.7 has been marked "
        "dead because the detector has missed too many heartbeats from it.\n",
        ("node_fail", None, "10.0.0.7", 1),
    ),
    # --- Ray's memory monitor wrapped by a terminal
    (
        "the raylet's OOM message wrapped after `tasks /`, its IP two pieces on",
        "(raylet) [DATE] (raylet) node_manager.cc:3007: 2 Workers (tasks /\n"
        " actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at "
        "node (ID: abd4\n"
        "e281, IP: 10.0.167.26) over the last time period.\n",
        ("host_oom", None, "10.0.167.26", 1),
    ),
    (
        "the raylet's OOM message wrapped, with no IP after it",
        "(raylet) [DATE] (raylet) node_manager.cc:3007: 2 Workers (tasks /\n"
        " actors) killed due to memory pressure (OOM)\n",
        ("host_oom", None, None, 1),
    ),
    # --- a batch script's echo of its node list
    (
        "a job that echoed its one node, then a traceback",
        "The job ID is 17703672\nThe job was run on these nodes: idun-04-08\nNumber of nodes: 1\n"
        + TB
        + "FileNotFoundError: [Errno 2] No such file or directory: 'snapshot.pkl'\n",
        ("exception", None, "idun-04-08", 7),
    ),
    (
        "a job that echoed SLURM_JOB_NODELIST",
        "SLURM_JOB_NODELIST=gpu017\n" + TB + "KeyError: 'labels'\n",
        ("exception", None, "gpu017", 5),
    ),
    (
        "a job that echoed two nodes names none",
        "The job was run on these nodes: gpu[01-02]\n" + TB + "KeyError: 'labels'\n",
        ("exception", None, None, 5),
    ),
    (
        "a count of nodes is no node",
        "Number of nodes: 1\n" + TB + "KeyError: 'labels'\n",
        ("exception", None, None, 5),
    ),
    # --- srun unable to have its allocation confirmed
    (
        "srun inside a job when the controller is unreachable",
        "srun: error: Unable to confirm allocation for job 60564: Unable to contact slurm controller "
        "(connect failure)\nsrun: Check SLURM_JOB_ID environment variable. Expired or invalid job 60564\n",
        ("slurm_refused", None, None, 1),
    ),
    (
        "srun given the id of a job that ended",
        "srun: error: Unable to confirm allocation for job 812: Invalid job id specified\n",
        ("slurm_refused", None, None, 1),
    ),
    # --- the host a scheduler's report says the log's one job ran on
    (
        "a program not found, then LSF's report of the one host it ran on",
        "python: can't open file '/home/u/main.py': [Errno 2] No such file or directory\n"
        "Job was executed on host(s) <4*n-62-18-10>, in queue <gpua100>, as user <u> in cluster <dcc>\n",
        ("missing_program", None, "n-62-18-10", 1),
    ),
    (
        "a program not found, then LSF's report of two hosts",
        "python: can't open file '/home/u/main.py': [Errno 2] No such file or directory\n"
        "Job was executed on host(s) <4*n-62-18-10>, <4*n-62-18-11>, in queue <gpua100>, as user <u>\n",
        ("missing_program", None, None, 1),
    ),
    (
        "an exception, then PBS's mail naming one host",
        TB + "KeyError: 'labels'\nPBS Job Id: 77.sched\nExec host:  n56/0+n56/1\n",
        ("exception", None, "n56", 4),
    ),
    # --- TensorFlow's allocator
    (
        "TensorFlow's OOM on a GPU after its traceback",
        TB + "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor "
        "with shape[2,64,400,112,112] and type float on /job:localhost/replica:0/task:0/device:GPU:0 by "
        "allocator GPU_0_bfc\n",
        ("cuda_oom", None, None, 4),
    ),
    (
        "TensorFlow 2's OOM in a graph, as its op kernel words it",
        "2021-03-01 10:00:00.000000: W tensorflow/core/framework/op_kernel.cc:1767] OP_REQUIRES failed at "
        "conv_ops.cc:1106 : Resource exhausted: OOM when allocating tensor with shape[64,256,56,56] and "
        "type float on /job:localhost/replica:0/task:0/device:GPU:0 by allocator GPU_0_bfc\n",
        ("cuda_oom", None, None, 1),
    ),
    # --- the NCCL id rank 0 never published (ProcessGroupNCCL's first collective on a group)
    (
        "torch 2's store wait timing out for the NCCL id, under its rank tag",
        "[rank3]: torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving "
        "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: wait "
        "timeout after 600000ms, keys: /default_pg//0//cuda//0. This may indicate a possible application "
        "crash on rank 0 or a network set up issue.\n",
        ("rendezvous", 3, None, 1),
    ),
    (
        "the NCCL id's store wait timing out, prefixed by a pdsh host",
        "gpu7: RuntimeError: [5] is setting up NCCL communicators and retreiving ncclUniqueId from [0] via "
        "c10d key-value store by key '1', but store->get('1') got error: Socket Timeout\n",
        ("rendezvous", 5, "gpu7", 1),
    ),
    (
        "rank 0 crashed first: the others' wait for its NCCL id is the crash's echo",
        "[rank0]: " + TB.replace("\n", "\n[rank0]: ", 3) + "ValueError: bad shard\n"
        "[rank1]: torch.distributed.DistBackendError: [1] is setting up NCCL communicator and retrieving "
        "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: wait "
        "timeout after 600000ms, keys: /default_pg//0//cuda//0\n",
        ("exception", 0, None, 4),
    ),
    # --- MPICH's fatal error, read by the last words of its error stack
    (
        "MPICH under srun whose PMI2 client failed: the processes never met",
        "Abort(1615759) on node 3 (rank 3 in comm 0): Fatal error in PMPI_Init: Other MPI error, "
        "error stack:\n"
        "MPIR_Init_thread(136)........: \nMPIR_pmi_init(83)............: PMI2_Job_GetId returned 14\n"
        "srun: error: n7: task 3: Exited with exit code 14\n",
        ("rendezvous", 3, "n7", 1),
    ),
    (
        "Intel MPI whose libfabric provider failed stays the network's",
        "Abort(1091471) on node 5 (rank 5 in comm 0): Fatal error in PMPI_Init: Other MPI error, "
        "error stack:\n"
        "MPIR_Init_thread(703)........: \nMPID_Init(958)...............: \n"
        "MPIDI_OFI_mpi_init_hook(1382): OFI get address vector map failed\n",
        ("nccl_error", 5, None, 1),
    ),
    # --- older Hydra's banner, with no PID line
    (
        "older Hydra's banner: its exit code alone",
        "===================================================================================\n"
        "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   EXIT CODE: 139\n"
        "=   CLEANING UP REMAINING PROCESSES\n",
        ("signal", None, None, 3),
    ),
    (
        "today's Hydra banner: the exit code is its PID line's",
        "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   RANK 2 PID 18452 RUNNING AT node07\n"
        "=   EXIT CODE: 1\n=   CLEANING UP REMAINING PROCESSES\n",
        ("exit_code", 2, "node07", 2),
    ),
    # --- Slurm's commands that cannot reach the controller
    (
        "squeue unable to contact the controller",
        "squeue: error: slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n",
        ("slurm_refused", None, None, 1),
    ),
    (
        "configless sinfo on a host that is no Slurm client, under a runner's CalledProcessError",
        "sinfo: error: resolve_ctls_from_dns_srv: res_nsearch error: Unknown host\n"
        "sinfo: error: fetch_config: DNS SRV lookup failed\n"
        "sinfo: fatal: Could not establish a configuration source\n"
        "An exception occurred: Command '['sinfo', '-N']' returned non-zero exit status 1.\n"
        + TB
        + "subprocess.CalledProcessError: Command '['sinfo', '-N']' returned non-zero exit status 1.\n",
        ("slurm_refused", None, None, 3),
    ),
    # --- a rank a line no signature reads names in words
    (
        "an error-like line naming its rank",
        "FATAL: the frobnicator lost its quorum on rank: 5\n",
        ("unknown", 5, None, 1),
    ),
    (
        "a launcher's words for how a rank ended",
        "      Exit status of rank 2: killed by signal 9\n",
        ("signal", 2, None, 1),
    ),
    # --- Open MPI's word for the first process that failed places a failure that names nobody
    (
        "two processes' import errors and Open MPI's first process to exit",
        "/usr/bin/python3: No module named run\n/usr/bin/python3: No module named run\n"
        "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
        "the job to be terminated. The first process to do so was:\n\n"
        "  Process name: [[47051,1],1]\n  Exit code:    1\n",
        ("import_error", 1, None, 1),
    ),
    (
        "Open MPI's first process exited with another code than the failure gives: no rank taken",
        "/usr/bin/python3: No module named run\n"
        "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
        "the job to be terminated. The first process to do so was:\n\n"
        "  Process name: [[47051,1],1]\n  Exit code:    139\n",
        ("import_error", None, None, 1),
    ),
    # --- the user's Ctrl-C that mpiexec passed on, then Hydra's reports of the ends it made
    (
        "mpiexec's Ctrl-C before Hydra's banner",
        "^C[mpiexec@n1] Sending Ctrl-C to processes as requested\n[mpiexec@n1] Press Ctrl-C again to force "
        "abort\n=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID 3925776 RUNNING AT n2\n"
        "=   EXIT CODE: 2\nsrun: error: n1: task 0: Exited with exit code 7\n",
        ("cancelled", None, None, 1),
    ),
    (
        "Hydra's banner alone stays a process's end",
        "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   PID 3925776 RUNNING AT n2\n"
        "=   EXIT CODE: 2\n[mpiexec@n1] Press Ctrl-C again to force abort\n",
        ("exit_code", None, "n2", 2),
    ),
    # --- the node a Ray task's header names
    (
        "a Ray task's traceback under a header naming its host",
        TB + "ray.exceptions.RayTaskError(RuntimeError): ray_Train:train() (pid=8861, host=cryoem-gpu50)\n"
        '  File "/home/u/nn.py", line 4, in forward\n    h = self.enc(x)\n'
        "RuntimeError: Expected 4-dimensional input\n",
        ("exception", None, "cryoem-gpu50", 7),
    ),
    (
        "a Ray task's traceback under a header naming its IP",
        TB + "ray.exceptions.RayTaskError(ValueError): ray::TaskRunner.run() (pid=18948, ip=10.1.2.3)\n"
        '  File "/home/u/run.py", line 4, in run\n    f()\nValueError: no data\n',
        ("exception", None, "10.1.2.3", 7),
    ),
    (
        "a Ray task bound to every interface names no node",
        TB + "ray.exceptions.RayTaskError(ValueError): ray::TaskRunner.run() (pid=18948, ip=0.0.0.0)\n"
        '  File "/home/u/run.py", line 4, in run\n    f()\nValueError: no data\n',
        ("exception", None, None, 7),
    ),
    # --- a syslog line names the host that logged it
    (
        "a kernel Xid in journalctl's zero-padded syslog form names its host",
        "Dec 03 10:22:16 gpu07 kernel: NVRM: Xid (PCI:0000:3b:00): 79, pid=1234, name=python, GPU has "
        "fallen off the bus.\n",
        ("gpu_error", None, "gpu07", 1),
    ),
    (
        "a program's syslog line with its pid names its host",
        "Mar  9 01:02:03 dgx-12 python3[8812]: RuntimeError: CUDA error: an illegal memory access was "
        "encountered\n",
        ("gpu_error", None, "dgx-12", 1),
    ),
    # --- NCCL's prefix without the process and thread
    (
        "NCCL's short prefix under a container runtime's timestamp",
        "2025-01-02T03:04:05.000000001Z node-a3 [2] misc/socket.cc:46 NCCL WARN socketProgressOpt: "
        "Call to recv from 10.0.0.2<4021> failed : Connection reset by peer\n",
        ("nccl_error", None, "node-a3", 1),
    ),
    # --- the coordination service of JAX's runtime
    (
        "the newer wording of a task that stopped its heartbeats",
        "E0101 00:00:00.000 coordination_service.cc:400] UNAVAILABLE: The following tasks are unhealthy "
        "(stopped sending heartbeats):\n/job:jax_worker/replica:0/task:5\n",
        ("collective_timeout", None, None, 1),
    ),
    (
        "a task that cannot register, without the gRPC detail line",
        "2024-04-12 23:39:41.656900: E external/xla/xla/pjrt/distributed/client.cc:96] Coordination "
        "service agent in error status: DEADLINE_EXCEEDED: Deadline Exceeded\n",
        ("rendezvous", None, None, 1),
    ),
    # --- ROCm's words for the GPU faults CUDA builds name
    (
        "torch on ROCm saying HIP error",
        "RuntimeError: HIP error: an illegal memory access was encountered\n",
        ("gpu_error", None, None, 1),
    ),
    (
        "ROCm's queue abort on an illegal address",
        ":0:rocdevice.cpp            :2984: 1 us: [pid:7 tid:0x7f] Callback: Queue 0x7f00 aborting with "
        "error : HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION: The agent attempted to access memory beyond "
        "the largest legal address. code: 0x29\n",
        ("gpu_error", None, None, 1),
    ),
    (
        "a test harness's report of a child a signal ended",
        "Worker 3 killed by signal 11\n",
        ("signal", None, None, 1),
    ),
    # --- a node's prolog
    (
        "srun told of a prolog failure",
        "srun: Prolog failure on node gpu-a17\nsrun: error: Job allocation 99 has been revoked\n",
        ("node_fail", None, "gpu-a17", 1),
    ),
    # --- what sbatch said before it refused the job
    (
        "a submit plugin's message before sbatch's refusal",
        "sbatch: error: You must specify an account with --account\n"
        "sbatch: error: Batch job submission failed: Unspecified error\n",
        ("slurm_refused", None, None, 2),
    ),
    # --- the torchrun agent's own warning as it forwards a signal
    (
        "torchrun's agent forwarding a SIGTERM",
        "[2024-05-01 10:00:00,000] torch.distributed.elastic.agent.server.api: [WARNING] Received 15 death "
        "signal, shutting down workers\n",
        ("signal", None, None, 1),
    ),
    # --- a host given as user@host in Hydra's hosts file
    (
        "Hydra's banner naming user@host",
        "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n=   RANK 2 PID 99 RUNNING AT ops@cn-004\n"
        "=   KILLED BY SIGNAL: 9 (Killed)\n",
        ("signal", 2, "cn-004", 2),
    ),
    # --- a native allocator's abort: an allocation failed (host memory, or a limit on it)
    (
        "Rust's allocator abort behind torchrun's local rank",
        "[default3]:memory allocation of 1073741824 bytes failed\n",
        ("host_oom", None, None, 1),
    ),
    (
        "jemalloc's abort",
        "<jemalloc>: Error in malloc(): out of memory. Requested: 4096, active: 1048576\n",
        ("host_oom", None, None, 1),
    ),
    (
        "an allocator abort under srun's label, then srun's report of the task",
        "2: memory allocation of 64 bytes failed\nsrun: error: cn5: task 2: Aborted (core dumped)\n",
        ("host_oom", 2, "cn5", 1),
    ),
    # --- Cray MPICH's header names the rank and the node it ran on
    (
        "Cray MPICH's header under srun's label",
        "12: MPICH ERROR [Rank 12] [job id 77.1] [Tue Feb  4 01:02:03 2025] [nid008123] - Abort(403275522) "
        "(rank 12 in comm 0): Fatal error in PMPI_Wait: Other MPI error, error stack:\n",
        ("nccl_error", 12, "nid008123", 1),
    ),
    (
        "the older Cray MPT's header (an XC node's name)",
        "Rank 3 [Thu Jun 12 10:11:12 2014] [c3-0c0s5n1] Fatal error in PMPI_Allreduce: Other MPI error, "
        "error stack:\n",
        ("nccl_error", 3, "c3-0c0s5n1", 1),
    ),
    (
        "a rank and a time in words, no Cray header: no node",
        "Rank 3 [Thu Jun 12 10:11:12 2014] is slow: Fatal error in PMPI_Allreduce: Other MPI error, "
        "error stack:\n",
        ("nccl_error", None, None, 1),
    ),
    # --- srun could not launch the step: Slurm's failure, no collective's timeout
    (
        "srun's step aborted before it launched, then each task's launch failure (PMIx)",
        "srun: StepId=9155831.0 aborted before step completely launched.\n"
        "srun: Job step aborted: Waiting up to 302 seconds for job step to finish.\n"
        "srun: error: task 0 launch failed: Unspecified error\n",
        ("slurm_refused", None, None, 1),
    ),
    (
        "srun's launch timeout with some tasks started, an older step's wording",
        "srun: error: timeout waiting for task launch, started 6 of 8 tasks\n"
        "srun: Job step 4411.0 aborted before step completely launched.\n",
        ("slurm_refused", None, None, 1),
    ),
    (
        "a program's own timeout waiting for ranks stays a collective's",
        "[E ProcessGroupNCCL.cpp:474] timeout waiting for all ranks to launch the kernel\n",
        ("collective_timeout", None, None, 1),
    ),
    # --- DeepSpeed's launcher: on one node a local rank is the global rank (inferred); its worker
    # that exited with 1 is a Python exception (medium), as torchrun's is
    (
        "DeepSpeed's launcher saying one node, a worker killed",
        _DS_NODES.format(nodes=1) + _DS_EXIT.format(local=2, code=-9),
        ("signal", 2, None, 2),
    ),
    (
        "DeepSpeed's launcher saying two nodes: a local rank is no global rank",
        _DS_NODES.format(nodes=2) + _DS_EXIT.format(local=2, code=1),
        ("exception", None, None, 2),
    ),
    (
        "DeepSpeed's launcher under pdsh: its node's name, no global rank",
        "gpu-b07: " + _DS_EXIT.format(local=4, code=1),
        ("exception", None, "gpu-b07", 1),
    ),
    # --- a batch shell's failed command the job went on after: what ended the job comes first
    (
        "dash's `not found`, an epoch after it, then the time limit",
        "/var/spool/slurmd/job42/slurm_script: 7: module: not found\n"
        "Epoch 1: 100%|##########| 10/10 [00:01<00:00, 9.10it/s]\n"
        "slurmstepd: error: *** JOB 42 ON cn3 CANCELLED AT 2024-05-02T10:00:01 DUE TO TIME LIMIT ***\n",
        ("time_limit", None, "cn3", 3),
    ),
    (
        "bash's `command not found`, a step after it, then a cancel",
        "/var/spool/slurm/job7/slurm_script: line 5: conda: command not found\nstep 1 loss 2.3\n"
        "slurmstepd: error: *** JOB 7 ON gpu-d006 CANCELLED AT 2025-10-02T00:34:10 ***\n",
        ("cancelled", None, "gpu-d006", 3),
    ),
    (
        "bash's `command not found` and no progress after it: the cancel is its echo",
        "/var/spool/slurm/job7/slurm_script: line 5: conda: command not found\ncuda:0\n"
        "slurmstepd: error: *** JOB 7 ON gpu-d006 CANCELLED AT 2025-10-02T00:34:10 ***\n",
        ("missing_program", None, "gpu-d006", 1),
    ),
    (
        "a program's exception and one more step (another process's last breath) before a cancel",
        TB + "ValueError: bad shape\nstep 12 loss 2.0\n"
        "slurmstepd: error: *** JOB 7 ON gpu-d006 CANCELLED AT 2025-10-02T00:34:10 ***\n",
        ("exception", None, "gpu-d006", 4),
    ),
    # --- a job's own echo of the node it runs on (the one node, when nothing names another)
    (
        "Slurm's SLURMD_NODENAME printed by the script",
        "SLURMD_NODENAME=gpu-a12\n" + TB + "ModuleNotFoundError: No module named 'vllm'\n",
        ("import_error", None, "gpu-a12", 5),
    ),
    (
        "a script's tagged echo of its node",
        "[setup] Running on node: cn042\n" + TB + "ValueError: bad\n",
        ("exception", None, "cn042", 5),
    ),
    (
        "a script's echo of hostname",
        "Hostname: c301-004\n" + TB + "ValueError: bad\n",
        ("exception", None, "c301-004", 5),
    ),
    (
        "a logger's `Running on:` after its time and level, with its trailer",
        "01:06:34.728 [I] Running on: dgx-38        (2605436:train.py:196)\n" + TB + "ValueError: bad\n",
        ("exception", None, "dgx-38", 5),
    ),
    (
        "a running program's words that are no host",
        "Running on: 8 GPUs\n" + TB + "ValueError: bad\n",
        ("exception", None, None, 5),
    ),
    (
        "the script's `hostname` as the log's first line",
        "linux43\nenv started\n" + TB + "ValueError: bad\n",
        ("exception", None, "linux43", 6),
    ),
    (
        "a host-like word that is not the first line names no node",
        "env started\nlinux43\n" + TB + "ValueError: bad\n",
        ("exception", None, None, 6),
    ),
    (
        "a first line that is a word, not a host",
        "Starting\n" + TB + "ValueError: bad\n",
        ("exception", None, None, 5),
    ),
    (
        "a log collector's host between its time and torch's rank tag names that rank's node",
        "[rank1]:[E327 09:31:09.976 ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught collective operation "
        "timeout: WorkNCCL(SeqNum=33, OpType=RECV, NumelIn=18, NumelOut=18, Timeout(ms)=600000) ran for "
        "600086 milliseconds before timing out.\n"
        "2025-03-27 17:31:09.952  gpu-23 [rank1]:[E327 09:31:09.977 ProcessGroupNCCL.cpp:2168] "
        "[PG ID 0 PG GUID 0(default_pg) Rank 1]  failure detected by watchdog at work sequence id: 33\n",
        ("collective_timeout", None, None, 1),
    ),
    (
        "a Ray error block whose header was cut: the `ip:` field just above names the node",
        "(Runner pid=13) \tpid: 132182\n(Runner pid=13) \tip: 172.16.2.252\n"
        "(Runner pid=13) The actor is dead because its worker process has died. Worker exit type: "
        "SYSTEM_ERROR\n",
        ("signal", None, "172.16.2.252", 3),
    ),
    (
        "an `ip:` field far above a Ray worker's death is not its node",
        "(Runner pid=13) \tip: 172.16.2.252\nstep 1\nstep 2\nstep 3\n"
        "(Runner pid=13) The actor is dead because its worker process has died. Worker exit type: "
        "SYSTEM_ERROR\n",
        ("signal", None, None, 5),
    ),
    (
        "the master's node is not where the job ran",
        "Master node: gpu07\n" + TB + "ValueError: bad\n",
        ("exception", None, None, 5),
    ),
    (
        "an echoed node while the log's prefixes name another",
        "Running on SLURM node: node-1\ngpu-3: step 5\n" + TB + "ValueError: bad\n",
        ("exception", None, None, 6),
    ),
    # --- a shell's prompt that ran the program on its own host
    (
        "a prompt that runs the program names its host, and a local rank is the world's",
        "(torch) ana@ws-07:~/proj$ ./run.sh\n"
        + TB
        + "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGKILL\n",
        ("signal", 1, "ws-07", 5),
    ),
    (
        "the prompt below the pasted error, the one host of the paste",
        TB + "ValueError: bad\n\nFull log:\nana@ws-07:~/proj$ python train.py\nstep 1\n",
        ("exception", None, "ws-07", 4),
    ),
    (
        "a prompt that only shows another file's output names no host",
        "ana@login01:~$ cat slurm-42.out\n" + TB + "ValueError: bad\n",
        ("exception", None, None, 5),
    ),
    (
        "a prompt that submits or launches elsewhere names no host",
        "ana@login01:~$ python -m torch.distributed.run --nnodes=2 train.py\n" + TB + "ValueError: bad\n",
        ("exception", None, None, 5),
    ),
    (
        "a prompt whose host is not where the prefixes say the job ran",
        "ana@login01:~$ ./run.sh\ngpu-3: step 5\n" + TB + "ValueError: bad\n",
        ("exception", None, None, 6),
    ),
    (
        "a console script run at a prompt names its host",
        "(base) ana@ws-07:~$ llama stack run 8b\n"
        "E1003 20:29:45.293000 1402 torch/distributed/elastic/multiprocessing/api.py:702] failed "
        "(exitcode: -9) local_rank: 0 (pid: 22415) of fn: worker_process_entrypoint (start_method: fork)\n",
        ("signal", 0, "ws-07", 2),
    ),
    # --- an exception CPython printed and ignored (its unraisable hook) ends nothing
    (
        "an ignored broken pipe, then the launcher's report of the rank that failed",
        "step 220 loss 1.1\nException ignored in: <_io.BufferedWriter name=83>\n"
        "BrokenPipeError: [Errno 32] Broken pipe\n"
        "E0828 04:05:46.603000 1038570 torch/distributed/elastic/multiprocessing/api.py:869] failed "
        "(exitcode: 1) local_rank: 1 (pid: 1038638) of binary: /usr/bin/python\n",
        ("exception", None, None, 4),
    ),
    (
        "the same broken pipe not ignored is the failure",
        "step 220 loss 1.1\n" + TB + "BrokenPipeError: [Errno 32] Broken pipe\n",
        ("collective_timeout", None, None, 5),
    ),
    # --- a Ray actor's name with its index, before torch's own rank prefix
    (
        "a named Ray actor's prefix before torch's [rankN]: the world's rank, not the group's",
        "(model_worker/12 pid=43581, ip=10.0.0.54) [rank12]:[E227 06:13:07.855233166 "
        "ProcessGroupNCCL.cpp:1534] [PG 134 Rank 1] Process group watchdog thread terminated with "
        "exception: NCCL error: remote process exited or there was a network error, NCCL version 2.22.3\n",
        ("nccl_error", 12, "10.0.0.54", 1),
    ),
    (
        "a process group's rank is the world's in the default group only",
        "[E227 06:13:07.855233166 ProcessGroupNCCL.cpp:1534] [PG 134 Rank 1] Process group watchdog "
        "thread terminated with exception: NCCL error: remote process exited or there was a network error\n",
        ("nccl_error", None, None, 1),
    ),
    (
        "near miss: the default group's rank is the world's",
        "[E227 06:13:07.855233166 ProcessGroupNCCL.cpp:1534] [PG ID 0 PG GUID 0(default_pg) Rank 5] Process "
        "group watchdog thread terminated with exception: NCCL error: remote process exited or there was "
        "a network error\n",
        ("nccl_error", 5, None, 1),
    ),
    # --- torchrun's failed local rank, in a log whose workers' lines name one global rank only
    (
        "a local rank the workers' one labelled rank matches is that rank",
        "[rank0]:[rank0]:     torch._dynamo.config.suppress_errors = True\n[rank0]:\n"
        "E0410 13:32:53.256000 139839630783488 torch/distributed/elastic/multiprocessing/api.py:826] failed "
        "(exitcode: 1) local_rank: 0 (pid: 1554760) of binary: /usr/bin/python\n",
        ("exception", 0, None, 3),
    ),
    (
        "near miss: workers' lines of another node name other ranks: the local rank is not theirs",
        "[rank8]:[rank8]:     torch._dynamo.config.suppress_errors = True\n[rank8]:\n"
        "E0410 13:32:53.256000 139839630783488 torch/distributed/elastic/multiprocessing/api.py:826] failed "
        "(exitcode: 1) local_rank: 0 (pid: 1554760) of binary: /usr/bin/python\n",
        ("exception", None, None, 3),
    ),
    # --- DeepSpeed's launcher killing its workers, the paste cut before it says why
    (
        "DeepSpeed's sigkill_handler killing a worker, nothing after it: a signal, its cause unknown",
        "[2023-04-07 13:08:55,469] [INFO] [utils.py:830:see_memory_usage] MA 11.76 GB\n"
        "[2023-04-07 13:09:33,201] [INFO] [launch.py:318:sigkill_handler] Killing subprocess 80\n",
        ("signal", None, None, 2),
    ),
    # --- vLLM's worker wrapper reporting a method that raised, before (or without) its traceback
    (
        "vLLM's worker method error, the paste cut before its traceback: an exception",
        "(RayWorkerVllm pid=14289) ERROR 04-17 09:00:33 ray_utils.py:44] Error executing method init_device. "
        "This might cause deadlock in distributed execution.\n",
        ("exception", None, None, 1),
    ),
    (
        "vLLM's worker method error with its traceback: the exception line says what",
        "ERROR 04-17 09:00:33 ray_utils.py:44] Error executing method 'load_model'. This might cause "
        "deadlock in distributed execution.\n"
        "ERROR 04-17 09:00:33 ray_utils.py:44] Traceback (most recent call last):\n"
        'ERROR 04-17 09:00:33 ray_utils.py:44]   File "/x/worker.py", line 3, in load_model\n'
        "ERROR 04-17 09:00:33 ray_utils.py:44] torch.OutOfMemoryError: CUDA out of memory. Tried to "
        "allocate 2.00 GiB.\n",
        ("cuda_oom", None, None, 4),
    ),
    # --- Ray's memory monitor, only the end of its message kept (a job's truncated last logs)
    (
        "the end of Ray's OOM message alone is the memory monitor's kill",
        "(ActorModelRayActor pid=8249) 8800\t1.18\tray::ReferenceModelRayActor\n"
        "(ActorModelRayActor pid=8249) Refer to the documentation on how to address the out of memory "
        "issue: https://docs.ray.io/en/latest/ray-core/scheduling/ray-oom-prevention.html. Consider "
        "provisioning more memory on this node or reducing task parallelism by requesting more CPUs per "
        "task.\n",
        ("host_oom", None, None, 2),
    ),
    # --- DeepSpeed's and Composer's launchers: a Python worker that exited with 1
    (
        "Composer's rank that exited with 1 is a Python exception, at medium confidence",
        "ERROR:composer.cli.launcher:Rank 1 crashed with exit code 1.\n"
        "Waiting up to 30 seconds for all training processes to terminate. Press Ctrl-C to exit "
        "immediately.\n",
        ("exception", 1, None, 1),
    ),
    (
        "DeepSpeed's worker that exited with 1 is a Python exception, at medium confidence",
        "[2024-03-20 20:31:29,240] [INFO] [launch.py:315:sigkill_handler] Killing subprocess 3353708\n"
        "[2024-03-20 20:31:29,269] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python', '-u', "
        "'train.py', '--local_rank=4'] exits with return code = 1\n",
        ("exception", 4, None, 2),
    ),
    (
        "near miss: Composer's rank that a signal ended is that signal",
        "ERROR:composer.cli.launcher:Rank 2 crashed with exit code -6.\n",
        ("signal", 2, None, 1),
    ),
    # --- NCCL's ring lines name the rank of the process that writes them
    (
        "NCCL's ring lines give the rank of the process whose WARN is the failure",
        "n135:151779:151929 [1] NCCL INFO Ring 00 : 1[1] -> 2[2] via direct shared memory\n"
        "n135:151780:151928 [2] NCCL INFO Ring 00 : 2[2] -> 3[3] via direct shared memory\n"
        "n135:151778:151927 [0] NCCL INFO Ring 00 : 7 -> 0 [receive] via NET/IB/0\n"
        "n135:151780:151928 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'\n",
        ("nccl_error", 2, "n135", 4),
    ),
    (
        "near miss: a process whose ring lines give two ranks (two communicators) is given none",
        "n135:151780:151928 [2] NCCL INFO Ring 00 : 2[2] -> 3[3] via direct shared memory\n"
        "n135:151780:151928 [2] NCCL INFO Ring 00 : 0[2] -> 1[3] via direct shared memory\n"
        "n135:151780:151928 [2] include/shm.h:42 NCCL WARN Cuda failure 'invalid argument'\n",
        ("nccl_error", None, "n135", 3),
    ),
    # --- mpirun's first rank that exited with 1, in a log of Python ranks
    (
        "mpirun's rank that exited with 1 among Python frames is a Python exception",
        '[1,1]<stderr>:  File "/opt/horovod/torch/mpi_ops.py", line 436, in synchronize\n'
        "[1,1]<stderr>:    mpi_lib.horovod_torch_wait_and_clear(handle)\n"
        "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
        "the job to be terminated. The first process to do so was:\n\n"
        "  Process name: [[50371,1],0]\n  Exit code:    1\n",
        ("exception", 0, None, 6),
    ),
    (
        "near miss: mpirun's rank that exited with 1, no Python in the log, is its exit code",
        "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
        "the job to be terminated. The first process to do so was:\n\n"
        "  Process name: [[50371,1],0]\n  Exit code:    1\n",
        ("exit_code", 0, None, 4),
    ),
    # --- PaddlePaddle's DataLoader reader thread and an Ascend NPU's runtime
    (
        "Paddle's reader thread failing on its shared memory is an exception",
        "ERROR:root:DataLoader reader thread raised an exception!\n"
        "ERROR:root:DataLoader reader thread failed((Unavailable) Memory map failed when rebuild shared "
        "memory.\n",
        ("exception", None, None, 2),
    ),
    (
        "an Ascend NPU's runtime error line is the device's error",
        "        tsd client wait response fail, device response code[1]. unknown device error."
        "[FUNC:WaitRsp][FILE:process_mode_manager.cpp][LINE:290]\n"
        "        rtGetDevMsg execute failed, reason=[driver error:internal error][FUNC:FuncErrorReason]"
        "[FILE:error_message_manage.cc][LINE:53]\n",
        ("gpu_error", None, None, 1),
    ),
    # --- torchrun's table as a web page rendered it: names and values on lines of their own
    (
        "a rendered root-cause table: its host and its glued rank and exit code are read",
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\ntrain.py FAILED\nFailures:\n"
        "<NO OTHER FAILURES>\nRoot Cause (first observed failure) :\n[0]:\ntime\nhost\n"
        "2023-09-14 01:45:50\nding-X10DRG\nrank2 (local rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>\n"
        "traceback : signal 9 (SIGKILL) received by PID 36071\n",
        ("signal", 2, "ding-X10DRG", 11),
    ),
    # --- a YARN container's id before each line
    (
        "a YARN container's prefix is taken off and the exception below it read",
        "2019-07-04T06:18:48.000Z /container_e559_1557431881457_79419_05_000002: Traceback (most recent "
        "call last):\n"
        '2019-07-04T06:18:48.000Z /container_e559_1557431881457_79419_05_000002:   File "/x/spawn.py", '
        "line 214, in prepare\n"
        "2019-07-04T06:18:48.000Z /container_e559_1557431881457_79419_05_000002: PermissionError: [Errno 13] "
        "Permission denied: '/root'\n",
        ("exception", None, None, 3),
    ),
    # --- XLA's coordination service, the call named on a line of its own
    (
        "a task that could not register with JAX's coordination service, newer XLA's words",
        "DEADLINE_EXCEEDED: Deadline Exceeded\nRPC: /tensorflow.CoordinationService/RegisterTask\n",
        ("rendezvous", None, None, 1),
    ),
    # --- TensorFlow's start-up probe for a GPU on a node without one: it runs on its CPUs
    (
        "TensorFlow's failed cuInit on a CPU node is no cause: the OOM kill after it is",
        "2023-05-10 12:03:17.602190: E tensorflow/stream_executor/cuda/cuda_driver.cc:271] failed call "
        "to cuInit: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n"
        "/var/spool/slurm/job22207649/slurm_script: line 22: 443552 Killed                  python main.py\n"
        "slurmstepd: error: Detected 1 oom-kill event(s) in StepId=22207649.batch. Some of your processes "
        "may have been killed by the cgroup out-of-memory handler.\n",
        ("host_oom", None, None, 3),
    ),
    (
        "near miss: the driver's CUDA_ERROR_NO_DEVICE raised by a program is its failure",
        "RuntimeError: Failed call to cuDeviceGet: CUDA_ERROR_NO_DEVICE: no CUDA-capable device is "
        "detected\n",
        ("gpu_error", None, None, 1),
    ),
    # --- a line that says only that something failed: shown, at low confidence, not nothing
    (
        "a plain `failed` no signature reads",
        "step 10 loss 2.1\nBootstrap failed for the connection to the head node\n",
        ("unknown", None, None, 2),
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
        # a build without the GPU's architecture: no node is to blame
        (
            "RuntimeError: CUDA error: no kernel image is available for execution on the device\n",
            "fix_spec_or_script",
        ),
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


def test_only_symptoms_is_said_with_doubt_and_names_the_rank_the_others_blame(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        "[rank3]:[E421 04:13:43.426633564 ProcessGroupGloo.cpp:143] Rank 3 successfully reached "
        "monitoredBarrier, but received errors while waiting for send/recv from rank 0. Please check "
        "rank 0 logs for faulty rank.\n",
        encoding="utf-8",
    )
    d = triage_files([log])
    assert not any(f.cause for f in d.findings)
    first = d.findings[0]
    assert (first.cls, first.confidence, first.rank) == ("collective_timeout", "medium", 0)


def test_only_symptoms_that_name_no_rank_blame_none(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        "[rank1]:[E923 15:45:08.085006896 ProcessGroupNCCL.cpp:607] [Rank 1] Watchdog caught collective "
        "operation timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, "
        "Timeout(ms)=1800000) ran for 1800004 milliseconds before timing out.\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.confidence, first.rank) == ("collective_timeout", "medium", None)


@pytest.mark.parametrize(
    "text",
    [
        "The MPI peer process reconnected after the switch was replaced.\n",
        "INFO: Horovod has been shut down cleanly after the last epoch.\n",
    ],
)
def test_a_peer_that_came_back_or_a_clean_shutdown_is_no_lost_peer(tmp_path: Path, text: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    assert not triage_files([log]).findings


def test_a_prompt_that_asked_the_gpus_and_found_them_well_gives_nothing(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        "alice@gpu07:~$ nvidia-smi -L\nGPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-1)\n", encoding="utf-8"
    )
    assert not triage_files([log]).findings


def test_a_job_end_another_scheduler_reported_names_its_node_not_slurmstepd(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        "Job was executed on host(s) <gpu-a1>, in queue <q>, as user <u> at Tue Nov  3\n"
        "TERM_RUNLIMIT: job killed after reaching LSF run time limit.\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert first.summary == "the job reached its time limit (on gpu-a1)"


def test_a_bare_exception_keeps_its_class_and_the_next_line_its_own(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(TB + "AssertionError\n/var/spool/slurmd/job3/slurm_script: line 9: x: command not found\n")
    d = triage_files([log])
    assert [(f.cls, f.confidence, f.cause) for f in d.findings][:1] == [("exception", "high", True)]
    assert any(f.cls == "missing_program" and f.evidence[0].line == 5 for f in d.findings)


@pytest.mark.parametrize(("who", "confidence"), [("root@sched", "medium"), ("alice@login1", "high")])
def test_a_deletion_at_roots_request_is_not_sure_to_be_a_cancel(
    tmp_path: Path, who: str, confidence: str
) -> None:
    """root deletes jobs for the scheduler (preemption, a limit) as well as for an administrator:
    alone, its deletion is a cancel said with doubt; a user's own deletion is one for sure."""
    log = tmp_path / "x.log"
    log.write_text(f"PBS Job Id: 77.sched\njob deleted\nJob deleted at request of {who}\n", encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.confidence) == ("cancelled", confidence)


def test_a_module_a_logger_warns_of_is_no_cause(tmp_path: Path) -> None:
    """A warning that a module is missing says the program went on without it: context alone."""
    log = tmp_path / "x.log"
    log.write_text(
        "2019-10-31 13:51:18,139\tWARNING logger.py:343 -- Could not instantiate tf2_compat_logger: "
        "No module named 'tensorflow'.\n",
        encoding="utf-8",
    )
    d = triage_files([log])
    assert [(f.cls, f.role, f.cause) for f in d.findings] == [("import_error", "context", False)]


def test_tensorflows_oom_on_the_cpu_is_no_gpu_memory(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        TB + "tensorflow.python.framework.errors_impl.ResourceExhaustedError: OOM when allocating tensor "
        "with shape[8,1024] and type float on /job:localhost/replica:0/task:0/device:CPU:0 "
        "by allocator cpu\n",
        encoding="utf-8",
    )
    d = triage_files([log])
    assert d.findings
    assert all(f.cls != "cuda_oom" for f in d.findings)


def test_a_program_timed_out_waiting_for_its_own_work_is_no_rendezvous(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        TB + "Exception: Timed out waiting for the results of the eval workers\n", encoding="utf-8"
    )
    d = triage_files([log])
    assert d.findings
    assert all(f.cls != "rendezvous" for f in d.findings)


def test_the_nccl_ids_store_lost_is_a_lost_peer_not_a_failed_meeting(tmp_path: Path) -> None:
    """The same wait for rank 0's NCCL id ended by a lost connection, not a timeout: the store's
    host is gone (rank 0 died), and the rank that says so is a victim."""
    log = tmp_path / "x.log"
    log.write_text(
        "[rank3]: torch.distributed.DistBackendError: [3] is setting up NCCL communicator and retrieving "
        "ncclUniqueId from [0] via c10d key-value store by key '0', but store->get('0') got error: Failed "
        "to recv, got 0 bytes. Connection was likely closed.\n",
        encoding="utf-8",
    )
    d = triage_files([log])
    assert d.findings
    assert all(f.cls == "collective_timeout" and not f.cause for f in d.findings)
    assert any(f.rank == 3 for f in d.findings)


def test_a_jobs_cancel_speaks_for_its_steps_and_names_its_batch_host(tmp_path: Path) -> None:
    """Each step's slurmstepd writes its own cancel, on its own node and in any order: the job's
    line names the node the job ran its batch script on."""
    log = tmp_path / "x.log"
    log.write_text(
        "slurmstepd: error: *** STEP 41.0 ON n2 CANCELLED AT 2025-08-11T19:10:32 ***\n"
        "slurmstepd: error: *** JOB 41 ON n1 CANCELLED AT 2025-08-11T19:10:32 ***\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.node, first.confidence, first.evidence[0].line) == ("cancelled", "n1", "high", 2)


@pytest.mark.parametrize(("second", "confidence"), [("19:10:32", "medium"), ("19:12:05", "high")])
def test_two_jobs_in_one_file_cancelled_at_one_second_leave_the_job_open(
    tmp_path: Path, second: str, confidence: str
) -> None:
    """Two jobs writing one file and ended at the same second: their lines' order is the order two
    slurmstepds wrote them, so which job the log is about is said with doubt. A second apart, the
    earlier is the first (the near miss)."""
    log = tmp_path / "x.log"
    log.write_text(
        "  2%|▏         | 265/11206 [13:41:09<566:25:39, 186.38s/it]\n"
        "slurmstepd: error: *** STEP 9834940.0 ON gpu52 CANCELLED AT 2025-08-11T19:10:32 ***\n"
        "slurmstepd: error: *** JOB 9835976 ON gpu54 CANCELLED AT 2025-08-11T19:10:32 ***\n"
        f"slurmstepd: error: *** JOB 9834940 ON gpu52 CANCELLED AT 2025-08-11T{second} ***\n"
        "W0811 19:10:32.605000 1389313 site-packages/torch/distributed/elastic/multiprocessing/api.py:900] "
        "Sending process 1389389 closing signal SIGTERM\n",
        encoding="utf-8",
    )
    d = triage_files([log])
    first = d.findings[0]
    assert (first.cls, first.node, first.confidence) == ("cancelled", "gpu54", confidence)
    assert ("job 9834940 on gpu52" in first.summary) == (confidence == "medium")


def _wrapped(*messages: str, width: int) -> str:
    """Messages as a paste or a terminal wraps them: cut every `width` characters."""
    return "".join(m[i : i + width] + "\n" for m in messages for i in range(0, len(m), width))


_WARN = (
    "2024-05-01 12:00:00 rank 3 stalled in allreduce, its NCCL output follows: gpu-a07:412:790 [3] "
    "transport/net_ib.cc:1295 NCCL WARN NET/IB : Got completion from peer 10.3.1.8<36721> with error 12, "
    "opcode 0, len 0, vendor err 129 (Recv)"
)
_RAY = "ray.exceptions.RayTaskError(ValueError): ray::TaskRunner.run() (pid=18948, ip=10.1.2.3)"
_COLOSSAL = (
    "Error: failed to run torchrun --nproc_per_node=8 --nnodes=2 --node_rank=1 train.py on gpu-node-02, "
    "is localhost: False, exception: No authentication methods available"
)
_NOTE = (
    "Launching on 2 nodes: gpu-node-01 and gpu-node-02, with 8 processes on each node, the rendezvous "
    "at gpu-node-01:29500 and a timeout of 900s"
)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a NCCL WARN's host cut in two: two lines reach the width, the first ends inside the host
        (_wrapped(_WARN, width=80), ("nccl_error", None, "gpu-a07", 1)),
        # Ray's header cut inside `ip=`: its node on the next piece
        (
            _wrapped(_NOTE, width=_RAY.find("ip=") + 1)
            + TB
            + _wrapped(_RAY, width=_RAY.find("ip=") + 1)
            + '  File "/home/u/run.py", line 4, in run\n    f()\nValueError: no data\n',
            ("exception", None, "10.1.2.3", 10),
        ),
        # ColossalAI's `exception:` cut from its line: ssh's failure, not an exit code
        (
            _wrapped(_NOTE, _COLOSSAL, width=_COLOSSAL.find("exception") + 5),
            ("unknown", None, "gpu-node-02", 3),
        ),
    ],
    ids=["nccl-warn-host-cut", "ray-ip-cut", "colossal-exception-cut"],
)
def test_a_message_wrapped_at_a_width_few_lines_reach_is_rejoined(
    tmp_path: Path, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == want, first.summary


def test_lines_that_only_share_the_longest_length_stay_apart(tmp_path: Path) -> None:
    """Two lines of the same, longest, length, each followed by a line of its own (srun's report,
    pdsh's host prefix): no join, each read as it is."""
    a = "step 100 loss 2.31 lr 3.0e-4 tokens/s 51200 grad_norm 0.88 mem 71.2GiB sched cosine_w"
    b = "step 200 loss 2.12 lr 2.9e-4 tokens/s 51168 grad_norm 0.91 mem 71.2GiB sched cosine_w"
    log = tmp_path / "x.log"
    log.write_text(
        f"{a}\nsrun: error: node3: task 1: Exited with exit code 1\n{b}\ngpu004: RuntimeError: boom\n",
        encoding="utf-8",
    )
    d = triage_files([log])
    lines = sorted(ev.line for f in d.findings for ev in f.evidence[:1])
    assert lines == [2, 4]
    srun = next(f for f in d.findings if f.evidence[0].line == 2)
    assert (srun.task, srun.node) == (1, "node3")


def test_a_message_over_three_pieces_of_a_wrapped_log_is_read_whole(tmp_path: Path) -> None:
    host = "gpu-node12.longpartitionname.cluster.example.org"
    message = (
        f"slurmstepd: error: *** JOB 4512 ON {host} CANCELLED AT 2024-03-01T10:00:07 DUE TO TIME LIMIT ***"
    )
    log = tmp_path / "x.log"
    log.write_text(_wrapped("Epoch 3: loss=2.31, " * 8, message, width=60), encoding="utf-8")
    assert len(message) > 120  # three pieces, its reason on the last
    first = triage_files([log]).findings[0]
    assert (first.cls, first.node, first.evidence[0].line) == ("time_limit", host, 4)


_RAY_DIED = (
    "2023-11-30 10:19:23,769 WARNING worker.py:2074 -- A worker died or was killed while executing a task "
    "by an unexpected system error. To troubleshoot the problem, check the logs for the dead worker. Worker "
    "IP address: 10.9.70.181 Worker port: 34011 Worker PID: {pid} Worker exit type: SYSTEM_ERROR\n"
)
_RAY_WATCHDOG = (
    "(RayWorker pid=1080651) [E ProcessGroupNCCL.cpp:474] [Rank 0] Watchdog caught collective operation "
    "timeout: WorkNCCL(SeqNum=1, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for "
    "1800305 milliseconds before timing out.\n"
)


def test_a_ray_workers_death_is_its_own_watchdogs_timeout(tmp_path: Path) -> None:
    """The raylet names the dead worker's pid; the worker's prefix pairs that pid with rank 0 on
    the line where its watchdog timed out: the timeout is why it died, wherever the driver
    printed the death."""
    log = tmp_path / "x.log"
    log.write_text(_RAY_DIED.format(pid=1080651) + _RAY_WATCHDOG, encoding="utf-8")
    d = triage_files([log])
    assert not any(f.cause for f in d.findings)
    assert d.findings[0].cls == "collective_timeout"
    assert any(f.cls == "collective_timeout" and f.rank == 0 for f in d.findings)


def test_another_ray_workers_death_is_no_watchdogs(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(_RAY_DIED.format(pid=2211) + _RAY_WATCHDOG, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.cause, first.node) == ("signal", True, "10.9.70.181")


@pytest.mark.parametrize(
    "text",
    [
        # a time then words, no host and tag: no syslog line
        "Dec 03 10:22:16 the run failed: RuntimeError: CUDA error: an illegal memory access was "
        "encountered\n",
        # a word and a bracketed number before NCCL's words, where the word is no host's name
        "Epoch [5] NCCL WARN Call to connect returned Connection refused\n",
    ],
)
def test_a_line_that_only_looks_like_a_hosts_prefix_names_no_node(tmp_path: Path, text: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    d = triage_files([log])
    assert d.findings
    assert d.findings[0].node is None, d.findings[0].summary


def test_sbatch_lines_far_before_its_refusal_are_not_its_reason(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        "sbatch: error: Invalid --mail-type\n"
        + "".join(f"step {i}\n" for i in range(6))
        + "sbatch: error: Batch job submission failed: Invalid account or account/partition combination\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert first.cls == "slurm_refused"
    assert "it said before" not in first.summary
    assert [e.line for e in first.evidence] == [8]


@pytest.mark.parametrize(
    ("code", "string", "signal"),
    [
        # the exit string agrees with the code (128 + 11): the process's own signal
        ("139", "Segmentation fault (signal 11)", "SIGSEGV"),
        # it does not: the string is the cleanup's SIGTERM, the code 128 + SIGABRT the process's
        ("134", "Terminated (signal 15)", "SIGABRT"),
        # the process itself was ended by SIGTERM (the code is the signal's number)
        ("15", "Terminated (signal 15)", "SIGTERM"),
    ],
)
def test_hydras_exit_code_and_exit_string_each_say_whose_signal(
    tmp_path: Path, code: str, string: str, signal: str
) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
        f"=   PID 4242 RUNNING AT cn-007\n=   EXIT CODE: {code}\n"
        "=   CLEANING UP REMAINING PROCESSES\n"
        f"YOUR APPLICATION TERMINATED WITH THE EXIT STRING: {string}\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.signal, first.node) == ("signal", signal, "cn-007")


@pytest.mark.parametrize(
    "text",
    [
        "memory allocation of 2097152 bytes succeeded after 3 retries\n",
        # an issue's title that repeats DeepSpeed's launcher's words is not its report
        "Killing subprocess  exits with return code = 1 after saving one checkpoint\n",
        # a count of failures that is none
        "Tests: 12 passed, 0 failed\n",
        "checks failed=0\n",
        # a tool that says what it does instead
        "warning: Failed to hardlink files; falling back to full copy.\n",
    ],
)
def test_a_failed_that_is_no_failure_gives_nothing(tmp_path: Path, text: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    assert triage_files([log]).findings == []


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # submitit's handler, the line before slurmstepd's cancel of the step
        (
            "step 90 loss 1.2\nsubmitit WARNING (2024-05-02 10:00:01,100) - Bypassing signal SIGCONT\n"
            "slurmstepd: error: *** STEP 812.0 ON gpu-7 CANCELLED AT 2024-05-02T10:00:01 ***\n",
            2,
        ),
        # Lightning's word, the line after slurmstepd's time limit
        (
            "slurmstepd: error: *** JOB 55 ON cn3 CANCELLED AT 2024-05-02T10:00:01 DUE TO TIME LIMIT ***\n"
            "[rank: 0] Received SIGTERM: 15\n",
            2,
        ),
    ],
)
def test_a_signal_the_program_saw_beside_the_jobs_end_is_shown_with_it(
    tmp_path: Path, text: str, line: int
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert first.cls in ("cancelled", "time_limit")
    assert line in [e.line for e in first.evidence]


def test_a_signal_the_program_saw_long_before_the_end_is_not_the_ends(tmp_path: Path) -> None:
    log = tmp_path / "x.log"
    log.write_text(
        "submitit WARNING (2024-05-02 09:00:01,100) - Bypassing signal SIGTERM\n"
        "step 90 loss 1.2\nstep 91 loss 1.1\n"
        "slurmstepd: error: *** STEP 812.0 ON gpu-7 CANCELLED AT 2024-05-02T10:00:01 ***\n",
        encoding="utf-8",
    )
    d = triage_files([log])
    first = d.findings[0]
    assert (first.cls, [e.line for e in first.evidence]) == ("cancelled", [4])
    bypassed = [f for f in d.findings if f.code == "L226"]
    assert bypassed
    assert not bypassed[0].cause
    assert "let SIGTERM pass" in bypassed[0].summary


# --- b18 and b19's families: other wordings and prefixes of the same formats
@pytest.mark.parametrize(
    ("text", "want"),
    [
        # MPICH's Hydra (not Intel's): the older spawn function, its proxy's node
        (
            "[proxy:0:1@cn-12] HYDU_create_process (utils/launch/launch.c:75): execvp error on file "
            "/opt/app/bin/solver (No such file or directory)\n"
            "===================================================================================\n"
            "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
            "=   PID 4411 RUNNING AT cn-12\n"
            "=   KILLED BY SIGNAL: 9 (Killed)\n",
            ("missing_program", None, "cn-12", 1),
        ),
        # GNI's failing return code, then DAPL's CMA provider naming its node
        (
            "MPICH ERROR: GNI_PostRdma returned GNI_RC_TRANSACTION_ERROR\n"
            "nid00123:CMA:1a2b:3c4d5e6f: 2048 us(2048 us):  dapl_cma_active: CM ADDR ERROR -> DEST "
            "10.128.0.9\n",
            ("nccl_error", None, "nid00123", 1),
        ),
        # PALS's exit code of a rank behind its node, and a SIGKILL of another
        (
            "x1002c3s1b0n0: rank 12 exited with code 1\nx1002c3s1b0n0: rank 13 died from signal 15\n",
            ("exit_code", 12, "x1002c3s1b0n0", 1),
        ),
        (
            "x1002c3s1b0n0.hsn.cm.aurora.alcf.anl.gov: rank 7 died from signal 9\n",
            ("signal", 7, "x1002c3s1b0n0.hsn.cm.aurora.alcf.anl.gov", 1),
        ),
        # the CUDA driver API's names as CuPy or numba print them
        (
            "cupy_backends.cuda.api.driver.CUDADriverError: CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory "
            "access was encountered\n",
            ("gpu_error", None, None, 1),
        ),
        (
            "E external/xla/xla/stream_executor/cuda/cuda_driver.cc:282] failed call to cuInit: "
            "CUDA_ERROR_NO_DEVICE: no CUDA-capable device is detected\n",
            ("gpu_error", None, None, 1),
        ),
        # ROCm's fault on a null address, with no reason (older runtimes)
        (
            "Memory access fault by GPU node-4 (Agent handle: 0x1c2d3e0) on address (nil). Reason: Unknown.\n"
            "Aborted (core dumped)\n",
            ("gpu_error", None, None, 1),
        ),
        # the store's ping answered by another server
        (
            "torch.distributed.DistNetworkError: Ping failed, invalid value returned from server. "
            "Expected: 1234, Got: 0\n",
            ("rendezvous", None, None, 1),
        ),
        # NCCL 2.1's WARN without its tag, behind the short prefix some builds write
        (
            "gpu-node-3:5512:5600 [0] misc/ibvwrap.cu:262 WARN Call to ibv_open_device failed\n"
            "gpu-node-3:5512:5600 [0] INFO transport/net_ib.cu:117 -> 2\n",
            ("nccl_error", None, "gpu-node-3", 1),
        ),
        # a watchdog's timeout, then the C++ abort of the same rank and faulthandler's dump
        (
            "[rank3]:[E ProcessGroupNCCL.cpp:1316] [Rank 3] Watchdog caught collective operation timeout: "
            "WorkNCCL(SeqNum=12, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=600000) ran for "
            "600324 milliseconds before timing out.\n"
            "Fatal Python error: Aborted\n\nThread 0x00007f (most recent call first):\n"
            '  File "/home/u/train.py", line 40 in step\n',
            ("collective_timeout", 3, None, 1),
        ),
    ],
    ids=[
        "mpich-hydra-execvp",
        "gni-rc-then-dapl-cma",
        "pals-exit-code",
        "pals-sigkill",
        "cupy-driver-error",
        "xla-cuinit-no-device",
        "rocm-fault-nil",
        "store-ping",
        "old-nccl-warn",
        "watchdog-then-abort",
    ],
)
def test_b18_and_b19_families_read_in_other_wordings(
    tmp_path: Path, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    d = triage_files([log])
    first = d.findings[0]
    if want[0] == "collective_timeout":
        ranks = {f.rank for f in d.findings if f.cls == "collective_timeout"}
        assert (first.cls, want[1] in ranks) == (want[0], True)
    else:
        assert (first.cls, first.rank, first.node, first.evidence[0].line) == want


@pytest.mark.parametrize(
    ("text", "code"),
    [
        # Hydra's exec failing for another reason: not a program that is missing
        (
            "[proxy:0:0@node2] HYDU_create_process (utils/launch/launch.c:75): execvp error on file "
            "./train (Permission denied)\n",
            "L228",
        ),
        # DAPL's ordinary progress lines
        ("nid06489:SCM:22fc4:aab49500: 1024 us(1024 us):  open_hca: devname mlx4_0, port 1\n", "N425"),
        # a rank's own words of a signal, not PALS's report
        ("rank 3 died from signal 11 handler setup, retrying\n", "L227"),
        # a GPU memory access that did not fault
        ("Memory access by GPU node-2 (Agent handle: 0x55) granted\n", "G316"),
        # the CUDA driver's success
        ("cuInit returned CUDA_SUCCESS; CUDA_ERROR_ codes are listed below\n", "G303"),
        # a warning that is not NCCL's: no source file and line before WARN
        ("2024-05-01 [main] WARN Call to recv failed : Connection reset by peer\n", "N404"),
    ],
)
def test_b18_and_b19_near_misses_do_not_fire(tmp_path: Path, text: str, code: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    assert code not in {f.code for f in triage_files([log]).findings}


def test_an_abort_after_a_watchdog_is_not_said_sure(tmp_path: Path) -> None:
    """An abort is a process ending itself: without the watchdog's line it is the first cause, at
    medium confidence (the why is on lines the log does not hold)."""
    log = tmp_path / "x.log"
    log.write_text("step 3\nFatal Python error: Aborted\n", encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.confidence) == ("signal", "medium")


def test_a_launchers_report_names_the_rank_of_the_strongest_first_cause(tmp_path: Path) -> None:
    """torchrun's table names the rank of the first cause the causal stage ranks first (the port's
    errno), not of an earlier, weaker line about the same failure (its generic RuntimeError)."""
    log = tmp_path / "x.log"
    log.write_text(
        "RuntimeError: The server socket has failed to listen on any local network address.\n"
        "name: EADDRINUSE\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
        "============================================================\n"
        "train.py FAILED\n"
        "------------------------------------------------------------\n"
        "Failures:\n  <NO_OTHER_FAILURES>\n"
        "------------------------------------------------------------\n"
        "Root Cause (first observed failure):\n"
        "[0]:\n  time      : 2024-05-01_10:00:00\n  host      : gpu-3\n  rank      : 2 (local_rank: 2)\n"
        "  exitcode  : 1 (pid: 77)\n"
        "============================================================\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank) == ("port_in_use", 2)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # DDP's unused-parameter message on its own line, its RuntimeError glued into another
        # rank's output: the program's exception, by its words
        (
            "step 40\n"
            "[rank1]: Expected to have finished reduction in the prior iteration before starting a new "
            "one. This error indicates that your module has parameters that were not used in producing "
            "loss.\n",
            ("exception", 2),
        ),
        # a script with CRLF line endings: the kernel's bad interpreter, and env's message whose
        # program name ended in a carriage return (the line splits there)
        ("$ ./run.sh\n/bin/bash^M: bad interpreter: No such file or directory\n", ("missing_program", 2)),
        ("step 1\n/usr/bin/env: 'python3\r': No such file or directory\n", ("missing_program", 2)),
        # Gloo's process group that could not connect its peers, in another writer's prefix
        (
            "step 1\n[E ProcessGroupGloo.cpp:137] Gloo connectFullMesh failed with "
            "[../third_party/gloo/gloo/transport/tcp/pair.cc:210] Connection refused\n",
            ("rendezvous", 2),
        ),
    ],
)
def test_b20_and_b21_families_read_in_other_wordings(
    tmp_path: Path, text: str, want: tuple[str, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.evidence[0].line) == want


@pytest.mark.parametrize(
    "text",
    [
        # DDP's warning about the same parameters: a warning, no failure
        "[W reducer.cpp:1303] Warning: find_unused_parameters=True was specified in DDP constructor, "
        "but did not find any unused parameters in the forward pass.\n",
        "WARNING: parameters that were not used in producing loss are frozen\n",
        # Gloo's mesh set up: an info line, no failure
        "[I ProcessGroupGloo.cpp:750] Gloo connectFullMesh done in 12 ms\n",
    ],
)
def test_b20_and_b21_near_misses_give_nothing(tmp_path: Path, text: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    assert triage_files([log]).findings == []


def test_a_missing_file_with_its_name_is_no_missing_program(tmp_path: Path) -> None:
    """Only a `No such file or directory` whose name a carriage return ate is a CRLF script's
    interpreter; a command's missing file with its name is a line in words."""
    log = tmp_path / "x.log"
    log.write_text("cp: cannot stat 'a.txt': No such file or directory\n", encoding="utf-8")
    assert triage_files([log]).findings[0].cls == "unknown"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # the store's client giving up on every address, under pdsh's `host: ` prefix, before
        # DeepSpeed's launcher reports its worker's exit code and pdsh the ssh's
        (
            "n2: torch.distributed.DistNetworkError: The client socket has failed to connect to any network "
            "address of (10.0.0.1, 29500). The client socket has failed to connect to 10.0.0.1:29500 "
            "(errno: 113 - No route to host).\n"
            "n2: [2024-02-24 04:37:51,021] [ERROR] [launch.py:321:sigkill_handler] ['/usr/bin/python3', "
            "'-u', 'train.py'] exits with return code = 1\n"
            "pdsh@n1: n2: ssh exited with exit code 1\n",
            ("rendezvous", None, "n2", 1),
        ),
        # c10d's own error line after its retries, then srun's report of the one task the log names
        (
            "[W socket.cpp:697] [c10d] The client socket has failed to connect to gpu-0:29500 (errno: 113 - "
            "No route to host).\n"
            "[E socket.cpp:753] [c10d] The client socket has failed to connect to any network address of "
            "(gpu-0, 29500).\n"
            "srun: error: gpu-1: task 1: Exited with exit code 1\n",
            ("rendezvous", 1, "gpu-1", 2),
        ),
    ],
    ids=["pdsh-no-route", "c10d-error-then-srun"],
)
def test_a_store_client_that_gave_up_is_the_rendezvous_not_the_exit_code(
    tmp_path: Path, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == want


def test_a_store_client_still_retrying_is_no_rendezvous_failure(tmp_path: Path) -> None:
    """One address refused while the client retries is a warning: the job's own exit is the cause."""
    log = tmp_path / "x.log"
    log.write_text(
        "[W socket.cpp:663] [c10d] The client socket has failed to connect to [gpu-0]:29500 (errno: 111 - "
        "Connection refused).\n"
        "srun: error: gpu-1: task 1: Exited with exit code 1\n",
        encoding="utf-8",
    )
    findings = triage_files([log]).findings
    assert "N406" not in {f.code for f in findings}
    assert findings[0].cls == "exit_code"


_SPAWN_END = (
    "Traceback (most recent call last):\n"
    '  File "/opt/conda/lib/python3.10/site-packages/torch/multiprocessing/spawn.py", line 140, in join\n'
    "    raise ProcessExitedException(\n"
    "torch.multiprocessing.spawn.ProcessExitedException: process 2 terminated with signal SIGKILL\n"
)


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # Horovod's timestamped tag: the rank of the traceback it labels
        (
            "Sat Jan 30 08:17:46 2021[1]<stderr>:Traceback (most recent call last):\n"
            'Sat Jan 30 08:17:46 2021[1]<stderr>:  File "train.py", line 9, in <module>\n'
            "Sat Jan 30 08:17:46 2021[1]<stderr>:ValueError: bad shape\n",
            ("exception", 1, None, 3),
        ),
        # c10d's abort reason after a C++ abort's NCCL error: the rank of the process that raised it
        (
            "terminate called after throwing an instance of 'c10::Error'\n"
            "  what():  NCCL error in: ../torch/csrc/distributed/c10d/NCCLUtils.hpp:181, unhandled system "
            "error, NCCL version 2.12.12\n"
            "Process Group destroyed on rank 3\n"
            "Exception raised from ncclCommAbort at ../torch/csrc/distributed/c10d/NCCLUtils.hpp:181\n",
            ("nccl_error", 3, None, 2),
        ),
        # spawn's report of a local process, in a log whose prefix puts rank 0 on the one node it names
        (
            "[gpu07:0/8] 2024-05-01 10:00:00,000 (trainer:120) INFO: epoch 1 started\n" + _SPAWN_END,
            ("signal", 2, "gpu07", 5),
        ),
    ],
    ids=["horovod-timestamped-tag", "pg-destroyed-on-rank", "spawn-on-rank-0s-node"],
)
def test_b21_ranks_read_in_other_wordings(
    tmp_path: Path, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # the abort reason beside no NCCL error: it names the rank of nothing the log reads
        (
            "ValueError: bad shape\nProcess Group destroyed on rank 3\n",
            ("exception", None, None),
        ),
        # spawn on a node that does not hold rank 0: its local rank is no global rank
        (
            "[gpu08:8/16] 2024-05-01 10:00:00,000 (trainer:120) INFO: epoch 1 started\n" + _SPAWN_END,
            ("signal", None, "gpu08"),
        ),
        # a log that names two nodes: spawn's node is not said
        (
            "[gpu07:0/16] INFO: epoch 1 started\n[gpu08:8/16] INFO: epoch 1 started\n" + _SPAWN_END,
            ("signal", None, None),
        ),
    ],
    ids=["pg-destroyed-alone", "spawn-on-another-node", "spawn-two-nodes"],
)
def test_b21_near_misses_name_no_rank(
    tmp_path: Path, text: str, want: tuple[str, int | None, str | None]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # srun started Hydra's proxies, one a node: its tasks are proxies, not ranks
        (
            "[proxy:0:1@cn-2] HYD_pmcd_pmip_control_cmd_cb (pm/pmiserv/pmip_cb.c:878): assert (!closed) "
            "failed\n"
            "srun: error: cn-1: task 0: Exited with exit code 7\n"
            "[mpiexec@cn-1] HYDT_bscu_wait_for_completion (tools/bootstrap/utils/bscu_wait.c:75): one of the "
            "processes terminated badly; aborting\n",
            ("exit_code", None, "cn-1", 2),
        ),
        # a program's own fatal line, and the line after it that names the rank and host it failed on
        (
            "ERROR: worker could not open its chunk, giving up\n"
            "--> rank=12, hostname=gpu-7\n"
            "srun: error: gpu-1: task 0: Exited with exit code 7\n",
            ("unknown", 12, "gpu-7", 1),
        ),
    ],
    ids=["hydra-proxies-under-srun", "fatal-then-rank-and-host"],
)
def test_b18_hydra_over_srun_reads_no_task_as_a_rank(
    tmp_path: Path, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # no Hydra tag: srun starts the program itself, its task is the rank
        ("srun: error: cn-1: task 3: Exited with exit code 7\n", ("exit_code", 3, "cn-1", 1)),
        # a detail line that names a rank and no host says less: the report stays the first cause
        (
            "ERROR: worker could not open its chunk, giving up\n"
            "--> rank=12, loss=0.3\n"
            "srun: error: gpu-1: task 0: Exited with exit code 7\n",
            ("exit_code", 0, "gpu-1", 3),
        ),
    ],
    ids=["srun-alone", "rank-without-host"],
)
def test_b18_near_misses_keep_the_report(
    tmp_path: Path, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # slurmstepd's NODE FAILURE names its own node, which survived: the lost one is not said
        (
            "step 10\nslurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO NODE "
            "FAILURE ***\n",
            ("node_fail", None, 2),
        ),
        # ... also behind a prefix that names the same survivor
        (
            "slurmstepd-cn1: error: *** STEP 77.0 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO NODE "
            "FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n",
            ("node_fail", None, 1),
        ),
        # srun says which node it lost: that one
        (
            "srun: error: Node failure on cn4\n"
            "slurmstepd: error: *** STEP 77.0 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO NODE "
            "FAILURE, SEE SLURMCTLD LOG FOR DETAILS ***\n",
            ("node_fail", "cn4", 1),
        ),
    ],
    ids=["stepd-alone", "stepd-prefixed", "srun-names-the-lost-node"],
)
def test_a_node_failure_names_the_lost_node_never_the_survivor_that_said_it(
    tmp_path: Path, text: str, want: tuple[str, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.node, first.evidence[0].line) == want
    assert "cn1" not in first.advice


def test_slurmstepd_still_names_its_node_for_a_time_limit(tmp_path: Path) -> None:
    """A time limit ends the job where slurmstepd runs: its node is the job's (near miss)."""
    log = tmp_path / "x.log"
    log.write_text(
        "slurmstepd: error: *** JOB 77 ON cn1 CANCELLED AT 2024-01-02T03:04:05 DUE TO TIME LIMIT ***\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.node) == ("time_limit", "cn1")


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # HIP's own error code for a GPU out of memory, as a program's check prints it (AMD GPUs)
        (
            "GPUassert: hipErrorOutOfMemory src/neighbor_lists_gpu.cu 336\n"
            "srun: error: nid006914: task 3: Exited with exit code 1\n",
            ("cuda_oom", 3, "nid006914", 1),
        ),
        # Go's errno string, lower case, after the failed call (Apptainer's FATAL line)
        (
            "INFO:    Converting SIF file to temporary sandbox...\n"
            "FATAL:   while extracting /h/a.sif: root filesystem extraction failed: failed to copy content "
            "in staging file: write /tmp/rootfs-6/archive-2: no space left on device\n",
            ("disk_full", None, None, 2),
        ),
    ],
)
def test_b34_gpu_memory_and_full_disk_in_other_runtimes_words(
    tmp_path: Path, text: str, want: tuple[str, int | None, str | None, int]
) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node, first.evidence[0].line) == want


@pytest.mark.parametrize(
    "text",
    [
        # a HIP error that is not memory, and a sentence that only names the words
        "GPUassert: hipErrorInvalidValue src/neighbor_lists_gpu.cu 336\n",
        "INFO:    the sandbox check found no space left on device limits to apply\n",
    ],
)
def test_b34_near_misses_are_no_gpu_memory_or_full_disk(tmp_path: Path, text: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    assert all(f.cls not in ("cuda_oom", "disk_full") for f in triage_files([log]).findings)


def _bhist(record: str) -> list[str]:
    """A record as `bhist -l` writes it: 79 characters, then the rest under 21 spaces, 58 a line."""
    lines, record = [record[:79]], record[79:]
    while record:
        lines, record = [*lines, " " * 21 + record[:58]], record[58:]
    return lines


def test_b34_lsf_reason_cut_by_bhist_is_read_whole(tmp_path: Path) -> None:
    lines = ["Job <194560>, User <tgooding>, Project <default>, Command <hostname>"]
    lines += _bhist(
        "Tue Jul 30 21:43:38: Submitted from host <c650mnp03>, to Queue <bbq>, CWD </var/log/ibm/csm>, "
        "Re-runnable;"
    )
    # the reason's word cut where the width falls: `TERM_EXTE` / `RNAL_SIGNAL`
    lines += _bhist(
        "Tue Jul 30 21:43:41: Signal <KILL> sent by <u1>; Exited by LSF signal TERM_EXTERNAL_S"
        "IGNAL. The CPU time used is 0.0 seconds;"
    )
    assert any(line.endswith("TERM_EXTE") for line in lines)
    log = tmp_path / "x.log"
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.evidence[0].line) == ("signal", 4)


def test_b34_an_indented_line_after_a_long_one_is_no_lsf_record(tmp_path: Path) -> None:
    # near miss: one line of 79 characters before an indented one is no layout: nothing is joined
    head = "Epoch 3 done; the loss went down, the run goes on, then an error: TERM_EXTE".ljust(79, ".")
    log = tmp_path / "x.log"
    log.write_text(head + "\n" + " " * 21 + "RNAL_SIGNAL received\n", encoding="utf-8")
    assert all(f.cls != "signal" for f in triage_files([log]).findings)


@pytest.mark.parametrize(
    ("text", "summary", "advice"),
    [
        # execve's own reason is said: a file that is there but not executable is no missing file
        (
            "slurmstepd: error: execve(): train.sh: Permission denied\n"
            "srun: error: node05: task 0: Exited with exit code 13\n",
            "train.sh: permission denied",
            "not executable",
        ),
        (
            "slurmstepd: error: execve(): train.sh: No such file or directory\n"
            "srun: error: node05: task 0: Exited with exit code 2\n",
            "train.sh: no such file or directory",
            "PATH",
        ),
        # a full disk in torch's shared-memory file is the node's /dev/shm, not a file system's quota
        (
            "RuntimeError: unable to write to file </torch_4242_1234567>: No space left on device (28)\n",
            "No space left on device",
            "shared memory (/dev/shm)",
        ),
        (
            "OSError: [Errno 28] No space left on device: '/scratch/run1/ckpt.pt'\n",
            "No space left on device",
            "quota",
        ),
    ],
)
def test_the_finding_says_what_the_line_says(tmp_path: Path, text: str, summary: str, advice: str) -> None:
    log = tmp_path / "x.log"
    log.write_text(text, encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert summary in first.summary
    assert advice in (first.advice or "")


def test_a_collective_librarys_failed_call_on_a_build_without_the_gpus_code_is_no_network_fault(
    tmp_path: Path,
) -> None:
    # RCCL's `Cuda failure 'invalid kernel file'` (a build without the GPU's gfx target): NCCL's
    # class, with the build's advice, not the network's
    log = tmp_path / "x.log"
    log.write_text("n1:1234:1300 [0] enqueue.cc:1512 NCCL WARN Cuda failure 'invalid kernel file'\n")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.action) == ("nccl_error", "fix_spec_or_script")
    assert "architecture" in first.advice
    # near miss: another failed call keeps the network's advice
    log.write_text("n1:1234:1300 [0] enqueue.cc:1512 NCCL WARN Cuda failure 'unspecified launch failure'\n")
    first = triage_files([log]).findings[0]
    assert "architecture" not in first.advice


def test_a_bind_to_port_0_that_fails_is_no_port_a_job_chose(tmp_path: Path) -> None:
    # Open MPI's TCP transport asks the kernel for any free port (`:0`): none left on the node
    log = tmp_path / "ompi.out"
    log.write_text(
        "[amg-29][[0,0],2620][btl_tcp_endpoint.c:730:mca_btl_tcp_endpoint_start_connect] bind on local "
        "address (10.44.108.3:0) failed: Address already in use (98)\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.rank, first.node) == ("port_in_use", 2620, "amg-29")
    assert "ip_local_port_range" in first.advice
    # near miss: a rendezvous port taken is the usual advice
    log.write_text(
        "torch.distributed.DistNetworkError: The server socket has failed to bind to [::]:29500 "
        "(errno: 98 - Address already in use).\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert first.cls == "port_in_use"
    assert "ip_local_port_range" not in first.advice
    assert "MASTER_PORT" in first.advice


def test_a_slurm_command_without_its_configuration_is_refused_and_said_so(tmp_path: Path) -> None:
    log = tmp_path / "submit.err"
    log.write_text(
        "sbatch: error: s_p_parse_file: unable to status file /etc/slurm/slurm.conf: No such file or "
        "directory, retrying in 1sec up to 60sec\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.code) == ("slurm_refused", "S532")
    assert "could not read Slurm's configuration" in first.summary
    # near miss: a program's own words about a file it cannot stat are no Slurm command's
    log.write_text("loader: unable to status file /data/x.bin: No such file or directory\n", encoding="utf-8")
    assert all(f.code != "S532" for f in triage_files([log]).findings)


def test_nccls_invalid_usage_is_the_programs_call_not_the_network(tmp_path: Path) -> None:
    log = tmp_path / "nccl.out"
    log.write_text(
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:911, invalid usage, "
        "NCCL version 2.7.8\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.action) == ("nccl_error", "fix_program")
    assert "set_device" in first.advice
    # near miss: a system error is the network's
    log.write_text(
        "RuntimeError: NCCL error in: /pytorch/torch/lib/c10d/ProcessGroupNCCL.cpp:911, unhandled system "
        "error, NCCL version 2.7.8\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert first.cls == "nccl_error"
    assert "set_device" not in first.advice


def test_c10s_warning_that_cuda_could_not_start_is_read_as_torchs_own(tmp_path: Path) -> None:
    # c10's TORCH_WARN from C++, not Python's UserWarning: `[W CUDAFunctions.cpp:108] Warning: CUDA
    # initialization: … Error 802: system not yet initialized` (the node's GPUs not ready)
    log = tmp_path / "slurm-1.out"
    log.write_text(
        "[W CUDAFunctions.cpp:108] Warning: CUDA initialization: Unexpected error from "
        "cudaGetDeviceCount(). Error 802: system not yet initialized (function operator())\n",
        encoding="utf-8",
    )
    first = triage_files([log]).findings[0]
    assert (first.cls, first.code) == ("gpu_error", "G310")
    # near miss: c10's other warnings are no CUDA failure
    log.write_text("[W CUDAFunctions.cpp:108] Warning: CUDA caching allocator is slow\n", encoding="utf-8")
    assert all(f.code != "G310" for f in triage_files([log]).findings)


def test_a_collectors_host_before_the_rank_tag_is_that_ranks_node() -> None:
    from jobc.jobs.labels import parse

    line = parse("2025-03-27 17:31:09.952  gpu-23 [rank1]:[E327 09:31:09.977 ProcessGroupNCCL.cpp:2168] x")
    assert (line.node, line.rank) == ("gpu-23", 1)
    # near miss: a word after the time that is no host, or no rank tag after it, names no node
    assert parse("2025-03-27 17:31:09.952 Loading [rank1]: x").node is None
    assert parse("2025-03-27 17:31:09.952  gpu-23 started").node is None


@pytest.mark.parametrize(
    ("what", "cls", "confidence"),
    [("initialization error", "gpu_error", "medium"), ("out of memory", "cuda_oom", "high")],
)
def test_a_cuda_failure_nccl_reports_is_said_for_sure_only_when_it_is_memory(
    tmp_path: Path, what: str, cls: str, confidence: str
) -> None:
    """NCCL's `Cuda failure '…'`: the CUDA error's class; a failed CUDA call NCCL made reads like
    NCCL's own failure, so only the unambiguous out-of-memory is said for sure."""
    log = tmp_path / "x.log"
    log.write_text(f"gpu-1:2918:4483 [4] init.cc:263 NCCL WARN Cuda failure '{what}'\n", encoding="utf-8")
    first = triage_files([log]).findings[0]
    assert (first.cls, first.confidence) == (cls, confidence)


def test_a_vllm_workers_tensor_parallel_index_is_its_rank() -> None:
    from jobc.jobs.labels import parse

    assert parse("\x1b[1;36m(VllmWorker TP4 pid=2217108)\x1b[0;0m ERROR 08-17 17:51:23 x").rank == 4
    # near misses: with another parallel group named too the index is no rank; nor is another
    # actor's word
    assert parse("(VllmWorker PP1 TP4 pid=3) ERROR x").rank is None
    assert parse("(RayWorker TP4 pid=3) x").rank is None
