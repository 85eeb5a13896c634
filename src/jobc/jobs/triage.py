"""Why a job ended: read its log once, in bounded memory, and name the first cause first.

A multi-node failure is one cause and many symptoms: one rank raises, the others wait in a
collective until NCCL's or Gloo's timeout, lose their peer or are stopped by SIGTERM when srun
or torchrun tears the step down. Every line the catalogue of signatures
(`jobc.jobs.signatures`) recognises becomes an event with a class and a role (cause, symptom,
context); causes are ordered by where they appear, and symptoms never come first.

Reading is built for logs of many gigabytes: the file is read in binary blocks, one combined
keyword pattern (`signatures.PREFILTER`) finds the few lines worth reading, and every other line
costs only its share of a newline count. Carriage returns split lines too (a progress bar glues
the next line to its own), pieces longer than `MAX_LINE` are cut, and the state kept (an open
traceback's tail per writer, a few evidence lines per finding) is bounded, so a log of any size
or of binary garbage is read in constant memory.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from jobc.jobs import labels
from jobc.jobs.findings import (
    Diagnosis,
    Event,
    Evidence,
    Facts,
    Finding,
    exit_class,
    parse_int,
    signal_of,
)
from jobc.jobs.judge import judge
from jobc.jobs.judge import render as _render
from jobc.jobs.signatures import CATALOGUE, FIND_WORDS, PREFILTER, Signature
from jobc.jobs.signatures import launchers as launch
from jobc.jobs.signatures import network as net
from jobc.jobs.signatures import python as py
from jobc.tables import contract

MAX_LINE = 8192
BLOCK = 1 << 22
TRACEBACK_TAIL = 40
TRACEBACK_WINDOW = 400  # lines an open traceback may wait for its exception line
TABLE_LINES = 16  # lines after torchrun's "Root Cause" or "Failures:" read whatever they hold
EVIDENCE_PER_FINDING = 4
EVIDENCE_WIDTH = 400

_PROGRAM_SIGNALS = frozenset({"SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL"})

_FRAME = re.compile(
    r'^\s{0,16}File "(?P<file>[^"]{1,1000})", line (?P<line>[0-9]{1,9}), in (?P<func>\S{1,200})'
)
_EXC_NAME = re.compile(r"^(?:[A-Za-z_][A-Za-z0-9_]{0,100}+\.){0,20}+[A-Za-z_][A-Za-z0-9_]{0,100}+")
_TABLE_FIELD = re.compile(
    r"^\s{0,16}(time|host|rank|exitcode|error_file|traceback)\s{0,16}:\s{0,4}(.{0,500})$"
)
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


@dataclass
class _OpenTraceback:
    start: Evidence
    opened_at: int
    tail: deque[tuple[Evidence, str]]
    chained: bool


class Scanner(Facts):
    """Feeds on lines (or pieces of lines); `diagnosis()` says what they mean."""

    def __init__(self, coords: dict[int, dict[str, int]] | None = None, per_node: int | None = None) -> None:
        super().__init__(coords)
        self.per_node = per_node  # kept for callers; ranks are never placed by arithmetic
        self.seen: dict[tuple[Any, ...], Event] = {}
        self.open_tb: dict[tuple[Any, ...], _OpenTraceback] = {}
        self.chain_pending: set[tuple[Any, ...]] = set()
        self.last_exception: dict[tuple[Any, ...], Event] = {}
        self.table_left = 0
        self.table: dict[str, str] = {}
        self.table_root = False
        self.table_at: Evidence | None = None
        self._piece = 0
        self.current = 0  # the line being read
        self.abort_at: Evidence | None = None  # a C++ terminate line waiting for its what()
        self.child_failed: tuple[Evidence, tuple[int, int], labels.Line] | None = None
        # a report whose details follow on lines of their own (Ray's ActorDiedError fields,
        # Hydra's exit code): the event, which reader, and how many lines it may still read
        self.follow: tuple[str, Event] | None = None
        self.follow_left = 0

    # -- state the reader asks about ------------------------------------------------------

    def busy(self) -> bool:
        """Whether every line matters now (an open traceback, a torchrun table being read)."""
        return bool(self.open_tb) or self.table_left > 0 or self.follow_left > 0

    # -- feeding ---------------------------------------------------------------------------

    def feed(self, path: str, number: int, raw: str) -> None:
        """One physical line; carriage returns split it into the pieces a terminal would show."""
        self.lines += 1
        for piece in raw.rstrip("\n").split("\r"):
            if piece:
                self.feed_piece(path, number, piece)

    def feed_piece(self, path: str, number: int, raw: str) -> None:
        self._piece += 1
        self.current = number
        if len(raw) > MAX_LINE:
            raw = raw[:MAX_LINE]
        line = labels.parse(raw)
        text = line.text
        ev = Evidence(path, number, _clip(raw))
        order = (number, self._piece)
        self._labels(line)
        if text.startswith(("jobc: ", "jobc.runtime: ")):
            self._jobc_line(ev, text)
            return
        if self.follow_left > 0 and self._follow(text):
            return
        if self.table_left > 0:
            if self._table_line(ev, order, line, text):
                return
            if self.table_root and "rank" in self.table:
                self._table_block(line)  # the table stopped before its end: what it said stands
        key = (line.task, line.rank, line.local_rank, line.node)
        if self._traceback(key, ev, order, line, text):
            return
        self._match(ev, order, line, text)

    def _labels(self, line: labels.Line) -> None:
        if line.rank is not None and line.task is not None:
            self.rank_task.setdefault(line.rank, line.task)
        if line.node is not None:
            if line.rank is not None:
                self.rank_node.setdefault(line.rank, line.node)
            if line.task is not None:
                self.task_node.setdefault(line.task, line.node)

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

    def _follow(self, text: str) -> bool:
        """A line after a report that may hold its details: ActorDiedError's `ip:` field (the
        node of the dead worker), Hydra's `EXIT CODE: 9` or `KILLED BY SIGNAL: 9`, Open MPI's
        `Exit code:    1` under the first failed process's name."""
        self.follow_left -= 1
        if self.follow is None:
            return False
        kind, event = self.follow
        if kind == "ray":
            m = launch.RAY_IP_FIELD.match(text)
            if m is None:
                return False
            if "node" not in event.fields and m.group("ip") not in launch.NOT_A_NODE:
                event.fields["node"] = m.group("ip")
            self.follow_left = 0
            return True
        if kind == "mpirun-exit":
            c = launch.MPIRUN_EXIT_CODE.match(text)
            if c is None:
                return False
            event.fields["exit_code"] = c.group("code")
            self.follow_left = 0
            return True
        if kind == "mpirun":
            self.follow_left = 0
            w = launch.MPIRUN_SIGNAL.match(text)
            if w is not None:
                event.fields["signum"] = w.group("signum")
            return False
        h = launch.HYDRA_END.search(text[:2000])
        if h is None:
            return False
        if h.group("code") is not None:
            event.fields.setdefault("exit_code", h.group("code"))
        elif (signum := h.group("signum") or h.group("signum2")) is not None:
            event.fields["signum"] = signum
            event.fields.pop("exit_code", None)  # Hydra's EXIT CODE was the signal's number
            self.follow_left = 0
        return False

    def _table_line(self, ev: Evidence, order: tuple[int, int], line: labels.Line, text: str) -> bool:
        """torchrun's ChildFailedError table: `  rank      : 5 (local_rank: 1)` and its fellows."""
        self.table_left -= 1
        m = _TABLE_FIELD.match(text)
        if m:
            self.table[m.group(1)] = m.group(2).strip()
            if m.group(1) == "traceback":
                self._table_block(line)
            return True
        if text.startswith("[") or text.startswith("-") or text.startswith("="):
            self._table_block(line)
            if text.startswith("="):
                self.table_left = 0
            return True
        return False

    def _table_block(self, line: labels.Line) -> None:
        """One failure block is complete: remember its rank's host, and report the root cause."""
        table, self.table = self.table, {}
        if "rank" not in table:
            return
        rank_m = _LEADING_INT.match(table["rank"])
        rank = parse_int(rank_m.group(1)) if rank_m else None
        host = table.get("host")
        if rank is not None and host and host not in ("<N/A>", ""):
            self.rank_node.setdefault(rank, host)
        if not self.table_root or self.table_at is None:
            return
        self.table_root = False
        code_m = _LEADING_INT.match(table.get("exitcode", ""))
        code = parse_int(code_m.group(1)) if code_m else None
        lr = _LOCAL_RANK.search(table["rank"])
        sig = signal_of(code)
        sm = _SIGNAL_NUMBER.search(table.get("traceback", "")) or _SIGNAL_NUMBER.search(
            table.get("exitcode", "")
        )
        if sm:
            sig = sm.group(2)
        fields: dict[str, Any] = {
            "rank": rank,
            "local_rank": parse_int(lr.group(1)) if lr else None,
            "node": host if host and host != "<N/A>" else None,
            "exit_code": code,
            "signal": sig,
            "error_file": table.get("error_file"),
        }
        root = _by_code("L202")
        self._event(root, self.table_at, (self.table_at.line, 0), line, fields)

    def _traceback(
        self, key: tuple[Any, ...], ev: Evidence, order: tuple[int, int], line: labels.Line, text: str
    ) -> bool:
        if text.startswith("Traceback (most recent call last):"):
            rest = text[len("Traceback (most recent call last):") :]
            if len(rest.strip()) > 8 and self._flattened(key, ev, order, line, rest):
                return True
            chained = key in self.chain_pending
            self.chain_pending.discard(key)
            if len(self.open_tb) < 4096 or key in self.open_tb:
                self.open_tb[key] = _OpenTraceback(ev, self.current, deque(maxlen=TRACEBACK_TAIL), chained)
            return True
        if text.startswith(("The above exception was the direct cause", "During handling of the above")):
            self.chain_pending.add(key)
            return True
        opened = self.open_tb.get(key)
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
            opened.tail.append((ev, text))
            self._expire()
            return True
        del self.open_tb[key]
        message = rest[1:].strip() if rest else ""
        self._exception(key, opened, ev, order, line=line, name=name, message=message)
        return True

    def _flattened(
        self, key: tuple[Any, ...], ev: Evidence, order: tuple[int, int], line: labels.Line, rest: str
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
        """Forget tracebacks whose exception line never came (a lost paste, a killed rank)."""
        stale = [k for k, tb in self.open_tb.items() if self.current - tb.opened_at > TRACEBACK_WINDOW]
        for k in stale:
            del self.open_tb[k]

    def _exception(
        self,
        key: tuple[Any, ...],
        opened: _OpenTraceback,
        ev: Evidence,
        order: tuple[int, int],
        *,
        line: labels.Line,
        name: str,
        message: str,
    ) -> None:
        frames = [(e, f, t) for e, t in opened.tail if (f := _FRAME.match(t))]
        raising = user = None
        if frames:
            f = frames[-1][1]
            raising = f"{f.group('func')} at {f.group('file')}:{f.group('line')}"
            for _e, f, _ in reversed(frames):
                if not any(lib in f.group("file") for lib in _LIBRARY) and "/torch/" not in f.group("file"):
                    user = f"{f.group('func')} at {f.group('file')}:{f.group('line')}"
                    break
        fields: dict[str, Any] = {"type": name, "message": message, "frame": raising, "user_frame": user}
        previous = self.last_exception.get(key)
        if opened.chained and previous is not None:
            # `raise B from A`: one failure, told twice; keep where it began and the more
            # specific of the two classes.
            previous.fields["then"] = f"{name}: {message}"[:300]
            previous.more.append(ev)
            sig = _classify(f"{name}: {message}")
            if previous.cls == "exception" and sig is not None and sig.code != "P104":
                previous.sig, previous.cls, previous.role, previous.kind = sig, sig.cls, sig.role, sig.name
            return
        if name.endswith("ChildFailedError"):
            # torchrun's agent reporting its workers: its table is read instead (and this line
            # stands for it when the table was cut off)
            self.child_failed = self.child_failed or (ev, order, line)
            return
        sig = _classify(f"{name}: {message}") or _by_code("P104")
        if sig.code != "P104" and (m := sig.search(f"{name}: {message}")) is not None:
            # what the signature reads in the exception's message (a signal, an exit code, ...)
            for k, v in m.groupdict().items():
                if v is not None:
                    fields.setdefault(k, v)
        evidence = [opened.start]
        if frames:
            evidence.append(frames[-1][0])
        event = self._event(sig, ev, order, line, fields, first=opened.start)
        if event is not None:
            event.more = evidence[1:]
            self.last_exception[key] = event

    def _match(self, ev: Evidence, order: tuple[int, int], line: labels.Line, text: str) -> None:
        if "Root Cause (first observed failure)" in text:
            self.table_left = TABLE_LINES
            self.table = {}
            self.table_root = True
            self.table_at = ev
            return
        if text.startswith("Failures:"):
            self.table_left = TABLE_LINES
            self.table = {}
            return
        if (m := _LIGHTNING_WORLD.search(text)) is not None:
            self.world = self.world or parse_int(m.group(3))
        for candidate in CATALOGUE:
            m = candidate.search(text)
            if m is None:
                continue
            sig = candidate
            fields = {k: v for k, v in m.groupdict().items() if v is not None}
            if sig.code == "P104":
                name = fields.get("type", "")
                if not _is_exception(name) or name.endswith("ChildFailedError"):
                    return
                fields["message"] = (fields.get("message") or "").strip()
                # an exception line without its traceback: classified by what it says
                sig = _classify(f"{name}: {fields['message']}") or sig
            elif sig.code == "G306":
                if "what" not in fields:
                    self.abort_at = ev  # its what() comes on the next line and says which failure
                    return
                # a C++ abort says in its what() which failure it was
                inner = _classify(fields["what"], exclude=("G306", "P104"))
                if inner is not None:
                    fields["abort"] = True
                    sig = inner
                first, self.abort_at = self.abort_at, None
                self._event(sig, ev, order, line, fields, first=first)
                return
            elif sig.code == "N404" and (cf := net.NCCL_CUDA_FAILURE.search(fields.get("what", ""))):
                # NCCL passing on a failed CUDA call: the CUDA error is the failure
                inner = _classify(f"CUDA error: {cf.group('cuda')}", exclude=("N404", "P104"))
                if inner is not None and inner.cls in ("gpu_error", "cuda_oom"):
                    sig = inner
            self._event(sig, ev, order, line, fields)
            return

    def _event(
        self,
        sig: Signature,
        ev: Evidence,
        order: tuple[int, int],
        line: labels.Line,
        fields: dict[str, Any],
        *,
        first: Evidence | None = None,
    ) -> Event | None:
        start = first or ev
        event = Event(sig, sig.name, sig.cls, sig.role, start, (start.line, order[1]), line, fields)
        if sig.cls in ("rendezvous", "port_in_use") and "endpoint" not in fields:
            m = net.ENDPOINT.search(line.text)
            if m is not None:
                fields["endpoint"] = f"{m.group('h1') or m.group('h2')}:{m.group('p1') or m.group('p2')}"
            else:
                for hp in net.HOST_PORT.finditer(line.text[:2000]):
                    if not hp.group("h3").endswith(net.SOURCE_FILES):
                        fields["endpoint"] = f"{hp.group('h3')}:{hp.group('p3')}"
                        break
        if sig.code in ("L209", "L210") and "node" not in fields:
            rm = launch.RAY_NODE.search(line.text[:MAX_LINE])
            if rm is not None and rm.group("ip") not in launch.NOT_A_NODE:
                fields["node"] = rm.group("ip")
        if fields.get("tasks") and fields.get("node"):
            self._task_nodes(fields["tasks"], fields["node"])
        # the same signature from the same writer with the same words: one event, more evidence
        dedupe = (
            sig.code,
            line.task,
            line.rank,
            line.local_rank,
            line.node,
            str(fields.get("type")),
            str(fields.get("message", fields.get("what", "")))[:120],
        )
        known = self.seen.get(dedupe)
        if known is not None:
            if len(known.more) < EVIDENCE_PER_FINDING:
                known.more.append(ev)
            return None
        if len(self.seen) < 100_000:
            self.seen[dedupe] = event
        if len(self.events) < 50_000:
            self.events.append(event)
        if sig.code == "L209" and "node" not in fields:
            self.follow, self.follow_left = ("ray", event), launch.RAY_FIELD_LINES
        elif sig.code == "L211" and "signum" not in fields:
            self.follow, self.follow_left = ("mpirun", event), 1
        elif sig.code == "L213":
            self.follow, self.follow_left = ("mpirun-exit", event), launch.MPIRUN_EXIT_LINES
        elif sig.code == "L212":
            self.follow, self.follow_left = ("hydra", event), launch.HYDRA_LINES
        return event

    def _task_nodes(self, tasks: str, node: str) -> None:
        """srun names the node of the tasks it reports: remember it (a bounded number of them)."""
        for part in tasks.split(",")[:64]:
            a, _, b = part.partition("-")
            lo, hi = parse_int(a), parse_int(b) if b else parse_int(a)
            if lo is None or hi is None:
                continue
            for task in range(lo, min(hi, lo + 1023) + 1):
                self.task_node.setdefault(task, node)

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
        if self.table_root and "rank" in self.table:
            # the log ends inside torchrun's table: what it said stands
            self._table_block(labels.Line(None, None, None, ""))
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


def _is_exception(name: str) -> bool:
    last = name.rpartition(".")[2]
    if last in py.BUILTIN_BASES:
        return True
    return last.endswith(py.EXCEPTION_SUFFIXES) and last not in py.EXCEPTION_SUFFIXES


def _by_code(code: str) -> Signature:
    for sig in CATALOGUE:
        if sig.code == code:
            return sig
    raise KeyError(code)


def _classify(text: str, exclude: tuple[str, ...] = ("P104",)) -> Signature | None:
    """The first signature other than the generic exception line that reads `text`."""
    for sig in CATALOGUE:
        if sig.code in exclude or sig.report:
            continue
        if sig.search(text) is not None:
            return sig
    return None


def _clip(text: str, width: int = EVIDENCE_WIDTH) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


# --- reading ----------------------------------------------------------------------------------

_SEPARATOR = re.compile(rb"[\r\n]")


def scan(streams: Iterable[tuple[str, IO[bytes]]], scanner: Scanner) -> None:
    """Feed the lines worth reading of every stream to the scanner, block by block."""
    for name, stream in streams:
        _scan_one(name, stream, scanner)


def _scan_one(name: str, stream: IO[bytes], scanner: Scanner) -> None:
    number = 1  # the number of the line the buffer starts in
    rest = b""
    skipping = False  # inside a line longer than a block: its head was read, the rest is dropped
    while True:
        data = stream.read(BLOCK)
        if not data:
            if rest and not skipping:
                _feed_piece(scanner, name, number, rest)
            break
        if skipping:
            m = _SEPARATOR.search(data)
            if m is None:
                continue
            skipping = False
            data = data[m.start() :]
        buffer = rest + data if rest else data
        cut = max(buffer.rfind(b"\n"), buffer.rfind(b"\r"))
        if cut < 0:
            if len(buffer) > 2 * BLOCK:
                _feed_piece(scanner, name, number, buffer[:MAX_LINE])
                rest, skipping = b"", True
            else:
                rest = buffer
            continue
        rest = buffer[cut + 1 :]
        number = _chunk(scanner, name, number, buffer, cut + 1)
    scanner.lines += number - 1 if not rest else number


def _chunk(scanner: Scanner, name: str, number: int, chunk: bytes, end: int) -> int:
    """Read chunk[:end], which ends on a separator; return the line number after it."""
    pos = 0
    found = [chunk.find(w, 0, end) for w in FIND_WORDS]  # the next place of each, or -1
    while pos < end:
        if not scanner.busy():
            m = PREFILTER.search(chunk, pos, end)
            hit = m.start() if m is not None else -1
            for i, w in enumerate(FIND_WORDS):
                if 0 <= found[i] < pos:
                    found[i] = chunk.find(w, pos, end)
                if found[i] >= 0 and (hit < 0 or found[i] < hit):
                    hit = found[i]
            if hit < 0:
                return number + chunk.count(b"\n", pos, end)
            start = max(pos, chunk.rfind(b"\n", pos, hit) + 1, chunk.rfind(b"\r", pos, hit) + 1)
            number += chunk.count(b"\n", pos, start)
            pos = start
        stop = _SEPARATOR.search(chunk, pos, end)
        stop_at = stop.start() if stop else end
        if stop_at > pos:
            _feed_piece(scanner, name, number, chunk[pos : min(stop_at, pos + MAX_LINE)])
        if stop_at < end and chunk[stop_at] == 0x0A:
            number += 1
        pos = stop_at + 1
    return number


def _feed_piece(scanner: Scanner, name: str, number: int, piece: bytes) -> None:
    if b"\0" in piece:
        piece = piece.replace(b"\0", b"")
    scanner.feed_piece(name, number, piece.decode("utf-8", "replace"))


def triage_files(
    paths: Sequence[Path],
    *,
    job_id: str | None = None,
    state: str | None = None,
    exit_code: str | None = None,
    sacct_state: str | None = None,
    coords: dict[int, dict[str, int]] | None = None,
    per_node: int | None = None,
    first: Sequence[Finding] = (),
) -> Diagnosis:
    """Read the logs and judge them; `first` are findings from elsewhere (a dump directory, say)
    that come before everything the logs show."""
    from jobc.core.files import open_regular  # a FIFO in place of a log is refused, not waited on

    scanner = Scanner(coords, per_node)
    for path in paths:
        with open_regular(path) as stream:
            scan([(str(path), stream)], scanner)
    d = scanner.diagnosis(job_id, state, exit_code, [str(p) for p in paths], sacct_state)
    if first:
        d.findings[:0] = list(first)
    return d


def render(d: Diagnosis) -> str:
    return _render(d)


# --- hang dumps: the first cause, when jobc.runtime's hang watchdog left them (jobc.jobs.flight)


_HANG_ADVICE = {
    "late": "fix the program where the rank named stopped (its stack is shown)",
    # torch's own dumps record where a collective was called, not where a rank is now
    "late-recorded": (
        "find where the rank named stopped after the collective it last called (shown); a stack "
        "of the live process (py-spy dump, or faulthandler) shows where it is"
    ),
    "desync": "make every rank call the same collectives in the same order, with the same sizes",
    "lost": (
        "find why the ranks without a dump ended or wrote none (their log, their node); with their "
        "dumps the rank that did not join can be named"
    ),
    "stuck": "look at the node of the rank named (GPU errors, earlier work on its GPU)",
    "p2p": (
        "find why the peer named did not post its send or recv (its stack is shown): a pipeline "
        "stage that stopped, or ranks that disagree on the schedule"
    ),
    "p2p-stuck": "look at the link between the two ranks' nodes (NCCL_DEBUG=INFO, the network fabric)",
}


def _first_frame(div: Any) -> str | None:
    """The first named rank's own frame, as an exception's `user_frame` is written."""
    for rank in div.ranks:
        frames = div.stacks.get(rank)
        if frames:
            return f"{frames[0].function} at {frames[0].file}:{frames[0].line}"
    return None


def _no_divergence(text: str, evidence: list[Evidence], *, stuck: bool = False) -> Finding:
    return Finding(
        "hang-dumps",
        text,
        cause=False,
        evidence=evidence,
        cls="collective_timeout",
        role="context",
        action="resubmit" if stuck else "fix_program",
        advice=(
            "every rank entered the collective: look at the nodes (NCCL's log, GPU errors), not "
            "at a rank that skipped it"
            if stuck
            else "the dumps show no divergence between the ranks"
        ),
    )


def with_hang_dumps(d: Diagnosis, dumps: Path | Sequence[Path] | None = None) -> Diagnosis:
    """Put the hang the dumps show first; the log's timeouts and lost peers are its symptoms.

    ``dumps`` is the dump directory or torch's dump files; by default the directory the compiled
    script makes beside each log.
    """
    from jobc.jobs import flight

    directory: Path | Sequence[Path] | None = dumps
    if directory is None:
        for log in d.logs:
            directory = flight.find_dump_dir(Path(log))
            if directory is not None:
                break
    if directory is None:
        return d
    report = flight.analyse(directory, [Path(p) for p in d.logs], torchrun=d.mode == "torchrun")
    if report is None:
        if dumps is not None:  # named on the command line: say that it held nothing to read
            where = directory if isinstance(directory, Path) else ", ".join(str(p) for p in directory[:5])
            d.findings.append(_no_divergence(f"no flight-recorder dump in {where}", []))
        return d
    div = report.divergence
    if div is None or (div.kind == "stuck" and not div.ranks):
        notes = [Evidence(str(report.directory), 0, n) for n in report.notes[:EVIDENCE_PER_FINDING]]
        d.findings.append(_no_divergence(report.summary(), notes, stuck=div is not None))
        return d
    evidence: list[Evidence] = []
    for rank in div.ranks:
        for frame in div.stacks.get(rank, [])[:3]:
            where = "called the collective from" if rank in div.recorded else "in"
            code = f": {frame.code}" if frame.code else ""
            evidence.append(Evidence(frame.file, frame.line, f"rank {rank} {where} {frame.function}{code}"))
        dump = report.dumps.get(rank)
        if dump is not None and dump.recorder is not None:
            evidence.append(Evidence(str(dump.recorder), 1, f"rank {rank}: flight recorder"))
    for note in report.notes[:EVIDENCE_PER_FINDING]:
        evidence.append(Evidence(str(report.directory), 0, note))
    finding = Finding(
        "hang",
        "hang: " + div.detail,
        cause=True,
        rank=div.ranks[0] if div.ranks else None,
        order=-1.0,
        evidence=evidence,
        # the rank that never joined the collective the others waited in
        cls="collective_timeout",
        role="cause",
        action="resubmit" if div.kind in ("stuck", "p2p-stuck") else "fix_program",
        advice=(
            _HANG_ADVICE["late-recorded"]
            if div.kind == "late" and set(div.ranks) <= div.recorded
            else _HANG_ADVICE.get(div.kind, _HANG_ADVICE["late"])
        ),
        ranks=list(div.ranks),
        user_frame=_first_frame(div),
    )
    # the log's own timeouts are now symptoms of the hang
    for f in d.findings:
        if f.cause and f.cls == "collective_timeout":
            f.cause, f.role = False, "symptom"
    d.findings.insert(0, finding)
    return d


__all__ = [
    "Diagnosis",
    "Evidence",
    "Finding",
    "Scanner",
    "exit_class",
    "render",
    "scan",
    "signal_of",
    "triage_files",
    "with_hang_dumps",
]
