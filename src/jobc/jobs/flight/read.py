"""Where the dumps are and which of them are read: jobc.runtime's recorder and stacks files of
the latest restart, else torch's own dumps (one file a rank, under a common prefix)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from jobc.jobs.flight.fields import Budget, Fields
from jobc.jobs.flight.load import NOT_A_DUMP, load_json, load_torch
from jobc.jobs.flight.model import RankDump

MAX_TORCH_DUMPS = 100_000

_NAME = re.compile(r"rank(\d{1,7})-restart(\d{1,6})\.(fr|stacks)\.json")

# torch's own dump on a collective timeout: one file a rank, named by a prefix and the global rank
# (TORCH_NCCL_DEBUG_INFO_TEMP_FILE, default /tmp/nccl_trace_rank_, or TORCH_FR_DUMP_TEMP_FILE;
# DebugInfoWriter in torch/csrc/distributed/c10d/FlightRecorder.cpp). Like torch's fr_trace
# (flight_recorder/components/loader.py), any prefix is read; the compiled script's is this one.
TORCH_PREFIX = "torch-trace-rank"

_TORCH_NAME = re.compile(r"(?P<prefix>.*?)(?P<rank>\d{1,7})(?:\.(?:json|pkl|pickle))?")


def find_dump_dir(log: Path) -> Path | None:
    """The dump directory the compiled script makes beside a job log: ``<log stem>.flight``."""
    candidate = log.with_name(log.stem + ".flight")
    return candidate if candidate.is_dir() else None


def _torch_dump(rank: int, path: Path, notes: list[str], budget: Budget, dumps: int) -> RankDump | None:
    """One of torch's dumps, read within its share of the budget (``dumps``: how many are still
    to be read, this one included)."""
    data = load_torch(path, notes)
    if data is NOT_A_DUMP or data is None:
        return None
    if not isinstance(data, dict) or not isinstance(data.get("entries", []), list):
        notes.append(f"{path}: not shaped like a flight-recorder dump (no entries list); not read")
        return None
    fields = Fields(path, notes, budget, dumps)
    collectives, p2p = fields.split_entries(data)
    return RankDump(
        rank=rank,
        restart=-1,
        recorder=path,
        entries=collectives,
        groups=fields.pg_config(data),
        version=fields.version_of(data),
        p2p=p2p,
        status=fields.pg_status(data),
    )


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
    budget = Budget()
    left = sum(min(len(files), MAX_TORCH_DUMPS) for files in by_prefix.values())
    for prefix, files in sorted(by_prefix.items(), key=lambda kv: (kv[0] != TORCH_PREFIX, -len(kv[1]))):
        read: dict[int, RankDump] = {}
        for rank, path in sorted(files.items())[:MAX_TORCH_DUMPS]:
            dump = _torch_dump(rank, path, notes, budget, left)
            left -= 1
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
    budget = Budget()
    for n, path in enumerate(paths[:MAX_TORCH_DUMPS]):
        m = _TORCH_NAME.fullmatch(path.name)
        if m is None:
            notes.append(f"{path}: its name ends in no rank (torch names a dump <prefix><rank>); not read")
            continue
        rank = int(m["rank"])
        if rank in out:
            notes.append(f"{path}: a second dump of rank {rank}; read {out[rank].recorder}")
            continue
        before = len(notes)
        dump = _torch_dump(rank, path, notes, budget, min(len(paths), MAX_TORCH_DUMPS) - n)
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
    budget = Budget()
    matched = [(name, m) for name in names if (m := _NAME.fullmatch(name)) is not None]
    for n, (name, m) in enumerate(matched):
        rank, restart, kind = int(m.group(1)), int(m.group(2)), m.group(3)
        dump = found.setdefault((restart, rank), RankDump(rank=rank, restart=restart))
        path = directory / name
        data = load_json(path, notes)
        fields = Fields(path, notes, budget, len(matched) - n)
        if kind == "fr":
            dump.recorder = path
            dump.entries, dump.p2p = fields.split_entries(data)
            version = data.get("version") if isinstance(data, dict) else None
            dump.version = version[:20] if isinstance(version, str) else None
        else:
            dump.stacks_file = path
            fields.read_stacks(data, dump)
    if not found:
        # Only torch's own dumps (a program without jobc.runtime, or a timeout before the
        # watchdog): they hold each collective's call stack, not where the rank is now.
        return None, _torch_dumps(directory, names, notes)
    restart = max(r for r, _ in found)
    return restart, {rank: d for (r, rank), d in found.items() if r == restart}
