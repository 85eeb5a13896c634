"""Triage's events stage: the lines of a log, prefixes read, turned into events.

Every signature of the catalogue (`jobc.jobs.signatures`) that reads a line gives an event: its
kind and class, its **statement line** (the line whose text decided the class: an exception's
`Type: message` line, a torchrun table's `exitcode` field, an abort's `what():`), the lines that
give it context (a traceback's header and the program's own innermost frame, the table's header),
the fields it read (rank, node, signal, exit code, endpoint, ...) and a strength: 3 for a line that
states a failure, 2 for a report that a process ended (srun's, a launcher's) or an exception line
without its traceback, 1 for a symptom or a line that only looks like an error.

Python tracebacks are assembled per writer (task, rank, local rank, node, writer id): their frames
count (the innermost frame in the user's code is kept) and a chained exception (`raise B from A`)
is one failure. torchrun's ChildFailedError table, Ray's ActorDiedError fields and the MPI
launchers' reports are read with the lines that follow them.

A line that no signature reads but that says it is an error (`Error`, `Exception`, `FATAL`,
`Killed`, `oom-kill`, `Segmentation fault`, `Abort`, `|ERROR|`, a glog `E`/`F` line, an `ERROR`
level) becomes an event of class `unknown` at strength 1 (the fallback lexicon): a log in a format
nobody taught triage still gives its most error-like line, never a confident guess.

State is bounded (a traceback's tail per writer, a few evidence lines per event, a capped number of
events), so a log of any size is read in constant memory.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from jobc.jobs import identity, lexicon, normalize, prefixes
from jobc.jobs.findings import SIGNAL_SEEN, Diagnosis, Event, Evidence, Facts, parse_int, signal_of
from jobc.jobs.judge import judge
from jobc.jobs.prefixes import Line
from jobc.jobs.signatures import CATALOGUE, Signature
from jobc.jobs.signatures import launchers as launch
from jobc.jobs.signatures import network as net
from jobc.jobs.signatures import python as py
from jobc.tables import contract

MAX_LINE = 8192
TRACEBACK_TAIL = 40
TRACEBACK_WINDOW = 400  # lines an open traceback may wait for its exception line
TABLE_LINES = 16  # lines after torchrun's "Root Cause" or "Failures:" read whatever they hold
TAG_LINES = 8  # lines of one driver's sentence joined at most (its tag repeated on each)
EVIDENCE_PER_EVENT = 6
EVIDENCE_WIDTH = 400
MAX_EVENTS = 50_000

_FRAME = re.compile(
    r'^\s{0,16}File "(?P<file>[^"]{1,1000})", line (?P<line>[0-9]{1,9}), in (?P<func>\S{1,200})'
)
_EXC_NAME = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]{0,100}+\.){0,20}+[A-Za-z_][A-Za-z0-9_]{0,100}+")
_TABLE_FIELD = re.compile(
    r"^\s{0,16}(time|host|rank|exitcode|error_file|traceback)\s{0,16}:\s{0,4}(.{0,500})$"
)
# a table's rank and exit code, glued as a web page rendered them (`rank2 (local rank: 2)exitcode: -9
# (pid: 36071)error file: <N/A>`)
_TABLE_GLUED = re.compile(
    r"^\s{0,16}rank\s{0,4}:?\s{0,4}(?P<rank>[0-9]{1,9}) \(local[_ ]rank: ?(?P<local>[0-9]{1,9})\)\s{0,16}"
    r"exitcode\s{0,4}:\s{0,4}(?P<code>-?[0-9]{1,18}) \(pid: (?P<pid>[0-9]{1,10})\)"
)
# a gRPC status's code and message at a line's start (`DEADLINE_EXCEEDED: Deadline Exceeded`)
_GRPC_STATUS = re.compile(r"^\s{0,8}(?:DEADLINE_EXCEEDED|UNAVAILABLE|INTERNAL|ABORTED|CANCELLED|UNKNOWN): ")
_LEADING_INT = re.compile(r"^\s{0,8}(-?[0-9]{1,18})(?![0-9])")
_LOCAL_RANK = re.compile(r"local_rank: ([0-9]{1,9})\)")
_SIGNAL_NUMBER = re.compile(r"Signal ([0-9]{1,3}) \((SIG[A-Z0-9]{2,8})\)")
_LIGHTNING_WORLD = re.compile(r"GLOBAL_RANK: ([0-9]{1,9}), MEMBER: ([0-9]{1,9})/([0-9]{1,9})")
_INLINE_EXCEPTION = re.compile(
    r"(?<![A-Za-z0-9_.])((?:[A-Za-z_][A-Za-z0-9_]{0,100}+\.){0,20}+[A-Za-z_][A-Za-z0-9_]{0,100}+)"
    r"(?:: (.{0,500})|$)"
)
_INLINE_FRAME = re.compile(r'File "[^"]{1,1000}", line [0-9]{1,9}, in \S{1,200}')
_LIBRARY = ("site-packages/", "dist-packages/", "<frozen ", "/lib/python3", "/lib64/python3", "<string>")
#: NCCL's line for a communicator it set up: the rank of the process (host:pid) in it, its size
# NCCL's ring (2.4 to 2.6) and channel (later) set-up lines: `Ring 00 : 2[2] -> 3[3] via direct shared
# memory`, `Channel 00/0 : 2[2] -> 3[3] via P2P/IPC`, `Ring 00 : 3 -> 4 [send] via NET/IB/0`
_NCCL_RING = re.compile(
    r"\b(?:Ring|Channel) [0-9]{1,3}(?:/[0-9]{1,3})? : (?:(?P<a>[0-9]{1,9})\[[0-9]{1,3}\] -> [0-9]{1,9}\[|"
    r"(?P<s>[0-9]{1,9}) -> (?P<r>[0-9]{1,9}) \[(?P<dir>send|receive)\])"
)
_NCCL_COMM = re.compile(r"\bcomm 0x[0-9a-f]{1,16} rank (?P<rank>[0-9]{1,9}) nranks (?P<size>[0-9]{1,9})\b")
#: A launcher's exception that speaks of the command's exit: the command ran, and ended.
_EXIT_WORDS = re.compile(r"\bexit (?:code|status)\b|\breturn(?:ed)? code\b|non-zero", re.I)
#: A launcher's word, at a warning's level, that one of its workers ended on an exception (msrun):
#: another process's failure, not one its writer caught and went on from
_ANOTHERS_END = frozenset({"L251"})
_CANNOT_START = ("missing_program", "import_error", "disk_full", "node_fail", "host_oom")
_NOBODY = (None, None, None, None, None)
#: How far below CPython's `Exception ignored in: …` the exception it ignored may be (its traceback)
UNRAISABLE_LINES = 60
#: A status report's field whose value is an exception line: torchx's replica `error_msg: ValueError:
#: …`, a YAML or JSON `message: "RuntimeError: …"` (quoted or not)
_FIELD_EXCEPTION = re.compile(
    # (a field's name is one word, never a logging level: `WARNING: …` is a logger's line)
    r"^\s{0,16}[\"']?(?!(?i:warn|warning|info|debug|note|hint|notice)\b)"
    r"[A-Za-z][A-Za-z0-9_\-]{1,30}[\"']?:"
    r"\s{1,8}[\"']?"
    r"(?P<rest>(?P<type>(?:[A-Za-z_][A-Za-z0-9_]{0,100}\.){0,20}[A-Za-z_][A-Za-z0-9_]{0,100}):.{0,2000})$"
)
#: ... in JSON, as torch elastic's error file holds it and torchx shows it (`structured_error_msg:
#: '{"message": {"message": "ValueError: bad", "extraInfo": …}}'`)
_JSON_EXCEPTION = re.compile(
    r'"message": "(?P<rest>(?P<type>(?:[A-Za-z_][A-Za-z0-9_]{0,100}\.){0,20}[A-Za-z_][A-Za-z0-9_]{0,100}): '
    r'(?:[^"\\]|\\.){0,2000})"'
)
#: ... and its `hostname:` field (`    hostname: compute-1`), the host the process ran on
_FIELD_HOST = re.compile(
    r"^\s{0,16}(?:- )?[\"']?hostname[\"']?:\s{1,8}"
    r"[\"']?(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})[\"']?,?\s*$"
)
FIELD_GAP = 6  # lines from a report's `hostname:` field to its error field, at most
#: Source lines of a traceback's frames and code are no error of their own.
_CODE = re.compile(
    r"^\s{0,40}(?:raise\b|File \"|except\b|from \S+ import|import |return |[A-Za-z_.]{1,80} = )"
)
#: The job's progress output: steps, iterations, epochs, a progress bar, a loss.
PROGRESS = re.compile(
    r"\b(?:[Ss]tep|[Ii]ter(?:ation)?|[Ee]poch|global_step)\b\s{0,4}[:=#\[]?\s{0,4}[0-9]|"
    r"[0-9]{1,12}/[0-9]{1,12} \[[0-9:]{4,12}<|[0-9] ?(?:it/s|s/it)\b|"
    r"\bloss\b\s{0,2}[:=]\s{0,2}[0-9]|'loss': [0-9]"
)
MAX_PROGRESS = 10_000
#: How far below subprocess's re-raise its exception line stands (a traceback's last frame's code,
#: a rich box's bottom border, a blank line)
_EXEC_FAILED_LINES = 6
#: The errors the exec of subprocess's child raises for a program it cannot run
_EXEC_FAILED = re.compile(
    r"(?:FileNotFoundError|PermissionError|NotADirectoryError|OSError): \[Errno (?:2|13|20|8)\] "
    r"[^:\n]{1,80}: '(?P<command>[^'\n]{1,200})'"
)
#: NCCL's trace of a call that failed, as its NCCLCHECK returns the error up the stack, file and
#: line each (`NCCL INFO bootstrap.cc:280 -> 2`): the node the prefix names is where NCCL failed
_NCCL_RETURN = re.compile(r"^NCCL INFO [A-Za-z0-9_/.\-]{1,120}\.(?:cc|h|cu|c):[0-9]{1,6} -> [1-9][0-9]?\s*$")
#: How far below threading's `Exception in thread NAME:` the thread's traceback opens (threads
#: printing at once interleave their headers and tracebacks)
_THREAD_HEADER_LINES = 3
#: LSF's exit reason in its job report (`TERM_OWNER: job killed by owner.`), and how far above the
#: exit code it leaves (`Exited with exit code 129.`) it stands
_LSF_REASON = re.compile(r"TERM_[A-Z_]{2,30}: ")
_LSF_REASON_LINES = 2
#: bash's trace of a command it runs under `set -x` (`+ sleep 5`, `++ shuf -i25000-30000 -n1`):
#: the script reached that command
_XTRACE = re.compile(r"^\+{1,8} [A-Za-z_./\-]")
#: A traceback frame in code that meets the other ranks: a timeout there is a rendezvous failure.
_RENDEZVOUS_FRAME = re.compile(
    r"rendezvous|_create_tcp_store|TCPStore\(|init_process_group|jax/_src/distributed|client\.connect\(|"
    # Horovod's driver waiting for each host's task service to register (its start timeout)
    r"wait_for_initial_registration"
)
#: ... and the words of a message about that code (`Timed out initializing process group …`).
_RENDEZVOUS_WORDS = re.compile(
    r"rendezvous|init_process_group|initiali[sz]ing (?:the )?process group|TCPStore|store based barrier|"
    r"coordination service|"
    # Horovod's driver: `Timed out waiting for tasks to start. Please check connectivity between servers`
    r"waiting for tasks to start"
)
_MEETING_FAILED = re.compile(
    r"[Tt]imed? ?out|DEADLINE_EXCEEDED|[Cc]onnect(?:ion)? (?:refused|reset|failed)|host not found|"
    r"name resolution|[Nn]ame or service not known|No route to host|[Nn]etwork is unreachable"
)
#: An exception's type anywhere in a line (a garbled exception line among interleaved tracebacks).
_ANY_EXCEPTION = re.compile(
    r"(?:[A-Za-z_][A-Za-z0-9_]{0,100}\.){0,20}[A-Za-z_][A-Za-z0-9_]{0,100}(?:Error|Exception)\b"
)
#: slurmctld allocating nodes to a job: `sched: Allocate JobId=127441 NodeList=c014 #CPUs=2`,
#: `sched/backfill: _start_job: Started JobId=2 in gpu on gpu01`, an allocation for srun or salloc
#: (`_slurm_rpc_allocate_resources JobId=7 NodeList=compute00`)
_CTLD_ALLOCATE = re.compile(
    r"(?:Allocate|Started|_slurm_rpc_allocate_resources) JobI[dD]=(?P<job>[0-9][0-9_+]{0,40}) "
    r"(?:NodeList=(?P<a>[^\s]{1,400})|in [^\s]{1,80} on (?P<b>[^\s]{1,400}))"
)
#: PBS's and Torque's hosts of a job, in its mail to the owner and in `qstat -f`: `Exec host:
#: n56/0+n56/1` and `exec_host = n56/0-7`, each host with its slots. The log of one job; its node
#: when every slot is on one host (several hosts say nothing of which one ended it).
_PBS_EXEC_HOST = re.compile(r"^\s{0,8}(?:Exec host:|exec_host =)\s{1,8}(?P<hosts>[^\s]{1,2000})\s*$")
#: LSF's job report names the hosts it ran on: `Job was executed on host(s) <n-62-20-2>, in queue …`
#: (`<4*hostA>, <4*hostB>` for several, each with its slot count)
_LSF_EXEC_HOST = re.compile(r"^Job was executed on host\(s\) (?P<hosts>(?:<[^<>\n]{1,200}>,? ){1,64})")
#: A batch script's echo of the job's node list (`echo "The job was run on these nodes:
#: $SLURM_JOB_NODELIST"`, `Nodelist: gpu01`, `SLURM_JOB_NODELIST=gpu01`): the log's one job's nodes
_ECHO_NODES = re.compile(
    # (after a script's own tag, `[ensure_env] Running on SLURM node: node-1`; a master's, a head's
    # or a rendezvous host is one node of several, not where the job ran)
    # (after a logger's time of day, `01:06:34.728 [I] Running on: dgx-38`)
    r"^(?:(?:[0-9]{4}-[0-9]{2}-[0-9]{2}[ T])?[0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,][0-9]{1,6})? {1,4})?"
    r"(?:\[[A-Za-z0-9_.\-]{1,40}\] {1,4})?"
    # (after other fields of a script's one-line header: `Job: vulkan_sim  ID: 23040409  Nodes: n7`)
    r"(?:[A-Z][A-Za-z]{0,20}: {1,4}[A-Za-z0-9_.\-]{1,80} {1,4}){0,4}"
    r"(?![A-Za-z ]{0,40}(?:[Mm]aster|MASTER|[Hh]ead\b|HEAD|[Rr]endezvous|[Cc]oordinator))"
    r"(?:[A-Za-z][A-Za-z ]{0,60}? (?:these |the |its )?nodes?|[Nn]ode ?[Ll]ist|[Nn]odes?|"
    # Slurm's own variables for the job's nodes and the node the batch script runs on, and a
    # script's echo of `hostname`
    r"SLURM_(?:JOB_)?NODELIST|SLURMD_NODENAME|(?:[Rr]unning on |[Cc]urrent )?[Hh]ost ?[Nn]ame|"
    # a program's or a script's `Running on: gpu07`
    r"[Rr]unning on|"
    # a script's own words for the node it runs on (`Worker node hostname: d-12-5-2`)
    r"[A-Z][a-z]{1,20} node [Hh]ost ?[Nn]ame)"
    r" ?[:=] {0,4}(?P<nodes>[A-Za-z0-9][A-Za-z0-9_.,\[\]\-]{0,200})"
    # (a logger's trailer after the message, set off by spaces: `   (2605436:train.py:196)`)
    r"(?: {2,200}\([^()\n]{1,100}\))?\s*$"
)
#: A log's first line that is one host name alone: the batch script's `hostname` before anything
#: else, the node the job's script ran on.
_BARE_HOST = re.compile(r"^([A-Za-z][A-Za-z0-9_\-]{0,62}(?:\.[A-Za-z0-9\-]{1,63}){0,8})\s*$")
#: A paste's first line that is the command that printed it, `kubectl logs POD`: the log is that
#: one pod's (a PyTorchJob's `optimizer-worker-0`), whose host name is the pod's name
_KUBECTL_LOGS = re.compile(
    r"^\s{0,8}(?:\$ {1,4})?kubectl (?:-n [a-z0-9-]{1,63} )?logs "
    r"(?:-[a-z](?: [a-z0-9-]{1,63})? |--[a-z-]{1,30}(?:=\S{1,63})? ){0,4}"
    r"(?:pods?/)?(?P<pod>[a-z0-9][a-z0-9-]{0,62})(?: {1,4}-[a-z] {0,1}\S{0,63})?\s*$"
)
#: SGE's accounting record of a job (`qacct -j`) names the host its master task ran on, in its
#: column of names and values: `hostname     qb3-id95`
_SGE_HOSTNAME = re.compile(r"^hostname {2,16}(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200})\s*$")
_LSF_HOST = re.compile(r"<(?:[0-9]{1,6}\*)?([^<>\s]{1,200})>")
#: A shell's prompt (bash's `[user@host dir]# `, `user@host:~$ `, zsh's `user@host ~ % `) before a
#: command that prints the kernel's log (dmesg, journalctl -k, its files under /var/log) or asks the
#: node's GPUs (nvidia-smi, rocm-smi): the host the lines after it are of.
_KERNEL_PROMPT = re.compile(
    r"^\s{0,8}\[?[A-Za-z0-9_.\-]{1,64}@(?P<host>[A-Za-z][A-Za-z0-9.\-]{0,62})[ :][^\n#$%]{0,200}[#$%] {1,4}"
    r"(?:sudo {1,4})?(?:dmesg|journalctl|nvidia-smi|rocm-smi|"
    r"(?:grep|cat|less|tail|zgrep)\b[^\n]{0,200}/var/log/)"
)
#: A shell's prompt before a command that runs the program on the prompt's own host (`(torch)
#: season@SeasonPC:~/x$ ./run.sh`, `python train.py`, `llama stack run x`): the host its output
#: was written on. A command that shows another's output (cat, tail) or starts processes elsewhere
#: (sbatch, srun, mpirun, ssh, a launcher over several nodes) is not one (`_ELSEWHERE`).
_RUN_PROMPT = re.compile(
    r"^\s{0,8}(?:\([^()\n]{1,60}\) {1,2})?\[?[A-Za-z0-9_.\-]{1,64}@(?P<host>[A-Za-z0-9][A-Za-z0-9.\-]{0,62})"
    r"[ :][^\n#$%]{0,200}[#$%] {1,4}(?:[A-Z_][A-Z0-9_]{0,40}=[^\s]{0,200} {1,4}){0,4}"
    r"(?P<cmd>[A-Za-z0-9_./][^\s]{0,200}(?:\s[^\n]{0,1000})?)$"
)
#: a command that shows output written elsewhere or starts processes on other hosts, or may (a
#: node count, a host file)
_ELSEWHERE = re.compile(
    r"^(?:[^\s]{0,200}/)?(?:cat|zcat|less|more|tail|head|grep|zgrep|egrep|sed|awk|vi|vim|view|nano|"
    r"emacs|sbatch|srun|salloc|squeue|sacct|scontrol|sinfo|scancel|bsub|bjobs|qsub|qstat|flux|ssh|scp|"
    r"rsync|pdsh|kubectl|docker logs|git|ls|cd|echo|printf|sudo|history)\b|"
    r"--(?:nnodes|num_machines|num_nodes)[= ]{1,4}(?!1\b|1:1\b)|--hostfile\b|--machine_rank\b|"
    r"\b(?:srun|sbatch|salloc|mpirun|mpiexec|ssh|pdsh)\b"
)
#: A torchrun command line, as a shell's prompt or `set -x` shows it: the launcher's name as a
#: command (not a path's end in a traceback frame), then options or a script, not prose.
_TORCHRUN_COMMAND = re.compile(
    r"(?:^|[\s$#%>+])(?:torchrun|python[0-9.]{0,4} -m torch\.distributed\.(?:run|launch)) {1,4}"
    r"(?P<args>(?:-|[^\s]{1,400}\.py\b)[^\n]{0,2000})"
)
#: (a value read from a variable, `--nnodes=$NNODES`, is not known to be 1)
_NNODES = re.compile(r"--nnodes[= ]{1,4}([^\s]{1,40})")
#: the node's rank and its processes, as numbers (a variable's value is not known)
_NODE_RANK = re.compile(r"--node[_-]rank[= ]{1,4}[\"']?([0-9]{1,5})[\"']?(?=\s|$)")
_NPROC = re.compile(r"--nproc[_-]per[_-]node[= ]{1,4}[\"']?([0-9]{1,5})[\"']?(?=\s|$)")
#: DeepSpeed's launcher (deepspeed/launcher/launch.py) logging as itself, and the node count it
#: logs at its start (`nnodes=1, num_local_procs=8, node_rank=0`)
_DS_LAUNCH = re.compile(r"\[(?:INFO|WARNING|ERROR)\] \[launch\.py:[0-9]{1,6}:[a-z_]{1,40}\] ")
_DS_NNODES = re.compile(r"\bnnodes=([0-9]{1,6}), num_local_procs=")
_PROMPT_WORDS = ("dmesg", "journalctl", "/var/log/", "nvidia-smi", "rocm-smi")
#: torchrun's table gives a rank's local rank beside it: `rank      : 2 (local_rank: 2)`.
_LOCAL_IN_TABLE = re.compile(r"\(local_rank: ([0-9]{1,6})\)")
#: Open MPI's fatal error block names the process that raised it: `*** reported by process
#: [635830273,3]` (the job's id and the rank in MPI_COMM_WORLD).
_MPI_REPORTED = re.compile(r"\*\*\* reported by process \[[0-9]{1,12},(?P<rank>[0-9]{1,9})\]")
#: Open MPI's report of where it bound each rank (`mpirun --report-bindings`, which Horovod's
#: guides pass): `[jwc09n012:12345] MCW rank 0 bound to socket 0[core 0[hwt 0]]: [B/././.]`
#: (or `is not bound`); the host before the pid is that rank's node.
_MPI_BINDING = re.compile(
    r"\[(?P<host>[A-Za-z0-9][A-Za-z0-9_.\-]{0,62}):[0-9]{1,10}\] MCW rank (?P<rank>[0-9]{1,9}) "
    r"(?:bound to|is not bound|not bound)"
)
#: Lines that start a record of their own, never the continuation of an exception's message.
_RECORD = re.compile(
    r"^(?:\s{0,16}File \"|Traceback |During handling|The above exception|srun: |slurmstepd|[\[(=<-]|"
    r"\s{0,8}(?:[A-Za-z_][A-Za-z0-9_]{0,100}\.){0,20}[A-Za-z_][A-Za-z0-9_]{0,100}(?:Error|Exception|Warning)\b)"
)
CONTINUATION_LINES = 4
#: the most lines of Hydra's compact error read above its HYDRA_FULL_ERROR line
HYDRA_BLOCK = 10
#: a traceback's lines: its header, a frame, CPython's pointer line, an exception line
_TRACEBACK_PART = re.compile(
    r"\s{0,16}(?:Traceback \(most recent call last\)|File \"|\^{3,}|"
    r"(?:[A-Za-z_][A-Za-z0-9_]{0,100}\.){0,20}[A-Za-z_][A-Za-z0-9_]{0,100}(?:Error|Exception)\b:?)"
)
#: glog's (and c10's) record header at a line's start: `E1223 05:18:02.971000 3304089 file.py:882] `.
_GLOG_HEAD = re.compile(r"[IWEF][0-9]{4} [0-9]{2}:[0-9]{2}:[0-9]{2}[.0-9]{0,8} {1,4}[0-9]{1,10} ")
#: An exception's message that is a command's own error line (`sbatch: error: …`): the exception
#: carries what the command said.
_TOOL_SAID = re.compile(
    r"\s{0,4}(?:sbatch|srun|salloc|scontrol|squeue|sacct|qsub|bsub)(?:-[A-Za-z0-9_.\-]{1,60})?: "
    r"(?:error|fatal): "
)
#: A program's own line naming the process its error was on, after that error: `--> rank=69,
#: hostname=cpu-54` (MAKER under MPI), `rank: 3, host: gpu07`.
_PLACED = re.compile(
    r"^\s{0,8}(?:-{1,4}> ?|\* ?)?rank ?[=:] ?(?P<rank>[0-9]{1,9}),? {1,4}host(?:name)? ?[=:] ?"
    r"(?P<host>[A-Za-z][A-Za-z0-9_.\-]{0,62})[.,;]?\s*$"
)
#: The reason ProcessGroupNCCL gives when it aborts its communicators, which c10d appends to the
#: error the abort raised (`what():  NCCL error in: …, unhandled cuda error` / `Process Group
#: destroyed on rank 1`): the process group's destructor, or the watchdog's abort of a failed
#: communicator; the rank is the process's own.
_ABORT_REASON = re.compile(
    r"^\s{0,8}(?:Process Group destroyed|NCCL communicator was aborted) on rank (?P<rank>[0-9]{1,9})\b"
)


#: How many of sbatch's error lines before its refusal are read as saying why.
SUBMIT_SAID = 3


@dataclass
class _OpenTraceback:
    start: Evidence
    opened_at: int
    tail: deque[tuple[Evidence, str]]
    chained: bool
    # under threading's `Exception in thread NAME:`: a thread's, which ends the thread, not its process
    thread: bool = False


def strength_of(sig: Signature) -> int:
    """3 for a statement of a failure, 2 for a report that a process ended, 1 for a symptom."""
    if sig.strength:
        return sig.strength
    if sig.report:
        return 2
    return 3 if sig.role == "cause" else 1


class Scanner(Facts):
    """Feeds on lines (or pieces of lines); `diagnosis()` says what they mean."""

    def __init__(
        self,
        coords: dict[int, dict[str, int]] | None = None,
        per_node: int | None = None,
        catalogue: Sequence[Signature] = CATALOGUE,
    ) -> None:
        super().__init__(coords)
        self.per_node = per_node  # kept for callers; ranks are never placed by arithmetic
        self.catalogue = tuple(catalogue)
        self.model = prefixes.PLAIN
        self.seen: dict[tuple[Any, ...], Event] = {}
        self.mpi_reported: dict[tuple[str | None, str | None], str] = {}
        # the last `ip: X` field of a Ray error's block (file, line, address): the node of a
        # statement that follows it when the block's header was cut off
        self.ray_ip: tuple[str, int, str] | None = None
        self.open_tb: dict[tuple[Any, ...], _OpenTraceback] = {}
        self.thread_said = -_THREAD_HEADER_LINES - 1  # the line of threading's last header
        # writers whose next exception CPython's unraisable hook printed and ignored: the line it said so
        self.unraisable: dict[tuple[Any, ...], int] = {}
        self.chain_pending: set[tuple[Any, ...]] = set()
        self.last_exception: dict[tuple[Any, ...], Event] = {}
        self.table_left = 0
        self.table: dict[str, str] = {}
        self.table_lines: dict[str, Evidence] = {}
        # the names of a rendered table's fields, each alone on a line, whose values come after
        self.table_names: list[str] = []
        self.table_root = False
        self.table_at: Evidence | None = None
        # the `Failures:` section of a table, read as it goes: its line, and the block of the
        # earliest failure it lists (fields, lines), which stands for the `Root Cause` section when
        # the log holds none (a table cut before it)
        self.failures_at: Evidence | None = None
        self.failure: tuple[dict[str, str], dict[str, Evidence]] | None = None
        self.root_told = False
        self._piece = 0
        self.current = 0  # the line being read
        self.abort_at: Evidence | None = None  # a C++ terminate line waiting for its what()
        self.abort_line: tuple[tuple[int, int], Line, dict[str, Any]] | None = None
        self.child_failed: tuple[Evidence, tuple[int, int], Line] | None = None
        # a report whose details follow on lines of their own (Ray's ActorDiedError fields,
        # Hydra's exit code): the event, which reader, and how many lines it may still read
        self.follow: tuple[str, Event] | None = None
        self.follow_left = 0
        # lines after a missing command still read for the shell's trace of the next command
        # (`+ sleep 5` under `set -x`): the script went on past it
        self.trace_left = 0
        # the line of CPython's subprocess that re-raises the child's failed exec
        # (`raise child_exception_type(errno_num, err_msg, err_filename)`), by line
        self.child_exec_at: int | None = None
        self.last_error: Event | None = None  # an NCCL error whose `Last error:` may follow
        self.last_error_left = 0
        self.last_error_armed = False
        self.wrap: int | None = None  # the width the log was wrapped at, when it was
        self.weak = False  # that width is one few lines reach: a cut is joined on its own evidence
        self.hanging = False  # LSF's `bhist -l` layout: the rest of a cut line under a hanging indent
        # a line cut at that width, waiting for its rest (with the lines it is made of so far)
        self.wrapped: tuple[str, int, str, list[tuple[int, str]]] | None = None
        # a driver's tagged line whose sentence goes on under the same tag (path, number, line,
        # tag, node, lines joined): dmesg's `NVRM: The NVIDIA GPU …` / `NVRM: (PCI ID: …) …`
        self.tagged: tuple[str, int, str, str, str | None, list[tuple[int, str]]] | None = None
        # an exception line whose message may go on over the next lines (a hard-wrapped paste)
        self.cont: tuple[Event, tuple[Any, ...], int, str] | None = None
        # an error-like line no signature read, waiting one line for the rest of its message
        self.held: tuple[Evidence, tuple[int, int], Line, str] | None = None
        # sbatch's and salloc's own error lines just read: a site's submit check (job_submit
        # plugin, `slurm.log_user`) says why on them, before `Batch job submission failed`
        self.submit_said: deque[Evidence] = deque(maxlen=SUBMIT_SAID)
        # the last records read, for a message whose words stand in the lines above its marker
        # (Hydra's compact error above `Set the environment variable HYDRA_FULL_ERROR=1 …`)
        self.recent: deque[tuple[Evidence, Line, str]] = deque(maxlen=HYDRA_BLOCK + 4)
        # torch.multiprocessing.spawn's report of a worker that raised: the parent's
        # ProcessRaisedException (its event, its line), then `-- Process N terminated with the
        # following error:` (N, its line), whose worker's traceback follows
        self.spawn_report: tuple[Event, int] | None = None
        # the last exception whose type and message left its class open (event, line, who): the
        # lines that follow its message may say what it was
        self.generic: tuple[Event, int, tuple[Any, ...]] | None = None
        self.spawn_child: tuple[str, int] | None = None
        # a status report's `hostname:` field (torchx's replica), by line: the host of the error
        # field after it
        self.field_host: tuple[int, str] | None = None

    def learn(self, sample: Sequence[tuple[int, str]], path: str = "") -> None:
        """Infer this file's prefix structure from a sample of its lines (the file's head), and the
        width a terminal or a pasting tool wrapped it at, if it was; and the prompts in it that ran
        the program on their host, which the pre-filter does not read (no error word in them)."""
        for number, raw in sample:
            if "@" in raw[:200]:
                self._run_prompt(path, number, raw)
            if "torch" in raw:
                self._torchrun_command(path, number, raw)
        self.model = prefixes.infer((n, normalize.clean(t)) for n, t in sample)
        for node, rank in sorted(self.model.ranked_hosts):
            # a logger's `[host:rank/size]` on lines the pre-filter skips: who wrote the log
            self.rank_node.setdefault(rank, node)
            if len(self.nodes_seen) < 4096:
                self.nodes_seen.add(node)
        # (Open MPI's help text, wrapped by its writer, says nothing of a terminal's width)
        first = _BARE_HOST.match(sample[0][1][:300]) if sample and sample[0][0] == 1 else None
        if first is not None and prefixes.is_host(first.group(1)):
            self.job_nodes.setdefault("", first.group(1))  # the script's `hostname`, first
        pod = _KUBECTL_LOGS.match(sample[0][1][:300]) if sample and sample[0][0] == 1 else None
        if pod is not None and prefixes.is_host(pod.group("pod")):
            self.job_nodes.setdefault("", pod.group("pod"))  # the pod whose log this is, its host name
        texts = normalize.outside_banners([t for _, t in sample])
        self.wrap = normalize.wrap_width(texts)
        self.weak = self.wrap is None
        if self.wrap is None:
            self.wrap = normalize.weak_wrap_width(texts)
        if normalize.lsf_layout([t for _, t in sample]) and self.wrap in (None, normalize.LSF_WIDTH):
            self.wrap, self.weak, self.hanging = normalize.LSF_WIDTH, False, True

    def _torchrun_command(self, path: str, number: int, raw: str) -> None:
        """A torchrun command line: its node count, and the node's place in the world where it
        names both with numbers (`--node_rank=1 --nproc_per_node=4`)."""
        if (path, number) in self.launch_lines or len(self.launch_lines) >= 16:
            return
        c = _TORCHRUN_COMMAND.search(raw[:2000])
        if c is None:
            return
        self.launch_lines.add((path, number))
        n = _NNODES.search(c.group("args"))
        self.launch_nodes.add(n.group(1) if n else "1")
        node_rank, nproc = _NODE_RANK.search(c.group("args")), _NPROC.search(c.group("args"))
        if node_rank is not None and nproc is not None:
            self.launch_place.add((int(node_rank.group(1)), int(nproc.group(1))))
        else:
            self.launch_place.add((-1, -1))  # a command line that does not say

    def _run_prompt(self, path: str, number: int, raw: str) -> None:
        """A shell's prompt before a command that ran the program on the prompt's host."""
        if (
            len(self.run_prompts) < 64
            and (p := _RUN_PROMPT.match(normalize.clean(raw[:2000]))) is not None
            and _ELSEWHERE.search(p.group("cmd")) is None
            and (found := (path, number, p.group("host"))) not in self.run_prompts
        ):
            self.run_prompts.append(found)

    # -- state the reader asks about ------------------------------------------------------

    def busy(self) -> bool:
        """Whether every line matters now (an open traceback, a torchrun table being read)."""
        return (
            bool(self.open_tb)
            or self.table_left > 0
            or self.follow_left > 0
            or self.trace_left > 0
            or self.last_error_left > 0
            or self.cont is not None
            or self.wrapped is not None
            or self.tagged is not None
            or self.held is not None
        )

    # -- feeding ---------------------------------------------------------------------------

    def feed(self, path: str, number: int, raw: str) -> None:
        """One physical line; carriage returns split it into the pieces a terminal would show."""
        self.lines += 1
        for piece in raw.rstrip("\n").split("\r"):
            if piece:
                self.feed_piece(path, number, piece)

    def feed_piece(self, path: str, number: int, raw: str) -> None:
        if "\\" in raw and len(lines := normalize.escaped_lines(raw)) > 1:
            for piece in lines:
                self._feed_one(path, number, piece)
            return
        self._feed_one(path, number, raw)

    def _feed_one(self, path: str, number: int, raw: str) -> None:
        if self.wrap is not None:
            joined = self._unwrap(path, number, raw)
            if joined is None:
                return
            number, raw, parts = joined
            self._read_joined(path, number, raw, parts)
            return
        self._read_joined(path, number, raw)

    def _read_joined(
        self, path: str, number: int, raw: str, parts: list[tuple[int, str]] | None = None
    ) -> None:
        for record in self._tag_join(path, number, raw, parts):
            self._read_record_of(*record)

    def _read_record_of(self, path: str, number: int, raw: str, parts: Sequence[tuple[int, str]]) -> None:
        """One record of one line or of several joined (`parts`, each line's number and text):
        the lines it went on over are shown with what it stated, as context."""
        before = len(self.events)
        self._read_piece(path, number, raw)
        if len(parts) < 2:
            return
        more = [Evidence(path, n, _clip(t)) for n, t in parts[1:]]
        for event in self.events[before:]:
            if (event.statement or event.ev).line == number:
                event.context.extend(more[: max(0, 16 - len(event.context))])

    def _tag_join(
        self, path: str, number: int, raw: str, pieces: list[tuple[int, str]] | None = None
    ) -> list[tuple[str, int, str, list[tuple[int, str]]]]:
        """A kernel driver's message whose sentence goes on over lines that repeat its tag (the
        NVIDIA driver's `[ 1843.3] NVRM: The NVIDIA GPU 0000:b3:00.0` / `NVRM: (PCI ID: 10de:26b5)
        installed in this system has` / `NVRM: fallen off the bus …`, dmesg indenting the lines
        after the first, a syslog repeating its prefix) is one record, numbered by its first line:
        the line a person points at is where the message begins. The records to read now."""
        out: list[tuple[str, int, str, list[tuple[int, str]]]] = []
        held, self.tagged = self.tagged, None
        line: Line | None = None
        if held is not None:
            h_path, h_number, h_raw, tag, node, parts = held
            line = prefixes.split(raw, self.model)
            rest = normalize.tag_goes_on(tag, line.text)
            if (
                rest is not None
                and line.node == node
                and normalize.kernel_goes_on(raw)
                and len(h_raw) + len(rest) < MAX_LINE
            ):
                joined, parts = f"{h_raw.rstrip()} {rest}", [*parts, (number, raw)]
                if len(parts) < TAG_LINES and normalize.tagged(prefixes.split(joined, self.model).text):
                    self.tagged = (h_path, h_number, joined, tag, node, parts)  # it goes on still
                else:
                    out.append((h_path, h_number, joined, parts))
                return out
            out.append((h_path, h_number, h_raw, parts))
        if ": " in raw[:200] and normalize.KERNEL_RECORD.search(raw[:200]) is not None:
            line = line or prefixes.split(raw, self.model)
            head = normalize.tagged(line.text)
            if head is not None and not lexicon.error_like(head[1], line.level):
                self.tagged = (path, number, raw, head[0], line.node, [(number, raw)])
                return out
        # (a record the log's wrapping cut over several lines: the lines it is made of)
        out.append((path, number, raw, pieces if pieces is not None else [(number, raw)]))
        return out

    def _unwrap(self, path: str, number: int, raw: str) -> tuple[int, str, list[tuple[int, str]]] | None:
        """A line cut at the log's wrapping width is read with the line that continues it, as one
        record numbered by its first line (unless the next line starts a record of its own), with
        the lines it is made of (a person points at the one that states the error)."""
        held, self.wrapped = self.wrapped, None
        piece = raw
        parts = [(number, raw)]
        if held is not None:
            if self.hanging:
                # (its rest is indented, which is not the record's own text: a word may be cut)
                goes_on = normalize.hangs(raw)
                raw = raw[normalize.LSF_INDENT :] if goes_on else raw
            elif self.weak:
                # (and no prefix of the file's own: a label, a host, a time starts a line)
                goes_on = normalize.continues(held[2], raw) and prefixes.split(raw, self.model).text == raw
            else:
                goes_on = bool(raw.strip()) and not _RECORD.match(raw) and not raw.startswith("Traceback")
                # a line a terminal padded with spaces to its width ended there (a cut falls in
                # the text, not in padding), and a glog header (`E1223 05:18:02.971000 …`) starts
                # a record of its own
                goes_on = goes_on and not held[2].endswith("  ") and _GLOG_HEAD.match(raw) is None
                goes_on = goes_on and not _same_writer(held[2], raw, self.model)
            if goes_on:
                number, raw, parts = held[1], held[2] + raw, [*held[3], (number, piece)]
            else:
                self._read_joined(held[0], held[1], held[2], held[3])
        # a piece that reaches the width again may go on over the next line too (a message of
        # three pieces and more)
        if len(piece) == self.wrap and len(raw) < MAX_LINE and not normalize.is_rule(piece):
            self.wrapped = (path, number, raw, parts[:16])
            return None
        return number, raw, parts

    def flush(self) -> None:
        """The end of the log: a line still waiting for its rest is read as it is."""
        held, self.wrapped = self.wrapped, None
        if held is not None:
            self._read_joined(*held)
        tagged, self.tagged = self.tagged, None
        if tagged is not None:
            self._read_record_of(tagged[0], tagged[1], tagged[2], tagged[5])
        if self.held is not None:
            self._guess(*self.held)

    def _read_piece(self, path: str, number: int, raw: str) -> None:
        if len(raw) > MAX_LINE:
            raw = raw[:MAX_LINE]
        line = prefixes.split(raw, self.model, number)
        parts = normalize.split_records(line.text)
        if len(parts) == 1:
            self._read_record(path, number, raw, line)
            return
        # one line holding several records (a paste that lost its newlines, a progress bar that
        # lost its carriage return): each is read as a line of its own, with the line's prefixes
        self._read_record(path, number, raw, Line(*_who(line), parts[0], line.node, line.writer, line.level))
        for part in parts[1:]:
            own = prefixes.split(part, self.model)
            task, rank, local = _who(line)
            who = Line(
                task if own.task is None else own.task,
                rank if own.rank is None else own.rank,
                local if own.local_rank is None else own.local_rank,
                own.text,
                own.node or line.node,
                own.writer or line.writer,
                own.level,
            )
            self._read_record(path, number, part.strip(), who)

    def _read_record(self, path: str, number: int, raw: str, line: Line) -> None:
        self._piece += 1
        self.current = number
        text = line.text
        ev = Evidence(path, number, _clip(raw))
        order = (number, self._piece)
        self._labels(line)
        self.recent.append((ev, line, text))
        if not self.launcher_seen and identity.LAUNCHER_LINE.search(raw[:2000]) is not None:
            self.launcher_seen = True
        if " -H" in text or "-host" in text:
            # a launcher's host list with slots: where each rank runs, as it places them
            for rank, host in identity.slot_hosts(text[:MAX_LINE]).items():
                self.slot_node.setdefault(rank, host)
        if line.writer is not None and "nranks" in text:
            self._nccl_comm(line.writer, text)
        elif line.writer is not None and " -> " in text and ("Ring" in text or "Channel" in text):
            self._nccl_ring(line.writer, text)
        if (
            "JobI" in text
            and (a := _CTLD_ALLOCATE.search(text[:2000])) is not None
            and len(self.job_nodes) < 4096
        ):
            self.job_nodes.setdefault(a.group("job"), a.group("a") or a.group("b"))
        self._note_places(path, number, raw, line)
        if self.trace_left > 0:
            self.trace_left -= 1
        if "child_exception_type" in text:
            self.child_exec_at = number
        if "ostname" in text[:40] and (h := _FIELD_HOST.match(text)) is not None:
            self.field_host = (number, h.group("host"))
        if (
            line.node is not None
            and " -> " in text
            and len(self.nccl_failed_on) < 64
            and _NCCL_RETURN.match(text) is not None
        ):
            self.nccl_failed_on.add(line.node)
            self.nccl_failed_first = self.nccl_failed_first or ev
        if PROGRESS.search(text[:400]) is not None and len(self.progress) < MAX_PROGRESS:
            self.progress.append((number, line.task, line.rank))
        if text.startswith("+") and _XTRACE.match(text) is not None and len(self.xtrace) < MAX_PROGRESS:
            self.xtrace.append(number)
        if self.held is not None and self._rejoin(ev, line, text):
            return
        if text.startswith(("jobc: ", "jobc.runtime: ")):
            self._jobc_line(ev, text)
            return
        if self.last_error_left > 0 and self._last_error(ev, text):
            return
        if self.follow_left > 0 and self._follow(ev, text):
            return
        if self.table_left > 0:
            if self._table_line(ev, line, text):
                return
            if (self.table_root or self.failures_at is not None) and "rank" in self.table:
                self._table_block(line)  # the table stopped before its end: what it said stands
        key = (line.task, line.rank, line.local_rank, line.node, line.writer)
        if text.startswith("Exception ignored ") and len(self.unraisable) < 4096:
            # CPython's unraisable hook (`Exception ignored in: <_io.BufferedWriter name=83>`): the
            # exception below it, with or without its traceback, was printed and ignored, and the
            # process went on
            self.unraisable[key] = number
            return
        if self.cont is not None and self._continued(key, ev, line, text):
            return
        if self._traceback(key, ev, order, line, text):
            return
        self._match(ev, order, line, text)

    def _note_places(self, path: str, number: int, raw: str, line: Line) -> None:
        """Lines that say where the log's processes ran, for the findings to come: Open MPI's
        `*** reported by process [JOB,RANK]`, a shell's prompt before the kernel's log, PBS's
        `Exec host:` list."""
        text = line.text
        if "reported by process [" in text and (r := _MPI_REPORTED.search(text[:400])) is not None:
            self.mpi_reported[(line.node, line.writer)] = r.group("rank")
        b = _MPI_BINDING.search(normalize.clean(raw[:400])) if "MCW rank" in raw else None
        if b is not None and prefixes.is_host(b.group("host")) and len(self.nodes_seen) < 4096:
            self.rank_node.setdefault(int(b.group("rank")), b.group("host"))
            self.nodes_seen.add(b.group("host"))
        if "ip: " in text[:40] and (r := launch.RAY_IP_FIELD.match(text[:80])) is not None:
            self.ray_ip = (path, number, r.group("ip"))
        if (
            any(w in raw for w in _PROMPT_WORDS)
            and len(self.kernel_prompts) < 64
            and (p := _KERNEL_PROMPT.match(normalize.clean(raw[:2000]))) is not None
        ):
            self.kernel_prompts.append((path, number, p.group("host")))
        if "@" in raw[:200]:
            self._run_prompt(path, number, raw)
        if "torch" in raw:
            self._torchrun_command(path, number, raw)
        if "launch.py:" in raw and len(self.launch_nodes) < 16 and _DS_LAUNCH.search(raw[:400]) is not None:
            self._deepspeed_launch(line, text)
        if "executed on host" in text and (h := _LSF_EXEC_HOST.match(text[:20000])) is not None:
            hosts = set(_LSF_HOST.findall(h.group("hosts")))
            self.job_nodes.setdefault("", ",".join(sorted(hosts)))  # the log's one job
        if any(w in text.lower() for w in ("ode", "ostname", "unning on")) and (
            h := _ECHO_NODES.match(text[:400])
        ):
            nodes = h.group("nodes")
            if "[" in nodes or "," in nodes or prefixes.is_host(nodes):
                self.job_nodes.setdefault("", nodes)  # several say nothing of which one failed
        if "xec" in text and (h := _PBS_EXEC_HOST.match(text[:2100])) is not None:
            hosts = {part.split("/")[0] for part in h.group("hosts").split("+")}
            self.job_nodes.setdefault("", ",".join(sorted(hosts)))  # the log's one job
        if text.startswith("hostname ") and (h := _SGE_HOSTNAME.match(text[:300])) is not None:
            self.job_nodes.setdefault("", h.group("host"))  # SGE's accounting of the log's one job

    def _deepspeed_launch(self, line: Line, text: str) -> None:
        """DeepSpeed's launcher: the node count it logs, else where its lines come from. Its runner
        starts it on the local host alone for one node, and through pdsh for several, which puts
        each node's name before every line; under srun each node's launcher runs in a task. So
        its lines with neither say one node, where a local rank is the global rank (an
        inference: a paste may have dropped the prefixes), and a line with either says more."""
        if (n := _DS_NNODES.search(text[:400])) is not None:
            self.launch_nodes.add(n.group(1))
        elif line.node is not None or line.task is not None:
            self.launch_nodes.add("several")
        else:
            self.launch_nodes.add("1")

    def _labels(self, line: Line) -> None:
        who = (line.task, line.rank, line.local_rank, line.node)
        if who != (None, None, None, None) and len(self.labelled) < 4:
            self.labelled.add(who)
        if line.rank is not None and line.task is not None:
            self.rank_task.setdefault(line.rank, line.task)
        if line.local_rank is not None:
            self.launcher_seen = True
            if line.rank is not None and len(self.local_global) < 4096:
                paired = self.local_global.setdefault(line.local_rank, set())
                if len(paired) < 2:
                    paired.add(line.rank)
        if line.rank is not None and line.writer is not None and line.writer.startswith("pid "):
            # a process's own prefix (Ray's `(RayWorker pid=N)`) on a line that names its rank
            # (`[Rank 0] Watchdog caught …`): that pid is that rank, as the line says
            pid = line.writer[4:]
            if pid.isdigit() and len(self.pid_rank) < 65536:
                self.pid_rank.setdefault(pid, line.rank)
        if line.node is not None:
            pid = line.writer.rpartition(":")[2] if line.writer and ":" in line.writer else ""
            if pid.isdigit() and len(self.pid_node) < 65536:
                known = self.pid_node.setdefault(pid, line.node)
                if known != line.node:
                    self.pid_node[pid] = ""
            if line.rank is not None:
                self.rank_node.setdefault(line.rank, line.node)
            if line.task is not None:
                self.task_node.setdefault(line.task, line.node)
            if len(self.nodes_seen) < 4096:
                self.nodes_seen.add(line.node)

    def _nccl_comm(self, writer: str, text: str) -> None:
        """NCCL's communicator line pairs a process (host:pid) with its rank: the rank in the
        largest communicator it joined is its global rank, as far as the log shows."""
        m = _NCCL_COMM.search(text[:2000])
        if m is None or len(self.writer_rank) >= 65536:
            return
        rank, size = int(m.group("rank")), int(m.group("size"))
        known = self.writer_rank.get(writer)
        if known is None or size > known[1]:
            self.writer_rank[writer] = (rank, size)

    def _nccl_ring(self, writer: str, text: str) -> None:
        """NCCL's ring or channel line names the writing process's rank: first in `R[dev] -> R[dev]`,
        the sender of a `[send]`, the receiver of a `[receive]`."""
        m = _NCCL_RING.search(text[:2000])
        if m is None or len(self.ring_rank) >= 65536:
            return
        own = m.group("a") or (m.group("s") if m.group("dir") == "send" else m.group("r"))
        rank = int(own)
        known = self.ring_rank.get(writer, rank)
        self.ring_rank[writer] = rank if known == rank else None

    def _jobc_line(self, ev: Evidence, text: str) -> None:
        self.compiled = True
        if m := contract.MASTER.pattern.match(text):
            self.master = f"{m.group(1)}:{m.group(2)}"
            self.restart = max(self.restart, parse_int(m.group(3)) or 0)
        elif m := contract.LAYOUT.pattern.match(text):
            self.world = parse_int(m.group(1))
            self.torchrun = m.group(2) == "torchrun"
        elif m := contract.JOB.pattern.match(text):
            self.job_id = m.group(2)
            self.nodelist = m.group(4)
        elif contract.SIGNAL_FORWARDED.pattern.match(text):
            self.signals.append(ev)
        elif m := contract.STEP_END.pattern.match(text):
            code = parse_int(m.group(1))
            if code is not None:
                self.step_ends.append((ev, code))
        elif contract.REQUEUE.pattern.match(text):
            self.requeues.append(ev)
        elif contract.RUNTIME_WATCHDOG.pattern.search(text):
            self.watchdog.append(ev)

    def _last_error(self, ev: Evidence, text: str) -> bool:
        """NCCL's `Last error:` and the line after it: the detail of the error just read; and the
        reason c10d gave the communicator's abort, which its error's message ends with on a line
        of its own (`Process Group destroyed on rank 1`): the rank of the process that raised it."""
        self.last_error_left -= 1
        event = self.last_error
        if event is None:
            return False
        if "on rank" in text and (r := _ABORT_REASON.match(text)) is not None:
            event.fields.setdefault("rank", r.group("rank"))
            event.context.append(ev)
            return True
        if text.strip() == "Last error:":
            event.context.append(ev)
            self.last_error_armed, self.last_error_left = True, 1
            return True
        if text.startswith("Last error: "):  # the detail on the same line (a paste that lost its newlines)
            event.context.append(ev)
            self.last_error_left = 0
            return True
        if self.last_error_armed:
            self.last_error_armed, self.last_error_left = False, 0
            if text.strip():
                event.context.append(ev)
                return True
        return False

    def _follow(self, ev: Evidence, text: str) -> bool:
        """A line after a report that may hold its details: ActorDiedError's `ip:` field (the
        node of the dead worker), Hydra's `EXIT CODE: 9` or `KILLED BY SIGNAL: 9`, Open MPI's
        `Exit code:    1` under the first failed process's name."""
        self.follow_left -= 1
        if self.follow is None:
            return False
        kind, event = self.follow
        if kind == "ray":
            for died in (_by_code("L222"), _by_code("L210")):
                if died.search(text) is not None and event.cls != died.cls:
                    # the fields' next line says why the actor died: its node did, or the memory
                    # monitor killed it on a node low on memory (the node is the IP the fields named)
                    event.sig, event.cls, event.role, event.kind = died, died.cls, died.role, died.name
                    event.statement, event.strength = ev, strength_of(died)
                    event.context.append(event.ev)
                    self.follow_left = 0
                    return True
            m = launch.RAY_IP_FIELD.match(text)
            if m is None and event.kind == "ray-oom-killer":
                # the memory monitor's message wrapped: its node's IP on a later piece
                m = launch.RAY_NODE.search(text[:MAX_LINE])
            if m is None:
                return False
            if "node" not in event.fields and m.group("ip") not in launch.NOT_A_NODE:
                event.fields["node"] = m.group("ip")
            event.context.append(ev)
            # the line after the fields may say why the actor died
            self.follow_left = min(self.follow_left, 2)
            return True
        if kind == "mpirun-exit":
            c = launch.MPIRUN_EXIT_CODE.match(text)
            if c is None:
                return False
            event.fields["exit_code"] = c.group("code")
            event.context.append(ev)
            self.follow_left = 0
            return True
        if kind == "horovod-exit":
            if (p := launch.HOROVOD_PROCESS.match(text)) is not None:
                event.fields.setdefault("node", p.group("node"))
                event.fields.setdefault("local_rank", p.group("local"))
            elif (c := launch.MPIRUN_EXIT_CODE.match(text)) is not None:
                event.fields["exit_code"] = c.group("code")
                self.follow_left = 0
            else:
                return False
            event.context.append(ev)
            return True
        if kind == "mpi-exec":
            return self._mpi_exec(ev, text, event)
        if kind == "root-errors":
            if py.ROOT_ERRORS in text:
                return True  # (the count, on a line of its own: the errors follow)
            r = py.ROOT_ERROR.match(text)
            if r is None:
                return False
            event.fields["message"] = f"{event.fields.get('message', '')} (0) {r.group('what')}"[-2000:]
            event.context.append(ev)
            self.follow_left = 0
            return True
        if kind == "mpi-stack":
            st = net.MPI_STACK_LINE.match(text)
            if st is None:
                self.follow_left = 0
                return False
            if net.MPI_PMI_FAILED.search(st.group(0).strip()) is not None:
                # MPI_Init could not reach the process manager: the processes never met
                event.cls = "rendezvous"
                event.fields["what"] = st.group("what").strip()[:200]
                event.context.append(ev)
                self.follow_left = 0
            return True
        if kind == "mpirun-node":
            n = launch.MPIRUN_EXIT_NODE.match(text)
            if n is None:
                return False
            event.fields["node"] = n.group("node")
            event.context.append(ev)
            self.follow_left = 0
            return True
        if kind == "mpi-daemon":
            d = launch.MPI_DAEMON_NODE.match(text)
            if d is None:
                return False
            event.fields.setdefault("node", d.group("node"))
            event.context.append(ev)
            self.follow_left = 0
            return True
        if kind == "mpirun":
            self.follow_left = 0
            w = launch.MPIRUN_SIGNAL.match(text)
            if w is not None:
                event.fields["signum"] = w.group("signum")
                event.context.append(ev)
            return False
        return self._hydra(ev, text, event)

    def _mpi_exec(self, ev: Evidence, text: str, event: Event) -> bool:
        """The node and rank under Open MPI's report that it could not execute the program."""
        if (m := launch.MPIRUN_EXEC_NODE.match(text)) is not None:
            event.fields.setdefault("node", m.group("node"))
            event.context.append(ev)
            return True
        if (m := launch.MPIRUN_EXEC_RANK.search(text[:400])) is not None:
            event.fields.setdefault("rank", m.group("rank") or m.group("rank2"))
            event.context.append(ev)
            if "node" in event.fields:  # (the report that names the rank first names its node after)
                self.follow_left = 0
            return True
        return False

    def _hydra(self, ev: Evidence, text: str, event: Event) -> bool:
        h = launch.HYDRA_END.search(text[:2000])
        if h is None:
            return False
        event.context.append(ev)
        if h.group("code") is not None:
            event.fields.setdefault("exit_code", h.group("code"))
            return True  # (the banner's own line, read: no report of its own)
        elif (signum := h.group("signum") or h.group("signum2")) is not None:
            code = parse_int(str(event.fields.get("exit_code", "")))
            if code is not None and code > 128 and code - 128 != parse_int(signum):
                # `EXIT CODE: 134` (128 + SIGABRT) and then `EXIT STRING: Terminated (signal 15)`:
                # the exit string is of the cleanup's SIGTERM, the banner's code of the process
                self.follow_left = 0
                return False
            event.fields["signum"] = signum
            event.fields.pop("exit_code", None)  # Hydra's EXIT CODE was the signal's number
            self.follow_left = 0
        return False

    def _continued(self, key: tuple[Any, ...], ev: Evidence, line: Line, text: str) -> bool:
        """A line that goes on with the message of the exception just read: the message is read
        whole, and the exception reclassified by it (`errno: 98 - Address` / `already in use`)."""
        assert self.cont is not None
        event, where, left, message = self.cont
        self.cont = None
        if (
            not message.strip()
            and key == where
            and text.strip()
            and f"{event.fields.get('type', '')}: {text.strip()}" in (event.statement or event.ev).text
        ):
            # the exception's own message, which the cut of its line at a command's error line
            # (`SubmitException: sbatch: error: …`) made a record of its own
            event.fields["message"] = text.strip()[:2000]
            self.cont = (event, where, left, text.strip()[:2000])
            return True
        # a bare type (`AssertionError`) has no message to go on: Python prints a message on the
        # type's own line, so what follows is another record (the batch script's next error)
        if not message.strip() or left <= 0 or key != where or not text.strip():
            return False
        if line.level is not None or _RECORD.match(text):
            return False
        alone = self._classify(text)
        message = f"{message} {text.strip()}"[:2000]
        self.cont = (event, where, left - 1, message)
        if len(event.context) < 16:
            event.context.append(ev)
        if (
            alone is not None
            and event.cls == "exception"
            and event.sig is not None
            and event.sig.code == "P104"
            and _TOOL_SAID.match(event.fields.get("message") or "") is not None
        ):
            # an exception that carries a tool's own output (PSI/J's SubmitException holding
            # sbatch's refusal): the tool's statement on the next line is the failure, and the
            # exception only the way it reached the log
            event.sig, event.cls, event.role, event.kind = alone, alone.cls, alone.role, alone.name
            event.strength, event.statement = max(event.strength, strength_of(alone)), ev
            if (m := alone.search(text)) is not None:
                for k, v in m.groupdict().items():
                    if v is not None:
                        event.fields.setdefault(k, v)
            self.cont = None
            return True
        if event.cls == "exception" and event.sig is not None and event.sig.code == "P104":
            sig = self._classify(f"{event.fields.get('type', '')}: {message}")
            # a line a signature reads on its own says its own failure: it does not reclassify
            # the exception above it (only a message cut in two is read whole)
            if sig is not None and sig.code != "P104" and sig is not alone:
                event.sig, event.cls, event.role, event.kind = sig, sig.cls, sig.role, sig.name
                event.strength = max(event.strength, strength_of(sig))
            elif lexicon.open_type(name := str(event.fields.get("type", ""))):
                # the words of the whole message name what failed (PaddlePaddle's enforce message:
                # `SystemError: … BadAlloc exception.` / `:ResourceExhaustedError:` / `Out of memory
                # error on GPU 0. …`), as they would on one line
                worded = lexicon.classify(f"{name}: {message}")
                if worded is not None and worded[0] in _EXPLAINS_AN_EXCEPTION:
                    event.cls, event.fields["worded"] = worded[0], worded[0]
        # a line a signature reads on its own is also an event of its own (its fields: a node)
        return not any(s.search(text) for s in self.catalogue if s.code != "P104")

    # -- torchrun's table ------------------------------------------------------------------

    def _table_line(self, ev: Evidence, line: Line, text: str) -> bool:
        """torchrun's ChildFailedError table: `  rank      : 5 (local_rank: 1)` and its fellows."""
        self.table_left -= 1
        m = _TABLE_FIELD.match(text)
        if m:
            self.table[m.group(1)] = m.group(2).strip()
            self.table_lines[m.group(1)] = ev
            if m.group(1) == "traceback":
                self._table_block(line)
            return True
        if self._table_rendered(ev, text):
            return True
        if text.startswith("[") or text.startswith("-") or text.startswith("="):
            self._table_block(line)
            if text.startswith("="):
                self.table_left = 0
            return True
        return False

    def _table_rendered(self, ev: Evidence, text: str) -> bool:
        """The table as a web page showed it, copied: each field's name alone on a line (`time`,
        `host`) and its value on a line after them in the same order, and the rank and exit code
        glued into one line (`rank2 (local rank: 2)exitcode: -9 (pid: 36071)error file: <N/A>`)."""
        word = text.strip()
        if word in ("time", "host") and word not in self.table and len(self.table_names) < 2:
            self.table_names.append(word)
            return True
        glued = _TABLE_GLUED.match(text)
        if glued is not None:
            self.table["rank"] = f"{glued['rank']} (local_rank: {glued['local']})"
            self.table["exitcode"] = f"{glued['code']} (pid: {glued['pid']})"
            self.table_lines["rank"] = self.table_lines["exitcode"] = ev
            self.table_names.clear()
            return True
        if self.table_names and word and ":" not in word[:4] and len(word) < 200:
            name = self.table_names.pop(0)
            self.table[name], self.table_lines[name] = word, ev
            return True
        return False

    def _table_block(self, line: Line) -> None:
        """One failure block is complete: remember its rank's host, and report the root cause."""
        table, self.table = self.table, {}
        where, self.table_lines = self.table_lines, {}
        self.table_names.clear()
        if "rank" not in table:
            return
        rank_m = _LEADING_INT.match(table["rank"])
        rank = parse_int(rank_m.group(1)) if rank_m else None
        host = table.get("host")
        if rank is not None and host and host not in ("<N/A>", ""):
            self.rank_node.setdefault(rank, host)
            self.nodes_seen.add(host)
            # torchrun numbers a node's workers in one run (group rank x local world size +
            # local rank): the ranks from this one's first local rank up to it share its host
            local = _LOCAL_IN_TABLE.search(table["rank"])
            first = rank - int(local.group(1)) if local else rank
            for other in range(max(first, 0, rank - 1024), rank):
                self.rank_node.setdefault(other, host)
        pid = re.search(r"\(pid: ([0-9]{1,10})\)", table.get("exitcode", ""))
        if rank is not None and pid is not None and len(self.pid_rank) < 65536:
            self.pid_rank.setdefault(pid.group(1), rank)
        if not self.table_root and self.failures_at is not None:
            if self.failure is None or _earlier(table, self.failure[0]):
                self.failure = (table, where)
            return
        if not self.table_root or self.table_at is None:
            return
        self.table_root = False
        self.root_told = True
        self._root_event(table, where, self.table_at, line)

    def _root_event(
        self,
        table: dict[str, str],
        where: dict[str, Evidence],
        at: Evidence,
        line: Line,
        listed: bool = False,
    ) -> None:
        rank_m = _LEADING_INT.match(table.get("rank", ""))
        rank = parse_int(rank_m.group(1)) if rank_m else None
        host = table.get("host")
        fields = _table_fields(table, rank, host)
        if listed:
            # a failure the table lists, not the one its `Root Cause` names (cut off): which rank
            # failed first is not said
            fields["listed"] = True
        # the statement: the signal the traceback field names, else the exit code
        statement = where.get("traceback") if _SIGNAL_NUMBER.search(table.get("traceback", "")) else None
        statement = statement or where.get("exitcode") or at
        context = [*(where[k] for k in ("exitcode", "traceback") if k in where), at]
        context += [where[k] for k in ("rank", "host") if k in where]
        self._event(_by_code("L202"), at, (at.line, 0), line, fields, statement=statement, context=context)

    def table_from_flat(self, ev: Evidence, line: Line, rest: str) -> bool:
        """A table flattened onto its `Root Cause` line: its fields follow on the same line."""
        fields = normalize.split_flat_table(rest)
        if not fields:
            return False
        self.table, self.table_lines = fields, dict.fromkeys(fields, ev)
        self.table_root, self.table_at = True, ev
        self._table_block(line)
        return True

    # -- Python tracebacks -----------------------------------------------------------------

    def _traceback(
        self, key: tuple[Any, ...], ev: Evidence, order: tuple[int, int], line: Line, text: str
    ) -> bool:
        if text.startswith("Exception in thread ") and text.rstrip().endswith(":") and '"' not in text:
            # (Python's threading: `Exception in thread Thread-3:`, `… Thread-1 (run):`; the JVM's
            # `Exception in thread "main" java.lang…` is an exception of its own)
            self.thread_said = self.current
        if self.tracebacks == 0 and text.lstrip().startswith('File "') and '.py", line ' in text:
            self.tracebacks = 1  # a frame of a Python file: a paste may start inside the traceback
        if text.startswith("Traceback (most recent call last):"):
            self.tracebacks += 1
            rest = text[len("Traceback (most recent call last):") :]
            if len(rest.strip()) > 8 and self._flattened(key, ev, order, line, rest):
                return True
            chained = key in self.chain_pending
            self.chain_pending.discard(key)
            if key in self.open_tb:
                self._unclosed(self.open_tb[key], line)
            if len(self.open_tb) < 4096 or key in self.open_tb:
                thread = 0 < self.current - self.thread_said <= _THREAD_HEADER_LINES
                tail: deque[tuple[Evidence, str]] = deque(maxlen=TRACEBACK_TAIL)
                self.open_tb[key] = _OpenTraceback(ev, self.current, tail, chained, thread)
            return True
        if text.startswith(("The above exception was the direct cause", "During handling of the above")):
            self.chain_pending.add(key)
            return True
        opened = self.open_tb.get(key)
        if opened is None and key == _NOBODY and len(self.open_tb) == 1:
            # a logger prefixes a record's first line only (`rank:  3 | … CRITICAL | Traceback …`):
            # the one traceback open goes on over the bare lines after it, and they are its writer's
            key, opened = next(iter(self.open_tb.items()))
            line = Line(key[0], key[1], key[2], line.text, key[3], key[4], line.level)
        if opened is None:
            self._expire()
            return False
        if text.startswith((" ", "\t")) or not text.strip():
            opened.tail.append((ev, text))
            return True
        m = _EXC_NAME.match(text)
        name = m.group(0) if m else ""
        rest = text[len(name) :]
        if not (m and _is_exception(name) and (rest == "" or rest.startswith(":"))):
            if _CODE.match(text) is None and self._classify(text) is not None:
                # a line a signature reads as a failure, though not shaped as the exception line
                # (tracebacks of several processes interleaved, the exception's type garbled)
                del self.open_tb[key]
                found = _ANY_EXCEPTION.search(text[:2000])
                name = found.group(0) if found else "error"
                message = text[len(name) :].lstrip(":. ") if text.startswith(name) else text
                self._exception(key, opened, ev, order, line=line, name=name, message=message)
                return True
            opened.tail.append((ev, text))
            self._expire()
            return True
        del self.open_tb[key]
        message = rest[1:].strip() if rest else ""
        self._exception(key, opened, ev, order, line=line, name=name, message=message)
        return True

    def _flattened(
        self, key: tuple[Any, ...], ev: Evidence, order: tuple[int, int], line: Line, rest: str
    ) -> bool:
        """A traceback pasted with its newlines lost: frames and the exception on one line."""
        found = None
        for m in _INLINE_EXCEPTION.finditer(rest[:MAX_LINE]):
            if _is_exception(m.group(1)):
                found = m
        if found is None:
            return False
        tail: deque[tuple[Evidence, str]] = deque(maxlen=TRACEBACK_TAIL)
        for frame in _INLINE_FRAME.finditer(rest[: found.start()]):
            tail.append((ev, frame.group(0)))
        opened = _OpenTraceback(ev, self.current, tail, chained=False)
        message = (found.group(2) or "").strip()
        self._exception(key, opened, ev, order, line=line, name=found.group(1), message=message)
        return True

    def _expire(self) -> None:
        """Give up on tracebacks whose exception line never came (a lost paste, a killed rank)."""
        stale = [k for k, tb in self.open_tb.items() if self.current - tb.opened_at > TRACEBACK_WINDOW]
        for k in stale:
            self._unclosed(self.open_tb.pop(k), _line_of(k))

    def _unclosed(self, opened: _OpenTraceback, line: Line) -> None:
        """A traceback whose exception line never came: its innermost frame is the most error-like
        line the log has of it (class unknown, strength 1), with the traceback's header."""
        frames = [(e, t) for e, t in opened.tail if _FRAME.match(t)]
        if not frames:
            return
        ev, text = frames[-1]
        what = f"a traceback without its exception line (cut off?), last in {text.strip()[:200]}"
        self._event(
            None, ev, (ev.line, self._piece), line, {"what": what}, context=[opened.start], strength=1
        )

    def _exception(
        self,
        key: tuple[Any, ...],
        opened: _OpenTraceback,
        ev: Evidence,
        order: tuple[int, int],
        *,
        line: Line,
        name: str,
        message: str,
    ) -> None:
        frames = [(e, f) for e, t in opened.tail if (f := _FRAME.match(t))]
        fields: dict[str, Any] = {"type": name, "message": message, "frame": None, "user_frame": None}
        context = [opened.start]
        if frames:
            e, f = frames[-1]
            fields["frame"] = f"{f.group('func')} at {f.group('file')}:{f.group('line')}"
            user = next((x for x in reversed(frames) if _user_file(x[1].group("file"))), None)
            if user is not None:
                fields["user_frame"] = (
                    f"{user[1].group('func')} at {user[1].group('file')}:{user[1].group('line')}"
                )
                context.insert(0, user[0])
            if e not in context:
                context.append(e)
        for _, t in opened.tail:
            # a remote task's traceback under Ray's header, which says on which node it ran
            rn = launch.RAY_TASK_NODE.search(t[:MAX_LINE])
            if rn is not None and rn.group("node") not in launch.NOT_A_NODE:
                fields["node"] = rn.group("node")
        previous = self.last_exception.get(key)
        if opened.chained and previous is not None:
            # `raise B from A`: one failure, told twice; keep where it began and the more
            # specific of the two classes.
            previous.fields["then"] = f"{name}: {message}"[:300]
            previous.more.append(ev)
            sig = self._classify(f"{name}: {message}")
            if previous.cls == "exception" and sig is not None and sig.code != "P104":
                previous.sig, previous.cls, previous.role, previous.kind = sig, sig.cls, sig.role, sig.name
                previous.statement, previous.strength = ev, strength_of(sig)
                if (m := sig.search(f"{name}: {message}")) is not None:
                    for k, v in m.groupdict().items():  # what it reads: a signal, an exit code, ...
                        if v is not None:
                            previous.fields.setdefault(k, v)
            return
        if name.endswith("ChildFailedError"):
            # torchrun's agent reporting its workers: its table is read instead (and this line
            # stands for it when the table was cut off)
            self.child_failed = self.child_failed or (ev, order, line)
            return
        self._spawned_worker(opened, fields, line)
        if _spawn_raised(name, message, frames):
            # spawn's parent saying a worker raised: a report of that worker's end, whose own
            # exception (its traceback follows the `-- Process N` line) is the failure
            event = self._event(
                _by_code("L232"), opened.start, order, line, fields, statement=ev, context=context
            )
            if event is not None:
                self.spawn_report = (event, ev.line)
            return
        # a launcher's report of a worker's signal raised as an exception (spawn's
        # ProcessExitedException, a CalledProcessError) is that report, with its traceback
        sig = self._classify(f"{name}: {message}") or self._reported(f"{name}: {message}") or _by_code("P104")
        if sig.code == "P104" and _meeting_failed(message, [t for _, t in opened.tail]):
            sig = _by_code("N406")  # a timeout in the code that meets the other ranks: the rendezvous
        if sig.code != "P104" and (m := sig.search(f"{name}: {message}")) is not None:
            # what the signature reads in the exception's message (a signal, an exit code, ...)
            for k, v in m.groupdict().items():
                if v is not None:
                    fields.setdefault(k, v)
        # (a thread's exception ends that thread; its process goes on, and a failure of its own,
        # stated after, is what ended it)
        strength = None if sig.report else (2 if opened.thread else 3)
        event = self._event(
            sig, opened.start, order, line, fields, statement=ev, context=context, strength=strength
        )
        if event is not None and sig.code == "P104":
            _reword(event, name, message)
            self._exec_failed(event, name, message)
            self._note_generic(event, name, line)
        if event is not None:
            self.last_exception[key] = event
            self.cont = (event, key, CONTINUATION_LINES, message)

    def _spawned_worker(self, opened: _OpenTraceback, fields: dict[str, Any], line: Line) -> None:
        """The exception of the worker spawn's `-- Process N terminated with the following error:`
        just named (its traceback opened after that line) takes N as its local rank."""
        if self.spawn_child is None:
            return
        index, at = self.spawn_child
        if opened.start.line > at and opened.start.line - at <= SPAWN_GAP and line.local_rank is None:
            fields.setdefault("local_rank", index)
            fields["local_inferred"] = True  # spawn's index, which the program takes as its local rank
        self.spawn_child = None

    def _spawn_index(self, fields: dict[str, Any], ev: Evidence, order: tuple[int, int], line: Line) -> None:
        """spawn's `-- Process N terminated with the following error:` line: the index of the worker
        whose traceback follows, and of the parent's report just read (one report, not two)."""
        index = str(fields.get("local_rank", ""))
        self.spawn_child = (index, ev.line) if index.isdigit() else None
        report, self.spawn_report = self.spawn_report, None
        if report is not None and 0 <= ev.line - report[1] <= SPAWN_GAP:
            report[0].fields.setdefault("local_rank", index)
            if len(report[0].context) < 16:
                report[0].context.append(ev)
            return
        self._event(_by_code("L232"), ev, order, line, fields)

    def _hydra_report(
        self, sig: Signature, fields: dict[str, Any], ev: Evidence, order: tuple[int, int], line: Line
    ) -> None:
        """Hydra's `Set the environment variable HYDRA_FULL_ERROR=1 …`: the error it reported is the
        block of lines just above (after a blank line, as Hydra prints it). A traceback there
        states it on its exception line, read as such; a compact error (an override Hydra cannot
        parse, a config it cannot find) is that block, stated on its first line."""
        block: list[tuple[Evidence, Line, str]] = []
        for r_ev, r_line, r_text in reversed(self.recent):
            if r_ev.file != ev.file or r_ev.line >= ev.line:
                continue
            if not r_text.strip():
                if block:
                    break
                continue
            if block and r_ev.line != block[-1][0].line - 1:
                break  # a blank line (never read) parts the block from what came before
            block.append((r_ev, r_line, r_text))
            if len(block) >= HYDRA_BLOCK:
                break
        block.reverse()
        if any(_TRACEBACK_PART.match(t) for _, _, t in block):
            return  # the traceback's exception line states it
        if not block:
            # the error Hydra reported is not in the log (a paste that starts here): a failure of
            # the program's own, what it was not said
            self._event(sig, ev, order, line, fields, strength=2)
            return
        first, first_line, first_text = block[0]
        fields["what"] = first_text.strip()
        context = [e for e, _, _ in block[1:]] + [ev]
        self._event(sig, first, (first.line, order[1]), first_line, fields, statement=first, context=context)

    def _exec_failed(self, event: Event, name: str, message: str) -> None:
        """An OSError that CPython's subprocess re-raised from its child (`raise
        child_exception_type(…)` just above it): the program the child was to run could not be
        executed (`[Errno 2] No such file or directory: 'squeue'`), not a file the program read."""
        at = self.child_exec_at
        stated = event.statement or event.ev
        if at is None or not 0 <= stated.line - at <= _EXEC_FAILED_LINES:
            return
        m = _EXEC_FAILED.match(f"{name.rpartition('.')[2]}: {message}")
        if m is None:
            return
        event.cls, event.fields["worded"] = "missing_program", "missing_program"
        event.fields["command"] = m.group("command")
        # (the frame above says so: a stated failure, whether or not the traceback's header was read)
        event.strength = 3

    # -- one line against the catalogue ----------------------------------------------------

    def _match(self, ev: Evidence, order: tuple[int, int], line: Line, text: str) -> None:
        if "Root Cause (first observed failure)" in text:
            rest = text.partition("Root Cause (first observed failure):")[2]
            if rest.strip() and self.table_from_flat(ev, line, rest):
                return
            self.table_left, self.table, self.table_lines = TABLE_LINES, {}, {}
            self.table_root, self.table_at, self.failures_at = True, ev, None
            return
        if text.startswith("Failures:"):
            self.table_left, self.table, self.table_lines = TABLE_LINES, {}, {}
            self.failures_at = ev
            return
        fx = _FIELD_EXCEPTION.match(text) if ":" in text[:40] else None
        if fx is None and '"message": "' in text:
            fx = _JSON_EXCEPTION.search(text[:MAX_LINE])
        if fx is not None and _is_exception(fx.group("type")):
            self._field_exception(ev, order, line, fx.group("rest"))
            return
        if (m := _LIGHTNING_WORLD.search(text)) is not None:
            self.world = self.world or parse_int(m.group(3))
        for sig in self.catalogue:
            m = sig.search(text)
            if m is not None:
                self._matched(sig, m, ev, order, line)
                return
        if text.startswith(("sbatch: error: ", "salloc: error: ")):
            self.submit_said.append(ev)
        self._fallback(ev, order, line, text)

    def _field_exception(self, ev: Evidence, order: tuple[int, int], line: Line, rest: str) -> None:
        """A status report's field that holds a process's exception (torchx's replica `error_msg:
        ValueError: …`, a YAML or JSON `message`): the exception, read as its own line, on the host
        the report's `hostname:` field just named."""
        node = line.node
        if node is None and self.field_host is not None and 0 < ev.line - self.field_host[0] <= FIELD_GAP:
            node = self.field_host[1]
        inner = Line(line.task, line.rank, line.local_rank, rest, node, line.writer, line.level)
        for sig in self.catalogue:
            m = sig.search(rest)
            if m is not None:
                self._matched(sig, m, ev, order, inner)
                return

    def _matched(
        self, sig: Signature, m: re.Match[str], ev: Evidence, order: tuple[int, int], line: Line
    ) -> None:
        fields = {k: v for k, v in m.groupdict().items() if v is not None}
        strength = None
        if self.abort_at is not None and sig.code != "G306" and line.text.lstrip().startswith("what():"):
            # the what() of a C++ abort that another signature reads: the abort's failure
            before = len(self.events)
            self._matched_one(sig, fields, ev, order, line)
            if len(self.events) > before:
                self.events[-1].context.insert(0, self.abort_at)
                self.events[-1].fields["abort"] = True
            self.abort_at = self.abort_line = None
            return
        if sig.code == "L232":
            self._spawn_index(fields, ev, order, line)
            return
        if sig.code == "P112":
            self._hydra_report(sig, fields, ev, order, line)
            return
        if sig.code == "B613" and (reason := self._lsf_reason(ev)) is not None:
            # LSF's report gives the job's end twice, its reason (`TERM_OWNER: job killed by owner.`)
            # then the code it left (`Exited with exit code 129.`): one end, the reason's
            reason.context.append(ev)
            return
        if sig.code == "N422" and line.text.startswith("RPC: ") and len(self.recent) >= 2:
            # newer XLA's status: its code and message on the line above the call's (`DEADLINE_EXCEEDED:
            # Deadline Exceeded` / `RPC: /tensorflow.CoordinationService/RegisterTask`)
            above, _, said = self.recent[-2]
            before = len(self.events)
            self._matched_one(sig, fields, ev, order, line, strength=strength)
            if len(self.events) > before and _GRPC_STATUS.match(said):
                self.events[-1].statement = above
                self.events[-1].context.append(ev)
            return
        if sig.code == "N417" and "rank" not in fields:
            # Open MPI's error block: `*** reported by process [JOB,RANK]` came a line or two before
            rank = self.mpi_reported.get((line.node, line.writer))
            if rank is not None:
                fields["rank"] = rank
        before = len(self.events)
        self._matched_one(sig, fields, ev, order, line, strength=strength)
        if (
            sig.code == "S514"
            and line.text.startswith("/bin/sh: ")
            and self.progress
            and len(self.events) > before
        ):
            # the program's own shell (subprocess's shell=True) not finding a helper mid-run
            # (`/bin/sh: gpustat: command not found`): the program goes on, so no end of the job's
            self.events[-1].role = "context"

    def _lsf_reason(self, ev: Evidence) -> Event | None:
        """The event of LSF's exit reason (`TERM_RUNLIMIT: …`, `TERM_OWNER: …`) on the lines just
        above, where its report gives the exit code after it."""
        last = self.events[-1] if self.events else None
        said = (last.statement or last.ev) if last is not None else None
        if last is None or said is None or not 0 < ev.line - said.line <= _LSF_REASON_LINES:
            return None
        return last if _LSF_REASON.match(said.text) is not None else None

    def _matched_one(
        self,
        sig: Signature,
        fields: dict[str, Any],
        ev: Evidence,
        order: tuple[int, int],
        line: Line,
        *,
        strength: int | None = None,
    ) -> None:
        if sig.code == "P104":
            name = fields.get("type", "")
            if name.endswith("ChildFailedError"):
                # torchrun's table follows, and is read on its own (this line stands for it when
                # the table was cut off, its traceback's header too)
                self.child_failed = self.child_failed or (ev, order, line)
                return
            if not _is_exception(name):
                self._fallback(ev, order, line, line.text)
                return
            fields["message"] = (fields.get("message") or "").strip()
            # an exception line without its traceback: classified by what it says
            sig = self._classify(f"{name}: {fields['message']}") or sig
            if sig.code == "P104" and _meeting_failed(fields["message"], ()):
                sig = _by_code("N406")
            strength = 2 if sig.code == "P104" else None
            event = self._event(sig, ev, order, line, fields, strength=strength)
            if event is not None:
                if sig.code == "P104":
                    _reword(event, name, fields["message"])
                    self._exec_failed(event, name, fields["message"])
                    self._note_generic(event, name, line)
                key = (line.task, line.rank, line.local_rank, line.node, line.writer)
                self.cont = (event, key, CONTINUATION_LINES, fields["message"])
            return
        elif sig.code == "G306":
            if "what" not in fields:
                self.abort_at = ev  # its what() comes on the next line and says which failure
                self.abort_line = (order, line, fields)
                return
            # a C++ abort says in its what() which failure it was
            inner = self._classify(fields["what"], exclude=("G306", "P104"))
            if inner is not None:
                fields["abort"] = True
                sig = inner
            first, self.abort_at, self.abort_line = self.abort_at, None, None
            context = [first] if first is not None else []
            event = self._event(sig, first or ev, order, line, fields, statement=ev, context=context)
            if event is not None and sig.cls in ("nccl_error", "gpu_error"):
                self.last_error, self.last_error_left = event, 3
            return
        elif sig.code == "L216" and (exc := fields.get("exc")) and _EXIT_WORDS.search(exc) is None:
            # the launcher could not start the command at all (ssh refused it, the host did not
            # answer): no process ended, so no exit code; the exception's words say what failed
            fields["what"] = f"{fields['what']} could not be started: {exc.strip()}"
            worded = lexicon.classify(exc)
            # (a connection's timeout here is ssh's, no collective's: only the classes of a
            # command that cannot start are taken from its words)
            if worded is not None and worded[0] in _CANNOT_START:
                fields.update(worded[1])
                self._event(None, ev, order, line, fields, strength=2, cls=worded[0])
            else:
                self._event(None, ev, order, line, fields, strength=1)
            return
        elif sig.code == "S518" and fields.get("tool") in ("sbatch", "salloc") and self.submit_said:
            # the lines sbatch wrote just before its refusal say why (a site's submit check): the
            # refusal's own reason is often only `Unspecified error`
            said = [e for e in self.submit_said if 0 < ev.line - e.line <= SUBMIT_SAID]
            self.submit_said.clear()
            if said:
                fields["said"] = said[-1].text.partition(": error: ")[2]
                self._event(sig, ev, order, line, fields, context=said)
                return
        elif sig.code == "B604" and fields.get("who") == "root":
            # root deletes a job for the scheduler (its wall clock, a preemption) or for an
            # administrator: the deletion does not say why, so it is not sure to be a user's cancel
            strength = 2
        elif sig.code == "N404" and (cf := net.NCCL_CUDA_FAILURE.search(fields.get("what", ""))):
            # NCCL passing on a failed CUDA call: the CUDA error is the failure
            inner = self._classify(f"CUDA error: {cf.group('cuda')}", exclude=("N404", "P104"))
            if inner is not None and inner.cls in ("gpu_error", "cuda_oom"):
                sig = inner
                if inner.cls == "gpu_error":
                    # a failed CUDA call NCCL made (`Cuda failure 'initialization error'`): the
                    # CUDA error's class, but NCCL's own failure reads alike, so not said for sure
                    fields["worded"] = inner.cls
        event = self._event(sig, ev, order, line, fields, strength=strength)
        if event is not None and sig.cls in ("nccl_error", "gpu_error"):
            self.last_error, self.last_error_left = event, 3

    def _fallback(self, ev: Evidence, order: tuple[int, int], line: Line, text: str) -> None:
        """A line no signature reads that says it is an error: the class its words name, at
        strength 2, or class unknown at strength 1 (`jobc.jobs.lexicon`)."""
        head = text[:2000]
        if not lexicon.error_like(head, line.level) or _CODE.match(head):
            return
        if self.held is not None:
            self._guess(*self.held)
        # held for one line: a message wrapped onto the next line may be one a signature reads
        self.held = (ev, order, line, head)

    def _guess(
        self,
        ev: Evidence,
        order: tuple[int, int],
        line: Line,
        text: str,
        placed: tuple[str, str, Evidence] | None = None,
    ) -> None:
        self.held = None
        fields: dict[str, Any] = {"what": text.strip()[:300]}
        context: list[Evidence] = []
        if (reported := self.mpi_reported.get((line.node, line.writer))) is not None:
            # Open MPI's error block: the process that wrote it said its rank (`*** reported by
            # process [JOB,RANK]`) a line or two before its error in words
            fields["rank"] = reported
        if placed is not None:
            # a failure the program states with the rank and host it happened on says more than
            # an error line: as much as a launcher's report of a process's end (strength 2)
            fields["rank"], fields["node"] = placed[0], placed[1]
            context.append(placed[2])
        worded = lexicon.classify(text)
        if worded is None:
            self._event(None, ev, order, line, fields, strength=1 if placed is None else 2, context=context)
            return
        cls, more = worded
        fields.update(more)
        self._event(None, ev, order, line, fields, strength=2, cls=cls, context=context)

    def _note_generic(self, event: Event, name: str, line: Line) -> None:
        if event.cls == "exception" and lexicon.open_type(name):
            self.generic = (event, (event.statement or event.ev).line, (*_who(line), line.node, line.writer))

    def _explain_generic(self, ev: Evidence, line: Line, cls: str) -> None:
        """A line in words right after an exception that left its class open, from the same
        writer, that names what kind of failure it was (PaddlePaddle's `SystemError: … BadAlloc
        exception.` / `The exception content is` / `Out of memory error on GPU 0`): the exception's
        message goes on there, and the exception takes that class (at medium confidence)."""
        if self.generic is None or cls not in _EXPLAINS_AN_EXCEPTION:
            return
        event, at, who = self.generic
        if event.cls != "exception" or not 0 < ev.line - at <= GENERIC_GAP:
            return
        if (*_who(line), line.node, line.writer) != who:
            return
        self.generic = None
        event.cls, event.fields["worded"] = cls, cls
        if len(event.context) < 16:
            event.context.insert(0, ev)

    def _rejoin(self, ev: Evidence, line: Line, text: str) -> bool:
        """The line after an error-like line no signature read: when it continues that line's
        message (no prefix of its own, or the same, and no record's start) and the two together
        are a message a signature reads (`… Watchdog caught collective operation timeout: ` /
        `WorkNCCL(SeqNum=2070, OpType=REDUCE, …`), they are one record, numbered by the first."""
        assert self.held is not None
        h_ev, h_order, h_line, h_text = self.held
        if "rank" in text and (d := _PLACED.match(text)) is not None:
            # the program's own words for which process failed, on the line after its error
            # (MAKER's `FATAL: Thread terminated, …` / `--> rank=69, hostname=cpu-54`)
            self._guess(h_ev, h_order, h_line, h_text, placed=(d.group("rank"), d.group("host"), ev))
            return True
        if text.strip() and not _RECORD.match(text) and _who(line) in (_who(h_line), (None, None, None)):
            joined = f"{h_text.rstrip()} {text.strip()}"
            for sig in self.catalogue:
                if sig.code == "P104":
                    continue
                m = sig.search(joined)
                if m is not None and sig.search(text) is None:
                    self.held = None
                    before = len(self.events)
                    self._matched(sig, m, h_ev, h_order, h_line)
                    if len(self.events) > before:
                        self.events[-1].context.append(ev)
                    return True
        self._guess(*self.held)
        return False

    def _reported(self, text: str) -> Signature | None:
        """The report of a process ended by a signal (as a launcher says it) that reads `text`: an
        exception that only carries how its worker ended (an exit code alone stays the exception's)."""
        for sig in self.catalogue:
            if sig.report and (m := sig.search(text)) is not None and m.groupdict().get("signal"):
                return sig
            if sig.code == "L221" and sig.search(text) is not None:
                return sig  # Horovod's report names the worker and its code on the lines after it
        return None

    def _classify(self, text: str, exclude: tuple[str, ...] = ("P104",)) -> Signature | None:
        """The first signature other than the generic exception line that reads `text`."""
        for sig in self.catalogue:
            if sig.code in exclude or sig.report:
                continue
            if sig.search(text) is not None:
                return sig
        return None

    # -- events ----------------------------------------------------------------------------

    def _event(
        self,
        sig: Signature | None,
        ev: Evidence,
        order: tuple[int, int],
        line: Line,
        fields: dict[str, Any],
        *,
        statement: Evidence | None = None,
        context: Sequence[Evidence] = (),
        strength: int | None = None,
        cls: str | None = None,
    ) -> Event | None:
        kind, cls, role = (sig.name, sig.cls, sig.role) if sig else _worded(cls)
        if cls in _EXPLAINS_AN_EXCEPTION and role == "cause" and self.generic is not None:
            self._explain_generic(ev, line, cls)
        if (
            role == "cause"
            and cls in lexicon.CAUGHT_CLASSES
            and line.level in lexicon.QUIET_LEVELS
            and (sig is None or sig.code not in _ANOTHERS_END)
        ):
            # a logger's warning (or info) that names an exception or a missing module says the
            # program caught it and went on (`WARNING logger.py:343 -- Could not instantiate
            # tf2_compat_logger: No module named …`): context, never the job's end. (What happened
            # to a process, a port taken, a peer gone, a worker dead, is a failure whatever the
            # level: torch's c10d and Ray's driver write those as warnings.)
            role = "context"
        if (
            sig is not None
            and sig.code == "G303"
            and "failed call to cuInit: CUDA_ERROR_NO_DEVICE" in ev.text
        ):
            # TensorFlow's probe for a GPU at start-up (stream_executor's cuda_driver.cc, logged at
            # E): on a node without one it runs on its CPUs and goes on; what ends it comes later
            role = "context"
        writer = (line.task, line.rank, line.local_rank, line.node, line.writer)
        ignored = self.unraisable.pop(writer, None) if self.unraisable else None
        if ignored is not None and 0 < ev.line - ignored <= UNRAISABLE_LINES:
            role = "context"  # the exception CPython's unraisable hook printed, and ignored
            fields["ignored"] = True
        event = Event(sig, kind, cls, role, ev, (ev.line, order[1]), line, fields)
        event.statement = statement or ev
        event.context = [e for e in context if e != event.statement]
        event.strength = strength if strength is not None else (strength_of(sig) if sig else 1)
        if cls == "missing_program":
            self.trace_left = 1
        if "node2" in fields:  # a format that names the node in another place
            fields.setdefault("node", fields.pop("node2"))
        if "signum2" in fields:  # ... or the signal
            fields.setdefault("signum", fields.pop("signum2"))
        _read_fields(event, line)
        if sig is not None and sig.code in ("L209", "L210") and "node" not in fields and self.ray_ip:
            # Ray's `ip:` field just above the statement (the block's header cut off): its node
            at_file, at, ip = self.ray_ip
            if at_file == ev.file and 0 < ev.line - at <= 2 and ip not in launch.NOT_A_NODE:
                fields["node"] = ip
        if sig is not None and sig.code in SIGNAL_SEEN:
            self.signals_seen.append(event.statement)
        if fields.get("tasks") and fields.get("node"):
            self._task_nodes(fields["tasks"], fields["node"])
        # the same signature from the same writer with the same words: one event, more evidence
        dedupe = (
            sig.code if sig else f"fallback {event.cls}",
            line.task,
            line.rank,
            line.local_rank,
            line.node,
            line.writer,
            str(fields.get("type")),
            str(fields.get("message", fields.get("what", "")))[:120] if sig else "",
            fields.get("rank"),
            fields.get("time"),
            # a Slurm job or step the line names: another job's (or the job's own, beside a
            # step's) line is another event, whichever slurmstepd wrote it
            fields.get("job"),
            # a line in words that names its own node (`nid06489:SCM:…: open_hca: failed`) is
            # another node's failure than its fellows' that name none
            identity.node_in_message(str(fields.get("what", ""))) if sig is None else None,
        )
        known = self.seen.get(dedupe)
        if known is not None:
            if len(known.more) < EVIDENCE_PER_EVENT:
                known.more.append(event.statement)
            return None
        if len(self.seen) < 100_000:
            self.seen[dedupe] = event
        if len(self.events) < MAX_EVENTS:
            self.events.append(event)
        self._follow_up(event)
        return event

    def _follow_up(self, event: Event) -> None:
        code = event.sig.code if event.sig else ""
        if code in identity.NODE_LAUNCHERS or event.fields.get("local_rank") is not None:
            self.launcher_seen = True
        if code == "L217":
            self.follow, self.follow_left = ("mpi-exec", event), launch.MPIRUN_EXEC_LINES
        if code in ("L209", "L210") and "node" not in event.fields:
            self.follow, self.follow_left = ("ray", event), launch.RAY_FIELD_LINES
        elif code == "L211" and "signum" not in event.fields:
            self.follow, self.follow_left = ("mpirun", event), 1
        elif code == "L213":
            self.follow, self.follow_left = ("mpirun-exit", event), launch.MPIRUN_EXIT_LINES
        elif code == "L221":
            self.follow, self.follow_left = ("horovod-exit", event), launch.HOROVOD_LINES
        elif code == "N418":
            self.follow, self.follow_left = ("mpi-stack", event), net.MPI_STACK_LINES
        elif code == "L212":
            self.follow, self.follow_left = ("hydra", event), launch.HYDRA_LINES
        elif code == "L220":
            self.follow, self.follow_left = ("mpi-daemon", event), launch.MPI_DAEMON_LINES
        elif code == "L236" and "node" not in event.fields:
            self.follow, self.follow_left = ("mpirun-node", event), 1
        elif code == "P111" or (
            code == "P104" and py.ROOT_ERRORS in str(event.fields.get("message", ""))[-300:]
        ):
            # (torch_xla's line may end before TensorFlow's count of its errors, on the next line)
            self.follow, self.follow_left = ("root-errors", event), py.ROOT_ERROR_LINES

    def _task_nodes(self, tasks: str, node: str) -> None:
        """srun names the node of the tasks it reports: remember it (a bounded number of them)."""
        for part in tasks.split(",")[:64]:
            a, _, b = part.partition("-")
            lo, hi = parse_int(a), parse_int(b) if b else parse_int(a)
            if lo is None or hi is None:
                continue
            for task in range(lo, min(hi, lo + 1023) + 1):
                self.task_node.setdefault(task, node)
            self.nodes_seen.add(node)

    # -- judging ---------------------------------------------------------------------------

    def diagnosis(
        self,
        job_id: str | None,
        state: str | None,
        exit_code: str | None,
        logs: Sequence[str],
        sacct_state: str | None = None,
    ) -> Diagnosis:
        final = sacct_state or state
        self.flush()
        if self.table_root and "rank" in self.table:
            # the log ends inside torchrun's table: what it said stands
            self._table_block(Line(None, None, None, ""))
        for key, opened in list(self.open_tb.items()):
            self._unclosed(opened, _line_of(key))
        self.open_tb.clear()
        if self.abort_at is not None and self.abort_line is not None:
            # C++'s terminate handler with no what() after it: the process aborted, why is not said
            order, line, fields = self.abort_line
            self._event(_by_code("G306"), self.abort_at, order, line, fields, strength=2)
            self.abort_at = self.abort_line = None
        if self.failures_at is not None and "rank" in self.table:
            self._table_block(Line(None, None, None, ""))  # the log ends inside the `Failures:` list
        if self.failure is not None and not self.root_told and self.failures_at is not None:
            # the table was cut before its `Root Cause` section: a failure it lists is what is known
            table, where = self.failure
            self._root_event(table, where, self.failures_at, Line(None, None, None, ""), listed=True)
        if self.child_failed is not None and not any(e.sig is not None and e.sig.report for e in self.events):
            # torchrun said a worker failed, and no table or other report says which one
            ev, order, line = self.child_failed
            self._event(_by_code("L202"), ev, order, line, {})
        found = judge(self, final)
        return Diagnosis(
            job_id=job_id or self.job_id,
            state=final,
            exit_code=exit_code,
            logs=list(logs),
            findings=found,
            restarts=self.restart,
            master=self.master,
            mode="torchrun" if self.torchrun else ("srun" if self.compiled and self.master else None),
            lines=self.lines,
            compiled=self.compiled,
        )


def _earlier(table: dict[str, str], than: dict[str, str]) -> bool:
    """Whether a failure block's time (`2023-04-25_13:29:47`, the same clock and shape in one
    table) is before another's: the first observed failure of those listed."""
    a, b = table.get("time", ""), than.get("time", "")
    return bool(a) and bool(b) and len(a) == len(b) and a < b


def _table_fields(table: dict[str, str], rank: int | None, host: str | None) -> dict[str, Any]:
    code_m = _LEADING_INT.match(table.get("exitcode", ""))
    code = parse_int(code_m.group(1)) if code_m else None
    lr = _LOCAL_RANK.search(table["rank"])
    sig = signal_of(code)
    sm = _SIGNAL_NUMBER.search(table.get("traceback", "")) or _SIGNAL_NUMBER.search(table.get("exitcode", ""))
    if sm:
        sig = sm.group(2)
    pid = re.search(r"\(pid: ([0-9]{1,10})\)", table.get("exitcode", ""))
    return {
        "rank": rank,
        "local_rank": parse_int(lr.group(1)) if lr else None,
        "node": host if host and host != "<N/A>" else None,
        "exit_code": code,
        "signal": sig,
        "error_file": table.get("error_file"),
        "pid": pid.group(1) if pid else None,
        "time": table.get("time"),
    }


def _read_fields(event: Event, line: Line) -> None:
    """Fields a few signatures read beyond their pattern: an endpoint, Ray's node."""
    fields, sig = event.fields, event.sig
    if event.cls in ("rendezvous", "port_in_use") and "endpoint" not in fields:
        m = net.ENDPOINT.search(line.text)
        if m is not None:
            fields["endpoint"] = f"{m.group('h1') or m.group('h2')}:{m.group('p1') or m.group('p2')}"
        else:
            for hp in net.HOST_PORT.finditer(line.text[:2000]):
                if not hp.group("h3").endswith(net.SOURCE_FILES):
                    fields["endpoint"] = f"{hp.group('h3')}:{hp.group('p3')}"
                    break
    if sig is not None and sig.code == "L209" and "pid" not in fields:
        # the raylet's report names the dead worker's pid: its rank, where the log pairs them
        wp = launch.RAY_WORKER_PID.search(line.text[:MAX_LINE])
        if wp is not None:
            fields["pid"] = wp.group("pid")
    if sig is not None and sig.code in ("L209", "L210") and "node" not in fields:
        rm = launch.RAY_NODE.search(line.text[:MAX_LINE])
        if rm is not None and rm.group("ip") not in launch.NOT_A_NODE:
            fields["node"] = rm.group("ip")


def _same_writer(head: str, rest: str, model: prefixes.Model) -> bool:
    """Whether `rest` starts with the prefix of the same node, writer or rank as `head` (NCCL's
    `host:pid:tid [dev]` on lines of one length, which look cut at a width; horovodrun's
    `Mon Jun  7 11:51:57 2021[1]<stderr>:` on each rank's lines): a record of its own,
    for a cut never falls where the writer's next line would begin."""
    a, b = prefixes.split(head, model), prefixes.split(rest, model)
    if b.text == rest:
        return False
    return any(
        y is not None and y == x
        for x, y in ((a.node, b.node), (a.writer, b.writer), (a.rank, b.rank), (a.task, b.task))
    )


def _meeting_failed(message: str, frames: Sequence[str]) -> bool:
    """A generic exception whose message says a meeting of the ranks failed (a timeout, a refused
    connection, a name that does not resolve), raised in the code that meets them or saying so."""
    if _MEETING_FAILED.search(message[:2000]) is None:
        return False
    return _RENDEZVOUS_WORDS.search(message[:2000]) is not None or any(
        _RENDEZVOUS_FRAME.search(t) for t in frames
    )


def _worded(cls: str | None) -> tuple[str, str, str]:
    """The kind, class and role of a line no signature read: the class its words name, else
    unknown (a collective's timeout is a symptom, as its signatures say)."""
    if cls is None:
        return "error-line", "unknown", "cause"
    return "worded-line", cls, "symptom" if cls == "collective_timeout" else "cause"


def _reword(event: Event, name: str, message: str) -> None:
    """An exception whose type leaves its class open and whose message no signature reads takes
    the class its message's words name (said at medium confidence)."""
    if event.cls != "exception" or not lexicon.open_type(name) or lexicon.NOT_BUILT.search(message[:2000]):
        return
    worded = lexicon.classify(f"{name}: {message}")
    if worded is None or worded[0] in ("exception", "exit_code"):
        return
    cls, more = worded
    event.cls, event.fields["worded"] = cls, cls
    event.role = "symptom" if cls == "collective_timeout" else event.role
    for k, v in more.items():
        event.fields.setdefault(k, v)


def _line_of(key: tuple[Any, ...]) -> Line:
    """The identity a traceback's key holds (task, rank, local rank, node, writer), as a line."""
    return Line(key[0], key[1], key[2], "", key[3], key[4])


def _who(line: Line) -> tuple[int | None, int | None, int | None]:
    return line.task, line.rank, line.local_rank


def _user_file(path: str) -> bool:
    return not any(lib in path for lib in _LIBRARY) and "/torch/" not in path


def _is_exception(name: str) -> bool:
    last = name.rpartition(".")[2]
    if last in py.BUILTIN_BASES:
        return True
    return last.endswith(py.EXCEPTION_SUFFIXES) and last not in py.EXCEPTION_SUFFIXES


#: How far the message of an exception that left its class open may go on after its line, and
#: the classes a line in words there may give it (what failed, not how the job ended).
GENERIC_GAP = 12
_EXPLAINS_AN_EXCEPTION = frozenset(
    {"cuda_oom", "gpu_error", "nccl_error", "disk_full", "port_in_use", "rendezvous"}
)
#: spawn's parent's exception, its `-- Process N` line and the worker's traceback are a few lines
#: apart (a blank line between; a paste may add one or two)
SPAWN_GAP = 6
#: spawn's report of a worker that raised: its ProcessRaisedException, or older torch's bare
#: `Exception` raised in spawn.py's join with the worker's traceback as its message
_SPAWN_JOIN = re.compile(r"multiprocessing[/\\]spawn\.py")


def _spawn_raised(name: str, message: str, frames: Sequence[tuple[Evidence, re.Match[str]]]) -> bool:
    if name.endswith("ProcessRaisedException"):
        return True
    if name != "Exception" or message.strip():
        return False
    return (
        bool(frames)
        and frames[-1][1].group("func") == "join"
        and bool(_SPAWN_JOIN.search(frames[-1][1].group("file")))
    )


def _by_code(code: str) -> Signature:
    for sig in CATALOGUE:
        if sig.code == code:
            return sig
    raise KeyError(code)


def _clip(text: str, width: int = EVIDENCE_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"
