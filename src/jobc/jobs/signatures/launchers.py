"""The launchers' own reports: torchrun (torch.distributed.elastic), DeepSpeed's launcher,
PyTorch Lightning, Ray (the actors vLLM and Ray Train run their workers in). Formats from
torch/distributed/elastic/multiprocessing/api.py and errors/, deepspeed/launcher/launch.py,
lightning/fabric/plugins/environments and lightning's SIGTERM handling, and Ray's worker-death
and OOM-killer messages (ray/exceptions.py, raylet's node_manager.cc)."""

from __future__ import annotations

import re

from jobc.jobs.signatures import Signature

SIGNATURES: tuple[Signature, ...] = (
    Signature(
        "L201",
        "torchrun-worker-failed",
        "exit_code",
        "cause",
        ("(exitcode",),
        re.compile(
            r"failed \(exitcode: (?P<exit_code>-?[0-9]{1,18})\) local_rank: (?P<local_rank>[0-9]{1,9})"
            r"(?: \(pid: (?P<pid>[0-9]{1,10})\))?"
        ),
        "torchrun's agent reporting a worker that ended; a negative exit code is the signal that ended it",
        "E0412 10:31:02.123000 8123 torch/distributed/elastic/multiprocessing/api.py:869] failed "
        "(exitcode: -9) local_rank: 2 (pid: 8130) of binary: /usr/bin/python3",
        "torch/distributed/elastic/multiprocessing/api.py:869] worker (exitcode: 0) finished",
        "torch.distributed.elastic (multiprocessing/api.py)",
        ("exit_code", "local_rank"),
        report=True,
    ),
    Signature(
        "L233",
        "elastic-child-failed",
        "exit_code",
        "cause",
        ("FAILED (exitcode",),
        re.compile(
            r"Child process (?P<pid>[0-9]{1,10}) \(local_rank (?P<local_rank>[0-9]{1,9})\) FAILED "
            r"\(exitcode (?P<exit_code>-?[0-9]{1,18})\)"
        ),
        "torch.distributed.run's agent (torch 1.9) reporting a worker that ended without writing an "
        "error file, under its `CHILD PROCESS FAILED WITH NO ERROR_FILE` banner",
        "CHILD PROCESS FAILED WITH NO ERROR_FILE\nChild process 8130 (local_rank 2) FAILED (exitcode 1)\n"
        "Error msg: Process failed with exitcode 1",
        "Child process 8130 (local_rank 2) finished (exitcode 0)",
        "torch.distributed.elastic 1.9 (multiprocessing/errors/__init__.py, _no_error_file_warning_msg)",
        ("pid", "local_rank", "exit_code"),
        report=True,
    ),
    Signature(
        "L234",
        "paddle-container-failed",
        "exit_code",
        "cause",
        ("Container rank",),
        re.compile(
            r"Container rank (?P<rank>[0-9]{1,9}) status failed cmd \[[^\n]{0,1000}?\] code "
            r"(?P<exit_code>-?[0-9]{1,9})\b"
        ),
        "PaddlePaddle's launcher (`python -m paddle.distributed.launch`) reporting the container (a "
        "worker process) of a global rank that ended with a non-zero code; its own output is in the "
        "workerlog it names",
        "LAUNCH ERROR 2022-11-21 02:35:54,385 Container failed !!!\nContainer rank 3 status failed cmd "
        "['/usr/bin/python3', '-u', 'train.py'] code 1 log log/workerlog.3",
        "Container rank 3 status running cmd ['/usr/bin/python3', '-u', 'train.py'] code 0 log "
        "log/workerlog.3",
        "PaddlePaddle (python/paddle/distributed/launch/job/container.py, Container.__str__)",
        ("rank", "exit_code"),
        report=True,
    ),
    Signature(
        "L202",
        "torchrun-root-cause",
        "exit_code",
        "cause",
        ("Root Cause",),
        re.compile(r"Root Cause \(first observed failure\):"),
        "torchrun's ChildFailedError table: the first failed worker's global rank, host, exit code "
        "and error file (read with the lines that follow)",
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-11-02_21:03:02\n"
        "  host      : as01r1b03\n  rank      : 5 (local_rank: 1)\n  exitcode  : -11 (pid: 2414397)\n"
        "  error_file: <N/A>\n  traceback : Signal 11 (SIGSEGV) received by PID 2414397",
        "Root Cause analysis is left to the reader",
        "torch.distributed.elastic (multiprocessing/errors/__init__.py, ChildFailedError.format_msg)",
        report=True,
    ),
    Signature(
        "L203",
        "torchrun-agent-signal",
        "signal",
        "cause",
        ("SignalException", "death signal"),
        re.compile(
            r"SignalException: Process (?P<pid>[0-9]{1,10}) got signal: (?P<signum>[0-9]{1,3})|"
            # the agent's own warning as it forwards the signal to its workers
            r"Received (?P<signum2>[0-9]{1,3}) death signal, shutting down workers"
        ),
        "torchrun's agent itself receiving a signal (Slurm's SIGTERM at a time limit, a preemption, "
        "scancel; SIGHUP when the terminal or session that started it went away)",
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 4213 got signal: 15",
        "SignalException handler installed",
        "torch.distributed.elastic (multiprocessing/api.py)",
        ("signum",),
    ),
    Signature(
        "L204",
        "deepspeed-worker-exit",
        "exit_code",
        "cause",
        ("ERROR", "return code"),
        re.compile(
            # the launcher prints the worker's command as a Python list: `['python', '-u', …,
            # '--local_rank=1', …] exits with return code = -11` (an issue's title that only
            # repeats the words is not its report)
            r"(?:--local_rank=(?P<local_rank>[0-9]{1,9})[^\]]{0,4000})?\] exits with return code = "
            r"(?P<exit_code>-?[0-9]{1,18})"
        ),
        "DeepSpeed's launcher reporting a worker's exit; a negative code is the signal that ended it",
        "[2023-07-10 04:26:35,999] [ERROR] [launch.py:324:sigkill_handler] ['/usr/bin/python3', '-u', "
        "'train.py', '--local_rank=1', '--deepspeed', 'ds.json'] exits with return code = -11",
        "[2023-07-10 04:26:05,876] [INFO] [launch.py:318:sigkill_handler] Killing subprocess 94984",
        "DeepSpeed (deepspeed/launcher/launch.py, sigkill_handler)",
        ("exit_code", "local_rank"),
        report=True,
    ),
    Signature(
        "L206",
        "pdsh-ssh-exit",
        "exit_code",
        "cause",
        ("ssh exited with exit code",),
        re.compile(
            # (pdsh's `pdsh@host: node: ` is a prefix the labellers read; the node is the second)
            r"(?:pdsh@[^:\s]{1,200}: (?P<node>[^:\s]{1,200}): )?"
            r"ssh exited with exit code (?P<exit_code>[0-9]{1,9})"
        ),
        "pdsh (DeepSpeed's multi-node launcher) reporting that the command on a node exited",
        "pdsh@gpu-node01: gpu-node02: ssh exited with exit code 1",
        "pdsh@gpu-node01: gpu-node02: connected",
        "pdsh (as DeepSpeed's runner starts it for multi-node jobs)",
        ("node", "exit_code"),
        report=True,
    ),
    Signature(
        "L207",
        "spawn-process-ended",
        "exit_code",
        "cause",
        ("terminated with",),
        re.compile(
            r"process (?P<local_rank>[0-9]{1,9}) terminated with (?:signal (?P<signal>SIG[A-Z0-9]{2,8})|"
            r"exit code (?P<exit_code>-?[0-9]{1,18}))"
        ),
        "torch.multiprocessing.spawn reporting a worker process that ended: its index is the one "
        "spawn passed it, its place among the processes spawn started on its node (a local rank, "
        "not a global one); a signal is what ended it",
        "torch.multiprocessing.spawn.ProcessExitedException: process 1 terminated with signal SIGKILL",
        "process 1 terminated normally",
        "PyTorch (torch/multiprocessing/spawn.py, ProcessContext.join)",
        ("local_rank", "signal", "exit_code"),
        report=True,
    ),
    Signature(
        "L248",
        "lightning-child-ended",
        "exit_code",
        "cause",
        ("Forcefully terminating all other processes",),
        re.compile(
            # Lightning's watcher of the processes its launcher started for the node's other ranks
            # (its `[rank: N]` prefix numbers them from 1 on the node); a negative code is the
            # signal that ended the child (Popen's returncode)
            r"Child process with PID [0-9]{1,10} terminated with code (?P<exit_code>-?[0-9]{1,9})\. "
            r"Forcefully terminating all other processes"
        ),
        "PyTorch Lightning's launcher seeing one of the processes it started for the node's ranks end "
        "with a non-zero code (negative: the signal that ended it), and ending the others",
        "[rank: 1] Child process with PID 23026 terminated with code 1. Forcefully terminating all "
        "other processes to avoid zombies 🧟",
        "Child process with PID 23026 started",
        "PyTorch Lightning (lightning/fabric/strategies/launchers/subprocess_script.py, "
        "_ChildProcessObserver: `Child process with PID {pid} terminated with code {returncode}. "
        "Forcefully terminating all other processes to avoid zombies`)",
        ("exit_code",),
        report=True,
    ),
    Signature(
        "L232",
        "spawn-process-raised",
        "exception",
        "cause",
        ("terminated with the following error",),
        re.compile(r"-- Process (?P<local_rank>[0-9]{1,9}) terminated with the following error:"),
        "torch.multiprocessing.spawn's report of a worker process that raised (the message of its "
        "ProcessRaisedException, older torch's bare Exception): the worker's own traceback follows, "
        "and its exception is the failure; the index is spawn's, a local rank",
        "torch.multiprocessing.spawn.ProcessRaisedException:\n\n"
        "-- Process 2 terminated with the following error:\n"
        "Traceback (most recent call last):",
        "Process 2 terminated with exit code 1",
        "PyTorch (torch/multiprocessing/spawn.py, ProcessContext.join)",
        ("local_rank",),
        report=True,
    ),
    Signature(
        "L208",
        "launcher-subprocess-ended",
        "exit_code",
        "cause",
        ("Command '",),
        re.compile(
            r"Command '[^\n]{0,4000}?' (?:died with <Signals\.(?P<signal>SIG[A-Z0-9]{2,8}): [0-9]{1,3}>|"
            r"returned non-zero exit status (?P<exit_code>[0-9]{1,9}))"
        ),
        "a launcher's CalledProcessError for a worker it started (torch.distributed.launch, DeepSpeed's "
        "and accelerate's launchers): the worker's end, reported; a signal is what ended it",
        "subprocess.CalledProcessError: Command '['/usr/bin/python3', '-u', 'train.py', "
        "'--local_rank=7']' died with <Signals.SIGSEGV: 11>.",
        "Command '['/usr/bin/python3', 'train.py']' started",
        "CPython (Lib/subprocess.py, CalledProcessError.__str__) as the launchers raise it",
        ("signal", "exit_code"),
        report=True,
    ),
    Signature(
        "L205",
        "received-sigterm",
        "signal",
        "cause",
        ("Received SIG", "SIGTERM"),
        re.compile(r"Received (?P<signal>SIG[A-Z0-9]{2,8})"),
        "a program or framework saying it received a signal (Lightning's `Received SIGTERM: 15`)",
        "[rank: 1] Received SIGTERM: 15",
        "[rank: 1] Registered SIGTERM handler",
        "PyTorch Lightning (lightning/pytorch/trainer/connectors/signal_connector.py)",
        ("signal",),
    ),
    Signature(
        "L230",
        "ray-process-died",
        "exit_code",
        "cause",
        ("died with exit code",),
        re.compile(
            # `ray start`'s check of the processes it started on its node, under `Ray processes
            # died unexpectedly:` (a negative code is the signal that ended it)
            r"(?P<what>(?:raylet|plasma_store|gcs_server|redis_server|raylet_monitor|log_monitor|"
            r"dashboard|monitor|reporter|dashboard_agent|runtime_env_agent) died with exit code "
            r"(?P<exit_code>-?[0-9]{1,4}))\b"
        ),
        "Ray's `ray start` reporting that a process it started on its node (the raylet, the GCS "
        "server, the plasma store) died; a negative code is the signal that ended it",
        "2020-06-10 13:18:20,848 ERROR scripts.py:450 --         raylet died with exit code -6",
        "2020-06-10 13:18:20,848 INFO scripts.py:450 -- a worker died with exit code 0 after its task",
        "Ray (python/ray/scripts/scripts.py, `ray start --block`'s and `ray start`'s process check)",
        ("what", "exit_code"),
        report=True,
    ),
    Signature(
        "L231",
        "ray-gcs-unreachable",
        "rendezvous",
        "cause",
        ("Failed to connect to GCS",),
        re.compile(
            r"(?P<what>Failed to connect to GCS at address (?P<endpoint>[A-Za-z0-9_.\-]{1,253}:[0-9]{1,5}) "
            r"within [0-9]{1,9} seconds)"
        ),
        "a Ray driver or node that could not reach the head's GCS (`ray.init(address=…)`, `ray start "
        "--address`): the head is not up at that address, or the network does not reach it, and the "
        "processes never joined",
        "[2025-02-16 16:05:55,537 E 350061 350061] gcs_rpc_client.h:179: Failed to connect to GCS at "
        "address 172.23.15.13:20000 within 5 seconds.",
        "[2025-02-16 16:05:55,537 I 350061 350061] gcs_client.cc:100: Connected to GCS at address "
        "172.23.15.13:20000",
        "Ray (src/ray/gcs/gcs_client/gcs_rpc_client.h)",
        ("what", "endpoint"),
    ),
    # (before L209: a worker the memory monitor killed is that kill, not a death without a word)
    Signature(
        "L210",
        "ray-oom-killer",
        "host_oom",
        "cause",
        (
            "Task was killed due to the node running low on memory",
            "Memory on the node",
            "Workers (tasks /",
            "IP: ",
            "ray-oom-prevention",
        ),
        re.compile(
            r"(?P<what>Task was killed due to the node running low on memory|"
            r"Memory on the node \(IP: |"
            # the message's end, after the table of the node's top memory users, which a paste (or
            # the job's truncated last logs) may keep alone: its advice names the OOM killer's
            r"Refer to the documentation on how to address the out of memory issue: "
            r"https://docs\.ray\.io/[^\s]{0,80}ray-oom-prevention|"
            r"Workers \(tasks / actors\) killed due to memory pressure \(OOM\)|"
            # the same, wrapped by a terminal right after `tasks /` (its node on a line after)
            r"Workers \(tasks /\s{0,4}$|"
            # the raylet message's end, which names the node (a wrapped paste puts it on a line
            # of its own)
            r"IP: [0-9A-Fa-f.:]{3,45}\) over the last time period)"
        ),
        "Ray's memory monitor killing a worker because the node's host memory ran low; the node is "
        "the IP Ray names",
        "ray.exceptions.OutOfMemoryError: Task was killed due to the node running low on memory.\n"
        "Memory on the node (IP: 10.1.2.3, ID: fc2befb2867c) where the task (pid=4331) was running "
        "was 59.49GB / 62.58GB (0.950744), which exceeds the memory usage threshold of 0.95.",
        "Memory on the node is plentiful (32 GB free)",
        "Ray (src/ray/raylet/node_manager.cc, the memory monitor's message)",
        ("what",),
    ),
    Signature(
        "L209",
        "ray-worker-died",
        "signal",
        "cause",
        (
            "ActorDiedError",
            "RayActorError",
            "Worker exit type",
            "The actor died",
            "A worker died or was killed",
        ),
        re.compile(
            r"(?P<what>The actor died unexpectedly before finishing this task|"
            r"The actor is dead because its worker process has died|"
            r"A worker died or was killed while executing a task by an unexpected system error|"
            r"RayTaskError\((?:ActorDiedError|RayActorError)\))"
        ),
        "Ray saying a worker process (an actor) died without a word (its connection ended: `End of "
        "file`): which signal is not said, but each cause Ray lists is one (the OOM killer's or `ray "
        "stop --force`'s SIGKILL, a crash's SIGSEGV); an actor that raised says so otherwise; the node "
        "is the IP Ray names",
        "ray.exceptions.RayTaskError(ActorDiedError): ray::TaskRunner.run() (pid=18948, ip=10.1.2.3, "
        "actor_id=2dbcd32867b5c511f131cbb201000000)",
        "ray.exceptions.RayTaskError(ValueError): ray::TaskRunner.run() (pid=18948, ip=10.1.2.3)",
        "Ray (python/ray/exceptions.py; the worker's exit detail from the raylet)",
        ("what",),
        strength=2,  # a process's end, reported by another: which signal is not said
    ),
    Signature(
        "L222",
        "ray-node-died",
        "node_fail",
        "cause",
        ("because its node has died", "has been marked dead because"),
        re.compile(
            # (python/ray/exceptions.py's ActorDiedError says `The actor died because …`)
            r"(?P<what>The actor (?:is dead|died) because its node has died|"
            # (Ray 1.x says `and ip: X`; later releases `and address: X and node name: NAME`)
            # (Ray before 1.0: `The node with client ID HEX has been marked dead because the monitor
            # has missed too many heartbeats from it`)
            r"(?:The node with (?:node|client) (?:id|ID): [0-9a-f]{1,64} (?:and (?:address|ip): "
            r"(?P<node>[0-9A-Fa-f.:]{3,45}) (?:and node name: \S{1,200} )?)?)?"
            r"has been marked dead because the (?:detector|monitor) has missed too many heartbeats)"
        ),
        "Ray saying an actor's node died (its raylet stopped answering the heartbeats: the machine "
        "went down, or lost the network): the node is the address the GCS names, or after "
        "ActorDiedError's fields the IP they name",
        "ray.exceptions.RayActorError: The actor died unexpectedly before finishing this task.\n"
        "\tclass_name: RayTrainWorker\n\tpid: 6420\n\tip: 10.72.56.3\n"
        "The actor is dead because its node has died. Node Id: 677df2a9020c5db45e755b0078c469e2ce51e05e",
        "The actor is dead because its worker process has died. Worker exit type: SYSTEM_ERROR",
        "Ray (src/ray/gcs/gcs_server/gcs_actor_manager.cc, gcs_health_check_manager.cc)",
        ("what", "node"),
    ),
    Signature(
        "L249",
        "mpirun-execution-timeout",
        "time_limit",
        "cause",
        ("time limit for job execution has been reached",),
        re.compile(r"The user-provided time limit for job execution has been reached"),
        "Open MPI's mpirun ending the job at the execution time limit its user gave it (`--timeout`, "
        "MPIEXEC_TIMEOUT), whatever the scheduler's time limit: the seconds are on the line after",
        "The user-provided time limit for job execution has been reached:\n\n  Timeout: 180 seconds\n\n"
        "The job will now be aborted.  Please check your code and/or",
        "adjust/remove the job execution time limit (as specified by --timeout",
        "Open MPI (orte/tools/orterun/help-orterun.txt and prrte's help-prun.txt, [timeout]: `The "
        "user-provided time limit for job execution has been reached:` then `Timeout: %d seconds`)",
    ),
    Signature(
        "L211",
        "mpirun-process-ended",
        "exit_code",
        "cause",
        ("noticed that process rank",),
        re.compile(
            # a paste may redact the PID and the node (`PID xxxxxx on node xxxxxxxx`): the rank is still
            # read, and the identity stage names no node for a redacted one; prose that quotes it
            # may begin a sentence with it (`Mpirun noticed that …`)
            r"(?<![\w.-])(?:[Mm]pirun|mpiexec|prterun|prte) noticed that process rank "
            r"(?P<rank>[0-9]{1,9}) with PID "
            r"[^\s]{1,20} on node (?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}|<[^>\s]{0,40}>) exited on"
            r"(?: signal (?P<signum>[0-9]{1,3}))?"
        ),
        "Open MPI's mpirun reporting the first process that ended: its MPI rank (the global rank), "
        "node and signal (a wrapped line may have lost the signal)",
        "mpirun noticed that process rank 3 with PID 21183 on node gpu-node07 exited on signal 9 (Killed).",
        "mpirun noticed that the job aborted, but has no info as to the process that caused that situation.",
        "Open MPI (orte/tools/orterun/help-orterun.txt; prte's help-prterun.txt)",
        ("rank", "node", "signum"),
        report=True,
    ),
    Signature(
        "L227",
        "pals-rank-ended",
        "exit_code",
        "cause",
        ("died from signal", "exited with code"),
        re.compile(
            # HPE PALS's mpiexec (Cray EX: Polaris, Aurora, Frontier's PALS systems) reports each
            # rank that ended badly on a line of its own, behind the node it ran on
            r"^(?:(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}): )?rank (?P<rank>[0-9]{1,9}) "
            r"(?:died from signal (?P<signum>[0-9]{1,3})(?: and dumped core)?|"
            r"exited with code (?P<exit_code>[1-9][0-9]{0,2}))$"
        ),
        "HPE PALS's mpiexec reporting a rank that ended: its node, its global rank and the signal "
        "that ended it (or its exit code)",
        "x3102c0s25b1n0.hsn.cm.polaris.alcf.anl.gov: rank 96 died from signal 11 and dumped core",
        "x3102c0s25b1n0.hsn.cm.polaris.alcf.anl.gov: rank 96 died from signal 11 handler setup failure "
        "in the test suite",
        "HPE PALS (mpiexec on Cray EX systems)",
        ("node", "rank", "signum", "exit_code"),
        report=True,
    ),
    Signature(
        "L223",
        "mpd-exit-status",
        "exit_code",
        "cause",
        ("xit status of rank",),
        re.compile(
            r"[Ee]xit status of rank (?P<rank>[0-9]{1,9}): "
            r"(?:killed by signal (?P<signum>[0-9]{1,3})|return code (?P<exit_code>[1-9][0-9]{0,2}))"
        ),
        "MPICH2's mpd (its mpiexec) reporting how the rank that caused the collective abort ended: "
        "the signal that killed it, or its return code",
        "rank 0 in job 1  node07_65327   caused collective abort of all ranks\n"
        "  exit status of rank 0: killed by signal 9",
        "  exit status of rank 0: return code 0",
        "MPICH2 mpd (src/pm/mpd/mpiexec.py)",
        ("rank", "signum", "exit_code"),
        report=True,
    ),
    Signature(
        "L225",
        "mpiexec-user-interrupt",
        "cancelled",
        "cause",
        ("Sending Ctrl-C to processes as requested",),
        re.compile(r"(?P<what>Sending Ctrl-C to processes as requested)"),
        "MPICH's or Intel MPI's mpiexec (Hydra) passing the user's Ctrl-C to the processes: the run "
        "was interrupted by its user, and the SIGINT exits Hydra reports after it are that interrupt's",
        "^C[mpiexec@c112-002] Sending Ctrl-C to processes as requested\n"
        "[mpiexec@c112-002] Press Ctrl-C again to force abort",
        "[mpiexec@c112-002] Press Ctrl-C again to force abort",
        "MPICH Hydra (src/pm/hydra/mpiexec/mpiexec.c, its SIGINT handler)",
        ("what",),
    ),
    Signature(
        "L228",
        "hydra-execvp-enoent",
        "missing_program",
        "cause",
        ("execvp error on file",),
        re.compile(
            # Hydra's proxy (MPICH's, Intel MPI's) could not start a program on its node: the
            # proxy's tag `[proxy:P:N@host]` names the node
            r"(?:\[proxy:[0-9]{1,6}:[0-9]{1,6}@(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})\] )?"
            r"HYD(?:U_create_process|_spawn) \([^()\n]{0,300}\): (?P<what>execvp error on file "
            r"(?P<program>[^\s()]{1,300}) \(No such file or directory\))"
        ),
        "MPICH's or Intel MPI's Hydra proxy failing to start a program that does not exist on its node "
        "(a path not installed there, a variable left unexpanded); the ranks it started are killed after",
        "[proxy:1:1@node2] HYD_spawn (../../../../../src/pm/i_hydra/libhydra/spawn/intel/hydra_spawn.c:117): "
        "execvp error on file FOUNDED_MLSL_ROOT/intel64/bin/ep_server (No such file or directory)",
        "[proxy:0:0@node2] HYDU_create_process (utils/launch/launch.c:75): execvp error on file "
        "./train (Permission denied)",
        "MPICH Hydra (utils/launch/launch.c); Intel MPI's Hydra (libhydra/spawn/intel/hydra_spawn.c)",
        ("node", "program", "what"),
    ),
    Signature(
        "L212",
        "hydra-bad-termination",
        "exit_code",
        "cause",
        ("RUNNING AT", "EXIT CODE: "),
        re.compile(
            # (a host given as `user@host` in the hosts file is shown so: the node is the host)
            r"^= {1,8}(?:(?:RANK (?P<rank>[0-9]{1,9}) )?PID [0-9]{1,10} RUNNING AT "
            r"(?:[A-Za-z0-9_.\-]{1,64}@)?(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})|"
            # older Hydra (MPICH 3.0, Intel MPI 4 and 5): the banner without the PID line
            r"EXIT CODE: (?P<exit_code>[0-9]{1,4})\s*$)"
        ),
        "MPICH's or Intel MPI's mpiexec (Hydra) reporting a process that ended badly: its node (and "
        "rank), with the exit code or signal on the lines that follow (older Hydra's banner has no "
        "PID line: its `EXIT CODE:` alone)",
        "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
        "=   RANK 3 PID 18452 RUNNING AT node07\n"
        "=   KILLED BY SIGNAL: 9 (Killed)",
        "=   CLEANING UP REMAINING PROCESSES",
        "MPICH Hydra (src/pm/hydra, the BAD TERMINATION banner)",
        ("rank", "node", "exit_code"),
        report=True,
    ),
    Signature(
        "L214",
        "openmpi-process-signal",
        "signal",
        "cause",
        ("Signal: ",),
        re.compile(r"^Signal: (?P<what>[A-Za-z][A-Za-z ]{0,40}) \((?P<signum>[0-9]{1,3})\)\s*$"),
        "Open MPI's signal handler in a process (`[host:pid] *** Process received signal ***`, then "
        "the signal and a backtrace): the node is the host of the prefix",
        "[c4140-02:236649] *** Process received signal ***\n"
        "[c4140-02:236649] Signal: Segmentation fault (11)\n"
        "[c4140-02:236649] Signal code: Address not mapped (1)",
        "[c4140-02:236649] Signal code: Address not mapped (1)",
        "Open MPI (opal/util/stacktrace.c, the handler's report)",
        ("what", "signum"),
    ),
    Signature(
        "L215",
        "submitit-preempted",
        "preempted",
        "cause",
        ("Caught signal",),
        re.compile(
            r"Caught signal (?P<signal>SIG[A-Z0-9]{2,8}) on (?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}): "
            r"this job is (?P<what>preempted|timed-out)"
        ),
        "submitit's handler saying Slurm's warning signal reached the job: preempted (or timed out), it "
        "checkpoints and requeues",
        "submitit WARNING (2022-08-12 02:06:11,453) - Caught signal SIGUSR2 on gpu-node3: this job is "
        "preempted.",
        "submitit WARNING (2022-08-12 02:06:12,299) - Bypassing signal SIGCONT",
        "submitit (submitit/core/job_environment.py, SignalHandler)",
        ("signal", "node", "what"),
    ),
    Signature(
        "L226",
        "submitit-signal-bypassed",
        "signal",
        "context",
        ("Bypassing signal",),
        re.compile(r"Bypassing signal (?P<signal>SIG[A-Z0-9]{2,8})\b"),
        "submitit's handler saying a signal reached the job and was let pass (SIGTERM, and the SIGCONT "
        "scancel sends with it): how the job's end reached the program, shown beside that end",
        "submitit WARNING (2022-03-31 21:25:40,084) - Bypassing signal SIGCONT\n"
        "slurmstepd: error: *** STEP 71606.0 ON kilonova CANCELLED AT 2022-03-31T21:25:40 ***",
        "submitit WARNING (2022-08-12 02:06:11,453) - Caught signal SIGUSR2 on gpu-node3: this job is "
        "preempted.",
        "submitit (submitit/core/job_environment.py, SignalHandler.bypass)",
        ("signal",),
    ),
    Signature(
        "L224",
        "kubectl-exec-exit",
        "exit_code",
        "cause",
        ("command terminated with exit code",),
        re.compile(r"^command terminated with exit code (?P<exit_code>[0-9]{1,3})$"),
        "kubectl exec reporting that the command it ran in a pod ended with a non-zero code (MPI "
        "operators start each worker's daemon through it: 137 is a SIGKILL, the pod's OOM killer "
        "or its eviction)",
        "command terminated with exit code 137",
        "the command terminated normally",
        "kubectl (staging/src/k8s.io/kubectl/pkg/cmd/exec, `command terminated with exit code %d`)",
        ("exit_code",),
        report=True,
    ),
    Signature(
        "L216",
        "colossalai-run-failed",
        "exit_code",
        "cause",
        ("failed to run torchrun", "failed to run"),
        re.compile(
            r"(?:Error: )?failed to run (?P<what>torchrun|python[0-9.]{0,4}|deepspeed)\b[^\n]{0,2000}? on "
            r"(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})(?:(?:,| is)(?:[^\n]{0,200}?\bexception: "
            r"(?P<exc>[^\n]{1,300}))?|$)"
        ),
        "ColossalAI's launcher (`colossalai run`) saying the command it started over ssh failed on a "
        "node; when its exception says the command could not be started at all (ssh refused it, the "
        "host did not answer), no exit code is reported: the exception's words name the class, or "
        "it is `unknown`",
        "Error: failed to run torchrun --nproc_per_node=8 --nnodes=2 --node_rank=1 train.py on GPU01, "
        "is localhost: False, exception: Encountered a bad command exit code!",
        "Launching torchrun on GPU01",
        "ColossalAI (colossalai/cli/launcher/multinode_runner.py, run.py)",
        ("what", "node", "exc"),
        report=True,
    ),
    Signature(
        "L217",
        "mpirun-cannot-execute",
        "missing_program",
        "cause",
        (
            "could not access or execute",
            "unable to launch the specified application",
            "unable to find the specified executable",
        ),
        re.compile(
            r"(?P<what>could not access or execute an executable|"
            r"unable to launch the specified application as it could not (?:access|find)|"
            # (orterun:executable-not-found: the program is on no directory of the node's PATH)
            r"unable to find the specified executable file)"
        ),
        "Open MPI's mpirun unable to start the program on a node: not found, or not executable there "
        "(the `Node:` and the first process rank of its report under it)",
        "mpirun was unable to launch the specified application as it could not access\n"
        "or execute an executable:",
        "mpirun launched the specified application on 4 nodes",
        "Open MPI (orte/tools/orterun/help-orterun.txt, orterun:executable-not-specified and friends)",
        ("what",),
    ),
    Signature(
        "L219",
        "container-executable-not-found",
        "missing_program",
        "cause",
        ("executable file not found", "not found in $PATH"),
        re.compile(
            r"(?:\"(?P<command>[^\"\n]{1,200})\"|`(?P<command2>[^`\n]{1,200})`): executable file not "
            r"found in \$PATH|executable file `(?P<command3>[^`\n]{1,200})` not found in \$PATH"
        ),
        "a container runtime (Apptainer, Singularity, Docker, Podman, runc, crun) that could not find "
        "the program to run inside the container: not installed in the image, or not on its PATH",
        'FATAL:   "bris": executable file not found in $PATH',
        'INFO:    "bris": executable file found in $PATH at /usr/local/bin/bris',
        "Go's os/exec (lp_unix.go: `exec: %q: executable file not found in $PATH`), as Apptainer and "
        "Singularity print it after `FATAL:`, and runc; crun's `executable file `%s` not found in $PATH`",
        ("command", "command2", "command3"),
    ),
    Signature(
        "L243",
        "container-start-failed",
        "exit_code",
        "cause",
        ("container creation failed", "could not open image", " uri: ", "root filesystem extraction failed"),
        re.compile(
            # after `FATAL:`, which the prefix stage reads as the line's level, or glued to the end
            # of another stream's line (a Go runtime's stack dump on the same terminal); a full
            # disk while unpacking the image is read as a full disk (P107)
            r"(?:^(?:FATAL: {1,6})?|\sFATAL: {1,6})(?![^\n]*(?:no space left on device|disk quota exceeded))"
            r"(?P<what>(?:container creation failed: |could not open image [^\n]{1,300}?: |"
            r"[Uu]nable to handle [^\n]{1,300}? uri: |"
            r"while extracting [^\n]{1,300}?: root filesystem extraction failed)[^\n]{0,500})"
        ),
        "Apptainer or Singularity unable to start the container (the image missing or unreadable, a "
        "bind path that does not exist, no loop device or user namespace on the node): the program "
        "never ran",
        "INFO:    Converting SIF file to temporary sandbox...\n"
        "FATAL:   container creation failed: mount /proc/self/fd/3->/var/lib/apptainer/mnt/session/rootfs "
        "error: while mounting image /proc/self/fd/3: failed to find loop device: could not attach image "
        "file to loop device: no loop devices available",
        "INFO:    container creation took 2.1 s",
        "Apptainer and Singularity (cmd/internal/cli, internal/pkg/runtime/engine: `FATAL:   container "
        "creation failed: %s`, `could not open image %s: %s`, `Unable to handle %s uri: %s`)",
        ("what",),
        strength=3,
    ),
    Signature(
        "L244",
        "mpirun-layout-refused",
        "exit_code",
        "cause",
        (
            "not enough slots available in the system",
            "more processes than the ppr for",
            "would result in binding more",
        ),
        re.compile(
            # Open MPI's help texts, each wrapped over several lines: its first line says it
            r"(?P<what>There are not enough slots available in the system to satisfy the "
            r"(?P<slots>[0-9]{1,7})|Your job has requested more processes than the ppr for|"
            r"A request was made to bind to that would result in binding more)"
        ),
        "Open MPI's mpirun refusing to start the job because the processes it was asked for do not "
        "fit the slots it has (the hostfile's or the batch system's allocation), the per-node count "
        "(`-npernode`, `--map-by ppr:`) or the cores to bind them to: no rank ran",
        "--------------------------------------------------------------------------\n"
        "There are not enough slots available in the system to satisfy the 8\n"
        "slots that were requested by the application:",
        "There are enough slots available in the system to satisfy the 8 slots",
        "Open MPI (orte/mca/rmaps/base/help-orte-rmaps-base.txt: not-enough-resources; "
        "rmaps/ppr/help-orte-rmaps-ppr.txt: ppr-too-many-procs; orte/mca/rtc/hwloc: "
        "`A request was made to bind to that would result in binding more`)",
        ("what", "slots"),
        strength=3,
    ),
    Signature(
        "L245",
        "launcher-ssh-failed",
        "exit_code",
        "cause",
        ("ssh: ",),
        re.compile(
            # OpenSSH's client as a launcher's remote agent (mpirun's rsh agent, pdsh, DeepSpeed's
            # multi-node runner) could not reach a node: the processes there never started
            r"^ssh: (?P<what>Could not resolve hostname (?P<target>[^\s:]{1,200}(?::[0-9]{1,5})?): "
            r"[^\n]{1,200}|connect to host (?P<target2>[^\s]{1,200}) port [0-9]{1,5}: [^\n]{1,200})"
        ),
        "ssh, as a launcher's way to start processes on other nodes, unable to reach a node (a name "
        "that does not resolve, a port that refuses or does not answer): nothing started there",
        "ssh: Could not resolve hostname localhost:3: Name or service not known\n"
        "--------------------------------------------------------------------------\n"
        "ORTE was unable to reliably start one or more daemons.",
        "ssh: connected to host node02 port 22",
        "OpenSSH (ssh.c: `ssh: Could not resolve hostname %s: %s`; sshconnect.c: `ssh: connect to host "
        "%s port %s: %s`)",
        ("what", "target", "target2"),
        strength=3,
    ),
    Signature(
        "L246",
        "orte-daemons-not-started",
        "exit_code",
        "cause",
        ("was unable to reliably start one or more daemons",),
        re.compile(r"(?P<launcher>ORTE|PRTE|PRRTE) was unable to reliably start one or more daemons"),
        "Open MPI's mpirun unable to start its daemons on the other nodes (their libraries or "
        "binaries missing there, no right to run there, no way back to mpirun): no rank ran",
        "ORTE was unable to reliably start one or more daemons.\nThis usually is caused by:",
        "ORTE started its daemons on 4 nodes",
        "Open MPI (orte/mca/plm/base/help-plm-base.txt: `ORTE was unable to reliably start one or "
        "more daemons`)",
        ("launcher",),
        strength=2,
    ),
    Signature(
        "L252",
        "tf-lame-workers",
        "node_fail",
        "cause",
        ("lame workers found",),
        re.compile(
            # TensorFlow's TPU session support pings every worker each step; a worker whose heartbeat
            # fails is `lame` (its host went away: a preempted TPU VM, a lost node), and the hook
            # saves a checkpoint and shuts the workers down
            r"ShutdownHook: (?P<what>lame workers found: [^\n]{0,300})"
        ),
        "TensorFlow's shutdown hook finding workers that no longer answer its heartbeat (a TPU host "
        "preempted or lost): the job stops on it",
        "INFO:tensorflow:ShutdownHook: lame workers found: "
        "HeartbeatManager(/job:worker/replica:0/task:0/device:CPU:0)",
        "INFO:tensorflow:ShutdownHook: saving checkpoint to gs://bucket/model.ckpt",
        "TensorFlow (tensorflow/python/tpu/session_support.py: `ShutdownHook: lame workers found: %s`)",
        ("what",),
        strength=2,  # (which worker is lost is said; why, not)
    ),
    Signature(
        "L253",
        "deepspeed-killing-workers",
        "signal",
        "symptom",
        ("Killing subprocess",),
        re.compile(
            # DeepSpeed's launcher kills every worker when one of them ended with an error (its
            # `exits with return code` line, L204, follows) or when it was itself interrupted; a
            # paste that stops here says the workers were killed, not why (the logger's
            # `[launch.py:318:sigkill_handler] ` is a prefix the reader takes off)
            r"(?:sigkill_handler\] |^)(?P<what>Killing subprocess (?P<pid>[0-9]{1,10}))\s*$"
        ),
        "DeepSpeed's launcher killing its workers (its sigkill_handler): another worker ended or the "
        "launcher was stopped; the cause is the line that says which, when the log has it",
        "[2023-04-07 13:09:33,201] [INFO] [launch.py:318:sigkill_handler] Killing subprocess 80",
        "[2023-04-07 13:09:33,201] [INFO] [launch.py:150:main] Killing subprocess groups is disabled",
        "DeepSpeed (deepspeed/launcher/launch.py, sigkill_handler: `Killing subprocess {pid}`)",
        ("what", "pid"),
    ),
    Signature(
        "L220",
        "mpi-lost-remote-daemon",
        "node_fail",
        "cause",
        ("has lost communication with",),
        re.compile(
            r"(?P<launcher>ORTE|PRTE|PRRTE|The system) has lost communication with (?:a remote daemon|its "
            r"daemon located on node|the following daemon)"
        ),
        "Open MPI's mpirun (ORTE, PRRTE in Open MPI 5) losing its daemon on another node: the node "
        "died or its network failed, and mpirun ends the job; the node is on the lines that follow",
        "ORTE has lost communication with a remote daemon.\n\n"
        "  HNP daemon   : [[10831,0],0] on node head1\n"
        "  Remote daemon: [[10831,0],1] on node n0",
        "ORTE has lost the output of a process that exited normally",
        "Open MPI (orte/mca/errmgr/base/help-errmgr-base.txt, node-died: `ORTE has lost communication "
        "with a remote daemon.` then `Remote daemon: %s on node %s`, older `… with its daemon located on "
        "node:` then `hostname:  %s`; 1.5 to 1.8's help-errmgr-hnp.txt, daemon-died: `The system has lost "
        "communication with the following daemon:` then `Node:   %s`; prrte's help-errmgr-base.txt)",
        ("launcher",),
    ),
    Signature(
        "L218",
        "horovod-process-exit",
        "exit_code",
        "cause",
        ("exit with status code",),
        re.compile(r"^Process (?P<rank>[0-9]{1,9}) exit with status code (?P<exit_code>-?[0-9]{1,9})"),
        "horovodrun (its Gloo launcher) reporting a process's end: its rank and exit code",
        "Process 2 exit with status code 1.",
        "Process 2 started with status code 0 expected",
        "Horovod (horovod/runner/gloo_run.py)",
        ("rank", "exit_code"),
        report=True,
    ),
    Signature(
        "L213",
        "mpirun-first-nonzero-exit",
        "exit_code",
        "cause",
        ("Process name: [[",),
        re.compile(r"^\s{0,8}Process name: \[\[[0-9]{1,10},[0-9]{1,10}\],(?P<rank>[0-9]{1,9})\]"),
        "Open MPI's mpirun naming the first process that exited with a non-zero code: its rank (the "
        "last number of the process name), with the exit code on the line that follows",
        "mpirun detected that one or more processes exited with non-zero status, thus causing\n"
        "the job to be terminated. The first process to do so was:\n\n"
        "  Process name: [[42807,1],3]\n"
        "  Exit code:    1",
        "  Process name: unknown (the launch failed before names were given)",
        "Open MPI (orte/tools/orterun/help-orterun.txt, orterun:non-zero-exit; prte's prun:non-zero-exit)",
        ("rank",),
        report=True,
    ),
    Signature(
        "L229",
        "mpirun-primary-job-nonzero",
        "exit_code",
        "cause",
        ("Primary job",),
        re.compile(
            r"(?P<what>Primary job {1,2}terminated normally, but (?P<count>[0-9]{1,9}) process(?:es)? "
            r"returned(?: a non-zero exit code)?)"
        ),
        "Open MPI's mpirun aborting the job because processes returned a non-zero exit code (the words "
        "before its `Process name:` of the first one, which says more; alone, they name no process, "
        "so they are the weakest report)",
        "Primary job  terminated normally, but 1 process returned\n"
        "a non-zero exit code. Per user-direction, the job has been aborted.",
        "Primary job  terminated normally.",
        "Open MPI (orte/tools/orterun/help-orterun.txt, orterun:non-zero-exit's preamble in ompi/runtime)",
        ("what", "count"),
        report=True,
        strength=1,
    ),
    Signature(
        "L221",
        "horovod-first-nonzero-exit",
        "exit_code",
        "cause",
        ("Horovod detected that one or more processes exited",),
        re.compile(r"(?P<what>Horovod detected that one or more processes exited with non-zero status)"),
        "horovodrun's Gloo launcher (elastic or not) raising that a worker exited with a non-zero code: "
        "a report of that worker's end, whose name (`host[local rank]`) and exit code follow on lines "
        "of their own",
        "RuntimeError: Horovod detected that one or more processes exited with non-zero status, thus "
        "causing the job to be terminated. The first process to do so was:\n"
        "Process name: elastic-test-worker-1[0]\nExit code: 137",
        "Horovod detected that all processes exited cleanly",
        "Horovod (horovod/runner/gloo_run.py, launch_gloo and launch_gloo_elastic)",
        ("what",),
        report=True,
    ),
    Signature(
        "L235",
        "paddle-trainer-aborted",
        "exit_code",
        "cause",
        ("ABORT!!! Out of all",),
        re.compile(
            # the ranks are a Python list in the order the launcher polled its processes, not the
            # order they ended: a rank is named only when the list holds one
            r"ABORT!!! Out of all (?P<count>[0-9]{1,9}) trainers, the trainer process with "
            r"rank=\[(?:(?P<rank>[0-9]{1,9})\]|(?P<ranks>[0-9][0-9, ]{0,400})\])"
        ),
        "PaddlePaddle's launcher (`paddle.distributed.launch`) reporting that trainer processes exited "
        "with a non-zero code; their own logs (`workerlog.N`) hold the reason",
        "ERROR 2021-06-01 10:05:12,345 launch_utils.py:327] ABORT!!! Out of all 4 trainers, the "
        "trainer process with rank=[3] was aborted. Please check its log.",
        "INFO 2021-06-01 10:05:15,000 launch_utils.py:341] terminate all the procs",
        "PaddlePaddle (python/paddle/distributed/utils/launch_utils.py, watch_local_trainers)",
        ("count", "rank", "ranks"),
        report=True,
    ),
    Signature(
        "L236",
        "mpirun-exit-without-finalize",
        "exit_code",
        "cause",
        ("has exited due to process rank",),
        re.compile(
            # the help text breaks its line after `on`: the node is on the next line (read after it)
            r"(?:mpirun|mpiexec|orterun|prterun) has exited due to process rank (?P<rank>[0-9]{1,9}) "
            r"with PID [^\s]{1,20} on(?: node (?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}))?"
        ),
        "Open MPI's mpirun reporting the first process that exited without `MPI_Finalize` (or with "
        "`MPI_Abort` unseen): its MPI rank, and its node on the line after; what made it exit is "
        "above, in the process's own output",
        "mpirun has exited due to process rank 11 with PID 10211 on\n"
        "node compute-12-23 exiting improperly. There are two reasons this could occur:",
        "mpirun has exited normally",
        "Open MPI (orte/tools/orterun/help-orterun.txt, orterun:proc-exit-no-sync and "
        'orterun:proc-exit-no-sync-unknown; 1.4\'s `exiting without calling "finalize"`)',
        ("rank", "node"),
        report=True,
    ),
    Signature(
        "L237",
        "mpi-abort",
        "exit_code",
        "cause",
        ("MPI_ABORT was invoked",),
        # Open MPI's help text; its error code follows on the next line (`with errorcode 1.`)
        re.compile(r"MPI_ABORT was invoked on rank (?P<rank>[0-9]{1,9}) in communicator"),
        "a rank calling MPI_Abort (its program gave up: the reason is in its own output above), which "
        "makes Open MPI kill every other rank",
        "--------------------------------------------------------------------------\n"
        "MPI_ABORT was invoked on rank 0 in communicator MPI_COMM_WORLD\nwith errorcode -1.",
        "NOTE: invoking MPI_ABORT causes Open MPI to kill all MPI processes.",
        "Open MPI (ompi/runtime/ompi_mpi_abort.c: `MPI_ABORT was invoked on rank %d in communicator %s "
        "with errorcode %d.`)",
        ("rank",),
        report=True,
    ),
    Signature(
        "L250",
        "mpi-called-outside-init",
        "exception",
        "cause",
        ("function was called before MPI_INIT", "function was called after MPI_FINALIZE"),
        re.compile(
            # (MPI_Init's own name there says its initialisation failed: the cause is above, in
            # Open MPI's `ompi_mpi_init: … failed` block, and this line is no statement of it)
            r"\*\*\* (?P<what>The (?!MPI_Init(?:_thread)?\(\))(?P<function>MPI_[A-Za-z0-9_]{1,60})\(\) "
            r"function was called (?:before MPI_INIT|after MPI_FINALIZE) was invoked)"
        ),
        "Open MPI aborting a process that called an MPI function before MPI_Init or after "
        "MPI_Finalize: the program's order of calls, or a library (mpi4py, a plugin) linked against "
        "another MPI than the one that runs it",
        "*** The MPI_Comm_rank() function was called before MPI_INIT was invoked.\n"
        "*** This is disallowed by the MPI standard.\n*** Your MPI job will now abort.",
        "*** The MPI_Init() function was called before MPI_INIT was invoked.",
        "Open MPI (ompi/errhandler/errhandler_predefined.c: `*** The %s() function was called before "
        "MPI_INIT was invoked.`, and `after MPI_FINALIZE`)",
        ("what", "function"),
        strength=2,
    ),
    Signature(
        "L238",
        "mpich-abort",
        "exit_code",
        "cause",
        ("called MPI_Abort",),
        re.compile(
            r"application called MPI_Abort\([^()\n]{1,80}, (?P<code>-?[0-9]{1,9})\) - process "
            r"(?P<rank>[0-9]{1,9})"
        ),
        "a rank calling MPI_Abort under MPICH or Intel MPI (its program gave up: the reason is in its "
        "own output above), with its error code",
        "application called MPI_Abort(MPI_COMM_WORLD, 1) - process 3",
        "MPI_Abort is not called by this application",
        "MPICH (src/mpi/init/abort.c: `application called MPI_Abort(%s, %d) - process %d`), Intel MPI",
        ("code", "rank"),
        report=True,
    ),
    Signature(
        "L239",
        "orte-daemon-died-at-launch",
        "exit_code",
        "cause",
        ("died unexpectedly with status", "died unexpectedly on signal"),
        # (1.x names the daemon's process, `A daemon (pid unknown) died …`; 4.x does not)
        re.compile(
            r"A daemon (?:\(pid (?:unknown|[0-9]{1,10})\) )?died unexpectedly (?:with status "
            r"(?P<exit_code>[0-9]{1,5})|on signal (?P<signum>[0-9]{1,3}))(?: \(with core\))? {1,2}while"
        ),
        "Open MPI's mpirun (ORTE) aborting a launch because one of the daemons it starts on the job's "
        "nodes died before reporting back, with its exit status (or signal): no rank ran; often a "
        "library or a binary the daemon needs is missing on a remote node",
        "--------------------------------------------------------------------------\n"
        "A daemon (pid unknown) died unexpectedly with status 1 while attempting\n"
        "to launch so we are aborting.",
        "A daemon was launched on node n12 and reported back",
        "Open MPI (orte/mca/plm/base/help-plm-base.txt, daemon-died-no-signal: `A daemon died "
        "unexpectedly with status %d while attempting`, daemon-died-signal and daemon-died-signal-core: "
        "`… on signal %d …`; 1.x: `A daemon (pid %s) died …`)",
        ("exit_code", "signum"),
        report=True,
    ),
    Signature(
        "L241",
        "orte-daemon-failed-to-report",
        "rendezvous",
        "cause",
        ("daemon has unexpectedly failed after launch",),
        re.compile(
            r"(?P<what>(?P<launcher>ORTE|PRTE|PRRTE) daemon has unexpectedly failed after launch) and before"
        ),
        "Open MPI's mpirun (ORTE; PRRTE in Open MPI 5) aborting a launch because a daemon it started on "
        "a node never connected back to it: most often no network route or interface the two share, "
        "or a firewall, so no rank ran; the message names no node and no status",
        "--------------------------------------------------------------------------\n"
        "An ORTE daemon has unexpectedly failed after launch and before\n"
        "communicating back to mpirun. This could be caused by a number\n"
        "of factors, including an inability to create a connection back\n"
        "to mpirun due to a lack of common network interfaces and/or no\n"
        "route found between them.",
        "An ORTE daemon was launched on node n12 and reported back to mpirun",
        "Open MPI (its runtime's help text for a daemon that failed after launch and before "
        "communicating back to mpirun; the text, wrapped as here, is the same in 1.8 to 4.1)",
        ("what", "launcher"),
    ),
    Signature(
        "L242",
        "composer-rank-crashed",
        "exit_code",
        "cause",
        ("crashed with exit code",),
        re.compile(r"\bRank (?P<rank>[0-9]{1,9}) crashed with exit code (?P<exit_code>-?[0-9]{1,9})"),
        "MosaicML Composer's launcher (`composer -n N train.py`) reporting a rank's process that "
        "ended; a negative exit code is the signal that ended it (-6: SIGABRT)",
        "ERROR:composer.cli.launcher:Rank 2 crashed with exit code -6",
        "Bot crashed with exit code 1",
        "MosaicML Composer (composer.cli.launcher's error for a rank's process: `Rank %d crashed with "
        "exit code %d`)",
        ("rank", "exit_code"),
        report=True,
    ),
    Signature(
        "L240",
        "enroot-exec-failed",
        "missing_program",
        "cause",
        ("enroot-switchroot: failed to execute",),
        re.compile(
            r"enroot-switchroot: failed to execute: (?P<command>[^:\n]{1,300}): No such file or directory"
        ),
        "enroot (under Slurm's pyxis plugin, `srun --container-image`) starting the container's "
        "program: the program (or the shell the entrypoint names) is not in the image, so no task ran",
        "slurmstepd: error: pyxis: container start failed with error code: 1\n"
        "slurmstepd: error: pyxis: printing contents of log file ...\n"
        "slurmstepd: error: pyxis:     enroot-switchroot: failed to execute: /bin/bash: No such file or "
        "directory",
        "slurmstepd: error: pyxis:     enroot-switchroot: failed to execute: /bin/bash: Permission denied",
        'enroot (bin/enroot-switchroot.c: `err(EXIT_FAILURE, "failed to execute: %s", …)`, the C '
        "library's err() adding strerror), as pyxis prints enroot's log after `slurmstepd: error: pyxis:`",
        ("command",),
    ),
    Signature(
        "L247",
        "gpu-container-hook-failed",
        "exit_code",
        "cause",
        ("nvidia-container-cli: ",),
        re.compile(
            # the NVIDIA container toolkit's hook (enroot's 98-nvidia.sh, docker's prestart hook)
            # failing on the image's own files, not on the node's GPUs (G318 reads those)
            r"nvidia-container-cli: "
            r"(?P<what>(?:mount error: file creation failed|ldcache error): [^\n]{1,300})"
        ),
        "the NVIDIA container toolkit's hook unable to prepare the container's own files (a file it "
        "creates inside the image's root, such as nvidia-persistenced's socket, or the image's "
        "ldconfig cache): the container never started, and the node's GPUs are not what failed",
        "slurmstepd: error: pyxis: container start failed with error code: 1\n"
        "slurmstepd: error: pyxis:     nvidia-container-cli: mount error: file creation failed: "
        "/raid/enroot-data/user-1/pyxis_7.0/run/nvidia-persistenced/socket: no such device or address\n"
        "slurmstepd: error: pyxis:     [ERROR] /etc/enroot/hooks.d/98-nvidia.sh exited with return code 1",
        "nvidia-container-cli: mount error: stat failed: /dev/nvidia3: no such file or directory",
        "NVIDIA container toolkit (libnvidia-container: `nvidia-container-cli: %s error: %s`), as "
        "enroot's hook or docker's prestart hook prints it",
        ("what",),
        strength=3,
    ),
    Signature(
        "L251",
        "msrun-worker-exception",
        "exception",
        "cause",
        ("worker exits with exception",),
        re.compile(
            # MindSpore's msrun (its torchrun) seeing one of its workers end on an exception, before
            # it kills the others; the exception is in that worker's own log (worker_N.log), and the
            # schedulers' "Time out nodes" that follow are those kills' echo
            r"(?P<what>There's worker exits with exception, kill all other workers)"
        ),
        "MindSpore's launcher, msrun, reporting that a worker process ended on an exception (written "
        "to that worker's own log, not this one) and killing the other workers",
        "[WARNING] ME(162078:281473590168608,MainProcess):2025-03-10-09:40:12.444.000 "
        "[mindspore/parallel/cluster/process_entity/_api.py:318] There's worker exits with exception, "
        "kill all other workers.",
        "[WARNING] ME(162078,MainProcess):2025-03-10-09:40:12.444.000 [_api.py:250] Start worker process "
        "with rank id:0, log file:worker_0.log",
        "MindSpore (mindspore/parallel/cluster/process_entity/_api.py)",
        ("what",),
        # (msrun names neither the worker nor its exception: medium, and not a report of its own
        # process's end, which the scheduler's timeout after it would take for its echo)
        strength=2,
    ),
)

#: the node of Open MPI's `has exited due to process rank N with PID P on` (its next line)
MPIRUN_EXIT_NODE = re.compile(
    r"^\s{0,8}node (?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}) exiting (?:improperly|without calling)"
)

#: the worker named under Horovod's report: `Process name: host[local rank]`
HOROVOD_PROCESS = re.compile(
    r"^\s{0,8}Process name: (?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})\[(?P<local>[0-9]{1,6})\]\s*$"
)
HOROVOD_LINES = 3

#: The node a Ray message names: `ip=10.1.2.3` (an actor's repr), `ip: 10.1.2.3` (ActorDiedError's
#: fields), `Worker IP address: …` (the raylet), `Memory on the node (IP: …` (the memory monitor)
RAY_NODE = re.compile(
    r"(?:\bip=|\bip: |Worker IP address: |\(IP: |, IP: )\[?(?P<ip>[0-9A-Fa-f][0-9A-Fa-f.:]{2,44})"
)
#: The header Ray puts before a remote task's traceback, which names where the task ran:
#: `ray.exceptions.RayTaskError(RuntimeError): ray::Train.train() (pid=8861, ip=10.1.2.3)`, older
#: Ray's `(pid=8861, host=cryoem-gpu50)`
RAY_TASK_NODE = re.compile(
    r"\bRayTaskError\([A-Za-z_][A-Za-z0-9_.]{0,100}\): .{0,300}?\(pid=[0-9]{1,10}, (?:ip|host)="
    r"(?P<node>[A-Za-z0-9][A-Za-z0-9_.:\-]{0,62})[,)]"
)
#: ActorDiedError's own field lines, which follow it: `        ip: 10.1.2.3` (a paste may have
#: turned the address into a markdown link)
RAY_IP_FIELD = re.compile(r"^\s{0,16}ip: \[?(?P<ip>[0-9A-Fa-f][0-9A-Fa-f.:]{2,44})")
RAY_FIELD_LINES = 12
#: addresses that name no node (a worker bound to every interface, the loopback)
NOT_A_NODE = frozenset({"0.0.0.0", "127.0.0.1", "::1", "::"})
#: The lines after Hydra's `RUNNING AT` line: the exit code, or the signal that ended the process
HYDRA_END = re.compile(
    r"^= {1,8}(?:EXIT CODE: (?P<code>[0-9]{1,4})|KILLED BY SIGNAL: (?P<signum>[0-9]{1,3}))"
    r"|EXIT STRING: [^\n]{0,80}?\(signal (?P<signum2>[0-9]{1,3})\)"
)
HYDRA_LINES = 8
#: The dead worker's pid in the raylet's report: `… Worker PID: 1080651 Worker exit type: …`
RAY_WORKER_PID = re.compile(r"\bWorker PID: (?P<pid>[0-9]{1,10})\b")
#: the node and rank under Open MPI's report that it could not execute the program
MPIRUN_EXEC_NODE = re.compile(r"^\s{0,8}Node:\s{1,8}(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})\s*$")
MPIRUN_EXEC_RANK = re.compile(
    r"while attempting to start process rank (?P<rank>[0-9]{1,9})|"
    # orterun:executable-not-found: `This error was first reported for process` / `rank 0; it may
    # have occurred for other processes as well.`, before its `Node:`
    r"^\s{0,8}(?:[^\n]{0,200}first reported for process )?rank (?P<rank2>[0-9]{1,9}); it may have occurred"
)
MPIRUN_EXEC_LINES = 12
#: the exit code under Open MPI's `Process name: [[42807,1],3]`
MPIRUN_EXIT_CODE = re.compile(r"^\s{0,8}Exit code:\s{1,8}(?P<code>[0-9]{1,4})\b")
MPIRUN_EXIT_LINES = 2
#: the signal of mpirun's report, when a wrapped line put it on the next one
#: The node Open MPI names under its report that it lost a daemon: `  Remote daemon: [[1,0],1] on
#: node n0` (Open MPI 4, PRRTE), `  hostname:  n0` (Open MPI 2 and 3), `Node:   n0` (1.5 to 1.8)
MPI_DAEMON_NODE = re.compile(
    r"^\s{0,8}(?:Remote daemon:\s{0,8}[^\s]{1,80} on node |hostname:\s{1,8}|Node:\s{1,8})"
    r"(?P<node>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})\s*$"
)
MPI_DAEMON_LINES = 6
MPIRUN_SIGNAL = re.compile(r"^\s{0,8}signal (?P<signum>[0-9]{1,3})\b")
