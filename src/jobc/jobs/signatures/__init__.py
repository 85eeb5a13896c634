"""The catalogue of failure signatures triage recognises, one entry per message format.

Each signature is built like a lint rule: a code and a name, the class of failure it shows (the
`class` of the JSON output, from `CLASSES`), its role (a `cause`, a `symptom` of a failure
elsewhere, or `context` that helps place one), the literal keywords that let a line through the
pre-filter, the pattern that reads it, what that pattern extracts, an example excerpt in the
tool's own format with the tool it comes from, and a near miss that must not fire. The tests run
every example and every near miss; `jobc triage --signatures` lists them and `docs/triage.md` is
generated from them.

Patterns are searched in a line whose prefixes are already removed (`jobc.jobs.labels`). Each
starts with a literal and uses only bounded or non-overlapping repetition, so a line is read in
time linear in its length, and numbers are ASCII digits of bounded length.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ahocorasick_rs import BytesAhoCorasick, Implementation

#: The class vocabulary: every finding has exactly one. A contract of the JSON output.
CLASSES: dict[str, str] = {
    "exception": "a Python exception raised by the program",
    "cuda_oom": "the GPU ran out of memory",
    "gpu_error": "a CUDA or GPU hardware error (illegal access, ECC, Xid, unknown error)",
    "host_oom": "the node ran out of host memory (the kernel's or the cgroup's OOM killer)",
    "nccl_error": "NCCL or the network under it failed (system, internal or remote error, a NCCL WARN, UCX)",
    "collective_timeout": "a collective did not finish in time (NCCL watchdog, Gloo timeout, lost peer)",
    "rendezvous": "the ranks could not meet at the rendezvous endpoint",
    "port_in_use": "the rendezvous port was already taken (errno 98, EADDRINUSE)",
    "signal": "a process was ended by a signal (SIGKILL, SIGSEGV, SIGABRT, SIGTERM)",
    "time_limit": "the job reached its time limit",
    "node_fail": "Slurm lost a node of the job",
    "preempted": "the job was preempted",
    "cancelled": "the job was cancelled",
    "import_error": "a module could not be imported",
    "missing_program": "the program or a command was not found",
    "disk_full": "a file system was full or over its quota (errno 28 ENOSPC, errno 122 EDQUOT)",
    "slurm_refused": "Slurm refused the job or a step: what it asked for cannot be had, or is invalid",
    "exit_code": "a process exited with a non-zero code and no other cause is in the log",
}

#: The class of a finding whose line says a process failed in words no signature knows (its
#: confidence is low): beside the vocabulary, never a class a signature or a retry rule names.
UNKNOWN = "unknown"
UNKNOWN_MEANING = "a line says a process failed, in words triage cannot classify (its confidence is low)"

#: What to do about a finding: the `action` of the JSON output.
ACTIONS: dict[str, str] = {
    "resubmit": "resubmit as it is",
    "fix_program": "fix the program",
    "fix_spec_or_script": "fix the spec or the batch script",
    "exclude_node": "exclude the node and resubmit",
    "raise_limit": "raise a limit (time, memory)",
    "free_space": "free space, or write to a file system with room",
    "investigate": "read the lines shown: triage cannot say what failed",
}

#: The usual action for each class; a finding may say otherwise.
DEFAULT_ACTION: dict[str, str] = {
    "exception": "fix_program",
    "cuda_oom": "fix_program",
    "gpu_error": "exclude_node",
    "host_oom": "raise_limit",
    "nccl_error": "fix_spec_or_script",
    "collective_timeout": "fix_program",
    "rendezvous": "fix_spec_or_script",
    "port_in_use": "fix_spec_or_script",
    "signal": "resubmit",
    "time_limit": "raise_limit",
    "node_fail": "exclude_node",
    "preempted": "resubmit",
    "cancelled": "resubmit",
    "import_error": "fix_spec_or_script",
    "missing_program": "fix_spec_or_script",
    "disk_full": "free_space",
    "slurm_refused": "fix_spec_or_script",
    "exit_code": "fix_program",
    "unknown": "investigate",
}

ROLES = ("cause", "symptom", "context")


@dataclass(frozen=True)
class Signature:
    code: str
    name: str
    cls: str
    role: str
    keywords: tuple[str, ...]  # one of them is in every line the pattern can match
    pattern: re.Pattern[str]
    matches: str  # what it matches, in words
    example: str  # an excerpt in the tool's real format (one or more lines)
    near_miss: str  # a line that looks alike and must not fire
    source: str  # the tool (and where its format comes from)
    extracts: tuple[str, ...] = field(default=())
    # a report that a process ended (srun's task lines, torchrun's failure lines): a cause only
    # when nothing else explains that process's end
    report: bool = False
    # 3 a stated failure, 2 a report of a process's end, 1 a symptom (0: from the role and report)
    strength: int = 0

    def __post_init__(self) -> None:
        assert self.cls in CLASSES, self.cls
        assert self.role in ROLES, self.role
        names = set(self.pattern.groupindex)
        assert set(self.extracts) <= names, (self.code, set(self.extracts) - names)

    def search(self, text: str) -> re.Match[str] | None:
        if not any(k in text for k in self.keywords):
            return None
        return self.pattern.search(text)


def _all() -> tuple[Signature, ...]:
    from jobc.jobs.signatures import cuda, launchers, network, pbs, python, runtimes, slurm

    found = (
        *slurm.SIGNATURES,
        *pbs.SIGNATURES,
        *launchers.SIGNATURES,
        *cuda.SIGNATURES,
        *network.SIGNATURES,
        *python.SIGNATURES,
        *runtimes.SIGNATURES,
    )
    codes = [s.code for s in found]
    assert len(codes) == len(set(codes)), "signature codes are unique"
    return found


#: Every signature, in the order a line is tried: the first that matches reads it.
CATALOGUE: tuple[Signature, ...] = _all()

#: The literal words that let a line through to the signatures (and to the traceback reader):
#: everything else is counted and skipped. Most start with a capital or a punctuation mark, so
#: the scan rarely stops on an ordinary line of progress output.
TRACEBACK_KEYWORDS = (
    "Traceback",
    'File "',
    "Error",
    "Exception",
    "Interrupt",
    "SystemExit",
    "During handling",
    "The above exception",
)
#: (PBS's `Exec host:` and `exec_host =` name the job's hosts: the node of the job's end)
EXTRA_KEYWORDS = (
    "jobc",
    "Root Cause",
    "Failures:",
    "FAILED",
    "JobId=",
    "JobID=",
    "Exec host:",
    "exec_host =",
    "executed on host",
    # Open MPI's report of where it bound a rank (`[host:pid] MCW rank 0 bound to …`): its node
    "MCW rank",
    "hostname ",
    # a batch script's echo of its node list, or of the node it runs on
    "nodes: ",
    "Nodes: ",
    "node: ",
    "Node: ",
    "SLURMD_NODENAME",
    "ostname: ",
    "unning on: ",
    "ostname=",
    "NODELIST=",
    "odelist: ",
    "ode list: ",
    "reported by process [",
    # a shell's prompt before a command that runs the program on its host (events._RUN_PROMPT):
    # `user@host:~$ ` (zsh's `%`, root's `#`)
    ":~$ ",
    ":~# ",
    "$ ./",
    "$ python",
    "$ bash ",
    "$ sh ",
    "$ torchrun",
    "$ accelerate",
    "$ deepspeed",
    "$ CUDA_VISIBLE_DEVICES=",
    "# ./",
    "# python",
    "% ./",
    "% python",
    "dmesg",
    "journalctl",
    "/var/log/",
    "nvidia-smi",
    "rocm-smi",
    # NCCL's trace of a failed call's return (`NCCL INFO init.cc:1641 -> 2`): the node it failed on.
    # With the line's end, so that NCCL's many `Channel 00 : 0[1020] -> 3[1050]` lines stay skipped.
    " -> 1\n",
    " -> 2\n",
    " -> 3\n",
    " -> 4\n",
    " -> 5\n",
    " -> 6\n",
    " -> 7\n",
    # CPython's subprocess re-raising its child's failed exec (a program not found)
    "child_exception_type",
    # torchrun's command line (one node's launch makes its local ranks global)
    "torchrun ",
    # a launcher's command line with its host list (`horovodrun -np 8 -H a:4,b:4`): where ranks run
    "horovodrun ",
    "mpirun ",
    "mpiexec ",
    "torch.distributed.run ",
    "torch.distributed.launch ",
)
#: The fallback lexicon's words (jobc.jobs.events.FALLBACK): a line that only says it is an error
#: is read too, and gives a finding of class unknown when no signature reads it.
FALLBACK_KEYWORDS = (
    "ERROR",
    "FATAL",
    "Fatal",
    "Killed",
    "Segmentation fault",
    "Abort",
    "Out of memory",
    "[E",
    "[F",
    "Assertion",
    "error:",
    # Slurm's own words for how a job ended, as a controller's log or a wrapper prints them
    "CANCELLED",
    "CANCELED",
    "PREEMPTED",
    "NODE_FAIL",
    "OUT_OF_MEMORY",
    "WTERMSIG",
    "WEXITSTATUS",
    "Time limit exhausted",
    # any tool's word that a time limit was reached or exceeded (lexicon.FALLBACK)
    "ime limit",
    "will now abort",
    "REQUEST_KILL_JOB",
    "DUE TO ",
    # MPI's and the C library's
    "MPI_ABORT",
    "caused collective abort",
    "MPI_ERR_",
    "BAD TERMINATION",
    # a user's interrupt passed on or caught (`Sending Ctrl-C to processes`, `interrupted by user`)
    "Ctrl-C",
    "CtrlC",
    "interrupted by",
    # slurmctld's node that stopped answering (`Node cn2 not responding`)
    "not responding",
    # a status report's exit code field (torchx's replica `(exit_code: 137)`)
    "exit_code",
    "exitcode=",
    # a command's end in any tool's words (`command terminated with exit code 137`)
    "with exit code",
    "with exit status",
    "with return code",
    "No such file or directory",
    "Permission denied",
    "[Errno",
    "can't open file",
    # PBS's and Torque's
    "job killed",
    "deleted at request of",
    "exceeded wallclock limit",
    "exceeded its wallclock limit",
    "exceeded wall clock limit",
    # Grid Engine's execd
    "exceeded hard wallclock time",
    # LSF's (bhist -l, the job's report)
    "Exited by LSF signal",
    "Exited with signal termination",
    # DDP's reducer's message for unused parameters, read even when its type was glued away
    "Expected to have finished reduction in the prior iteration",
    "parameters that were not used in producing loss",
)


#: Words whose lines may hold no other keyword: lower case (`command not found` follows a `:`,
#: pdsh's report and mpirun's are all lower case, torch logs a monitored barrier's ranks as
#: `[E…] [Rank 0]: …`, the kernel's and slurmstepd's OOM counts).
LOWER_KEYWORDS = (
    "command not found",
    "ssh exited with exit code",
    "noticed that process rank",
    "failed to pass monitoredBarrier",
    "oom-kill",
    "oom_kill",
    "unable to launch the specified application",
    "exit with status code",
    "terminate called",
    # the shell's words for a signal under a Chinese locale (Killed, Segmentation fault, Aborted,
    # Terminated)
    "已杀死",
    "段错误",
    "已放弃",
    "已终止",
    # the fallback lexicon's lower-case words
    "fatal:",
    "failed",
    "Failed",
    "killed by signal",
    "lost communication with",
    "job preempted",
    "job was preempted",
    "job has been preempted",
    "not found",
    "unable to launch",
    "could not access",
    "could not execute",
    "could not start",
    "could not launch",
    "exited with",
    "exit with",
    "non-zero",
    "exit status",
    "segfault at",
    "core dumped",
    "can't resolve",
    "server can't find",
    "NXDOMAIN",
    "write_line error",
    "Resource exhausted:",
    "readline failed",
    # GPU runtimes' faults, launchers' failed execs, srun's unfinished launch
    "Memory access fault",
    "memory access fault",
    "HSA_STATUS_ERROR",
    "execvp error",
    "exec error",
    "nable to run",
    "timeout waiting for task launch",
    "before step completely launched",
    # engines' and drivers' words that a process they depend on is gone
    "died unexpectedly",
    "scheduler is dead",
    "GCS may have been killed",
    # JAX's coordination service, whose absl lines hold no other keyword
    "registration failed",
    "Wait_for_all_tasks_to_register",
    # the lexicon's words for a launcher that could not reach a node or place its processes
    "resolve hostname",
    "unable to reliably start",
    "not enough slots",
    "requested more processes than",
)


def keywords() -> tuple[str, ...]:
    """The pre-filter's words: every signature's keywords, the traceback reader's, the fallback
    lexicon's. A line that holds none of them is counted and skipped."""
    words = {k for s in CATALOGUE for k in s.keywords}
    words.update(TRACEBACK_KEYWORDS)
    words.update(EXTRA_KEYWORDS)
    words.update(FALLBACK_KEYWORDS)
    words.update(LOWER_KEYWORDS)
    from jobc.jobs.signatures.slurm import BASH_NOT_FOUND_WORDS  # the fallback lexicon reads them too

    words.update(BASH_NOT_FOUND_WORDS)
    return tuple(sorted(words))


class Prefilter:
    """All the keywords searched at once (an Aho-Corasick automaton, compiled to a DFA): one pass
    over a block finds every place a line worth reading may start, at a cost per byte close to
    grep's, whatever the number of keywords."""

    def __init__(self, words: tuple[str, ...]) -> None:
        self.words = words
        self._automaton = BytesAhoCorasick(
            [w.encode("utf-8") for w in words], implementation=Implementation.DFA
        )

    def positions(self, data: bytes, start: int, stop: int) -> list[int]:
        """Where keywords start in data[start:stop], in order (a few per line at most)."""
        view = memoryview(data)[start:stop]
        return [start + s for _, s, _ in self._automaton.find_matches_as_indexes(view)]

    def search(self, data: bytes, start: int = 0, stop: int | None = None) -> int | None:
        """Where the first keyword starts, or None."""
        found = self.positions(data, start, len(data) if stop is None else stop)
        return found[0] if found else None


PREFILTER = Prefilter(keywords())
