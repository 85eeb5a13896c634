"""Why a job ended: read its log once, in bounded memory, and name the first cause first.

A multi-node failure is one cause and many symptoms: one rank raises, the others wait in a
collective until NCCL's or Gloo's timeout, lose their peer or are stopped by SIGTERM when srun
or torchrun tears the step down. Every line the catalogue of signatures
(`jobc.jobs.signatures`) recognises becomes an event with a class and a role (cause, symptom,
context); causes are ordered by where they appear, and symptoms never come first.

Reading is built for logs of many gigabytes: the file is read in binary blocks, one combined
keyword automaton (`signatures.PREFILTER`) finds the few lines worth reading, and every other line
costs only its share of a newline count. Carriage returns split lines too (a progress bar glues
the next line to its own), pieces longer than `MAX_LINE` are cut, and the state kept (an open
traceback's tail per writer, a few evidence lines per finding) is bounded, so a log of any size
or of binary garbage is read in constant memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import IO, Any

from jobc.jobs import events
from jobc.jobs.events import Scanner
from jobc.jobs.findings import Diagnosis, Evidence, Finding, exit_class, signal_of
from jobc.jobs.judge import render as _render
from jobc.jobs.signatures import CATALOGUE, PREFILTER, Signature

MAX_LINE = events.MAX_LINE
BLOCK = 1 << 22
HYDRA_LINES = (
    12  # lines above Hydra's `Set the environment variable HYDRA_FULL_ERROR=1 …` read for its message
)
SAMPLE_LINES = 2000  # lines of a log's head its prefix structure is inferred from
EVIDENCE_PER_FINDING = 4

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
    head = True
    while True:
        data = stream.read(BLOCK)
        if head:
            head = False
            _learn(scanner, data, name)
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
    scanner.flush()  # a file's last line never waits for the next file's first


def _learn(scanner: Scanner, data: bytes, name: str) -> None:
    """The file's prefix structure, inferred from the lines of its first block."""
    lines = data[: 1 << 20].split(b"\n", SAMPLE_LINES)[:SAMPLE_LINES]
    sample = [
        (i + 1, piece[:MAX_LINE].decode("utf-8", "replace").rstrip("\r")) for i, piece in enumerate(lines)
    ]
    scanner.learn(sample, name)


#: The pre-filter reads a block in windows of this many bytes (ended at a newline), which bounds
#: the keyword positions it holds at once, however dense they are.
WINDOW = 1 << 18


def _chunk(scanner: Scanner, name: str, number: int, chunk: bytes, end: int) -> int:
    """Read chunk[:end], which ends on a separator; return the line number after it."""
    pos = 0
    hits: list[int] = []  # keyword positions in chunk[window start:covered]
    at = 0  # the first of `hits` not yet behind `pos`
    covered = 0
    while pos < end:
        if not scanner.busy():
            while at < len(hits) and hits[at] < pos:
                at += 1
            while at == len(hits) and covered < end:
                start = max(pos, covered)
                nl = chunk.find(b"\n", start + WINDOW, end) if start + WINDOW < end else -1
                covered = nl + 1 if nl >= 0 else end
                hits, at = PREFILTER.positions(chunk, start, covered), 0
            if at == len(hits):
                return number + chunk.count(b"\n", pos, end)
            hit = hits[at]
            start = max(pos, chunk.rfind(b"\n", pos, hit) + 1, chunk.rfind(b"\r", pos, hit) + 1)
            if start > pos and b"HYDRA_FULL_ERROR=1 for" in chunk[start : start + 200]:
                # Hydra's compact error: its message is the block of lines above, with no keyword
                _lookback(scanner, name, number, chunk, (pos, start), lines=HYDRA_LINES)
            elif start > pos:
                _lookback(scanner, name, number, chunk, (pos, start))
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


def _lookback(
    scanner: Scanner, name: str, number: int, chunk: bytes, span: tuple[int, int], *, lines: int = 1
) -> None:
    """Feed the line before a line worth reading, which the pre-filter skipped: the start of a
    message the next line continues (`terminate called …` before its `what():`, a wrapped
    report), or the job's progress output before an error; `lines` before it where a message's
    block stands above its line (Hydra's)."""
    pos, start = span
    ends = [start]
    for _ in range(lines):
        end = ends[-1]
        if end - 1 <= pos:
            break
        ends.append(max(pos, chunk.rfind(b"\n", pos, end - 1) + 1, chunk.rfind(b"\r", pos, end - 1) + 1))
    for end, prev in zip(reversed(ends[:-1]), reversed(ends[1:]), strict=True):
        if end - 1 > prev:
            at = number + chunk.count(b"\n", pos, prev)
            _feed_piece(scanner, name, at, chunk[prev : min(end - 1, prev + MAX_LINE)])


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
    catalogue: Sequence[Signature] = CATALOGUE,
) -> Diagnosis:
    """Read the logs and judge them; `first` are findings from elsewhere (a dump directory, say)
    that come before everything the logs show; `catalogue` the signatures to read with (all of
    them unless a measure takes some away, as tools/triage_loso.py does)."""
    from jobc.core.files import open_regular  # a FIFO in place of a log is refused, not waited on

    scanner = Scanner(coords, per_node, catalogue)
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
