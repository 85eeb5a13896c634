"""What triage finds, as data: evidence lines, findings, the diagnosis of a log, the events the
reader collects and the facts about the job it gathers (`Facts`), which the judge
(`jobc.jobs.judge`) turns into findings; and what exit codes and signals mean."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any

from jobc.jobs import labels
from jobc.jobs.signatures import Signature
from jobc.tables.contract import HANG_EXIT_CODE, REQUEUE_EXIT_CODE, WATCHDOG_EXIT_CODE

MAX_INT_DIGITS = 18

_SIGNALS = {
    1: "SIGHUP",
    2: "SIGINT",
    4: "SIGILL",
    6: "SIGABRT",
    7: "SIGBUS",
    8: "SIGFPE",
    9: "SIGKILL",
    10: "SIGUSR1",
    11: "SIGSEGV",
    12: "SIGUSR2",
    13: "SIGPIPE",
    15: "SIGTERM",
}
# how bash and srun name a signal that ended a process
SIGNAL_WORDS = {
    "Killed": "SIGKILL",
    "Segmentation fault": "SIGSEGV",
    "Aborted": "SIGABRT",
    "Bus error": "SIGBUS",
    "Floating point exception": "SIGFPE",
    "Illegal instruction": "SIGILL",
    "Terminated": "SIGTERM",
    # torch's data-loader workers' words for the signal that kills them (P110)
    "bus error": "SIGBUS",
    "segmentation fault": "SIGSEGV",
    "floating-point exception": "SIGFPE",
    # the shell's words under a Chinese locale (glibc's zh_CN strsignal(): `已杀死` is `Killed`)
    "已杀死": "SIGKILL",
    "段错误": "SIGSEGV",
    "已放弃": "SIGABRT",
    "已终止": "SIGTERM",
    "总线错误": "SIGBUS",
    # the C library's other strsignal() words, as LSF's job report names the signal
    "Hangup": "SIGHUP",
    "Interrupt": "SIGINT",
    "Quit": "SIGQUIT",
    "Alarm clock": "SIGALRM",
    "User defined signal 1": "SIGUSR1",
    "User defined signal 2": "SIGUSR2",
    "CPU time limit exceeded": "SIGXCPU",
}
# Signals that end a process on their own account (a crash, the OOM killer), not a teardown.


@dataclass(frozen=True)
class Evidence:
    file: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}"


@dataclass
class Finding:
    kind: str  # the signature's name
    summary: str
    cause: bool
    rank: int | None = None
    node: str | None = None
    order: float = float("inf")
    evidence: list[Evidence] = field(default_factory=list)
    cls: str = "exit_code"
    role: str = "cause"
    code: str = ""
    action: str = "fix_program"
    advice: str = ""
    local_rank: int | None = None
    task: int | None = None
    ranks: list[int] = field(default_factory=list)
    exit_code: int | None = None
    signal: str | None = None
    endpoint: str | None = None
    frame: str | None = None
    user_frame: str | None = None
    report: bool = False  # a launcher's or srun's report that a process ended
    confidence: str = "high"  # high | medium | low: how sure triage is of the class
    strength: int = 3
    inferred: bool = False  # its rank or node was inferred, not read from a line that says it
    worded: bool = False  # its class comes from its words (jobc.jobs.lexicon), not a signature
    at: str | None = None  # when it happened, where the log says it in a sortable form
    job: str | None = None  # the Slurm job (or step, `N.M`) the line names, where it names one
    ignored: bool = False  # CPython printed it and went on (its unraisable hook): it explains nothing

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "code": self.code,
            "class": self.cls,
            "role": self.role,
            "cause": self.cause,
            "action": self.action,
            "advice": self.advice,
            "summary": self.summary,
            "rank": self.rank,
            "local_rank": self.local_rank,
            "task": self.task,
            "node": self.node,
            "ranks": self.ranks,
            "exit_code": self.exit_code,
            "signal": self.signal,
            "endpoint": self.endpoint,
            "frame": self.frame,
            "user_frame": self.user_frame,
            "confidence": self.confidence,
            "evidence": [{"file": e.file, "line": e.line, "text": e.text} for e in self.evidence],
        }


@dataclass
class Diagnosis:
    job_id: str | None
    state: str | None
    exit_code: str | None
    logs: list[str]
    findings: list[Finding]
    restarts: int = 0
    master: str | None = None
    mode: str | None = None
    lines: int = 0
    compiled: bool = False

    @property
    def causes(self) -> list[Finding]:
        return [f for f in self.findings if f.cause]

    def as_json(self) -> dict[str, Any]:
        return {
            "job_id": self.job_id,
            "state": self.state,
            "exit_code": self.exit_code,
            "logs": self.logs,
            "mode": self.mode,
            "compiled_by_jobc": self.compiled,
            "master": self.master,
            "restarts": self.restarts,
            "lines": self.lines,
            "findings": [f.as_json() for f in self.findings],
        }


@dataclass
class Event:
    sig: Signature | None
    kind: str
    cls: str
    role: str
    ev: Evidence
    order: tuple[int, int]
    line: labels.Line
    fields: dict[str, Any]
    more: list[Evidence] = field(default_factory=list)
    statement: Evidence | None = None  # the line whose text decided the class
    context: list[Evidence] = field(default_factory=list)  # header, user frame, table fields
    strength: int = 3  # 3 a stated failure, 2 a report of a process's end, 1 a symptom or a guess


#: At most this many evidence lines per finding; the statement line is never the one dropped.
EVIDENCE_CAP = 6
#: Signatures of a program saying a signal reached it (Lightning's `Received SIGTERM`, torchrun's
#: agent's SignalException, submitit's `Bypassing signal SIGCONT`), and how many of their lines
#: a log keeps (the latest: a job's end is at its end)
SIGNAL_SEEN = frozenset({"L203", "L205", "L226"})
SIGNALS_SEEN_KEPT = 256


def evidence_of(e: Event) -> list[Evidence]:
    """The evidence rule: the statement line first, then its context (a traceback's innermost user
    frame and header, a table's fields), then the same failure seen again; at most EVIDENCE_CAP."""
    out: list[Evidence] = []
    for ev in (e.statement or e.ev, *e.context, e.ev, *e.more):
        if ev not in out:
            out.append(ev)
    return out[:EVIDENCE_CAP]


def exit_class(code: int) -> str:
    """What an exit code usually means for a rank of a training job."""
    if code == 1:
        return "a Python exception"
    if code == 2:
        # Python's own exit for a command line its argument parser refuses (argparse's SystemExit)
        # and for a file it cannot open
        return "a Python exception, or a refused command line (argparse) or program file"
    if code == REQUEUE_EXIT_CODE:
        return "the requeue code: it checkpointed and asked to be requeued"
    if code == WATCHDOG_EXIT_CODE:
        return "the runtime's watchdog: still running after the grace period, forced out"
    if code == HANG_EXIT_CODE:
        return "the runtime's hang watchdog: no step completed in time, or a collective failed"
    name = signal_of(code)
    if name == "SIGKILL":
        return "killed by SIGKILL (out of memory, scancel, or the end of the grace period)"
    if name == "SIGTERM":
        return "stopped by SIGTERM (the step was torn down, or the job was signalled)"
    if name is not None:
        return f"killed by {name}"
    return f"exit code {code}"


def signal_of(code: int | None) -> str | None:
    """The signal an exit code stands for: torchrun's and DeepSpeed's -N, a shell's 128+N."""
    if code is None:
        return None
    if code < 0:
        return _SIGNALS.get(-code, f"signal {-code}")
    if 128 < code < 160:
        return _SIGNALS.get(code - 128)
    return None


def parse_int(text: str | None) -> int | None:
    if text is None or not text.lstrip("-").isascii() or len(text) > MAX_INT_DIGITS + 1:
        return None
    try:
        return int(text)
    except ValueError:
        return None


def first_task(text: str) -> tuple[int | None, int]:
    """The first task of an srun task list and how many it names, without expanding ranges."""
    first: int | None = None
    count = 0
    for part in text.split(",")[:4096]:
        a, _, b = part.partition("-")
        lo, hi = parse_int(a), parse_int(b) if b else parse_int(a)
        if lo is None or hi is None or hi < lo:
            continue
        first = lo if first is None else min(first, lo)
        count += hi - lo + 1
    return first, count


class Facts:
    """What the reader learnt about the job, beside its events: what the judge reads."""

    def __init__(self, coords: dict[int, dict[str, int]] | None = None) -> None:
        self.coords = coords or {}
        self.lines = 0
        self.torchrun = False
        self.compiled = False
        self.master: str | None = None
        self.restart = 0
        self.job_id: str | None = None
        self.world: int | None = None
        self.nodelist: str | None = None
        self.events: list[Event] = []
        self.rank_task: dict[int, int] = {}
        self.task_node: dict[int, str] = {}
        self.rank_node: dict[int, str] = {}
        # the global ranks lines pair each local rank with (`[default0]:[rank0]: …`, torchrun's two
        # prefixes): one local rank with one global rank only, the log's one node's launcher
        self.local_global: dict[int, set[int]] = {}
        # a launcher's host list with slots (`horovodrun -H a:4,b:4`, `mpirun -H …`): the ranks it
        # places on each host in turn, each host's slots filled before the next (rank -> host)
        self.slot_node: dict[int, str] = {}
        # a shell's prompt before a command that prints the kernel's log (`[root@n1 ~]# dmesg -T`):
        # (file, line, host); the kernel's lines after it are that host's
        self.kernel_prompts: list[tuple[str, int, str]] = []
        # a shell's prompt before a command that runs the program on that host (`user@pc:~$
        # ./run.sh`): (file, line, host); the failures after it were written there
        self.run_prompts: list[tuple[str, int, str]] = []
        self.signals: list[Evidence] = []
        # the lines where a program says a signal reached it (SIGNAL_SEEN), the latest kept
        self.signals_seen: deque[Evidence] = deque(maxlen=SIGNALS_SEEN_KEPT)
        self.requeues: list[Evidence] = []
        self.step_ends: list[tuple[Evidence, int]] = []
        self.watchdog: list[Evidence] = []
        self.nodes_seen: set[str] = set()
        # a launcher that starts a node's processes itself (torchrun, DeepSpeed, accelerate): under
        # it an srun task is a node, never a rank
        self.launcher_seen = False
        # the number of nodes of every torchrun command line the log shows (`--nnodes`, 1 when it
        # is not given or `--standalone`) and of DeepSpeed's launcher (its `nnodes=`, or where its
        # lines come from): all 1, and a local rank is the global rank
        self.launch_nodes: set[str] = set()
        # the torchrun command lines read (file, line), and the node rank and processes per node
        # each names ((-1, -1) for one that names them not both as numbers)
        self.launch_lines: set[tuple[str, int]] = set()
        self.launch_place: set[tuple[int, int]] = set()
        # pairings of a process with its rank: torchrun's table (pid -> global rank), NCCL's
        # communicator lines (host:pid -> rank in the largest communicator, with its size)
        self.pid_rank: dict[str, int] = {}
        # a process id's host, from the prefixes that pair them (NCCL's and UCX's `host:pid`); a
        # pid two hosts claim pairs with none ("")
        self.pid_node: dict[str, str] = {}
        self.writer_rank: dict[str, tuple[int, int]] = {}
        # NCCL's ring and channel lines (`Ring 00 : 2[2] -> 3[3] via …`): the rank they give the
        # process that writes them, where no communicator line does; None where its lines give two
        # (a process in several communicators numbers itself in each)
        self.ring_rank: dict[str, int | None] = {}
        # Python's tracebacks the log shows: its processes run Python (an MPI rank's exit with 1)
        self.tracebacks = 0
        # slurmctld's own log: the node list it allocated to a job (job id -> node list)
        self.job_nodes: dict[str, str] = {}
        # who the log's prefixes name (task, rank, local rank, node), up to a few: one or none
        # makes the log one process's
        self.labelled: set[tuple[int | None, int | None, int | None, str | None]] = set()
        # where the job's progress output was seen: (line, srun task, rank) of the line
        self.progress: list[tuple[int, int | None, int | None]] = []
        # the batch shell's trace of the script's commands (`set -x`: `+ sleep 5`), by line
        self.xtrace: list[int] = []
        # the nodes whose NCCL traced a failed call's return (`NCCL INFO init.cc:1641 -> 2`)
        self.nccl_failed_on: set[str] = set()
        self.nccl_failed_first: Evidence | None = None  # ... the first such line
