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

Every named rank comes with its stack, the program's own frame first (not torch's, not the
standard library's, not jobc's). Input is untrusted: a file that is too large, not JSON, or not
shaped like a dump becomes a note, never a traceback.
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
_NAME = re.compile(r"rank(\d{1,7})-restart(\d{1,6})\.(fr|stacks)\.json")
# torch's own dump on a collective timeout (TORCH_FR_DUMP_TEMP_FILE + rank), a pickle.
TORCH_PREFIX = "torch-trace-rank"
_TORCH_NAME = re.compile(re.escape(TORCH_PREFIX) + r"(\d{1,7})")
_LIBRARY = ("/site-packages/", "/dist-packages/", "/jobc/runtime/", "/lib/python3", "/lib64/python3")
_FATAL = "Fatal Python error:"
_THREAD = re.compile(r"^(Current thread|Thread) 0x[0-9a-fA-F]+ \(most recent call first\):")
_FILE = re.compile(r'^\s+File "(.*)", line (\d+) in (.*)$')


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

    @property
    def signature(self) -> tuple[str, str, str]:
        return (self.op, self.sizes, self.dtypes)

    def describe(self) -> str:
        return f"{self.op} {self.sizes} {self.dtypes}"


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


@dataclass
class FlightReport:
    directory: Path
    restart: int | None
    dumps: dict[int, RankDump]
    missing: list[int]
    divergence: Divergence | None
    notes: list[str] = field(default_factory=list)

    def summary(self) -> str:
        d = self.divergence
        if d is None:
            seen = _ranks_text(sorted(self.dumps))
            return f"hang dumps from {seen} in {self.directory}: the collectives agree; no rank parted"
        return d.detail


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
    try:
        if path.stat().st_size > MAX_DUMP_BYTES:
            notes.append(f"{path}: larger than {MAX_DUMP_BYTES >> 20} MiB; not read")
            return None
        return json.loads(path.read_bytes().decode("utf-8", "replace"))
    except (OSError, ValueError, RecursionError) as exc:
        notes.append(f"{path}: not a readable JSON dump ({type(exc).__name__})")
        return None


class _PlainUnpickler(pickle.Unpickler):
    """Plain data only: a pickle that names any class or function is refused, never run."""

    def find_class(self, module: str, name: str) -> Any:
        raise pickle.UnpicklingError(f"refused: {module}.{name}")


def _load_pickle(path: Path, notes: list[str]) -> Any:
    try:
        data = path.read_bytes()
        if len(data) > MAX_DUMP_BYTES:
            notes.append(f"{path}: larger than {MAX_DUMP_BYTES >> 20} MiB; not read")
            return None
        return _PlainUnpickler(io.BytesIO(data)).load()
    except (OSError, pickle.UnpicklingError, ValueError, EOFError, RecursionError, MemoryError) as exc:
        notes.append(f"{path}: not a readable flight-recorder dump ({type(exc).__name__})")
        return None
    except Exception as exc:  # any other way a hostile pickle can fail to load
        notes.append(f"{path}: not a readable flight-recorder dump ({type(exc).__name__})")
        return None


def _int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
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


def _entries(data: Any) -> list[Entry]:
    out: list[Entry] = []
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        return out
    for raw in data["entries"]:
        if not isinstance(raw, dict) or raw.get("is_p2p") is True:
            continue
        seq = _int(raw.get("collective_seq_id"))
        group = raw.get("process_group")
        if seq is None or seq <= 0:
            continue
        name, description = "", ""
        if isinstance(group, (list, tuple)) and group:
            name = _text(group[0])
            description = _text(group[1]) if len(group) > 1 else ""
        elif isinstance(group, str):
            name = group
        out.append(
            Entry(
                group=name,
                description=description,
                seq=seq,
                op=_text(raw.get("profiling_name", "?")),
                sizes=_text(raw.get("input_sizes", [])),
                dtypes=_text(raw.get("input_dtypes", [])),
            )
        )
    return out


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


def _torch_frames(data: Any) -> list[Frame]:
    """The stack torch recorded with this rank's last collective (innermost first)."""
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list) or not data["entries"]:
        return []
    last = data["entries"][-1]
    frames = last.get("frames") if isinstance(last, dict) else None
    if not isinstance(frames, list):
        return []
    return _frames(
        [
            {"file": f.get("filename"), "line": f.get("line"), "function": f.get("name")}
            for f in frames[:MAX_FRAMES]
            if isinstance(f, dict)
        ]
    )


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
    dump.world_size = _int(data.get("world_size"))
    groups = data.get("groups")
    if isinstance(groups, dict):
        for name, ranks in list(groups.items())[:10_000]:
            if isinstance(ranks, list) and all(_int(r) is not None for r in ranks):
                dump.groups[str(name)] = [int(r) for r in ranks]


def read_dumps(directory: Path, notes: list[str] | None = None) -> tuple[int | None, dict[int, RankDump]]:
    """The dumps of the latest restart that wrote any: (restart, rank → dump)."""
    notes = notes if notes is not None else []
    found: dict[tuple[int, int], RankDump] = {}
    try:
        names = sorted(p.name for p in directory.iterdir())
    except OSError as exc:
        notes.append(f"{directory}: cannot list: {exc.strerror or exc}")
        return None, {}
    torch_dumps: dict[int, RankDump] = {}
    for name in names:
        t = _TORCH_NAME.fullmatch(name)
        if t is not None:
            rank = int(t.group(1))
            data = _load_pickle(directory / name, notes)
            torch_dumps[rank] = RankDump(
                rank=rank,
                restart=-1,
                recorder=directory / name,
                entries=_entries(data),
                stack=_torch_frames(data),
            )
            continue
        m = _NAME.fullmatch(name)
        if m is None:
            continue
        rank, restart, kind = int(m.group(1)), int(m.group(2)), m.group(3)
        dump = found.setdefault((restart, rank), RankDump(rank=rank, restart=restart))
        path = directory / name
        data = _load(path, notes)
        if kind == "fr":
            dump.recorder = path
            dump.entries = _entries(data)
        else:
            dump.stacks_file = path
            _stacks(data, dump)
    if not found:
        # Only torch's own dumps (a program without jobc.runtime, or a timeout before the
        # watchdog): their stacks are those of each rank's last collective.
        return (None, torch_dumps) if torch_dumps else (None, {})
    restart = max(r for r, _ in found)
    return restart, {rank: d for (r, rank), d in found.items() if r == restart}


def _by_group(dumps: dict[int, RankDump]) -> dict[str, dict[int, dict[int, Entry]]]:
    """group → rank → seq → entry."""
    out: dict[str, dict[int, dict[int, Entry]]] = {}
    for rank, dump in dumps.items():
        for entry in dump.entries:
            out.setdefault(entry.group, {}).setdefault(rank, {})[entry.seq] = entry
    return out


def _members(group: str, dumps: dict[int, RankDump], seen: Iterable[int], world: int | None) -> list[int]:
    for dump in dumps.values():
        if group in dump.groups:
            return sorted(dump.groups[group])
    if group == "0" and world is not None:  # the default group is the whole world
        return list(range(world))
    return sorted(seen)


def _describe_group(group: str, description: str) -> str:
    if description and description != group:
        return f"process group {group} ({description})"
    return f"process group {group}"


def _ranks_text(ranks: Sequence[int]) -> str:
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    return "ranks " + ", ".join(str(r) for r in ranks)


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
                f"call {sig[0]} {sig[1]} {sig[2]}"
                for sig, _ in ranked
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
                f"{majority[0]} {majority[1]} {majority[2]}"
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
        detail = (
            f"{_ranks_text(first)} never entered {what} of {_describe_group(group, desc)}, "
            f"which {_ranks_text(waiting)} wait in"
        )
        return Divergence("late", group, desc, late_seq, op, first, waiting, detail)
    return desync


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
    for path in paths:
        try:
            with path.open("rb") as stream:
                for raw in stream:
                    yield raw[:8192].decode("utf-8", "replace")
        except OSError:
            continue


def analyse(directory: Path, logs: Sequence[Path] = (), *, torchrun: bool = False) -> FlightReport | None:
    """The first divergence in the dumps of ``directory`` (None when it holds no dump)."""
    notes: list[str] = []
    restart, dumps = read_dumps(directory, notes)
    if not dumps:
        return None
    world = max((d.world_size for d in dumps.values() if d.world_size), default=None)
    groups = _by_group(dumps)
    found: list[Divergence] = []
    missing: set[int] = set()
    for group in sorted(groups, key=lambda g: (g != "0", g)):
        ranks = groups[group]
        members = _members(group, dumps, ranks, world)
        missing |= {m for m in members if m not in dumps}
        d = _first_divergence(group, ranks)
        if d is not None:
            found.append(d)
    divergence = found[0] if found else None
    lost = sorted(missing)
    log_stacks = fatal_stacks(_log_lines(logs), torchrun=torchrun) if logs else {}
    stacks: dict[int, list[Frame]] = {r: d.stack for r, d in dumps.items() if d.stack}
    for rank, frames in log_stacks.items():
        stacks.setdefault(rank, frames)
    if lost and (divergence is None or divergence.kind == "late"):
        # A rank that died took its recorder along; the others' records cannot tell it apart.
        odd = _odd_one_out(stacks)
        named = [r for r in odd if r in lost] or lost
        waiting = sorted(dumps)
        op, seq, description, group = None, None, "", "0"
        default = groups.get("0", {})
        if default:
            top = max(max(s) for s in default.values() if s)
            entry = next((s[top] for s in default.values() if top in s), None)
            if entry is not None:
                op, seq, description, group = entry.op, top, entry.description, entry.group
        where = f"{op} #{seq} of {_describe_group(group, description)}" if op else "their last collective"
        detail = (
            f"{_ranks_text(named)} wrote no dump (the process died, taking its flight recorder "
            f"along); {_ranks_text(waiting)} were in {where}"
        )
        if odd and set(odd) <= set(lost) and len(lost) > len(odd):
            rest = [r for r in lost if r not in odd]
            detail += f"; {_ranks_text(rest)} died too, at the same line as the others"
        divergence = Divergence("lost", group, description, seq, op, named, waiting, detail)
    if divergence is not None:
        for rank in divergence.ranks:
            if rank in stacks:
                divergence.stacks[rank] = user_first(stacks[rank])
        heres = []
        for rank in divergence.ranks:
            frame = divergence.stacks.get(rank, [None])[0]
            if frame is not None:
                code = f": {frame.code}" if frame.code else ""
                heres.append(f"{_ranks_text([rank])} is at {frame.where()}{code}")
        if heres:
            divergence.detail += "; " + "; ".join(heres)
    return FlightReport(directory, restart, dumps, lost, divergence, notes)
