"""The attempts of a self-healing job: `<log stem>.attempts.jsonl` beside its log.

A job that may retry itself (`resilience.retry_on`, `resilience.preflight`) keeps one line of
JSON per event of each attempt, appended by the job itself (`jobc heal`, run by the batch
shell). Each record names its attempt by its restart count (`restart`, SLURM_RESTART_COUNT: 0
for the first attempt): `start` when an attempt begins (its nodes, its batch host, where its
part of the log begins), `end` when it is judged (how it ended, the cause, the nodes excluded
after it, what the job did next). An attempt lost with its batch host has no `end` of its own:
the next attempt writes it from Slurm's accounting. A later `end` of the same attempt replaces
an earlier one.

The file is read as untrusted data: lines that are not JSON objects of this shape are skipped,
every field is checked for its type, and reading stops after `MAX_LINES` lines or `MAX_BYTES`
bytes, so a damaged or hostile file costs bounded time and memory.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SUFFIX = ".attempts.jsonl"
MAX_LINES = 10_000
MAX_BYTES = 4 << 20
MAX_LINE = 64 << 10
#: A node name as Slurm writes it; anything else never reaches ExcNodeList (an FQDN or
#: `None assigned` fails the whole update).
NODE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$")


def path_for(log: Path) -> Path:
    """The attempts file beside a job log: `<log stem>.attempts.jsonl`."""
    return log.with_name(log.stem + SUFFIX)


@dataclass
class Attempt:
    """One attempt: what its start said, and its end (None while it runs, or if it was lost)."""

    restart: int  # SLURM_RESTART_COUNT of the attempt: 0 for the first
    nodes: list[str] = field(default_factory=list)
    batch_host: str | None = None
    log: str | None = None
    log_offset: int | None = None
    started: str | None = None
    end: dict[str, Any] | None = None

    @property
    def excluded(self) -> list[str]:
        return _nodes((self.end or {}).get("excluded"))

    def as_json(self) -> dict[str, Any]:
        end = self.end or {}
        return {
            "attempt": self.restart + 1,
            "restart": self.restart,
            "nodes": self.nodes,
            "batch_host": self.batch_host,
            "state": end.get("state") or "RUNNING",
            "class": end.get("class"),
            "cause": end.get("cause"),
            "node": end.get("node"),
            "excluded": self.excluded,
            "decision": end.get("decision"),
            "reason": end.get("reason"),
            "started": self.started,
            "ended": end.get("time"),
        }


def _nodes(value: Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [v for v in value if isinstance(v, str) and NODE.match(v)]


def _text(value: Any, limit: int = 2000) -> str | None:
    return value[:limit] if isinstance(value, str) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 62 else None


_END_FIELDS = ("state", "class", "cause", "node", "decision", "reason", "time", "source")


def _end(record: dict[str, Any]) -> dict[str, Any]:
    end: dict[str, Any] = {key: _text(record.get(key)) for key in _END_FIELDS}
    end["excluded"] = _nodes(record.get("excluded"))
    if end["node"] is not None and not NODE.match(end["node"]):
        end["node"] = None
    return end


def read(path: Path) -> list[Attempt]:
    """The attempts the file records, in order of their number; [] when there is none."""
    from jobc.core.files import open_regular  # a FIFO in its place is refused, not waited on

    try:
        stream = open_regular(path)
    except OSError:
        return []
    found: dict[int, Attempt] = {}
    with stream:
        data = stream.read(MAX_BYTES)
    for raw in data.split(b"\n")[:MAX_LINES]:
        if not raw.strip() or len(raw) > MAX_LINE:
            continue
        try:
            record = json.loads(raw)
        except (ValueError, RecursionError):
            continue
        if not isinstance(record, dict):
            continue
        number = _count(record.get("restart"))
        if number is None:
            continue
        attempt = found.setdefault(number, Attempt(number))
        if record.get("event") == "start":
            attempt.nodes = _nodes(record.get("nodes"))
            host = _text(record.get("batch_host"), 100)
            attempt.batch_host = host if host and NODE.match(host) else None
            attempt.log = _text(record.get("log"), 4096)
            attempt.log_offset = _count(record.get("log_offset"))
            attempt.started = _text(record.get("time"), 40)
        elif record.get("event") == "end":
            attempt.end = _end(record)
    return [found[n] for n in sorted(found)]


def append(path: Path, record: dict[str, Any]) -> None:
    """Add one record as one line with one write (O_APPEND: whole lines, even from two writers)."""
    line = (json.dumps(record, sort_keys=True, ensure_ascii=True) + "\n").encode("ascii")
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        os.write(fd, line)
    finally:
        os.close(fd)


def excluded(attempts: list[Attempt]) -> list[str]:
    """Every node an attempt's end excluded, in the order they were excluded, once each."""
    seen: dict[str, None] = {}
    for attempt in attempts:
        for node in attempt.excluded:
            seen.setdefault(node, None)
    return list(seen)
