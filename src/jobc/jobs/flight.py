"""Hang dumps: which rank parted from the others, in which collective, at which line.

`jobc.runtime`'s hang watchdog leaves, per rank, in the job's dump directory:

* ``rank<R>-restart<N>.fr.json`` — torch's flight recorder, as ``_dump_fr_trace_json`` (gloo) or
  ``_dump_nccl_trace_json`` writes it: ``entries``, each with ``process_group`` (name,
  description), ``collective_seq_id``, ``profiling_name`` (``gloo:all_reduce``), ``input_sizes``,
  ``input_dtypes``, ``is_p2p``;
* ``rank<R>-restart<N>.stacks.json`` — every thread's Python stack at that moment (innermost
  first), the reason, and the members of each process group.

The reader is plain JSON, no torch: it lines up each process group's collectives by sequence
number across ranks and names the first point where they part:

* **desync** — at one sequence number the ranks recorded different operations, sizes or dtypes
  (one rank calls ``broadcast`` where the others ``all_reduce``, or a rank skipped a collective
  and its next one meets theirs): the ranks in the minority are named;
* **late** — some ranks never entered the collective the others wait in (their last sequence
  number is lower): those ranks are named;
* **lost** — a member wrote no dump at all (gloo aborts a process on a size mismatch, and its
  recorder dies with it). Such a rank's stack can still be in the job log: the runtime turns on
  ``faulthandler``, which prints it on a fatal signal. The rank whose own line differs from the
  others' is then named.

torch's own dumps (one file a rank, ``<prefix><rank>``, pickled on a timeout or JSON; formats 1.x
and 2.x) are read when the watchdog left none. They list each group's members (``pg_config``), so
a member without a dump can be told from one that was never a member; they record where each
collective was *called*, not where a rank is now, and the report says which it shows. When every
rank entered a collective and none completed it (**stuck**), no rank is named: the dumps cannot
tell which GPU or link held it up.
Point-to-point operations (pipeline parallelism) are matched by peer, as torch's fr_trace does:
a send or recv left open whose partner the peer never posted names that peer.

Every named rank comes with its stack, the program's own frame first (not torch's, not the
standard library's, not jobc's). Input is untrusted: a file that is too large, not JSON, or not
shaped like a dump becomes a note, never a traceback; a pickle is loaded as plain data only.
"""

from __future__ import annotations

import io
import json
import pickle
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobc.jobs.labels import parse as parse_label

__all__ = [
    "Divergence",
    "FlightReport",
    "Frame",
    "RankDump",
    "analyse",
    "find_dump_dir",
    "read_dumps",
    "user_first",
]

MAX_DUMP_BYTES = 64 << 20
MAX_FRAMES = 200
MAX_TORCH_DUMPS = 100_000
# torch's recorder keeps 2,000 entries by default (TORCH_NCCL_TRACE_BUFFER_SIZE); the newest this
# many of a dump are read, and this many frames of them in all
MAX_ENTRIES = 20_000
MAX_DUMP_FRAMES = 20_000
# No job has this many ranks: a larger world size or rank in a dump is not believed (listing the
# ranks of a world of 10**12 that wrote no dump would never finish).
MAX_WORLD = 1 << 20
# A rank list of more parts than this is shortened when printed
_LISTED = 32
_NAME = re.compile(r"rank(\d{1,7})-restart(\d{1,6})\.(fr|stacks)\.json")
# torch's own dump on a collective timeout: one file a rank, named by a prefix and the global rank
# (TORCH_NCCL_DEBUG_INFO_TEMP_FILE, default /tmp/nccl_trace_rank_, or TORCH_FR_DUMP_TEMP_FILE;
# DebugInfoWriter in torch/csrc/distributed/c10d/FlightRecorder.cpp). Like torch's fr_trace
# (flight_recorder/components/loader.py), any prefix is read; the compiled script's is this one.
TORCH_PREFIX = "torch-trace-rank"
_TORCH_NAME = re.compile(r"(?P<prefix>.*?)(?P<rank>\d{1,7})(?:\.(?:json|pkl|pickle))?")
# the dump formats read: "1.x" (seq_id, pg_id) and "2.x" (collective_seq_id, process_group), as
# the pickle (_dump_nccl_trace, on a timeout) or as JSON (_dump_nccl_trace_json)
KNOWN_MAJOR = (1, 2)
_P2P_NAME = re.compile(r":(?:send|recv)\b")
_SEND = re.compile(r"[a-z]+:send ([0-9]{1,7})->([0-9]{1,7})")
_RECV = re.compile(r"[a-z]+:recv ([0-9]{1,7})<-([0-9]{1,7})")
_LIBRARY = ("/site-packages/", "/dist-packages/", "/jobc/runtime/", "/lib/python3", "/lib64/python3")
_FATAL = "Fatal Python error:"
_THREAD = re.compile(r"^(Current thread|Thread) 0x[0-9a-fA-F]+ \(most recent call first\):")
_FILE = re.compile(r'^\s+File "(.*)", line ([0-9]{1,9}) in (.*)$')


@dataclass(frozen=True)
class Frame:
    file: str
    line: int
    function: str
    code: str = ""

    def where(self) -> str:
        return f"{self.file}:{self.line} in {self.function}"


@dataclass(frozen=True)
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
        seen = _ranks_text(sorted(self.dumps))
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


def user_first(frames: Sequence[Frame]) -> list[Frame]:
    """The program's own innermost frame first, then the stack innermost first."""
    for index, frame in enumerate(frames):
        if not _library(frame.file):
            return [frame, *frames[:index], *frames[index + 1 :]]
    return list(frames)


def _library(path: str) -> bool:
    return path.startswith("<") or any(part in path for part in _LIBRARY)


def find_dump_dir(log: Path) -> Path | None:
    """The dump directory the compiled script makes beside a job log: ``<log stem>.flight``."""
    candidate = log.with_name(log.stem + ".flight")
    return candidate if candidate.is_dir() else None


def _load(path: Path, notes: list[str]) -> Any:
    data = _read_capped(path, notes)
    if data is None:
        return None
    try:
        return json.loads(data.decode("utf-8", "replace"))
    except (ValueError, RecursionError) as exc:
        notes.append(f"{path}: not a readable JSON dump ({type(exc).__name__})")
        return None


class _PlainUnpickler(pickle._Unpickler):
    """Plain data only: a pickle that names any class or function is refused, never run.

    torch writes its dumps with its own pickler (``pickle_str``), which uses only containers,
    strings, numbers, booleans and None: a dump that asks for a Python object is not torch's.
    The one exception is the list builders that pickler writes for a typed list
    (``torch.jit._pickle.build_intlist`` …, torch/csrc/jit/serialization/pickler.cpp): they only
    return the list they are given, and are read as that list.

    The Python unpickler, not the C one: the C one sizes its memo by the largest index a pickle
    names and zeroes it (8 bytes a slot: `r\xff\xff\xff\x7f` asked for 17 GB), and allocates a
    BINBYTES8's length before reading it, so a few bytes could exhaust the machine's memory. The
    Python one keeps its memo in a dict and reads no more than the file holds (about 2 s for
    10 MB of the smallest operations)."""

    def find_class(self, module: str, name: str) -> Any:
        if module == "torch.jit._pickle" and name in _LIST_BUILDERS:
            return _same_list
        raise pickle.UnpicklingError(f"it names the Python object {module[:80]}.{name[:80]}")

    def persistent_load(self, pid: Any) -> Any:
        raise pickle.UnpicklingError("it asks for a persistent object")


_LIST_BUILDERS = frozenset({"build_intlist", "build_doublelist", "build_boollist"})


def _same_list(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise pickle.UnpicklingError("a list builder given something else than a list")
    return value


def _read_capped(path: Path, notes: list[str]) -> bytes | None:
    """A dump's bytes, at most `MAX_DUMP_BYTES`; a FIFO or a device named like a dump (a link to
    /dev/zero) is not read: opening it does not wait for a writer, and it is refused."""
    from jobc.core.files import open_regular

    try:
        with open_regular(path) as stream:
            data = stream.read(MAX_DUMP_BYTES + 1)
    except OSError as exc:
        notes.append(f"{path}: cannot read: {exc.strerror or exc}")
        return None
    if len(data) > MAX_DUMP_BYTES:
        notes.append(f"{path}: larger than {MAX_DUMP_BYTES >> 20} MiB; not read")
        return None
    return data


def _load_pickle(path: Path, notes: list[str], data: bytes | None = None) -> Any:
    data = _read_capped(path, notes) if data is None else data
    if data is None:
        return None
    try:
        return _PlainUnpickler(io.BytesIO(data)).load()
    except pickle.UnpicklingError as exc:
        text = str(exc).splitlines()[0][:200] if str(exc) else "not a pickle"
        if text.startswith("it "):
            notes.append(
                f"{path}: refused, not loaded: {text} (a flight-recorder dump holds plain data only)"
            )
        else:
            notes.append(f"{path}: not a readable flight-recorder dump (UnpicklingError: {text})")
        return None
    except Exception as exc:  # any other way a hostile or cut-off pickle can fail to load
        notes.append(f"{path}: not a readable flight-recorder dump ({type(exc).__name__})")
        return None


def _load_torch(path: Path, notes: list[str]) -> Any:
    """A dump of torch's flight recorder, pickled (on a timeout) or JSON (the JSON dump API):
    the first byte tells which. Anything else is not a dump and is passed over quietly."""
    from jobc.core.files import open_regular

    try:
        with open_regular(path) as stream:
            first = stream.read(256).lstrip()[:1]
    except OSError as exc:
        notes.append(f"{path}: cannot read: {exc.strerror or exc}")
        return None
    if first not in (b"\x80", b"{"):
        return _NOT_A_DUMP  # a log or anything else whose name ends in digits: not read whole
    data = _read_capped(path, notes)
    if data is None:
        return None
    head = data.lstrip()[:1]
    if data[:1] == b"\x80":
        return _load_pickle(path, notes, data)
    if head == b"{":
        try:
            return json.loads(data.decode("utf-8", "replace"))
        except (ValueError, RecursionError) as exc:
            notes.append(f"{path}: not a readable JSON dump ({type(exc).__name__})")
            return None
    return _NOT_A_DUMP


_NOT_A_DUMP = object()


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        # a pickle carries ints of any size; one past int64 is not a count torch wrote (and
        # past 4300 digits Python refuses to print it)
        return value if abs(value) < 1 << 63 else None
    if isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,18}", value.strip()):
        return int(value)  # ASCII digits of an int64's size: not "²", not 5000 digits
    return None


def _text(value: Any, limit: int = 200) -> str:
    if isinstance(value, str):
        return value[:limit]
    out: list[str] = []
    _short(value, out, [limit])
    return "".join(out)[:limit]


def _short(value: Any, out: list[str], budget: list[int]) -> None:
    """JSON-like text of ``value``, stopping after ``budget`` characters (shared or deep data
    from a hostile dump cannot make it large or slow)."""
    if budget[0] <= 0:
        return
    if isinstance(value, (list, tuple)):
        out.append("[")
        budget[0] -= 1
        for i, item in enumerate(value):
            if budget[0] <= 0:
                break
            if i:
                out.append(",")
                budget[0] -= 1
            _short(item, out, budget)
        out.append("]")
        return
    if isinstance(value, str):
        text = json.dumps(value[: budget[0]])
    elif isinstance(value, bool) or value is None or isinstance(value, (int, float)):
        text = json.dumps(value) if not isinstance(value, int) or abs(value) < 10**18 else "?"
    else:
        text = "?"
    out.append(text)
    budget[0] -= len(text)


def _group_of(raw: dict[Any, Any]) -> tuple[str, str]:
    """(name, description): ``process_group`` is a (name, desc) pair since format 2.0 (a tuple
    in the pickle, a list in JSON); format 1.x has only the group's number, ``pg_id``."""
    group = raw.get("process_group")
    if isinstance(group, (list, tuple)) and group:
        return _text(group[0]), _text(group[1]) if len(group) > 1 else ""
    if isinstance(group, str):
        return group[:200], ""
    pg_id = _int(raw.get("pg_id"))
    return (str(pg_id), "") if pg_id is not None else ("", "")


def _entry_frames(raw: Any, budget: list[int]) -> tuple[Frame, ...]:
    """torch's frames of one entry (``name``, ``filename``, ``line``; innermost first), no more
    than ``budget`` has left for the dump."""
    if not isinstance(raw, list) or budget[0] <= 0:
        return ()
    frames = _frames(
        [
            {"file": f.get("filename"), "line": f.get("line"), "function": f.get("name")}
            for f in raw[: min(MAX_FRAMES, budget[0])]
            if isinstance(f, dict)
        ]
    )
    budget[0] -= max(len(frames), 1)
    return tuple(frames)


def _dtypes(raw: Any) -> str:
    """``["Float", "Float"]`` as ``Float,Float``; absent (format 1.x) as nothing."""
    if isinstance(raw, list) and all(isinstance(t, str) for t in raw[:64]):
        return ",".join(t[:40] for t in raw[:64])
    return "" if raw is None else _text(raw)


def _split_entries(data: Any) -> tuple[list[Entry], list[Entry]]:
    """(collectives, point-to-point operations) of one dump, in the order recorded."""
    collectives: list[Entry] = []
    p2p: list[Entry] = []
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        return collectives, p2p
    # A pickle can name one entry millions of times in a few bytes each (a memo reference):
    # only the newest entries are read, and the frames of the newest first, within a budget.
    budget = [MAX_DUMP_FRAMES]
    for order, raw in enumerate(reversed(data["entries"][-MAX_ENTRIES:])):
        if not isinstance(raw, dict):
            continue
        op = _text(raw.get("profiling_name", "?"))
        is_p2p = raw.get("is_p2p") is True or bool(_P2P_NAME.search(op))
        # 2.x counts collectives and point-to-point apart; 1.x has one seq_id for both
        key = "p2p_seq_id" if is_p2p and "p2p_seq_id" in raw else "collective_seq_id"
        seq = _int(raw.get(key, raw.get("seq_id")))
        if seq is None or seq <= 0:
            continue
        name, description = _group_of(raw)
        peers = _peers(op)
        state = raw.get("state")
        if op.startswith("gloo:") and raw.get("retired") is True:
            # gloo's recorder never marks a collective started or completed (every entry stays
            # "scheduled"); one that left the work list finished, or timed out: "retired"
            state = "retired"
        entry = Entry(
            group=name,
            description=description,
            seq=seq,
            op=op,
            sizes=_text(raw.get("input_sizes", [])),
            dtypes=_dtypes(raw.get("input_dtypes")),
            state=state[:20] if isinstance(state, str) else "",
            frames=_entry_frames(raw.get("frames"), budget),
            src=peers[0],
            dst=peers[1],
            timeout_ms=_int(raw.get("timeout_ms")),
            age=order,
        )
        (p2p if is_p2p else collectives).append(entry)
    return collectives[::-1], p2p[::-1]


def _peers(op: str) -> tuple[int | None, int | None]:
    """(source, destination) of a send or recv within its group, as torch names them."""
    if m := _SEND.fullmatch(op):
        return int(m[1]), int(m[2])
    if m := _RECV.fullmatch(op):
        return int(m[2]), int(m[1])
    return None, None


def _entries(data: Any) -> list[Entry]:
    return _split_entries(data)[0]


def _pg_config(data: Any) -> dict[str, list[int]]:
    """Each process group's global ranks, as the dump's ``pg_config`` lists them: 2.x maps a
    group's name to ``{"name", "desc", "ranks": "[0, 1, 2]"}``; 1.x a group's number to a list."""
    out: dict[str, list[int]] = {}
    config = data.get("pg_config") if isinstance(data, dict) else None
    if not isinstance(config, dict):
        return out
    # one budget for the whole dump: a pickle can list one long list under many groups through
    # its memo at no cost in bytes, and each would be read again
    budget = MAX_WORLD
    for key, value in list(config.items())[:10_000]:
        name, ranks = _text(key), value  # a pickle's key may be an int past what str() prints
        if isinstance(value, dict):
            name = _text(value.get("name", key))
            ranks = value.get("ranks")
        if isinstance(ranks, str):
            ranks = re.findall(r"-?\d{1,9}", ranks[:1_000_000])
        if not isinstance(ranks, list) or len(ranks) > budget:
            continue
        budget -= len(ranks)
        if ranks and all(_rank(r) for r in ranks):
            out[name] = sorted({int(r) for r in ranks})
    return out


def _version(data: Any, path: Path, notes: list[str]) -> str | None:
    version = data.get("version") if isinstance(data, dict) else None
    if not isinstance(version, str):
        notes.append(f"{path}: the dump names no format version; read as format 2.x")
        return None
    major = _int(version.split(".")[0])
    if major not in KNOWN_MAJOR:
        notes.append(f"{path}: format version {version[:20]!r} is not one jobc knows (1.x, 2.x); read as 2.x")
    return version[:20]


def _frames(raw: Any) -> list[Frame]:
    out: list[Frame] = []
    if not isinstance(raw, list):
        return out
    for item in raw[:MAX_FRAMES]:
        if not isinstance(item, dict):
            continue
        line = _int(item.get("line"))
        out.append(
            Frame(
                file=_text(item.get("file", "?"), 1000),
                line=line if line is not None else 0,
                function=_text(item.get("function", "?")),
                code=_text(item.get("code", ""), 400),
            )
        )
    return out


def _stacks(data: Any, dump: RankDump) -> None:
    if not isinstance(data, dict):
        return
    threads = data.get("threads")
    if isinstance(threads, list):
        main = next((t for t in threads if isinstance(t, dict) and t.get("main") is True), None)
        if main is not None:
            dump.stack = _frames(main.get("frames"))
    dump.reason = _text(data["reason"], 400) if isinstance(data.get("reason"), str) else None
    dump.host = _text(data["host"]) if isinstance(data.get("host"), str) else None
    dump.world_size = _rank_count(data.get("world_size"))
    groups = data.get("groups")
    if isinstance(groups, dict):
        for name, ranks in list(groups.items())[:10_000]:
            if isinstance(ranks, list) and len(ranks) <= MAX_WORLD and all(_rank(r) for r in ranks):
                dump.groups[_text(name)] = [int(r) for r in ranks]


def _rank(value: Any) -> bool:
    number = _int(value)
    return number is not None and 0 <= number < MAX_WORLD


def _rank_count(value: Any) -> int | None:
    number = _int(value)
    return number if number is not None and 0 < number <= MAX_WORLD else None


def _torch_dump(rank: int, path: Path, notes: list[str]) -> RankDump | None:
    data = _load_torch(path, notes)
    if data is _NOT_A_DUMP or data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("entries", []), list):
        notes.append(f"{path}: not shaped like a flight-recorder dump (no entries list); not read")
        return None
    collectives, p2p = _split_entries(data)
    return RankDump(
        rank=rank,
        restart=-1,
        recorder=path,
        entries=collectives,
        groups=_pg_config(data),
        version=_version(data, path, notes),
        p2p=p2p,
        status=_pg_status(data),
    )


_STATUS_KEYS = ("last_enqueued_collective", "last_started_collective", "last_completed_collective")


def _pg_status(data: dict[Any, Any]) -> dict[str, tuple[int | None, int | None, int | None]]:
    """``pg_status``: each group's last collective enqueued, started and completed, as torch
    keeps them apart from the ring buffer (ints in the pickle, strings in JSON; -1 for none)."""
    raw = data.get("pg_status")
    out: dict[str, tuple[int | None, int | None, int | None]] = {}
    if not isinstance(raw, dict):
        return out
    for key, value in list(raw.items())[:10_000]:
        if isinstance(value, dict):
            a, b, c = (_int(value.get(k)) for k in _STATUS_KEYS)
            out[_text(key)] = (a, b, c)
    return out


def _status_notes(dumps: dict[int, RankDump], groups: Groups) -> list[str]:
    """Where a rank's pg_status contradicts its own entries: it says a collective completed that
    the entries record open, or the entries record one completed past what it says."""
    out: list[str] = []
    for rank, dump in sorted(dumps.items()):
        for group, (_, _, completed) in sorted(dump.status.items()):
            seqs = groups.get(group, {}).get(rank, {})
            if completed is None or not seqs:
                continue
            done = max((q for q, e in seqs.items() if e.state == "completed"), default=None)
            said = seqs.get(completed)
            if (done is not None and done > completed) or (said is not None and said.state in _OPEN):
                out.append(
                    f"rank {rank}: pg_status of process group {group} says the last collective "
                    f"completed is #{completed}, but its entries record #{done if done is not None else '?'} "
                    "as the last completed; the entries are used"
                )
            if len(out) >= 8:
                return out
    return out


def _sharpen(d: Divergence, dumps: dict[int, RankDump], groups: Groups) -> None:
    """What pg_status confirms of the named ranks, and the timeout that fired."""
    confirmed = [
        f"rank {r} #{dumps[r].status[d.group][2]}"
        for r in d.ranks
        if r in dumps and d.group in dumps[r].status and (dumps[r].status[d.group][2] or -1) >= 0
    ]
    if confirmed and d.kind in ("late", "stuck"):
        d.detail += (
            f"; pg_status gives the last collective completed in the group: {', '.join(confirmed[:8])}"
        )
    entry = next(
        (e for r in [*d.others, *d.ranks] if (e := groups.get(d.group, {}).get(r, {}).get(d.seq or -1))),
        None,
    )
    if entry is not None and entry.state not in _DONE and entry.timeout_ms and entry.timeout_ms > 0:
        d.detail += f"; its timeout was {entry.timeout_ms / 1000:g} s (timeout_ms {entry.timeout_ms})"


def _candidates(directory: Path, names: Sequence[str], notes: list[str]) -> dict[str, dict[int, Path]]:
    """prefix → rank → file, in the directory and, as dumps are often copied node by node, in
    its subdirectories one and two levels down (torch's fr_trace walks the whole tree)."""
    by_prefix: dict[str, dict[int, Path]] = {}
    levels: list[tuple[Path, Sequence[str]]] = [(directory, names)]
    for depth in range(3):
        below: list[tuple[Path, Sequence[str]]] = []
        for where, listed in levels:
            for name in listed[:MAX_TORCH_DUMPS]:
                path = where / name
                m = None if _NAME.fullmatch(name) else _TORCH_NAME.fullmatch(name)
                if m is not None and path.is_file():
                    ranks = by_prefix.setdefault(m["prefix"], {})
                    if int(m["rank"]) in ranks:
                        notes.append(
                            f"{path}: a second dump of rank {m['rank']}; read {ranks[int(m['rank'])]}"
                        )
                        continue
                    ranks[int(m["rank"])] = path
                elif depth < 2 and path.is_dir() and not path.is_symlink() and len(below) < 10_000:
                    try:
                        below.append((path, sorted(p.name for p in path.iterdir())))
                    except OSError:
                        continue
        levels = below
    return by_prefix


def _torch_dumps(directory: Path, names: Sequence[str], notes: list[str]) -> dict[int, RankDump]:
    """torch's own dumps: the files named a common prefix and a rank (the prefix most of them
    share, as fr_trace infers it), whose content is a pickle or a JSON object."""
    by_prefix = _candidates(directory, names, notes)
    found: dict[str, dict[int, RankDump]] = {}
    for prefix, files in sorted(by_prefix.items(), key=lambda kv: (kv[0] != TORCH_PREFIX, -len(kv[1]))):
        read: dict[int, RankDump] = {}
        for rank, path in sorted(files.items())[:MAX_TORCH_DUMPS]:
            dump = _torch_dump(rank, path, notes)
            if dump is not None:
                read[rank] = dump
        if read:
            found[prefix] = read
    if not found:
        return {}
    best = max(found, key=lambda p: (p == TORCH_PREFIX, len(found[p])))
    for other in sorted(p for p in found if p != best):
        notes.append(
            f"{directory}: also holds dumps named {other!r} + rank; read only those named {best!r} + rank"
        )
    return found[best]


def read_dump_files(paths: Sequence[Path], notes: list[str]) -> dict[int, RankDump]:
    """torch's dumps named one by one (``--dumps nccl_trace_rank_3``): each file's rank is the
    number its name ends in, as torch names them; a file that is not a dump is said."""
    out: dict[int, RankDump] = {}
    for path in paths[:MAX_TORCH_DUMPS]:
        m = _TORCH_NAME.fullmatch(path.name)
        if m is None:
            notes.append(f"{path}: its name ends in no rank (torch names a dump <prefix><rank>); not read")
            continue
        rank = int(m["rank"])
        if rank in out:
            notes.append(f"{path}: a second dump of rank {rank}; read {out[rank].recorder}")
            continue
        before = len(notes)
        dump = _torch_dump(rank, path, notes)
        if dump is not None:
            out[rank] = dump
        elif len(notes) == before:
            notes.append(f"{path}: neither a pickle nor JSON, so not a flight-recorder dump; not read")
    return out


def read_dumps(directory: Path, notes: list[str] | None = None) -> tuple[int | None, dict[int, RankDump]]:
    """The dumps of the latest restart that wrote any: (restart, rank → dump)."""
    notes = notes if notes is not None else []
    found: dict[tuple[int, int], RankDump] = {}
    try:
        names = sorted(p.name for p in directory.iterdir())
    except OSError as exc:
        notes.append(f"{directory}: cannot list: {exc.strerror or exc}")
        return None, {}
    for name in names:
        m = _NAME.fullmatch(name)
        if m is None:
            continue
        rank, restart, kind = int(m.group(1)), int(m.group(2)), m.group(3)
        dump = found.setdefault((restart, rank), RankDump(rank=rank, restart=restart))
        path = directory / name
        data = _load(path, notes)
        if kind == "fr":
            dump.recorder = path
            dump.entries, dump.p2p = _split_entries(data)
            version = data.get("version") if isinstance(data, dict) else None
            dump.version = version[:20] if isinstance(version, str) else None
        else:
            dump.stacks_file = path
            _stacks(data, dump)
    if not found:
        # Only torch's own dumps (a program without jobc.runtime, or a timeout before the
        # watchdog): they hold each collective's call stack, not where the rank is now.
        return None, _torch_dumps(directory, names, notes)
    restart = max(r for r, _ in found)
    return restart, {rank: d for (r, rank), d in found.items() if r == restart}


def _by_group(dumps: dict[int, RankDump]) -> dict[str, dict[int, dict[int, Entry]]]:
    """group → rank → seq → entry (a coalesced group as one entry that lists its collectives)."""
    out: dict[str, dict[int, dict[int, Entry]]] = {}
    for rank, dump in dumps.items():
        batch: dict[tuple[str, int], list[Entry]] = {}
        for entry in dump.entries:
            batch.setdefault((entry.group, entry.seq), []).append(entry)
        for (group, seq), entries in batch.items():
            out.setdefault(group, {}).setdefault(rank, {})[seq] = _coalesced(entries)
    return out


def _coalesced(entries: list[Entry]) -> Entry:
    """A coalesced group (``_coalescing_manager``): torch records each collective and then one
    ``nccl:coalesced`` entry of the same sequence number, which alone carries the state and no
    sizes. It is shown as the collectives inside it, in the marker's state; without a marker the
    last entry of the number is the one read."""
    marker = next((e for e in reversed(entries) if e.op.endswith(":coalesced")), None)
    inner = [e for e in entries if not e.op.endswith(":coalesced")]
    if marker is None or not inner:
        return entries[-1]
    listed = ", ".join(e.describe() for e in inner[:16])
    if len(inner) > 16:
        listed += f" and {len(inner) - 16} more"
    frames = next((e.frames for e in inner if e.frames), marker.frames)
    return Entry(
        group=marker.group,
        description=marker.description,
        seq=marker.seq,
        op=f"{marker.op} ({listed})",
        sizes="",
        dtypes="",
        state=marker.state,
        frames=frames,
        timeout_ms=marker.timeout_ms,
    )


def _members(group: str, dumps: dict[int, RankDump], seen: Iterable[int], world: int | None) -> list[int]:
    ranks = set(seen)
    for dump in dumps.values():
        # a list that leaves out a rank that recorded the group's collectives is not its members
        # (gloo's recorder lists the default group as "" with one rank)
        if group in dump.groups and ranks <= set(dump.groups[group]):
            return sorted(dump.groups[group])
    if group == "0" and world is not None:  # the default group is the whole world
        return list(range(world))
    return sorted(seen)


def _describe_group(group: str, description: str) -> str:
    # "undefined" is what torch records for a group created without a description
    if description and description not in (group, "undefined"):
        return f"process group {group} ({description})"
    return f"process group {group}"


def _ranks_text(ranks: Sequence[int]) -> str:
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    return "ranks " + _span_text(sorted(ranks))


def _span_text(ranks: Sequence[int]) -> str:
    """``0, 2, 3`` as it is, ``0-5, 7``: runs of three or more ranks as a span; past `_LISTED`
    parts, the count of the rest."""
    parts: list[str] = []
    i = 0
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
            j += 1
        if len(parts) == _LISTED - 1:
            return ", ".join(parts) + f" and {len(ranks) - i} more"
        if j - i >= 2:
            parts.append(f"{ranks[i]}-{ranks[j]}")
        else:
            parts.extend(str(r) for r in ranks[i : j + 1])
        i = j + 1
    return ", ".join(parts)


def _first_divergence(group: str, ranks: dict[int, dict[int, Entry]]) -> Divergence | None:
    # A seq below a rank's oldest entry was pushed out of its ring buffer: not compared.
    oldest = {r: min(seqs) for r, seqs in ranks.items() if seqs}
    last = {r: max(seqs) for r, seqs in ranks.items() if seqs}
    if not last:
        return None
    all_seqs = sorted({s for seqs in ranks.values() for s in seqs})
    desync: Divergence | None = None
    for seq in all_seqs:
        present = {r: seqs[seq] for r, seqs in ranks.items() if seq in seqs}
        counts = Counter(e.signature for e in present.values())
        if len(counts) < 2:
            continue
        ranked = counts.most_common()
        majority = ranked[0][0] if ranked[0][1] > ranked[1][1] else None
        entry = next(iter(present.values()))
        if majority is None:
            named = sorted(present)
            others: list[int] = []
            calls = "; ".join(
                f"{_ranks_text(sorted(r for r, e in present.items() if e.signature == sig))} "
                f"{'calls' if n == 1 else 'call'} {' '.join(part for part in sig if part)}"
                for sig, n in ranked
            )
            detail = f"collectives differ at #{seq} of {_describe_group(group, entry.description)}: {calls}"
            op = None
        else:
            named = sorted(r for r, e in present.items() if e.signature != majority)
            others = sorted(r for r, e in present.items() if e.signature == majority)
            theirs = "; ".join(f"{_ranks_text([r])} calls {present[r].describe()}" for r in named)
            detail = (
                f"collectives differ at #{seq} of {_describe_group(group, entry.description)}: "
                f"{theirs} where {_ranks_text(others)} call "
                f"{' '.join(part for part in majority if part)}"
            )
            op = majority[0]
        desync = Divergence("desync", group, entry.description, seq, op, named, others, detail)
        break
    top = max(last.values())
    late = sorted(r for r, s in last.items() if s < top)
    late_seq = min((last[r] + 1 for r in late), default=None)
    if late and late_seq is not None and (desync is None or desync.seq is None or late_seq < desync.seq):
        # The rank(s) stopped first; the others are in the collective they never entered.
        first = sorted(r for r in late if last[r] + 1 == late_seq)
        waiting = sorted(r for r, s in last.items() if s >= late_seq >= oldest[r])
        waited = next((ranks[r][late_seq] for r in waiting if late_seq in ranks[r]), None)
        op = waited.op if waited else None
        what = f"{op} #{late_seq}" if op else f"#{late_seq}"
        desc = waited.description if waited else ""
        shape = ""
        if waited is not None and waited.sizes not in ("", "[]"):
            shape = f", input {' '.join(p for p in (waited.sizes, waited.dtypes) if p)},"
        detail = (
            f"{_ranks_text(first)} never entered {what} of {_describe_group(group, desc)}{shape or ','} "
            f"which {_ranks_text(waiting)} wait in"
        )
        return Divergence("late", group, desc, late_seq, op, first, waiting, detail)
    return desync


def _never_joined(group: str, ranks: dict[int, dict[int, Entry]], idle: list[int]) -> Divergence | None:
    """Members whose dump holds no collective at all while the others recorded some: they never
    joined one (torch's own desync report says the same of ranks that "never joined any
    collectives")."""
    seqs = [min(s) for s in ranks.values() if s]
    if not idle or not seqs:
        return None
    seq = min(seqs)
    entry = next(s[seq] for s in ranks.values() if seq in s)
    waiting = sorted(ranks)
    first = "the first collective" if seq == 1 else "the oldest collective"
    detail = (
        f"{_ranks_text(idle)} never entered {entry.op} #{seq} of "
        f"{_describe_group(group, entry.description)}, {first} {_ranks_text(waiting)} recorded: "
        f"{'its dump holds' if len(idle) == 1 else 'their dumps hold'} no collective at all"
    )
    return Divergence("late", group, entry.description, seq, entry.op, idle, waiting, detail)


def _user_frame(stack: Sequence[Frame]) -> Frame | None:
    ordered = user_first(stack)
    return ordered[0] if ordered else None


def _odd_one_out(stacks: dict[int, list[Frame]]) -> list[int]:
    """Ranks whose own frame differs from what most ranks are at (empty when no majority)."""
    where = {r: _user_frame(s) for r, s in stacks.items()}
    keys = {r: (f.file, f.line) for r, f in where.items() if f is not None}
    if len(keys) < 3:
        return []
    counts = Counter(keys.values()).most_common()
    if len(counts) < 2 or counts[0][1] <= counts[1][1]:
        return []
    majority = counts[0][0]
    return sorted(r for r, k in keys.items() if k != majority)


def fatal_stacks(lines: Iterable[str], *, torchrun: bool = False) -> dict[int, list[Frame]]:
    """Each rank's main-thread stack from faulthandler's "Fatal Python error" block in a job log.

    Lines carry the compiled script's labels (``3: `` from srun, ``[rank3]:`` from torchrun).
    The main thread is the one whose outermost frame is ``<module>``.
    """
    state: dict[int, list[list[Frame]]] = {}
    active: set[int] = set()
    for raw in lines:
        label = parse_label(raw.rstrip("\n"))
        rank = label.rank if label.rank is not None else (None if torchrun else label.task)
        if rank is None:
            continue
        text = label.text
        if text.startswith(_FATAL):
            state[rank] = []
            active.add(rank)
            continue
        if rank not in active:
            continue
        if _THREAD.match(text):
            if len(state[rank]) < 64:
                state[rank].append([])
            continue
        m = _FILE.match(text)
        if m and state[rank] and len(state[rank][-1]) < MAX_FRAMES:
            state[rank][-1].append(Frame(m.group(1), int(m.group(2)), m.group(3)))
        elif text.strip() and not m:
            active.discard(rank)
    out: dict[int, list[Frame]] = {}
    for rank, threads in state.items():
        main = next((t for t in threads if t and t[-1].function == "<module>"), None)
        if main is None and threads:
            main = threads[-1]
        if main:
            out[rank] = main
    return out


def _log_lines(paths: Sequence[Path]) -> Iterator[str]:
    from jobc.core.files import open_regular

    for path in paths:
        try:
            with open_regular(path) as stream:
                for raw in stream:
                    yield raw[:8192].decode("utf-8", "replace")
        except OSError:
            continue


Groups = dict[str, dict[int, dict[int, Entry]]]


def _lost(
    lost: list[int],
    *,
    dumps: dict[int, RankDump],
    groups: Groups,
    members: dict[str, list[int]],
    stacks: dict[int, list[Frame]],
    directory: Path,
) -> Divergence:
    """Members that wrote no dump. With one missing, or one whose stack (from the log) differs
    from where the others are, that rank is named; with several and nothing to tell them apart,
    none is: which of them did not reach the collective is not in the dumps."""
    odd = _odd_one_out(stacks)
    named = [r for r in odd if r in lost] or (lost if len(lost) == 1 else [])
    waiting = sorted(dumps)
    op, seq, description, group, state = None, None, "", "0", ""
    theirs = [g for g in groups if set(lost) & set(members.get(g, []))]
    chosen = groups.get("0") if "0" in theirs else (groups[sorted(theirs)[0]] if theirs else None)
    if chosen:
        # the oldest collective not completed (NCCL lets a rank enqueue past the one it waits in),
        # else the last one recorded
        pending = [q for s in chosen.values() for q, e in s.items() if e.state in ("scheduled", "started")]
        top = min(pending) if pending else max(max(s) for s in chosen.values() if s)
        entry = next((s[top] for s in chosen.values() if top in s), None)
        if entry is not None:
            op, seq, description, group, state = entry.op, top, entry.description, entry.group, entry.state
    where = f"{op} #{seq} of {_describe_group(group, description)}" if op else "their last collective"
    if state:
        where += f" ({state})"
    gone = "wrote no dump" if named == lost else f"wrote no dump (or their files are not in {directory})"
    detail = f"{_ranks_text(lost)} {gone}"
    if named == lost and not odd:
        detail += " (the process died, taking its flight recorder along, or its file is not there)"
    detail += f"; {_ranks_text(waiting)} {'was' if len(waiting) == 1 else 'were'} last in {where}"
    if not named:
        detail += f"; which of {_ranks_text(lost)} did not reach it cannot be told without their dumps"
    elif len(lost) > len(named):
        rest = [r for r in lost if r not in named]
        detail += f"; {_ranks_text(rest)} died too, at the same line as the others"
    return Divergence("lost", group, description, seq, op, named, waiting, detail)


_PROGRESS = {"scheduled": 0, "started": 1, "retired": 2, "completed": 2}
_DONE = ("retired", "completed")


def _stuck(groups: Groups, known: set[str]) -> Divergence | None:
    """The first collective every rank entered and not every rank completed: nobody skipped it,
    so the dumps cannot name a rank that parted; they can name ranks whose GPU never began it.
    Only in a group whose members the dumps list (else a member may have written no dump)."""
    for group in sorted(groups, key=lambda g: (g != "0", g)):
        ranks = groups[group]
        if group not in known or not ranks or not all(ranks.values()):
            continue
        oldest = max(min(seqs) for seqs in ranks.values())
        for seq in sorted({s for seqs in ranks.values() for s in seqs if s >= oldest}):
            present = {r: seqs[seq] for r, seqs in ranks.items() if seq in seqs}
            states = {r: e.state for r, e in present.items()}
            if len(present) < len(ranks) or not all(st in _PROGRESS for st in states.values()):
                break  # a rank without it is a late rank's case; a dump without states says nothing
            if all(st in _DONE for st in states.values()):
                continue
            entry = next(iter(present.values()))
            least = min(_PROGRESS[st] for st in states.values())
            behind = sorted(r for r, st in states.items() if _PROGRESS[st] == least)
            what = f"{entry.describe()} #{seq} of {_describe_group(group, entry.description)}"
            if "retired" in states.values():
                still = sorted(r for r, st in states.items() if st not in _DONE)
                detail = (
                    f"every rank that wrote a dump ({_span_text(sorted(present))}) entered {what}; "
                    f"{_ranks_text(still)} {'is' if len(still) == 1 else 'are'} still in it, the others "
                    "left it (gloo records no completion: finished or timed out), so the dumps cannot "
                    "tell which rank held it up"
                )
                return Divergence(
                    "stuck", group, entry.description, seq, entry.op, [], sorted(present), detail
                )
            if len(behind) == len(present):
                detail = (
                    f"every rank that wrote a dump ({_span_text(sorted(present))}) "
                    f"entered {what} and none completed it ({entry.state}): no rank skipped it; the "
                    "dumps cannot tell which rank's GPU or network link held it up (NCCL's own log, "
                    "NCCL_DEBUG=INFO, or a GPU error on one node can)"
                )
                return Divergence(
                    "stuck", group, entry.description, seq, entry.op, [], sorted(present), detail
                )
            by_state = "; ".join(
                f"{_ranks_text(sorted(r for r, st in states.items() if st == name))} {name} it"
                for name in ("completed", "started", "scheduled")
                if name in states.values()
            )
            detail = (
                f"every rank entered {what}, but not every rank's GPU began it: {by_state}; "
                f"{_ranks_text(behind)} never started it (still busy with earlier work)"
            )
            others = sorted(r for r in present if r not in behind)
            return Divergence("stuck", group, entry.description, seq, entry.op, behind, others, detail)
    return None


def _called(d: Divergence, rank: int, groups: Groups) -> Entry | None:
    """The entry of ``rank`` that ``d`` is about: the one at the divergence, or a late rank's last."""
    seqs = groups.get(d.group, {}).get(rank, {})
    if d.kind == "late":
        return seqs[max(seqs)] if seqs else None
    return seqs.get(d.seq) if d.seq is not None else None


def _place(d: Divergence, dumps: dict[int, RankDump], groups: Groups, stacks: dict[int, list[Frame]]) -> None:
    """Where each named rank is: its stack at the dump (jobc's stacks, or faulthandler's in the
    log) when there is one, else only where it called its collective (torch's dumps record the
    call's stack, not where a rank is now); and where the others called the one they wait in."""
    heres: list[str] = []
    for rank in d.ranks:
        if rank not in stacks:
            d.recorded.add(rank)
        if rank in stacks:
            d.stacks[rank] = user_first(stacks[rank])
            frame = d.stacks[rank][0]
            code = f": {frame.code}" if frame.code else ""
            heres.append(f"{_ranks_text([rank])} is at {frame.where()}{code}")
            continue
        entry = _called(d, rank, groups)
        if entry is None or not entry.frames:
            if rank in dumps and not dumps[rank].entries:
                heres.append(
                    f"{_ranks_text([rank])} recorded no collective, so where it is the dumps do not say"
                )
            elif rank in dumps:
                heres.append(f"{_ranks_text([rank])}'s dump records no call stack")
            continue
        d.stacks[rank] = user_first(entry.frames)
        where = d.stacks[rank][0].where()
        if d.kind == "late":
            heres.append(
                f"{_ranks_text([rank])} last called {entry.op} #{entry.seq} at {where}; where it is "
                "now the flight recorder does not record"
            )
        else:
            heres.append(f"{_ranks_text([rank])} called {entry.op} #{entry.seq} at {where}")
    waiting = [r for r in d.others if r not in stacks]
    if d.seq is not None and d.kind != "desync" and waiting:
        entry = next(
            (e for r in waiting if (e := groups.get(d.group, {}).get(r, {}).get(d.seq)) and e.frames), None
        )
        if entry is not None:
            verb = ("waits" if len(waiting) == 1 else "wait") + " in it, called"
            verb = verb if d.kind != "stuck" else "called it"
            heres.append(f"{_ranks_text(waiting)} {verb} at {user_first(entry.frames)[0].where()}")
    if heres:
        d.detail += "; " + "; ".join(heres)


_OPEN = ("scheduled", "started")


@dataclass(frozen=True)
class _Posted:
    """A send or recv a rank posted and did not complete."""

    rank: int
    entry: Entry
    state: str
    send: bool


def _p2p_state(dump: RankDump) -> list[tuple[Entry, str]]:
    """Each point-to-point entry with the state that counts: inside a batch (``batch_isend_irecv``
    records each op, then one ``nccl:coalesced`` entry of the same sequence number that alone
    carries the batch's state) the batch's, else its own."""
    marks = {(e.group, e.seq): e.state for e in dump.p2p if e.op.endswith(":coalesced")}
    return [(e, marks.get((e.group, e.seq), e.state)) for e in dump.p2p if not e.op.endswith(":coalesced")]


def _posted(dumps: dict[int, RankDump]) -> list[_Posted]:
    return [
        _Posted(rank, e, state, ":send " in e.op)
        for rank, dump in sorted(dumps.items())
        for e, state in _p2p_state(dump)
        if state in _OPEN and e.src is not None and e.dst is not None
    ]


def _group_ranks(group: str, dumps: dict[int, RankDump], world: int | None) -> list[int] | None:
    """The group's global ranks in group-rank order, as the dumps list them; None when they do not."""
    for dump in dumps.values():
        if group in dump.groups:
            return sorted(dump.groups[group])
    return list(range(world)) if group == "0" and world is not None else None


def _p2p_what(p: _Posted) -> str:
    e = p.entry
    shape = " ".join(part for part in (e.sizes, e.dtypes) if part and part != "[]")
    return (
        f"{e.op}{' ' + shape if shape else ''} (point-to-point #{e.seq} of "
        f"{_describe_group(e.group, e.description)}, stage pair {e.src} → {e.dst})"
    )


def _p2p_call(rank: int, entry: Entry | None) -> str:
    if entry is None or not entry.frames:
        return ""
    return f"; rank {rank} called {entry.op} at {user_first(entry.frames)[0].where()}"


def _p2p_hang(dumps: dict[int, RankDump], world: int | None) -> Divergence | None:
    """A send or recv left open whose partner is missing names the peer that never posted it
    (a send on A to B pairs with a recv on B from A in the same group, as torch's fr_trace
    matches them); a pair both posted and both open says both sides wait."""
    posted = _posted(dumps)
    index = {(p.rank, p.entry.group, p.entry.src, p.entry.dst, p.send) for p in posted}
    missing: list[tuple[_Posted, int | None]] = []
    pairs: list[tuple[_Posted, int]] = []
    members: dict[str, list[int] | None] = {}  # looked up once a group: dumps x entries is large
    for p in posted:
        if p.entry.group not in members:
            members[p.entry.group] = _group_ranks(p.entry.group, dumps, world)
        ranks = members[p.entry.group]
        mine, theirs = (p.entry.src, p.entry.dst) if p.send else (p.entry.dst, p.entry.src)
        if mine is None or theirs is None:  # _posted keeps only entries naming both
            continue
        if ranks is None or max(mine, theirs) >= len(ranks) or ranks[mine] != p.rank:
            missing.append((p, None))  # which global rank the peer is, the dumps do not say
            continue
        peer = ranks[theirs]
        if (peer, p.entry.group, p.entry.src, p.entry.dst, not p.send) in index:
            pairs.append((p, peer))
        else:
            missing.append((p, peer))
    # a peer that wrote a dump without the partner first, then one without a dump, then unknown
    missing.sort(key=lambda m: (m[1] is None, m[1] is not None and m[1] not in dumps))
    if missing:
        return _p2p_missing(*missing[0], dumps)
    if pairs:
        p, peer = pairs[0]
        both = sorted({p.rank, peer})
        detail = (
            f"rank {p.rank}'s {_p2p_what(p)} is {p.state}, not completed, and rank {peer} posted its "
            f"partner, which is open too: both sides are waiting on each other's transfer, so no "
            "rank skipped it; the network or transport between them (NCCL's log, NCCL_DEBUG=INFO), "
            "not a missing rank, is the likely cause"
        )
        d = Divergence(
            "p2p-stuck", p.entry.group, p.entry.description, p.entry.seq, p.entry.op, both, [], detail
        )
        d.detail += _p2p_call(p.rank, p.entry)
        return d
    return None


def _p2p_missing(p: _Posted, peer: int | None, dumps: dict[int, RankDump]) -> Divergence:
    e = p.entry
    other = f"{'recv from' if p.send else 'send to'} rank {p.rank}"
    head = f"rank {p.rank}'s {_p2p_what(p)} is {p.state}, not completed"
    if peer is None:
        local = e.dst if p.send else e.src
        detail = (
            f"{head}; its peer is rank {local} of {_describe_group(e.group, e.description)}, whose "
            "global rank the dumps do not say (no pg_config for the group), so the rank it waits on "
            "cannot be named"
        )
        named: list[int] = []
    elif peer not in dumps:
        detail = (
            f"{head}; it waits on rank {peer}, which wrote no dump: whether it posted the matching "
            f"{other} is unknown"
        )
        named = [peer]
    else:
        detail = f"{head}; rank {peer} never posted the matching {other}: rank {peer} is the one it waits on"
        named = [peer]
    if e.timeout_ms is not None and e.timeout_ms > 0:
        detail += f"; its timeout was {e.timeout_ms / 1000:g} s (timeout_ms {e.timeout_ms})"
    d = Divergence("p2p", e.group, e.description, e.seq, e.op, named, [p.rank], detail)
    d.detail += _p2p_call(p.rank, e)
    return d


def _place_p2p(d: Divergence, dumps: dict[int, RankDump], stacks: dict[int, list[Frame]]) -> None:
    """Where the named peer is: its stack at the dump when there is one, else where it last
    called a point-to-point op or collective (torch records the call, not where it is now)."""
    for rank in d.ranks:
        if d.kind == "p2p-stuck":
            continue
        if rank in stacks:
            d.stacks[rank] = user_first(stacks[rank])
            d.detail += f"; rank {rank} is at {d.stacks[rank][0].where()}"
            continue
        dump = dumps.get(rank)
        recorded = [e for e in [*(dump.entries if dump else []), *(dump.p2p if dump else [])] if e.frames]
        last = min(recorded, key=lambda e: e.age, default=None)
        if last is None:
            continue
        d.recorded.add(rank)
        d.stacks[rank] = user_first(last.frames)
        d.detail += (
            f"; rank {rank} last called {last.op} at {d.stacks[rank][0].where()}; where it is now the "
            "flight recorder does not record"
        )


def analyse(
    source: Path | Sequence[Path], logs: Sequence[Path] = (), *, torchrun: bool = False
) -> FlightReport | None:
    """The first divergence in the dumps of ``source``, a directory or dump files (None when it
    holds nothing to read; a report without dumps when it holds only files that could not be read)."""
    notes: list[str] = []
    if isinstance(source, Path):
        directory = source
        restart, dumps = read_dumps(directory, notes)
    else:
        directory = source[0] if len(source) == 1 else source[0].parent
        restart, dumps = None, read_dump_files(source, notes)
    if not dumps:
        return FlightReport(directory, restart, {}, [], None, notes) if notes else None
    world = max((d.world_size for d in dumps.values() if d.world_size), default=None)
    groups = _by_group(dumps)
    found: list[Divergence] = []
    missing: set[int] = set()
    members: dict[str, list[int]] = {}
    known: set[str] = set()
    for group in sorted(groups, key=lambda g: (g != "0", g)):
        ranks = groups[group]
        members[group] = _members(group, dumps, ranks, world)
        if any(group in d.groups and set(ranks) <= set(d.groups[group]) for d in dumps.values()) or (
            group == "0" and world is not None
        ):
            known.add(group)
        missing |= {m for m in members[group] if m not in dumps}
        idle = [m for m in members[group] if m in dumps and not dumps[m].entries and not dumps[m].p2p]
        d = _never_joined(group, ranks, idle) if group in known else None
        d = d or _first_divergence(group, ranks)
        if d is not None:
            found.append(d)
    divergence = found[0] if found else None
    lost = sorted(missing)
    log_stacks = fatal_stacks(_log_lines(logs), torchrun=torchrun) if logs else {}
    stacks: dict[int, list[Frame]] = {r: d.stack for r, d in dumps.items() if d.stack}
    for rank, frames in log_stacks.items():
        stacks.setdefault(rank, frames)
    if lost and (divergence is None or divergence.kind == "late"):
        divergence = _lost(
            lost, dumps=dumps, groups=groups, members=members, stacks=stacks, directory=directory
        )
    if divergence is None:
        divergence = _stuck(groups, known)
    p2p = _p2p_hang(dumps, world)
    # every collective recorded completed: the ranks without a dump held up no collective, the
    # open send or recv is what waits
    settled = all(
        e.state in _DONE for ranks in groups.values() for seqs in ranks.values() for e in seqs.values()
    )
    if p2p is not None and (
        divergence is None
        or divergence.kind == "stuck"
        or (divergence.kind == "lost" and (settled or (p2p.ranks and set(p2p.ranks) <= set(lost))))
    ):
        if divergence is not None and divergence.kind == "lost":
            notes.append(f"{_ranks_text(lost)} wrote no dump (or their files were not given)")
        divergence = p2p
        _place_p2p(divergence, dumps, stacks)
    elif divergence is not None:
        _place(divergence, dumps, groups, stacks)
        _sharpen(divergence, dumps, groups)
        if p2p is not None:
            notes.append(f"point-to-point: {p2p.detail}")
    versions = sorted({d.version for d in dumps.values() if d.version})
    if len(versions) > 1:
        notes.append(f"{directory}: the dumps are of different formats ({', '.join(versions)})")
    notes.extend(_status_notes(dumps, groups))
    report = FlightReport(directory, restart, dumps, lost, divergence, notes)
    # a coalesced group's collectives by its marker's state (torch never updates theirs)
    recorded = (e for ranks in groups.values() for seqs in ranks.values() for e in seqs.values())
    report.completed = all(e.state == "completed" for e in recorded) and all(
        state == "completed" for d in dumps.values() for _, state in _p2p_state(d)
    )
    report.unknown_members = sorted(g for g in groups if g not in known)
    return report
