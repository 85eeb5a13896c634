"""Why a job ended: read its log once, in bounded memory, and name the first cause first.

A multi-node failure is one cause and many symptoms: one rank raises, the others wait in a
collective until NCCL's or Gloo's timeout, lose their peer ("connection reset by peer") or are
stopped by SIGTERM when srun or torchrun tears the step down. Sorting those by time is not
enough (the timeouts may be printed before the traceback is flushed), so every event is
classified as a cause or a symptom, and the causes are ordered by where they appear.

The scan keeps a bounded tail of each rank's open traceback and a few evidence lines per kind;
lines longer than `MAX_LINE` are cut, so a log of any size (or of binary garbage) is read in
constant memory.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from jobc.jobs import labels
from jobc.tables import contract
from jobc.tables.contract import HANG_EXIT_CODE, REQUEUE_EXIT_CODE, WATCHDOG_EXIT_CODE

MAX_LINE = 8192
TRACEBACK_TAIL = 40
EVIDENCE_PER_KIND = 4


@dataclass(frozen=True)
class Evidence:
    file: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.text}"


@dataclass
class Finding:
    kind: str
    summary: str
    cause: bool
    rank: int | None = None
    node: str | None = None
    order: float = float("inf")
    evidence: list[Evidence] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("order")
        data["evidence"] = [asdict(e) for e in self.evidence]
        return data


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
            "master": self.master,
            "restarts": self.restarts,
            "lines": self.lines,
            "findings": [f.as_json() for f in self.findings],
        }


@dataclass
class _Exception:
    rank: int | None
    start: Evidence
    end: Evidence
    type: str
    message: str
    frame: Evidence | None
    frame_text: str | None
    code: str | None


# --- patterns -------------------------------------------------------------------------------

_EXC_LINE = re.compile(
    r"^([A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit|Failure|Timeout)\w*)(?::\s?(.*))?$"
)
_FRAME = re.compile(r'^\s+File "([^"]+)", line (\d+), in (\S+)')
_SRUN_TASK = re.compile(
    r"^srun: error: (\S+): tasks? ([\d,\-]+): (Exited with exit code (\d+)|Killed|Terminated|Aborted)"
)
_STEPD = re.compile(
    r"\*\*\* (JOB|STEP) (\S+) ON (\S+) CANCELLED AT (\S+)(?: DUE TO (TIME LIMIT|PREEMPTION|NODE FAILURE))?"
)
_OOM_KILL = re.compile(r"oom[-_ ]kill|Out Of Memory|OUT_OF_MEMORY", re.I)
_CUDA_OOM = re.compile(r"CUDA out of memory|OutOfMemoryError|CUBLAS_STATUS_ALLOC_FAILED", re.I)
_SYMPTOM = re.compile(
    r"Watchdog caught collective operation timeout|collective operation timeout|NCCL.*[Tt]imeout|"
    r"ProcessGroupNCCL.*(?:timed out|Timeout)|Connection reset by peer|Connection closed by peer|"
    r"ECONNRESET|Broken pipe|DistBackendError|gloo.*(?:Timed out|timeout|closed|reset)|"
    r"Application timeout caused pair closure|NCCL communicator was aborted|remote process exited",
    re.I,
)
_RDZV = re.compile(
    r"RendezvousTimeoutError|RendezvousConnectionError|DistStoreError|"
    r"client socket has timed out.* while trying to connect to|failed to connect/validate to host|"
    r"Timed out after \d+ seconds waiting for clients|"
    r"failed to (?:connect|bind) .*(?:store|rendezvous)|rendezvous.*(?:timed out|timeout|failed)",
    re.I,
)
_ENDPOINT = re.compile(r"\(([\w.\-]+), (\d+)\)|([\w.\-]+):(\d{2,5})\b")
_TORCHRUN_FIELD = re.compile(r"^\s*(rank|host|exitcode|time)\s*:\s*(.*)$")
_BANNER_MASTER = contract.MASTER.pattern
_BANNER_LAYOUT = contract.LAYOUT.pattern
_BANNER_JOB = contract.JOB.pattern
_SIGNAL = contract.SIGNAL_FORWARDED.pattern
_STEP_END = contract.STEP_END.pattern
_REQUEUE = contract.REQUEUE.pattern
_WATCHDOG = contract.RUNTIME_WATCHDOG.pattern

_SIGNALS = {1: "SIGHUP", 2: "SIGINT", 6: "SIGABRT", 9: "SIGKILL", 10: "SIGUSR1", 12: "SIGUSR2", 15: "SIGTERM"}


def exit_class(code: int) -> str:
    """What an exit code usually means for a rank of a training job."""
    if code == 1:
        return "a Python exception"
    if code == REQUEUE_EXIT_CODE:
        return "the requeue code: it checkpointed and asked to be requeued"
    if code == WATCHDOG_EXIT_CODE:
        return "the runtime's watchdog: still running after the grace period, forced out"
    if code == HANG_EXIT_CODE:
        return "the runtime's hang watchdog: no step completed in time, or a collective failed"
    if code in (137, 9, -9):
        return "killed by SIGKILL (out of memory, scancel, or the end of the grace period)"
    if code in (143, 15, -15):
        return "stopped by SIGTERM (the step was torn down, or the job was signalled)"
    if code > 128 and code - 128 in _SIGNALS:
        return f"killed by {_SIGNALS[code - 128]}"
    if code < 0 and -code in _SIGNALS:
        return f"killed by {_SIGNALS[-code]}"
    return f"exit code {code}"


class Scanner:
    """Feeds on lines; `diagnosis()` says what they mean."""

    def __init__(self, coords: dict[int, dict[str, int]] | None = None, per_node: int | None = None) -> None:
        self.coords = coords or {}
        self.per_node = per_node
        self.torchrun = False
        self.master: str | None = None
        self.restart = 0
        self.lines = 0
        self.job_id: str | None = None
        self.open_tb: dict[int | None, tuple[Evidence, deque[tuple[Evidence, str]]]] = {}
        self.exceptions: list[_Exception] = []
        self.excepted_ranks: set[int | None] = set()
        self.task_exits: list[tuple[Evidence, str, list[int], str, int | None]] = []
        self.stepd: list[tuple[Evidence, str | None]] = []
        self.symptoms: list[Evidence] = []
        self.symptom_ranks: set[int] = set()
        self.rdzv: list[Evidence] = []
        self.oom_kill: list[Evidence] = []
        self.signals: list[Evidence] = []
        self.requeues: list[Evidence] = []
        self.step_ends: list[tuple[Evidence, int]] = []
        self.watchdog: list[Evidence] = []
        self.torchrun_root: dict[str, str] = {}
        self.torchrun_root_at: Evidence | None = None
        self._in_root = False
        self.rank_task: dict[int, int] = {}
        self.task_node: dict[int, str] = {}

    # -- feeding ---------------------------------------------------------------------------

    def feed(self, path: str, number: int, raw: str) -> None:
        self.lines += 1
        line = labels.parse(raw.rstrip("\r\n"))
        text = line.text
        rank = labels.rank_of(line, self.torchrun, self.per_node)
        ev = Evidence(path, number, _clip(raw.rstrip("\r\n")))
        if rank is not None and line.task is not None and rank not in self.rank_task:
            self.rank_task[rank] = line.task
        if text.startswith("jobc: "):
            self._jobc_line(ev, text)
            return
        if text.startswith("srun: error: "):
            m = _SRUN_TASK.match(text)
            if m:
                code = int(m.group(4)) if m.group(4) else None
                for task in _tasks(m.group(2)):
                    self.task_node.setdefault(task, m.group(1))
                self.task_exits.append((ev, m.group(1), _tasks(m.group(2)), m.group(3), code))
            return
        m = _STEPD.search(text)
        if m:
            self.stepd.append((ev, m.group(5)))
            return
        if (
            _OOM_KILL.search(text)
            and ("slurmstepd" in text or "oom" in text.lower())
            and not _CUDA_OOM.search(text)
        ):
            _add(self.oom_kill, ev)
        w = _WATCHDOG.search(text)
        if w:
            _add(self.watchdog, ev)
        self._traceback(rank, ev, text)
        self._torchrun_error(ev, text)
        if _RDZV.search(text):
            _add(self.rdzv, ev)
        elif _SYMPTOM.search(text):
            _add(self.symptoms, ev)
            if rank is not None:
                self.symptom_ranks.add(rank)

    def _jobc_line(self, ev: Evidence, text: str) -> None:
        if m := _BANNER_MASTER.match(text):
            self.master = f"{m.group(1)}:{m.group(2)}"
            self.restart = max(self.restart, int(m.group(3)))
        elif m := _BANNER_LAYOUT.match(text):
            self.torchrun = m.group(2) == "torchrun"
        elif m := _BANNER_JOB.match(text):
            self.job_id = m.group(2)
        elif _SIGNAL.match(text):
            self.signals.append(ev)
        elif m := _STEP_END.match(text):
            self.step_ends.append((ev, int(m.group(1))))
        elif _REQUEUE.match(text):
            self.requeues.append(ev)

    def _traceback(self, rank: int | None, ev: Evidence, text: str) -> None:
        if text.startswith("Traceback (most recent call last):"):
            self.open_tb[rank] = (ev, deque(maxlen=TRACEBACK_TAIL))
            return
        opened = self.open_tb.get(rank)
        if opened is None:
            return
        start, tail = opened
        if text.startswith((" ", "\t")) or not text.strip():
            tail.append((ev, text))
            return
        if text.startswith(("The above exception", "During handling")):
            return
        m = _EXC_LINE.match(text.strip())
        if m is None:
            tail.append((ev, text))
            return
        del self.open_tb[rank]
        frame = frame_text = source = None
        items = list(tail)
        for i in range(len(items) - 1, -1, -1):
            f = _FRAME.match(items[i][1])
            if f:
                frame, frame_text = items[i]
                if i + 1 < len(items) and not _FRAME.match(items[i + 1][1]):
                    source = items[i + 1][1].strip()
                break
        self.exceptions.append(
            _Exception(rank, start, ev, m.group(1), (m.group(2) or "").strip(), frame, frame_text, source)
        )
        self.excepted_ranks.add(rank)

    def _torchrun_error(self, ev: Evidence, text: str) -> None:
        if "Root Cause (first observed failure)" in text:
            self._in_root = True
            self.torchrun_root = {}
            self.torchrun_root_at = ev
            return
        if self._in_root:
            m = _TORCHRUN_FIELD.match(text)
            if m:
                self.torchrun_root.setdefault(m.group(1), m.group(2).strip())
            elif text.startswith("=") and "rank" in self.torchrun_root:
                self._in_root = False

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
        first_signal = self.signals[0].line if self.signals else None
        found: list[Finding] = []
        # In this order: each step looks at what the earlier ones found (a cause already named
        # makes a signal, a torchrun table or a cancellation a symptom).
        found += self._node_failure(final)
        found += self._exception_findings(first_signal)
        found += self._task_exit_findings(final, first_signal)
        found += self._torchrun_root_cause(found)
        found += self._rendezvous_and_watchdog(found)
        found += self._ending(final, found)
        found += self._aftermath(final, found)
        _demote_rendezvous_echoes(found)
        found.sort(key=lambda f: (not f.cause, f.order))
        return Diagnosis(
            job_id=job_id or self.job_id,
            state=final,
            exit_code=exit_code,
            logs=list(logs),
            findings=found,
            restarts=self.restart,
            master=self.master,
            mode="torchrun" if self.torchrun else ("srun" if self.master else None),
            lines=self.lines,
        )

    def _node_failure(self, final: str | None) -> list[Finding]:
        """Slurm lost a node: the cause before anything the ranks printed."""
        found: list[Finding] = []
        if final == "NODE_FAIL" or any(due == "NODE FAILURE" for _, due in self.stepd):
            evidence = [ev for ev, due in self.stepd if due == "NODE FAILURE"][:EVIDENCE_PER_KIND]
            found.append(
                Finding(
                    "node_fail",
                    "a node failed (NODE_FAIL): Slurm lost a node of the job",
                    True,
                    order=-1,
                    evidence=evidence,
                )
            )
        return found

    def _exception_findings(self, first_signal: int | None) -> list[Finding]:
        """Python exceptions: the cause unless they are a collective's timeout or a lost peer."""
        rank_nodes = self._rank_nodes()
        found: list[Finding] = []
        rendezvous: list[_Exception] = []
        symptom_ranks: set[int] = set()
        for exc in self.exceptions:
            whole = f"{exc.type}: {exc.message}"
            node = rank_nodes.get(exc.rank) if exc.rank is not None else None
            evidence = [exc.start, *([exc.frame] if exc.frame else []), exc.end]
            after_signal = first_signal is not None and exc.start.line > first_signal
            if exc.type.endswith("ChildFailedError"):
                continue  # torchrun's agent reporting a worker's failure; its table is read below
            if _CUDA_OOM.search(whole):
                where = _coords_text(self.coords.get(exc.rank)) if exc.rank is not None else ""
                summary = f"CUDA out of memory on rank {_r(exc.rank)}{_on(node)}{where}: {exc.message[:200]}"
                found.append(Finding("cuda_oom", summary, True, exc.rank, node, exc.start.line, evidence))
            elif _RDZV.search(whole):
                rendezvous.append(exc)
            elif _SYMPTOM.search(whole) or exc.type in ("KeyboardInterrupt", "SystemExit") or after_signal:
                if exc.rank is not None:
                    symptom_ranks.add(exc.rank)
                if len(self.symptoms) < EVIDENCE_PER_KIND and exc.end not in self.symptoms:
                    self.symptoms.append(exc.end)
            else:
                frame = ""
                f = _FRAME.match(exc.frame_text or "")
                if f:
                    frame = f" in {f.group(3)} at {f.group(1)}:{f.group(2)}"
                shown = f" ({exc.code})" if exc.code else ""
                summary = f"rank {_r(exc.rank)}{_on(node)} raised {whole[:300]}{frame}{shown}"
                found.append(
                    Finding("python_exception", summary, True, exc.rank, node, exc.start.line, evidence)
                )
        self.symptom_ranks |= symptom_ranks
        if rendezvous:
            evs = [exc.end for exc in rendezvous]
            found.append(self._rendezvous(rendezvous[0].start.line, evs + self.rdzv, None))
        return found

    def _task_exit_findings(self, final: str | None, first_signal: int | None) -> list[Finding]:
        """Ranks that died by a signal or exit code without a traceback of their own."""
        found: list[Finding] = []
        who = "the torchrun of task" if self.torchrun else "rank"
        for ev, node, tasks, what, status in self.task_exits:
            ranks = tasks if not self.torchrun else []
            if ranks and all(r in self.excepted_ranks for r in ranks):
                continue
            if what == "Killed" or status in (137, 9):
                oom = final == "OUT_OF_MEMORY" or bool(self.oom_kill)
                if oom:
                    summary = (
                        f"{who} {_tasks_text(tasks)} on {node} was killed: out of memory "
                        "(host RAM, the kernel's OOM killer)"
                    )
                    evs = [ev, *self.oom_kill[:2]]
                else:
                    summary = (
                        f"{who} {_tasks_text(tasks)} on {node} was killed by SIGKILL (not out of memory by "
                        "Slurm's account: scancel, a node agent, or a kill after the grace period)"
                    )
                    evs = [ev]
                after_signal = first_signal is not None and ev.line > first_signal
                found.append(
                    Finding(
                        "killed", summary, not after_signal, tasks[0] if ranks else None, node, ev.line, evs
                    )
                )
            elif what == "Terminated" or status in (143, 15):
                found.append(
                    Finding(
                        "sigterm",
                        f"{who} {_tasks_text(tasks)} on {node} stopped by SIGTERM (a symptom: the step "
                        "was torn down after another failure, or the job was signalled)",
                        False,
                        tasks[0] if ranks else None,
                        node,
                        ev.line,
                        [ev],
                    )
                )
            elif status is not None and status not in (0, 1):
                cause = status != REQUEUE_EXIT_CODE and not (first_signal and ev.line > first_signal)
                found.append(
                    Finding(
                        "exit_code",
                        f"{who} {_tasks_text(tasks)} on {node} exited with {status}: {exit_class(status)}",
                        cause and status != WATCHDOG_EXIT_CODE,
                        tasks[0] if ranks else None,
                        node,
                        ev.line,
                        [ev],
                    )
                )
            elif status == 1 and ranks and not any(r in self.excepted_ranks for r in ranks):
                found.append(
                    Finding(
                        "exit_code",
                        f"{who} {_tasks_text(tasks)} on {node} exited with 1 ({exit_class(1)}, "
                        "but its traceback is not in the log)",
                        True,
                        ranks[0],
                        node,
                        ev.line,
                        [ev],
                    )
                )
        return found

    def _torchrun_root_cause(self, before: list[Finding]) -> list[Finding]:
        """torchrun's own table of the first failure, when nothing before named a cause."""
        found: list[Finding] = []
        if self.torchrun_root and not any(f.cause for f in before):
            code_text = self.torchrun_root.get("exitcode", "?")
            m = re.match(r"(-?\d+)", code_text)
            root = int(m.group(1)) if m else None
            rank_text = self.torchrun_root.get("rank", "?")
            rm = re.match(r"(\d+)", rank_text)
            evs = [self.torchrun_root_at] if self.torchrun_root_at else []
            found.append(
                Finding(
                    "torchrun_root_cause",
                    f"torchrun's first observed failure: rank {rank_text} on "
                    f"{self.torchrun_root.get('host', '?')} "
                    f"exited with {code_text}" + (f" ({exit_class(root)})" if root is not None else ""),
                    root is None or root not in (-15, 143),
                    int(rm.group(1)) if rm else None,
                    self.torchrun_root.get("host"),
                    evs[0].line if evs else float("inf"),
                    evs,
                )
            )
        return found

    def _rendezvous_and_watchdog(self, before: list[Finding]) -> list[Finding]:
        """Rendezvous messages no exception carried, and the runtime's watchdog."""
        found: list[Finding] = []
        if self.rdzv and not any(f.kind == "rendezvous" for f in before):
            found.append(self._rendezvous(self.rdzv[0].line, self.rdzv, None))

        if self.watchdog:
            found.append(
                Finding(
                    "watchdog",
                    f"the runtime's watchdog forced ranks out with code {WATCHDOG_EXIT_CODE}: they were "
                    "still running after the grace period (the checkpoint may be partial)",
                    False,
                    order=self.watchdog[0].line,
                    evidence=self.watchdog[:EVIDENCE_PER_KIND],
                )
            )
        return found

    def _ending(self, final: str | None, before: list[Finding]) -> list[Finding]:
        """How the job was stopped from outside: the time limit, preemption or a signal."""
        found: list[Finding] = []
        time_limit = [ev for ev, due in self.stepd if due == "TIME LIMIT"]
        preempted = [ev for ev, due in self.stepd if due == "PREEMPTION"]
        checkpointed = any(code == REQUEUE_EXIT_CODE for _, code in self.step_ends) or bool(self.requeues)
        if final == "TIMEOUT" or time_limit:
            line = (
                self.signals[0].line if self.signals else (time_limit[0].line if time_limit else float("inf"))
            )
            evs = self.signals[:1] + time_limit[:1] + self.requeues[:1]
            if checkpointed:
                summary = (
                    "the job reached its time limit; the signal arrived, it checkpointed and was requeued"
                )
            elif self.signals:
                summary = (
                    "the job reached its time limit: the signal arrived but no checkpoint followed "
                    "(no requeue code); raise slurm.time or make the program checkpoint on the signal"
                )
            else:
                summary = (
                    "the job reached its time limit without a checkpoint (no signal reached it: "
                    "set resilience.signal so the job can save and requeue)"
                )
            found.append(Finding("timeout", summary, True, order=line, evidence=evs))
        elif preempted or final == "PREEMPTED":
            evs = preempted[:1] + self.signals[:1]
            found.append(
                Finding(
                    "preempted",
                    "the job was preempted",
                    True,
                    order=evs[0].line if evs else float("inf"),
                    evidence=evs,
                )
            )
        elif self.signals and not any(f.cause and f.order < self.signals[0].line for f in before):
            sig = _SIGNAL.match(labels.parse(self.signals[0].text).text)
            name = f"SIG{sig.group(1)}" if sig else "a signal"
            summary = (
                f"{name} reached the job (preemption, the time limit's warning, or jobc cancel --checkpoint)"
            )
            if checkpointed:
                summary += "; it checkpointed and asked to be requeued"
            found.append(
                Finding(
                    "signalled",
                    summary,
                    True,
                    order=self.signals[0].line,
                    evidence=self.signals[:1] + self.requeues[:1],
                )
            )
        return found

    def _aftermath(self, final: str | None, before: list[Finding]) -> list[Finding]:
        """Requeues, a cancellation, the symptoms, and the step's exit code when nothing else is a cause."""
        found: list[Finding] = []
        if self.requeues or self.restart:
            runs = len(self.requeues)
            found.append(
                Finding(
                    "requeue_chain",
                    f"requeued {runs} time(s) by the script; the log's last run is restart {self.restart}",
                    False,
                    order=self.requeues[0].line if self.requeues else float("inf"),
                    evidence=self.requeues[:EVIDENCE_PER_KIND],
                )
            )
        if final == "CANCELLED" and not any(f.cause for f in [*before, *found]):
            found.append(
                Finding(
                    "cancelled",
                    "the job was cancelled (scancel)",
                    True,
                    evidence=[ev for ev, _ in self.stepd][:1],
                )
            )

        if self.symptoms:
            ranks = sorted(self.symptom_ranks)
            who = f" on rank(s) {_list(ranks)}" if ranks else ""
            found.append(
                Finding(
                    "collective_symptom",
                    f"collective timeouts or lost peers{who}: symptoms of a failure elsewhere, not a cause",
                    False,
                    order=self.symptoms[0].line,
                    evidence=self.symptoms[:EVIDENCE_PER_KIND],
                )
            )

        if not any(f.cause for f in [*before, *found]):
            bad = [(ev, last) for ev, last in self.step_ends if last not in (0,)]
            if bad:
                ev, last = bad[-1]
                found.append(
                    Finding(
                        "exit_code",
                        f"the step ended with exit code {last}: {exit_class(last)}",
                        True,
                        order=ev.line,
                        evidence=[ev],
                    )
                )
        return found

    def _rendezvous(self, order: float, evidence: list[Evidence], rank: int | None) -> Finding:
        endpoint = self.master
        for ev in sorted(evidence, key=lambda e: "trying to connect to" not in e.text):
            m = _ENDPOINT.search(labels.parse(ev.text).text)
            if m:
                endpoint = f"{m.group(1)}:{m.group(2)}" if m.group(1) else f"{m.group(3)}:{m.group(4)}"
                break
        where = endpoint or "MASTER_ADDR:MASTER_PORT (not in the log)"
        expected = f"; the job's master is {self.master}" if self.master and self.master != endpoint else ""
        return Finding(
            "rendezvous",
            f"rendezvous never completed: ranks could not meet at {where}{expected}; check that the first "
            "node's process listens there (port, firewall, MASTER_ADDR resolving on every node)",
            True,
            rank,
            None,
            order,
            evidence[:EVIDENCE_PER_KIND],
        )

    def _rank_nodes(self) -> dict[int | None, str]:
        """Each rank's node: srun names the node of a task that failed, and the labels say
        which task (the rank itself, or torchrun's node) wrote a rank's lines."""
        nodes: dict[int | None, str] = {}
        for rank, task in self.rank_task.items():
            if task in self.task_node:
                nodes[rank] = self.task_node[task]
        if not self.torchrun:
            for task, node in self.task_node.items():
                nodes.setdefault(task, node)
        return nodes


def scan(streams: Iterable[tuple[str, IO[bytes]]], scanner: Scanner) -> None:
    """Feed every line of every stream; a line longer than MAX_LINE is cut and its rest skipped."""
    for name, stream in streams:
        number = 0
        while True:
            raw = stream.readline(MAX_LINE)
            if not raw:
                break
            number += 1
            if not raw.endswith(b"\n"):
                while True:  # the rest of an overlong line, read and dropped in pieces
                    more = stream.readline(MAX_LINE)
                    if not more or more.endswith(b"\n"):
                        break
            scanner.feed(name, number, raw.replace(b"\0", b"").decode("utf-8", "replace"))


def triage_files(
    paths: Sequence[Path],
    *,
    job_id: str | None = None,
    state: str | None = None,
    exit_code: str | None = None,
    sacct_state: str | None = None,
    coords: dict[int, dict[str, int]] | None = None,
    per_node: int | None = None,
) -> Diagnosis:
    scanner = Scanner(coords, per_node)
    for path in paths:
        with path.open("rb") as stream:
            scan([(str(path), stream)], scanner)
    return scanner.diagnosis(job_id, state, exit_code, [str(p) for p in paths], sacct_state)


def render(d: Diagnosis) -> str:
    out = []
    head = f"job {d.job_id}" if d.job_id else ", ".join(d.logs)
    facts = [
        f"state {d.state}" if d.state else None,
        f"exit code {d.exit_code}" if d.exit_code else None,
        f"{d.mode} launch" if d.mode else None,
        f"master {d.master}" if d.master else None,
        f"restart {d.restarts}" if d.restarts else None,
    ]
    shown = [f for f in facts if f]
    out.append(head + (f" ({', '.join(shown)})" if shown else ""))
    if not d.findings:
        out.append("  no failure found in the log")
    for i, f in enumerate(d.findings):
        label = "cause" if f.cause else "then"
        if i == 0 and f.cause:
            label = "first cause"
        out.append(f"{label}: {f.summary}")
        for ev in f.evidence:
            out.append(f"    {ev}")
    return "\n".join(out) + "\n"


# --- small helpers ----------------------------------------------------------------------------


def _clip(text: str, width: int = 400) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _add(bucket: list[Evidence], ev: Evidence) -> None:
    if len(bucket) < EVIDENCE_PER_KIND:
        bucket.append(ev)


def _tasks(text: str) -> list[int]:
    out: list[int] = []
    for part in text.split(","):
        a, _, b = part.partition("-")
        if a.isdigit():
            out.extend(range(int(a), int(b) + 1) if b.isdigit() else [int(a)])
        if len(out) > 4096:
            break
    return out


def _tasks_text(tasks: list[int]) -> str:
    return _list(tasks)


def _list(values: list[int]) -> str:
    if len(values) > 8:
        return ",".join(map(str, values[:8])) + f",… ({len(values)})"
    return ",".join(map(str, values))


def _r(rank: int | None) -> str:
    return "?" if rank is None else str(rank)


def _on(node: str | None) -> str:
    return f" on {node}" if node else ""


def _coords_text(coords: dict[str, int] | None) -> str:
    if not coords:
        return ""
    keys = [k for k in ("tp", "pp", "cp", "dp", "ep") if k in coords]
    return " (" + ", ".join(f"{k} {coords[k]}" for k in keys) + ")"


def _demote_rendezvous_echoes(found: list[Finding]) -> None:
    """A lost store after a rank already failed is that failure's echo, not a rendezvous problem."""
    for echo in found:
        if echo.kind == "rendezvous" and any(
            g.cause and g.kind != "rendezvous" and g.order < echo.order for g in found
        ):
            echo.cause = False
            echo.summary = (
                "then the ranks lost the rendezvous store (a symptom of the failure above): "
                + echo.summary.split(": ", 1)[-1]
            )


# --- hang dumps: the first cause, when jobc.runtime's hang watchdog left them (jobc.jobs.flight)


def with_hang_dumps(d: Diagnosis, dumps: Path | None = None) -> Diagnosis:
    """Put the hang the dumps show first; the log's timeouts and lost peers are its symptoms.

    ``dumps`` is the dump directory; by default the one the compiled script makes beside each log.
    """
    from jobc.jobs import flight

    directory = dumps
    if directory is None:
        for log in d.logs:
            directory = flight.find_dump_dir(Path(log))
            if directory is not None:
                break
    if directory is None:
        return d
    report = flight.analyse(directory, [Path(p) for p in d.logs], torchrun=d.mode == "torchrun")
    if report is None:
        return d
    div = report.divergence
    if div is None:
        d.findings.append(Finding("hang-dumps", report.summary(), cause=False))
        return d
    evidence: list[Evidence] = []
    for rank in div.ranks:
        for frame in div.stacks.get(rank, [])[:3]:
            evidence.append(
                Evidence(frame.file, frame.line, f"rank {rank} in {frame.function}: {frame.code}")
            )
        dump = report.dumps.get(rank)
        if dump is not None and dump.recorder is not None:
            evidence.append(Evidence(str(dump.recorder), 1, f"rank {rank}: flight recorder"))
    for note in report.notes[:EVIDENCE_PER_KIND]:
        evidence.append(Evidence(str(report.directory), 0, note))
    finding = Finding(
        "hang",
        "hang: " + div.detail,
        cause=True,
        rank=div.ranks[0] if div.ranks else None,
        order=-1.0,
        evidence=evidence,
    )
    d.findings.insert(0, finding)
    return d
