"""Triage of one attempt: the part of a job's log that attempt wrote.

A requeued job keeps its id and appends to the same log (`--open-mode=append`), so the log holds
every attempt one after the other; each attempt's start record says where its part begins. The
part is read through triage's own reader (`Scanner`, `scan`), and the evidence line numbers it
reports are moved to where those lines are in the whole file, so that `file:line` still points
at the right line.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import IO, cast

from jobc.jobs.triage import Diagnosis, Scanner, scan

BLOCK = 1 << 20


class _Part:
    """A binary stream that ends `size` bytes after where it starts (None: at the end)."""

    def __init__(self, stream: IO[bytes], size: int | None) -> None:
        self.stream = stream
        self.left = size

    def read(self, n: int = -1) -> bytes:
        if self.left is None:
            return self.stream.read(n)
        if self.left <= 0:
            return b""
        want = self.left if n < 0 else min(n, self.left)
        data = self.stream.read(want)
        self.left -= len(data)
        return data


def _lines_before(stream: IO[bytes], offset: int) -> int:
    """How many newlines the first `offset` bytes hold (read in blocks: bounded memory)."""
    count = 0
    left = offset
    while left > 0:
        data = stream.read(min(BLOCK, left))
        if not data:
            break
        count += data.count(b"\n")
        left -= len(data)
    return count


def diagnose(
    log: Path, start: int = 0, end: int | None = None, *, job_id: str | None = None, state: str | None = None
) -> Diagnosis:
    """Triage's diagnosis of bytes [start, end) of the log (to its end when `end` is None).

    An offset inside a line is moved to the start of the next line, so that the part begins
    with whole lines."""
    from jobc.core.files import open_regular  # a FIFO in place of the log is refused

    with open_regular(log) as stream:
        before = _lines_before(stream, start)
        stream.seek(start)
        if start > 0:
            stream.seek(start - 1)
            if stream.read(1) != b"\n":
                skipped = stream.readline()  # the rest of a line that began before the part
                start += len(skipped)
                before += 1
        scanner = Scanner()
        size = None if end is None else max(0, end - start)
        scan([(str(log), cast(IO[bytes], _Part(stream, size)))], scanner)
    d = scanner.diagnosis(job_id, state, None, [str(log)])
    for finding in d.findings:
        finding.evidence = [
            replace(e, line=e.line + before) if e.file == str(log) and e.line > 0 else e
            for e in finding.evidence
        ]
    return d
