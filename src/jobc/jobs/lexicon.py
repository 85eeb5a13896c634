"""Triage's words for a line no signature reads: whether it says a process failed, and when its
words name the kind of failure, which class.

A signature knows one tool's format; these tables know the vocabulary of failures in general,
so a log in a format nobody taught triage still gives an answer:

- the **fallback lexicon** (`FALLBACK`): the words of an error in any tool's wording (Python's,
  C++'s, glog's, Slurm's, MPI's, the kernel's, a library's) that make a line worth showing. An
  error level in the line's logging header (`E`, `F`, `ERROR`) counts too; a warning or info
  level, advice (`please try`), a hedge (`might be caused by`), a metric (`val_error: 0.12`), a
  recovery (`falling back to`, `going to /tmp instead`) and a teardown's words are no failure;
- the **class words** (`CLASS_WORDS`): when an error-like line, or the message of an exception
  whose type leaves its class open (RuntimeError, OSError, a library's own error type), names a
  kind of failure (`DUE TO PREEMPTION`, `NCCL … unhandled system error`, `uncorrectable ECC`,
  `got signal: 15`), that class, said at medium confidence: words are evidence, but indirect.
  A line whose words name no class is of class `unknown`, at low confidence.
"""

from __future__ import annotations

import re

from jobc.jobs.findings import SIGNAL_WORDS, parse_int, signal_of
from jobc.jobs.signatures.slurm import BASH_NOT_FOUND_WORDS

#: DDP's reducer's RuntimeError for parameters a step did not use (every torch version since 1.1).
_DDP_UNUSED = (
    r"Expected to have finished reduction in the prior iteration|"
    r"parameters that were not used in producing loss"
)

#: A user's interrupt, passed on by a launcher (Hydra's `Sending Ctrl-C to processes as requested`)
#: or caught by a program (`Caught Ctrl-C`, `interrupted by user`): the run was stopped by its user,
#: and the ends of processes that follow are that interrupt's.
USER_INTERRUPT_WORDS = (
    r"\b(?:[Ss]ending|[Ff]orwarding|[Pp]assing|[Rr]eceived|[Cc]aught|[Gg]ot) (?:a |the )?Ctrl-?C\b|"
    r"\binterrupted by (?:the )?user\b"
)
USER_INTERRUPT = re.compile(USER_INTERRUPT_WORDS)

#: Words that make a line look like an error when no signature reads it.
FALLBACK = re.compile(
    r"(?<![A-Za-z])(?:[A-Z][A-Za-z0-9]{0,60}(?:Error|Exception)\b|Error\b|ERROR\b|Exception\b|FATAL\b|"
    r"Fatal\b|Killed\b|KeyboardInterrupt|No such file or directory|Permission denied|\[Errno [0-9]{1,4}\]|"
    r"can't open file|"
    r"oom[-_]kill|[Oo]ut of memory|Segmentation fault|segfault at\b|core dumped|Abort(?:ed)?\b|\|ERROR\||"
    r"error:|fatal:|Assertion\b|not found\b|killed by signal:? ?[0-9]|"
    # the shell's words for a signal under a Chinese locale (Killed, Segmentation fault, Aborted)
    r"已杀死|段错误|已放弃|"
    # any tool's plain word that something failed (`memory allocation of 64 bytes failed`,
    # `Bootstrap failed`): the line is shown at low confidence rather than nothing said
    r"\b[Ff]ailed\b|"
    # a launcher's word that a node or a job went away (Open MPI's lost daemon, Moab's preemption)
    r"lost communication with (?:a remote|its|the following) daemon|\bjob (?:was |has been )?preempted\b|"
    # a cloud VM told it will be reclaimed; a runtime's heartbeat finding workers gone (TensorFlow)
    r"\btermination is imminent\b|\blame workers found\b|"
    r"unable to launch|could not (?:access|execute|start|launch)|"
    r"exit(?:ed)? with (?:exit )?(?:code|status) [1-9]|non-zero (?:exit|status)|exit status [1-9]|"
    # any tool's word that a command ended so (kubectl's `command terminated with exit code 137`)
    r"\b(?:terminated|ended|finished|failed|returned) with (?:exit |return )?(?:code|status):? ?-?[1-9]|"
    # Slurm's own words for how a job ended (a controller's log, a wrapper that prints them)
    r"CANCELL?ED\b|PREEMPTED\b|NODE_FAIL\b|OUT_OF_MEMORY\b|WTERMSIG [1-9]|WEXITSTATUS [1-9]|"
    # MPICH's simple PMI client losing its connection to the process manager
    r"\bwrite_line error\b|\breadline failed\b|"
    # XLA's, TensorFlow's and gRPC's status words (`Resource exhausted: Out of memory …`)
    r"\bResource exhausted:|"
    # a GPU runtime's fault words (ROCm's `Memory access fault by GPU`, HSA's status codes)
    r"[Mm]emory access fault\b|\bHSA_STATUS_ERROR[A-Z_]{0,40}|"
    # an engine's or a driver's word that a process it depends on is gone (vLLM's `Worker proc
    # VllmWorker-2 died unexpectedly`, SGLang's `Rank 0 scheduler is dead`, Ray's `Failed to connect
    # to GCS within 60 seconds. GCS may have been killed`): how it ended is that process's to say
    r"\bdied unexpectedly\b|\bscheduler is dead\b|\bGCS may have been killed\b|"
    # a launcher that could not start a program (`execvp error on file …`, `Unable to run …`)
    r"\bexecvp? error\b|\b[Uu]nable to run\b|"
    # a resolver's words (nslookup, host, dig, ssh): a name that does not exist
    r"can't resolve\b|server can't find|NXDOMAIN|[Cc]ould not resolve hostname\b|"
    # a launcher that could not place or start what it was asked for (Open MPI's help texts)
    r"\bunable to reliably start\b|\bnot enough slots available\b|\brequested more processes than\b|"
    # any tool's word that a time limit ended the run (Open MPI's `The user-provided time limit for
    # job execution has been reached`, a framework's `time limit reached, stopping`)
    r"[Tt]ime limit(?: [a-z]{1,20}){0,6} (?:exhausted|reached|exceeded)\b|"
    # a tool's word that it is ending the run (Open MPI's `Your MPI job will now abort.`)
    r"\bwill now abort\b|"
    r"Time limit exhausted|REQUEST_KILL_JOB|DUE TO [A-Z]|MPI_ABORT|MPI_ERR_[A-Z_]{2,30}\b|BAD TERMINATION|"
    # MPICH2's mpd: `rank 0 in job 1  host_65327   caused collective abort of all ranks`
    r"caused collective abort\b|" + _DDP_UNUSED + r"|"
    # PyTorch's DDP reducer's own message, known by its words when the exception's type before it
    # was glued into another rank's output (`RuntimeErrorpred = model(imgs)` / `: ` / the message)
    # PBS's and Torque's (the MOM's kill, the server's deletion)
    r"\bjob killed\b|[Dd]eleted at request of|exceeded (?:its )?wall ?clock limit|"
    # Grid Engine's execd (`job 4242 exceeded hard wallclock time - initiate terminate method`)
    r"exceeded hard wallclock time\b|"
    # LSF's words for a job's end (`bhist -l`'s `Exited by LSF signal TERM_…`, the job report's
    # `Exited with signal termination: Alarm clock.`)
    r"\bExited by LSF signal\b|\bExited with signal termination\b|"
    # Kubernetes' words for a pod it stopped (kubectl's events: `Evicted`, `OOMKilled`)
    r"\bEvicted\b|\bOOMKilled\b|"
    r"\bexceeded a memory resource limit\b|"
    # a status report's field for a process's exit code that is not 0 (torchx's `(exit_code: 137)`)
    r"\bexit_?code ?[:=] ?-?[1-9]|"
    # slurmctld's node that stopped answering (`Node cn2 not responding`)
    r"\bNodes? [A-Za-z0-9][A-Za-z0-9_.\-\[\],]{0,200} not responding\b|"
    # a launcher or a program passing on (or catching) its user's interrupt: the run was stopped
     + USER_INTERRUPT_WORDS + "|" + "|".join(BASH_NOT_FOUND_WORDS) + ")"
    # bash's `command not found` in the languages of its message catalogue
)
#: A line that is advice, a hedge, a warning, a metric or a recovery is never a failure of its own.
NOT_A_FAILURE = re.compile(
    r"(?:might|may|could) be (?:caused|incorrect|reported)|possibly due to|please (?:try|report|check)|"
    # (kubectl's events put their type first: a `Warning` event of an eviction is the pod's end)
    r"CUDA_LAUNCH_BLOCKING|TORCH_USE_CUDA_DSA|\b(?:WARNING|WARN)\b|\bWarning\b(?!\s{1,40}Evicted\b)|"
    r"\b0 errors?\b|"
    # a count of failures that is none (`10 passed, 0 failed`, `failed=0`)
    r"(?:^|[,;] )0 failed\b|\bfailed ?[:=] ?0\b|"
    r"error_file|errors?=0|\[W[0-9 ]|For debugging|To enable traceback|"
    # Slurm's words for a step it is ending: the teardown after a failure, not a failure
    r"already completing|already completed|Job has been cancelled|Force Terminated|"
    r"Terminating (?:job|StepId)|"
    # a measure named error (`val_error: 0.12`, `Error rate: 0.1%`)
    r"\b(?:[A-Za-z_]{0,20}[_ ])?(?:[Ee]rror|ERROR)(?:[_ ]rate)?\s?[:=]\s?-?[0-9.]{1,12}%?(?:\s|,|$)|"
    # a switch or a count, not an event (`Exception handling enabled`, `Assertion checks: on`)
    r"\b(?:Exception|Error|Assertion)s? (?:handling|checks?|reporting|logging)\b|"
    # what the writer does instead: it recovered
    r"\b(?:falling back|fall back|using (?:the |an? )?(?:default|internal|built-?in|fallback)|will retry|"
    r"retrying|skipping|ignoring|going to \S{1,200} instead)\b|"
    # NCCL's own level word: an INFO line says what it set up (an optional plugin it did not find);
    # its failures are WARN lines
    r"\bNCCL INFO\b"
)
#: Logging levels that make a line an error whatever its words, and those that make it none.
ERROR_LEVELS = frozenset({"E", "F", "ERROR", "FATAL", "CRITICAL"})
QUIET_LEVELS = frozenset({"W", "I", "D", "WARNING", "WARN", "INFO", "DEBUG"})
#: The classes of what a program catches and carries on from (an exception, a module or a command
#: it does without): under a quiet level, a signature's line of these classes is context.
CAUGHT_CLASSES = frozenset({"exception", "import_error", "missing_program"})


#: Words that say a machine went away whatever the level they are logged at (TensorFlow logs its
#: lost workers at INFO; a cloud agent its VM's reclaim notice as a plain line)
ANY_LEVEL = re.compile(
    r"\blame workers found\b|\btermination is imminent\b|"
    # DeepSpeed's launcher killing its workers, at INFO (`[launch.py:318:sigkill_handler] ` taken off)
    r"^Killing subprocess [0-9]{1,10}\s*$"
)


def error_like(text: str, level: str | None) -> bool:
    """Whether a line no signature read says that something failed."""
    if level in QUIET_LEVELS:
        return ANY_LEVEL.search(text) is not None
    if FALLBACK.search(text) is None and level not in ERROR_LEVELS:
        return False
    # (in bytes: `已杀死`, the shell's `Killed` under a Chinese locale, is three characters)
    return NOT_A_FAILURE.search(text) is None and len(text.strip().encode("utf-8", "replace")) >= 4


_STEP_FAILED = re.compile(r"\bDUE TO TASK FAILURE\b|FAILED \(non-zero exit code")
#: The class a failure's words name, tried in order (the more specific first: a preemption's
#: CANCELLED is the preemption's; the OOM killer's Killed is host memory's).
CLASS_WORDS: tuple[tuple[str, re.Pattern[str]], ...] = (
    # (not one of a list of what may have happened: `has failed, got preempted, or crashed`)
    # (LSF's exit reason for a preempted job: `TERM_PREEMPT: job killed after preemption`)
    # (a spot or preemptible VM's notice that it will be reclaimed: `termination is imminent`)
    (
        "preempted",
        re.compile(
            r"\bPREEMPT(?:ED|ION)\b|\bpreempted\b(?!,? or\b)|\bTERM_PREEMPT\b|\btermination is imminent\b"
        ),
    ),
    (
        "time_limit",
        re.compile(
            r"\bTIME LIMIT\b|[Tt]ime limit(?: [a-z]{1,20}){0,6} (?:exhausted|reached|exceeded)|"
            r"\bwall ?time (?:limit )?exceeded|"
            # PBS's and LSF's words: `walltime 3616 exceeded limit 3600`, `exceeded its walltime limit`,
            # `TERM_RUNLIMIT: job killed after reaching LSF run time limit`
            r"\bwalltime [0-9]{1,12} exceeded limit\b|exceeded its walltime limit|"
            # (LSF's CPU time limit and a job's deadline too: `TERM_CPULIMIT`, `TERM_DEADLINE`)
            r"\bTERM_(?:RUNLIMIT|CPULIMIT|DEADLINE)\b|"
            # Moab's and Maui's reason in the job's mail: `MOAB_INFO:  job exceeded wallclock limit`
            r"\bexceeded (?:its )?wall ?clock limit\b|"
            # Grid Engine's execd: `job 4242 exceeded hard wallclock time - initiate terminate method`
            r"\bexceeded hard wallclock time\b"
        ),
    ),
    (
        "node_fail",
        re.compile(
            r"\bNODE[ _]FAIL(?:URE)?\b|\b[Nn]ode failure\b|\b(?:on|due to) failed node\b|"
            # PBS's mother superior losing a sister node, Open MPI losing a node's daemon
            r"\bSISTER_EOF\b|requested job (?:terminate|die)\b|lost communication with (?:a remote|its|the "
            r"following) daemon|"
            # slurmctld's node that stopped answering (`error: Nodes cn2 not responding, setting DOWN`)
            r"\bNodes? [A-Za-z0-9][A-Za-z0-9_.\-\[\],]{0,200} not responding\b|"
            # a runtime's heartbeat finding workers that stopped answering (TensorFlow's TPU hook)
            r"\blame workers found\b"
        ),
    ),
    # a step ended because one of its tasks failed: a report of that task's end
    ("exit_code", _STEP_FAILED),
    # a wrapper's own report of a command's status (`Error running ./RayTracer …! Return value: 134`,
    # `… failed with return code 2`): that command's end, with its code
    ("exit_code", re.compile(r"\b[Rr]eturn (?:value|code):? ?-?[1-9][0-9]{0,3}\b")),
    # a requeue is what a preemption (or a checkpoint's signal) asked for
    ("preempted", re.compile(r"\bDUE TO JOB REQUEUE\b")),
    (
        "host_oom",
        re.compile(
            r"oom[-_ ]?kill|\bOut Of Memory\b|\bOUT_OF_MEMORY\b|Killed process [0-9]|invoked oom-killer|"
            r"[Mm]emory cgroup out of memory|[Ee]xceeded (?:job|step) memory limit|"
            # PBS's MOM: `job killed: mem 4217164kb exceeded limit 4194304kb` (vmem, pmem alike)
            r"job killed: p?v?mem\b|"
            # LSF's exit reason: `TERM_MEMLIMIT: job killed after reaching LSF memory usage limit`
            r"\bTERM_(?:MEMLIMIT|SWAP)\b|"
            # TORQUE's server in the job's mail: `Job exceeded a memory resource limit (vmem, pvmem,
            # etc.). Job was aborted`
            r"\bexceeded a memory resource limit\b"
        ),
    ),
    (
        "cuda_oom",
        re.compile(
            r"(?:CUDA|GPU|[Dd]evice|XLA|HBM|HIP)\b[^\n]{0,80}?[Oo]ut of memory|[Oo]ut of memory[^\n]{0,80}?"
            r"(?:\bGPU\b|CUDA|[Dd]evice|HBM)|RESOURCE_EXHAUSTED|"
            r"(?:(?<![\w.])|(?<=torch\.)|(?<=cuda\.))OutOfMemoryError|"
            # TensorFlow's, PaddlePaddle's and XLA's words for an accelerator's allocator that ran out
            # (`ResourceExhaustedError: OOM when allocating tensor … device:GPU:0`); on a CPU device
            # it is the host's memory, and no accelerator is named
            r"(?:\bOOM\b|ResourceExhausted(?:Error)?\b)[^\n]{0,300}?(?:\bGPU|\bTPU|\bHBM\b|\bgpu[_:]|CUDA|\bcuda)|"
            r"(?:\bGPU|\bTPU|\bHBM\b)[^\n]{0,80}?(?:\bOOM\b|ResourceExhausted)"
        ),
    ),
    ("port_in_use", re.compile(r"[Aa]ddress already in use|EADDRINUSE|errno:? ?98\b")),
    ("disk_full", re.compile(r"[Nn]o space left on device|[Dd]isk quota exceeded|\bENOSPC\b|\bEDQUOT\b")),
    (
        "import_error",
        re.compile(
            r"No module named|cannot import name|ModuleNotFoundError|ImportError|"
            r"cannot open shared object file|undefined symbol:"
        ),
    ),
    (
        "slurm_refused",
        re.compile(
            r"[Bb]atch job submission failed|Unable to allocate resources|"
            r"[Rr]equested node configuration is not available|Invalid (?:account|partition|qos)\b|"
            # Slurm's authentication and credential errors (munge, the job credential a step carries)
            r"Munge (?:en|de)code failed|[Jj]ob credential (?:expired|revoked|replayed)|"
            r"Invalid job credential|has authentication error|Protocol authentication error|"
            # srun's step launch refused by a node's slurmd, whatever its reason
            r"Task launch for \S{1,60} failed on node|Application launch failed: |"
            # srun's step whose tasks never all started (slurmd or PMIx did not answer in time)
            r"timeout waiting for task launch|aborted before step completely launched|"
            # a Slurm command that cannot reach the controller or find its configuration
            r"Unable to contact slurm controller|Could not establish a configuration source|"
            r"Unable to establish controller machine|[Zz]ero [Bb]ytes were transmitted or received"
        ),
    ),
    (
        "missing_program",
        re.compile(
            r"can't open file|command not found|execve\(\)|[Nn]o such (?:command|program)|"
            # a launcher's exec of the program failed (Hydra's proxy: `execvp error on file X (No such
            # file or directory)`; `Unable to run X`, `execvp(X) failed`)
            r"\bexecvp? error on file\b|\bexecvp?\([^)\n]{0,200}\) failed|"
            r"\b[Uu]nable to run (?:the )?(?:program|executable|command|application|file)?\b|"
            r"executable file (?:`[^`\n]{1,200}` )?not found|[Uu]nknown command\b|"
            # Open MPI's launcher (help-orterun.txt): `… as it could not access or execute an executable`
            r"unable to launch the specified application as it could not access|"
            # a script saved with CRLF line endings: the kernel's `#!/bin/bash^M: bad interpreter`,
            # and a program's name whose `\r` sent the cursor back, so only the message is left
            # (`: No such file or directory`, or `': No …` where the carriage return split the line)
            r"\bbad interpreter\b|^\s{0,8}'?: No such file or directory\s*$|" + "|".join(BASH_NOT_FOUND_WORDS)
        ),
    ),
    # a peer's heartbeat that stopped (JAX's coordination service after the job ran): a lost peer
    ("collective_timeout", re.compile(r"\bheartbeat (?:timeout|timed out)\b|\bmissed heartbeats?\b")),
    # the interconnect's own libraries (Cray's GNI and DAPL, libfabric and its CXI provider, PSM):
    # their timeouts are the network's, not a collective's
    (
        "nccl_error",
        re.compile(
            r"\blibibgni\b|\bGNI_RC_[A-Z_]{2,30}|\bopen_hca\b|\bDAPL\b|\blibfabric\b|\bcxi_[a-z_]{2,30}|"
            r"\bCXI\b|\bfi_[a-z_]{3,30}\b|\bPSM[23]\b|"
            # MPICH's libfabric (OFI) device: `MPIDI_OFI_send_normal(368): OFI tagged send failed`
            r"\bMPIDI_OFI_[A-Za-z_]{2,40}|\bOFI [a-z ]{2,40}failed\b"
        ),
    ),
    (
        "rendezvous",
        re.compile(
            r"[Rr]endezvous|TCPStore|init_process_group|store based barrier|initiali[sz]ing process group|"
            # JAX's (and TensorFlow's) coordination service: the tasks never all registered
            r"coordination service|Wait_for_all_tasks_to_register|cluster registration failed|"
            # Gloo's process group that could not connect to every peer while it was being set up
            r"\bconnectFullMesh failed\b|"
            # the c10d store's client answered by no store (torch's TCPStore: `Stop_waiting response
            # is expected`), and a deadline that ran out while the tasks connected or registered
            r"Stop_waiting response|"
            r"\bDEADLINE_EXCEEDED\b[^\n]{0,200}?(?:[Cc]onnect|[Rr]egist|[Ii]nitiali[sz])|"
            r"(?:[Cc]onnect|[Rr]egist|[Ii]nitiali[sz])[^\n]{0,200}?\bDEADLINE_EXCEEDED\b|"
            # a job script's own lookup of a host (the master's, a peer's) that does not resolve:
            # the address the ranks were to meet at does not exist (nslookup, host, dig's words)
            r"nslookup: can't resolve|\*\* server can't find \S{1,253}: NXDOMAIN|"
            r"\bHost \S{1,253} not found: 3\(NXDOMAIN\)"
        ),
    ),
    (
        "collective_timeout",
        # a collective's or a peer's wait that ran out (ProcessGroupNCCL's `Timeout at NCCL work`,
        # its watchdog's own lines): a symptom, as its signatures say
        re.compile(
            r"mismatch between collectives|[Ww]atchdog|collective operation|monitoredBarrier|"
            r"[Tt]imed? ?out\b|[Tt]imeout\b"
        ),
    ),
    (
        "gpu_error",
        re.compile(
            r"\bECC\b|\bXid\b|fallen off the bus|[Ii]llegal memory access|device-side assert|"
            # torch's words when the driver or the device cannot be reached at all
            r"Found no NVIDIA driver|NVIDIA driver on your system is too old|"
            r"CUDA driver initialization failed|CUDA unknown error|[Nn]o CUDA GPUs are available|"
            # NVML's (nvidia-smi's) words for a GPU or a driver it cannot reach
            r"[Uu]nable to determine the device handle|GPU is lost|Failed to initialize NVML|"
            r"[Dd]river/library version mismatch|"
            r"couldn't communicate with the NVIDIA driver|"
            r"\bcudaError[A-Z][A-Za-z]{2,60}|\bCUDA_ERROR_[A-Z_]{2,60}|\bCUDA error\b|"
            # ROCm's and HIP's: a GPU's memory fault, the HSA runtime's status codes, HIP's errors
            r"[Mm]emory access fault by GPU|\bHSA_STATUS_ERROR[A-Z_]{0,40}|"
            r"\bhipError[A-Z][A-Za-z]{2,60}|\bHIP error\b"
        ),
    ),
    (
        "nccl_error",
        re.compile(
            r"\bNCCL\b|\bnccl[A-Z][A-Za-z]{2,40}Error\b|\bUCX\b|\bCCL_ERROR\b|\bibv_[a-z_]{2,40}\b|\bInfiniBand\b|"
            r"\bPSM[23]?\b|\blibfabric\b|"
            # an InfiniBand/RoCE completion with an error status, in any library's words (UCCL's
            # `CQE ERROR … status=12(transport retry counter exceeded)`, verbs' IBV_WC_RETRY_EXC_ERR)
            r"\bCQE (?:ERROR|[Ee]rror)\b[^\n]{0,120}?\bstatus ?[=:]? ?[1-9]|"
            r"[Tt]ransport retry count(?:er)? exceeded|\bIBV_WC_[A-Z_]{2,40}_ERR\b|"
            # MPI's errors of the library itself or a peer (not a call's wrong argument)
            r"\bMPI_ERR_(?:INTERN|OTHER|UNKNOWN|PROC_FAILED|PROC_ABORTED|REVOKED)\b"
        ),
    ),
    (
        "cancelled",
        re.compile(
            r"\bCANCELL?ED\b|REQUEST_KILL_JOB|\bcancell?ed by\b|\bscancel\b|[Dd]eleted at request of|"
            # LSF's exit reasons for a bkill by the owner or an administrator
            r"\bTERM_(?:FORCE_|REQUEUE_)?(?:OWNER|ADMIN)\b|" + USER_INTERRUPT_WORDS
            # the user's Ctrl-C, passed on by a launcher or caught by a program
        ),
    ),
    (
        "signal",
        re.compile(
            r"\bSIG(?:KILL|TERM|SEGV|ABRT|BUS|INT|FPE|ILL|HUP|USR1|USR2)\b|got signal:? ?[0-9]{1,3}|"
            r"received signal|[Ss]ignal:? ?[0-9]{1,3}\b|WTERMSIG [0-9]{1,3}|Segmentation fault|segfault at|"
            # (`Aborted by PBS Server` is who ended a job, no SIGABRT; glog's `*** Aborted at T (unix
            # time)` heads a crash whose signal the next line names: G311's; `Aborted!` is click's
            # word for a command it stopped, on a Ctrl-C or the SIGTERM that follows it)
            r"core dumped|\bAborted\b(?!!| by\b| at [0-9])|KeyboardInterrupt|\bKilled\b|\bTerminated\b|"
            # (the shell's words under a Chinese locale: Killed, Segmentation fault, Aborted, Terminated)
            r"已杀死|段错误|已放弃|已终止"
        ),
    ),
    # the program's own mistake, said by the message of an exception whose type line was lost
    ("exception", re.compile(_DDP_UNUSED)),
    (
        "exit_code",
        re.compile(
            r"exit(?:ed)? with (?:exit )?(?:code|status):? ?-?[1-9]|non-zero (?:exit|status)|"
            r"exit (?:code|status):? ?[1-9]|WEXITSTATUS [1-9]|MPI_ABORT was invoked|"
            # a status report's field (torchx's replica `(exit_code: 137)`, `exitcode=1`)
            r"\bexit_?code ?[:=] ?-?[1-9]"
        ),
    ),
)

#: How a line names a signal: its name, its number after `signal`, a shell's or CPython's word.
_SIGNAL_NAME = re.compile(r"\b(SIG[A-Z12]{3,6})\b")
_SIGNAL_NUMBER = re.compile(r"(?:got signal|[Ss]ignal|WTERMSIG):? ?([0-9]{1,3})\b")
_SIGNAL_WORD = re.compile(
    r"Segmentation fault|segfault|Aborted(?!!| by\b| at [0-9])|Killed|Terminated|KeyboardInterrupt|"
    r"core dumped|已杀死|段错误|已放弃|已终止"
)
_EXIT_NUMBER = re.compile(r"(?:code|status|value|WEXITSTATUS):? ?(-?[0-9]{1,4})\b")


#: The job a Slurm line names: slurmctld's `JobId=127441`, slurmstepd's `*** STEP 88.0 ON`.
_JOB = re.compile(r"\bJobI[dD]=([0-9][0-9_]{0,30})|\*\*\* (?:JOB|STEP) ([0-9][0-9_]{0,30})")


def classify(text: str) -> tuple[str, dict[str, str]] | None:
    """The class a line's words name, with the signal, exit code or job they give; None when they
    name none (the line is then only error-like: class unknown)."""
    head = text[:2000]
    for cls, words in CLASS_WORDS:
        if words.search(head) is None:
            continue
        fields: dict[str, str] = {}
        if (j := _JOB.search(head)) is not None:
            fields["job"] = j.group(1) or j.group(2)
        if cls == "signal":
            name = _signal(head)
            if name is None:
                return None  # a signal's words without saying which: no class to name
            fields["signal"] = name
        elif cls == "exit_code" and words is not _STEP_FAILED:
            m = _EXIT_NUMBER.search(head)
            if m is None:
                return None  # `a non-zero exit code`, with no code: no process's end to report
            fields["exit_code"] = m.group(1)
        return cls, fields
    return None


def _signal(text: str) -> str | None:
    if (m := _SIGNAL_NAME.search(text)) is not None:
        return m.group(1)
    if (m := _SIGNAL_NUMBER.search(text)) is not None:
        number = parse_int(m.group(1))
        return signal_of(-number) if number and 0 < number < 65 else None
    if (m := _SIGNAL_WORD.search(text)) is not None:
        word = m.group(0)
        return {"segfault": "SIGSEGV", "core dumped": "SIGABRT", "KeyboardInterrupt": "SIGINT"}.get(
            word, SIGNAL_WORDS.get(word)
        )
    return None


#: Python's exception types that are a program's own mistake, whatever their message says: their
#: class stays `exception` (a ValueError mentioning NCCL is still the program's ValueError).
PROGRAM_TYPES = frozenset(
    {
        "ValueError",
        "TypeError",
        "KeyError",
        "IndexError",
        "AttributeError",
        "NameError",
        "AssertionError",
        "FileNotFoundError",
        "ZeroDivisionError",
        "NotImplementedError",
        "UnboundLocalError",
        "RecursionError",
        "StopIteration",
        "SyntaxError",
        "IndentationError",
        "UnicodeDecodeError",
        "UnicodeEncodeError",
        "JSONDecodeError",
        "LookupError",
        "OverflowError",
        "IsADirectoryError",
        "NotADirectoryError",
        "PermissionError",
        "FileExistsError",
    }
)


#: A message that says the installed build lacks a backend (`Distributed package doesn't have NCCL
#: built in`, `Torch not compiled with CUDA enabled`): the program's setup, not a failure of what
#: it names, so the backend's name gives no class.
NOT_BUILT = re.compile(
    r"doesn't have [A-Za-z0-9_ ]{1,40} built in|\bnot (?:built|compiled) with\b|"
    r"\bwas not (?:built|compiled) with\b|\bwithout [A-Za-z0-9_]{1,40} support\b"
)


def open_type(name: str) -> bool:
    """Whether an exception's type leaves its class to its message (RuntimeError, OSError, a
    library's own error type), rather than being the program's own mistake."""
    return name.rpartition(".")[2] not in PROGRAM_TYPES
