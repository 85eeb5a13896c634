"""Triage's causality stage: which failure explains which, as a table of "explains" edges.

A multi-node failure is one cause and many consequences: the rank that raised takes the others
down (their collective timeouts, lost peers, SIGTERMs, srun's and torchrun's reports of their
ends, slurmstepd's CANCELLED); a time limit or a preemption ends every process; the kernel's OOM
killer shows up as a bare SIGKILL. Each row of `EXPLAINS` says that a finding of one kind
explains a finding of another kind, within a scope (the same process, the same node, the whole
job) and an order (the consequence after its cause in the log, or in any order where file order
is not event order). A finding that some other finding explains is a consequence, shown after the
causes; among the findings nothing explains, the **first cause** is the earliest of the highest
strength (a stated failure before a report that a process ended, before a line that only looks
like an error).

A failure the job survived is no first cause either, and explains nothing: when the job's progress
output goes on after it (more steps, more iterations; after a batch shell's failed command, any
progress of the script's next commands), whatever ended the job came later (`survived`).

The table is data: `docs/triage.md` lists its rows (`jobc triage --signatures --format markdown`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from jobc.jobs.findings import Finding
from jobc.jobs.lexicon import USER_INTERRUPT

#: Signals that end a process on its own account (a crash), not a teardown or a kill from outside.
CRASH = frozenset({"SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL"})


#: An exception that only says a worker process it started died, not why (datasets' map, a
#: process pool, joblib's executor, a data-loader worker): something outside ended that worker.
CHILD_DIED = re.compile(
    r"[Oo]ne of the subprocesses has abruptly died|"
    r"process in the process pool was terminated abruptly|"
    r"worker process managed by the executor was unexpectedly terminated|"
    r"DataLoader worker \(pids?\(?s?\)? ?[^)]{0,200}\)? exited unexpectedly|"
    r"(?:child|worker|sub) ?process(?:es)? (?:\S{1,20} )?(?:has |have |was |were )?(?:died|terminated) "
    r"(?:abruptly|unexpectedly)|"
    # Ray's driver, waiting on an actor whose worker process is gone
    r"\b(?:ActorUnavailableError|ActorDiedError|RayActorError|WorkerCrashedError)\b"
)

#: How Slurm ended the whole job: no process's failure, though each is a cause of its own.
_JOB_ENDS = frozenset({"time_limit", "preempted", "node_fail", "cancelled"})


def _kinds(f: Finding) -> frozenset[str]:
    """The kinds a finding has for the table's rows (a finding may have several)."""
    k: set[str] = set()
    teardown = (
        f.signal in ("SIGTERM", "SIGINT")
        or f.code in ("P103",)
        or (f.cls == "exception" and ("SIGTERM" in f.summary or "Terminated" in f.summary))
    )
    if f.cls == "unknown":
        k.add("guess")
        if f.strength >= 2:
            k.add("placed")  # a line in words that names the rank and host it failed on
    elif f.report:
        k.add("report")
    elif f.role == "symptom":
        k.add("symptom")
    elif f.role == "cause" and not teardown and f.code != "N411" and f.cls not in _JOB_ENDS:
        k.add("failure")  # (rank 0's monitored barrier speaks of other ranks: no failure of its own)
    if f.kind == "ray-worker-died":
        # Ray's word that a worker died says that a process ended, not why: the process's own
        # failure (its watchdog's timeout) explains it as it explains a report
        k.add("died")
    if teardown:
        k.add("teardown")
    if f.signal == "SIGKILL":
        k.add("kill")
    if f.signal in CRASH:
        k.add("crash")
    if f.signal == "SIGABRT" and f.cls == "signal":
        k.add("abort")  # a process that ended itself on what it found (abort() is always called)
    if f.cls in ("time_limit", "preempted", "node_fail"):
        k.add("stop")
    if f.cls == "cancelled":
        k.add("cancel")
    if f.cls == "host_oom":
        k.add("host_oom")
    if f.cls == "rendezvous" and f.code not in LAUNCH_WIREUP:
        k.add("rendezvous")
    if f.cls == "collective_timeout":
        k.add("timeout")
    if f.code == "N411":
        k.add("barrier")
    if f.cls == "exception" and CHILD_DIED.search(f.summary[:2000]) is not None:
        k.add("child_died")
    if f.code == "L202":
        k.add("table")
    if f.code == "S506" or (f.cls == "node_fail" and f.worded and f.node is not None and not f.inferred):
        # srun's `Node failure on X`, slurmctld's words for the node it lost: the lost node named
        k.add("node_lost")
    if f.code == "P106":
        k.add("echo")
    if f.code in RECEIVED:
        k.add("received")
    if f.code == "L225" or (
        f.cls == "cancelled" and f.worded and f.evidence and USER_INTERRUPT.search(f.evidence[0].text)
    ):
        k.add("interrupt")  # the user's Ctrl-C, in a launcher's or a program's words
    if f.job is not None and f.cls in _JOB_ENDS:
        k.add("step_end" if "." in f.job else "job_end")
    return frozenset(k)


#: mpirun's word that a daemon it started never connected back (L241): the launch failed there,
#: before any rank ran, so it explains srun's reports of those daemons' ends (the tasks srun ran
#: were the daemons), not the other way round as for the ranks' lost rendezvous store.
LAUNCH_WIREUP = frozenset({"L241"})

#: Signatures of a process saying it received a signal from outside (Lightning's `Received
#: SIGTERM`, torchrun's agent's SignalException): what that process does after is its teardown.
RECEIVED = frozenset({"L203", "L205"})


@dataclass(frozen=True)
class Row:
    """`cause` explains `effect` within `scope`, in `order`; `why` is what the row says."""

    cause: str  # a kind (see _kinds): the explaining finding has it
    effect: str  # kinds separated by `|`: the explained finding has one of them
    scope: str  # process | node | job
    order: str  # after (the effect comes after the cause in the log) | any
    why: str
    unless: str = ""  # kinds separated by `|` the effect must not have
    cause_unless: str = ""  # kinds separated by `|` the cause must not have
    then: str = ""  # how the explained finding's summary begins ({rank}: the cause's rank)
    stronger: bool = False  # the cause must be at least as strong as the effect

    def applies(self, cause: Finding, kc: frozenset[str], effect: Finding, ke: frozenset[str]) -> bool:
        if self.cause not in kc or not (ke & set(self.effect.split("|"))):
            return False
        if self.unless and ke & set(self.unless.split("|")):
            return False
        if self.cause_unless and kc & set(self.cause_unless.split("|")):
            return False
        if self.order == "after" and effect.order <= cause.order:
            return False
        if self.stronger and cause.strength < effect.strength:
            return False
        return SCOPES[self.scope](cause, effect)


def _same_process(a: Finding, b: Finding) -> bool:
    if a.rank is not None and b.rank is not None:
        return a.rank == b.rank
    # (an srun task is no process under a launcher that starts a node's processes: where it is
    # one, the identity stage has made it the rank)
    if a.local_rank is not None and b.local_rank is not None:
        return a.local_rank == b.local_rank and (a.node is None or b.node is None or a.node == b.node)
    # two that name nobody (an unlabelled traceback, a shell's report): one process, when they
    # are on one node (a single-process log is the common case)
    nobody = all(x.rank is None and x.task is None and x.local_rank is None for x in (a, b))
    return nobody and (a.node is None or b.node is None or a.node == b.node)


def _same_node(a: Finding, b: Finding) -> bool:
    return a.node is None or b.node is None or a.node.split(".")[0] == b.node.split(".")[0]


def _earlier(a: Finding, b: Finding) -> bool:
    return a.at is not None and b.at is not None and a.at < b.at


def _barrier_names(a: Finding, b: Finding) -> bool:
    return a.rank is not None and a.rank in b.ranks


def _own_step(a: Finding, b: Finding) -> bool:
    """`b` is a step (`N.M`) of the job `a` names, ended the same way."""
    return (
        a.job is not None
        and b.job is not None
        and a.cls == b.cls
        and "." not in a.job
        and b.job.split(".", 1)[0] == a.job
    )


SCOPES: dict[str, Callable[[Finding, Finding], bool]] = {
    "process": _same_process,
    "node": _same_node,
    "job": lambda a, b: True,
    "named": _barrier_names,
    "earlier": _earlier,
    "own_step": _own_step,
    "other": lambda a, b: not _same_process(a, b),
    # the effect is the cause's process, or names none and is on its node, or names only the
    # local rank of the same number (torchrun's report of the rank the watchdog named)
    "unnamed": lambda a, b: _same_process(a, b) or ((_nobody(b) or _local_of(a, b)) and _same_node(a, b)),
}

#: The rows, most specific first. Each was a special case of the judge before it was a row.
EXPLAINS: tuple[Row, ...] = (
    Row(
        "node_lost",
        "stop",
        "job",
        "any",
        "srun's report of the node it lost explains slurmstepd's NODE FAILURE cancel (which names "
        "its own node)",
    ),
    Row(
        "table",
        "table",
        "earlier",
        "any",
        "of two torchrun tables (one per node's agent), the earlier failure time is the first",
    ),
    Row(
        "job_end",
        "step_end",
        "own_step",
        "any",
        "slurmstepd's line that a job ended (cancelled, its time limit, preempted, a node lost) explains "
        "the same words for the job's steps, which each step's slurmstepd writes on its own node, in "
        "any order: the job's line names its batch host",
    ),
    Row("stop", "cancel", "job", "any", "a time limit, preemption or node failure explains a bare CANCELLED"),
    Row(
        "stop",
        "teardown|kill|report|symptom",
        "job",
        "any",
        "a time limit, preemption or node failure explains the SIGTERMs, kills and ends of the "
        "processes it stopped",
    ),
    Row(
        "stop",
        "failure|guess|rendezvous",
        "job",
        "after",
        "after a time limit, preemption or node failure, exceptions are the teardown's",
    ),
    Row(
        "interrupt",
        "failure|teardown|report|symptom|guess",
        "job",
        "after",
        "the user's Ctrl-C that mpiexec passed to every process explains their ends after it",
    ),
    Row(
        "received",
        "failure|teardown|report|symptom|guess",
        "process",
        "after",
        "a signal a process says it received explains what that process did after it (its teardown: "
        "a SIGTERMException, its data-loader workers ended by the same signal, its exit)",
    ),
    Row(
        "host_oom",
        "kill|report|guess",
        "node",
        "any",
        "the OOM killer explains the SIGKILL of a process on its node",
    ),
    Row(
        "host_oom",
        "child_died",
        "node",
        "any",
        "the OOM killer explains a program's word that a worker process it started died and not why "
        "(datasets' map, a process pool; slurmstepd counts the kills only when the step ends)",
    ),
    Row(
        "failure",
        "child_died",
        "job",
        "any",
        "a process's own failure explains the word of the program that started or waited on it "
        "that it died (Ray's driver on a dead actor; a pool on its worker)",
        cause_unless="child_died",
    ),
    Row(
        "failure",
        "barrier",
        "named",
        "any",
        "a named rank's own failure explains rank 0's monitored barrier that missed it",
        then="then rank 0's monitored barrier missed rank {rank}",
    ),
    Row(
        "failure",
        "report",
        "process",
        "any",
        "a failure explains its own process's end (srun's, torchrun's or a launcher's report)",
    ),
    Row(
        "failure",
        "report",
        "job",
        "any",
        "a failure explains the other processes' exit codes (a crash or a kill before it is its own)",
        unless="crash|kill",
    ),
    Row(
        "failure",
        "report",
        "job",
        "after",
        "a failure explains the crashes and kills that follow it (a lost rendezvous kills nobody)",
        cause_unless="rendezvous",
    ),
    Row(
        "failure",
        "teardown|symptom|cancel|echo|guess",
        "job",
        "any",
        "a failure on one rank explains the others' SIGTERM, timeouts, lost peers and the job's CANCELLED",
        cause_unless="died",
    ),
    Row(
        "report",
        "died",
        "job",
        "after",
        "a process's reported end (its code, its signal) explains Ray's later word that a worker died, "
        "which says no more than that (the worker ran that process, or its end took the worker down)",
    ),
    Row(
        "died",
        "teardown|symptom|cancel|echo|guess",
        "other",
        "any",
        "Ray's word that a worker died explains the other processes' SIGTERM, timeouts and lost peers "
        "(its own process's timeout is why it died)",
    ),
    Row(
        "failure",
        "rendezvous",
        "job",
        "after",
        "a lost rendezvous after a failure is its echo",
        then="then the ranks lost the rendezvous store (an echo of the failure above)",
    ),
    Row(
        "failure",
        "failure",
        "process",
        "after",
        "a process's later errors are its first failure's consequences (an abort after a watchdog's "
        "error); a weaker line (an exception without its traceback) never explains a stated failure",
        unless="crash",
        cause_unless="child_died",  # (the word that another process died: that death is no consequence)
        stronger=True,
    ),
    Row(
        "timeout",
        "report|teardown|guess|died",
        "process",
        "any",
        "a collective timeout explains the same rank's abort, SIGABRT and its launcher's report (and "
        "Ray's word that its worker died)",
    ),
    Row(
        "timeout",
        "abort",
        "unnamed",
        "after",
        "a collective timeout explains an abort after it that names no other process: the watchdog "
        "takes its process down with SIGABRT (`Fatal Python error: Aborted`, `terminate called`)",
    ),
    Row(
        "table",
        "report",
        "job",
        "any",
        "torchrun's table speaks for the other reports of the same end",
        unless="table",
    ),
    Row(
        "report",
        "rendezvous",
        "job",
        "any",
        "a lost rendezvous where a process's end was reported is its echo (the other agents lose the store)",
        then="then the ranks lost the rendezvous store (an echo of the failure above)",
    ),
    Row(
        "report",
        "cancel|teardown|guess",
        "job",
        "any",
        "a process's end explains the step's CANCELLED and the others' SIGTERM (an end by SIGTERM is "
        "the cancel's own teardown, never its cause; a user's interrupt comes before the ends it makes)",
        unless="interrupt|placed",
        cause_unless="teardown",
    ),
    Row(
        "report",
        "guess",
        "job",
        "any",
        "a report of a process's end, by SIGTERM too, explains the error lines around it that say no "
        "more (MPICH's `BAD TERMINATION` header above the lines that say how the process ended; a "
        "line that names the rank and host it failed on says more)",
        unless="placed",
    ),
    Row("crash", "guess", "process", "any", "a crash explains the error lines of its own process"),
    Row("symptom", "guess", "job", "any", "a symptom of a failure explains the error lines around it"),
    Row(
        "cancel",
        "teardown|kill|guess",
        "job",
        "any",
        "a cancelled job explains its processes' SIGTERM and SIGKILL",
    ),
)


@dataclass
class Verdict:
    """What the table says of one finding: who explains it (by row), whether the job survived it."""

    explained_by: Finding | None = None
    row: Row | None = None
    survived: bool = False


Progress = Sequence[tuple[int, "int | None", "int | None"]]


def explain(
    findings: Sequence[Finding], progress: Progress = (), *, solo: bool = False, xtrace: Sequence[int] = ()
) -> dict[int, Verdict]:
    """Every finding's verdict, keyed by id(finding). `solo`: the log is one process's (it names
    at most one rank, task or node), so a line that names nobody is that process's."""
    kinds = {id(f): _kinds(f) for f in findings}
    verdicts: dict[int, Verdict] = {id(f): Verdict() for f in findings}
    # a failure the job went on after explains nothing that came after it: what ended the job
    # is another's
    lived = {id(f) for f in findings if "failure" in kinds[id(f)] and survived(f, progress, findings, xtrace)}
    # (nor does an exception the process printed and ignored)
    ordered = sorted((x for x in findings if id(x) not in lived and not x.ignored), key=lambda x: x.order)
    for e in findings:
        ke = kinds[id(e)]
        for row in EXPLAINS:
            cause = next(
                (
                    c
                    for c in ordered
                    if c is not e
                    and (row.applies(c, kinds[id(c)], e, ke) or (solo and _solo_applies(row, c, kinds, e)))
                    and (row.scope == "earlier" or not _mutual(c, e, kinds))
                ),
                None,
            )
            if cause is not None:
                verdicts[id(e)] = Verdict(cause, row)
                break
    _break_cycles(findings, verdicts)
    for f in findings:
        if id(f) in lived:
            verdicts[id(f)].survived = True
    return verdicts


def _solo_applies(row: Row, c: Finding, kinds: dict[int, frozenset[str]], e: Finding) -> bool:
    """A process-scoped row in a one-process log, where one of the two names nobody."""
    if row.scope != "process" or not (_nobody(c) or _nobody(e)):
        return False
    return Row(
        row.cause, row.effect, "job", row.order, row.why, row.unless, row.cause_unless, "", row.stronger
    ).applies(c, kinds[id(c)], e, kinds[id(e)])


def _nobody(f: Finding) -> bool:
    return f.rank is None and f.task is None and f.local_rank is None


def _local_of(a: Finding, b: Finding) -> bool:
    """``b`` names only a local rank (a launcher's report), ``a`` only a global rank of the same
    number: the same process where the node's ranks start at 0, which is all a one-node job has.
    Another number may be another process, so it is not taken."""
    return (
        b.rank is None
        and b.task is None
        and b.local_rank is not None
        and a.local_rank is None
        and a.rank == b.local_rank
    )


def _break_cycles(findings: Sequence[Finding], verdicts: dict[int, Verdict]) -> None:
    """Findings that explain each other round a loop (a SIGTERM received, then an error it caused,
    and the error's row that explains SIGTERMs; or torchrun's table, the step's CANCELLED that
    followed it, and the agent's line of the same end): the earliest in the log is the cause.
    Loops of any length, not only pairs: a loop left whole leaves the job with no first cause."""
    for start in findings:
        seen: list[Finding] = []
        f: Finding | None = start
        while f is not None and all(f is not g for g in seen):
            seen.append(f)
            f = verdicts[id(f)].explained_by
        if f is None:
            continue
        loop = seen[next(i for i, g in enumerate(seen) if g is f) :]
        earliest = min(loop, key=lambda g: g.order)
        verdicts[id(earliest)] = Verdict()


def _mutual(c: Finding, e: Finding, kinds: dict[int, frozenset[str]]) -> bool:
    """Two findings of one kind on one process never explain each other both ways: the earlier wins."""
    return kinds[id(c)] == kinds[id(e)] and c.order > e.order


#: Progress lines after a failure that show the job went on: at least this many, this far apart.
PROGRESS_MARKS = 2
PROGRESS_SPAN = 50


#: A shell's report that a command of its script failed (bash's `slurm_script: line 5: conda:
#: command not found`, dash's `job.sh: 7: python3: not found`): the shell goes on to the next
#: command (under `set -e` it would print nothing more), so the script's output after it shows
#: the job went on, however soon.
_SHELL_LINE = re.compile(r"^(?:\s{0,12}[0-9]{1,9}: )?[^\s:]{1,400}: (?:line )?[0-9]{1,9}: ")


def survived(f: Finding, progress: Progress, findings: Sequence[Finding], xtrace: Sequence[int] = ()) -> bool:
    """Whether the job's progress output went on after `f` (and before whatever ended it): from the
    same process when the log names it (other ranks print their last steps before they block in
    a collective), and far enough on that it is no last breath of a dying job; after a shell's
    report of a failed command, any progress of the script's next commands."""
    end = min(
        (g.order for g in findings if g.order > f.order and ("stop" in _kinds(g))), default=float("inf")
    )
    after = [
        n
        for n, task, rank in progress
        if f.order < n < end
        and (f.rank is None or rank == f.rank)
        and (f.task is None or f.rank is not None or task == f.task)
    ]
    if f.evidence and _SHELL_LINE.match(f.evidence[0].text) is not None:
        # (the shell's own trace of the script's next command, `+ sleep 5` under `set -x`, is the
        # script going on: the shell reached it after the failed one)
        return bool(after) or any(f.order < n < end for n in xtrace)
    return len(after) >= PROGRESS_MARKS and after[-1] - f.order >= PROGRESS_SPAN


def first_causes(findings: Sequence[Finding], verdicts: dict[int, Verdict]) -> list[Finding]:
    """The findings nothing explains and the job did not survive, strongest and earliest first."""
    free = [
        f
        for f in findings
        if f.role == "cause" and verdicts[id(f)].explained_by is None and not verdicts[id(f)].survived
    ]
    return sorted(free, key=lambda f: (-f.strength, f.order))
