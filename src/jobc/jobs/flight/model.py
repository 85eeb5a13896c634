"""The records of a hang analysis: a rank's dump, its collectives and frames, the divergence
found and the report; and which of a stack's frames is the program's own."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from jobc.jobs.flight.text import ranks_text

_LIBRARY = ("/site-packages/", "/dist-packages/", "/jobc/runtime/", "/lib/python3", "/lib64/python3")


@dataclass(frozen=True, slots=True)
class Frame:
    file: str
    line: int
    function: str
    code: str = ""

    def where(self) -> str:
        return f"{self.file}:{self.line} in {self.function}"


@dataclass(frozen=True, slots=True)
class Entry:
    group: str  # the process group's name
    description: str
    seq: int
    op: str
    sizes: str
    dtypes: str
    state: str = ""  # scheduled | started | completed ("" when the dump does not say)
    frames: tuple[Frame, ...] = ()  # where the program called it, innermost first
    # a send's or recv's ranks within its group, from torch's name ("nccl:send 0->1",
    # "nccl:recv 1<-0"; torch's fr_trace reads them the same way); None when it names none
    src: int | None = None
    dst: int | None = None
    timeout_ms: int | None = None  # the timeout the watchdog applies to it (format 2.4 on)
    age: int = 0  # entries recorded after it in the dump (0: the newest)

    @property
    def signature(self) -> tuple[str, str, str]:
        return (self.op, self.sizes, self.dtypes)

    def describe(self) -> str:
        return " ".join(part for part in (self.op, self.sizes, self.dtypes) if part)


@dataclass
class RankDump:
    rank: int
    restart: int
    recorder: Path | None = None
    stacks_file: Path | None = None
    entries: list[Entry] = field(default_factory=list)
    stack: list[Frame] = field(default_factory=list)  # the main thread, innermost first
    reason: str | None = None
    host: str | None = None
    world_size: int | None = None
    groups: dict[str, list[int]] = field(default_factory=dict)
    version: str | None = None  # the flight recorder's format version ("2.10")
    p2p: list[Entry] = field(default_factory=list)  # point-to-point entries
    # pg_status (format 2.4 on): group → last collective enqueued, started, completed
    status: dict[str, tuple[int | None, int | None, int | None]] = field(default_factory=dict)


@dataclass
class Divergence:
    kind: str  # "desync" | "late" | "lost"
    group: str
    description: str
    seq: int | None
    op: str | None  # the collective the others are in
    ranks: list[int]  # the named ranks
    others: list[int]  # the ranks they parted from
    detail: str
    stacks: dict[int, list[Frame]] = field(default_factory=dict)  # named ranks, user's frame first
    # ranks whose stack is only the one torch recorded with a collective call, not where they are
    recorded: set[int] = field(default_factory=set)


@dataclass
class FlightReport:
    directory: Path
    restart: int | None
    dumps: dict[int, RankDump]
    missing: list[int]
    divergence: Divergence | None
    notes: list[str] = field(default_factory=list)
    completed: bool = False  # every collective recorded completed on every rank
    unknown_members: list[str] = field(default_factory=list)  # groups the dumps list no members of

    def summary(self) -> str:
        d = self.divergence
        if d is not None:
            return d.detail
        if not self.dumps:
            return f"no readable flight-recorder dump in {self.directory}"
        seen = ranks_text(sorted(self.dumps))
        if not any(d.entries for d in self.dumps.values()):
            return f"hang dumps from {seen} in {self.directory}: they record no collective"
        if self.completed:
            return (
                f"hang dumps from {seen} in {self.directory}: every collective recorded agrees "
                "across the ranks and completed; the dumps show no hang"
            )
        if self.unknown_members and not self.completed:
            groups = ", ".join(self.unknown_members[:5])
            return (
                f"hang dumps from {seen} in {self.directory}: the collectives they recorded agree, but "
                f"the dumps do not list the members of process group {groups} (no pg_config), so a "
                "member that wrote no dump cannot be named, and whether one is missing cannot be told"
            )
        return f"hang dumps from {seen} in {self.directory}: the collectives agree; no rank parted"


Groups = dict[str, dict[int, dict[int, Entry]]]

DONE = ("retired", "completed")

OPEN = ("scheduled", "started")


def user_first(frames: Sequence[Frame]) -> list[Frame]:
    """The program's own innermost frame first, then the stack innermost first."""
    for index, frame in enumerate(frames):
        if not _library(frame.file):
            return [frame, *frames[:index], *frames[index + 1 :]]
    return list(frames)


def _library(path: str) -> bool:
    return path.startswith("<") or any(part in path for part in _LIBRARY)
