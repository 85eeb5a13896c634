"""What a dump says, field by field: its collectives and point-to-point operations, the
members of its process groups, its format version, the program's stack. Every value is
checked for its type and size before it is kept: a hostile dump is read as far as it makes
sense and no further."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from jobc.jobs.flight.model import Entry, Frame, RankDump

MAX_FRAMES = 200

# torch's recorder keeps 2,000 entries by default (TORCH_NCCL_TRACE_BUFFER_SIZE); the newest this
# many of a dump are read, and this many frames of them in all
MAX_ENTRIES = 20_000

MAX_DUMP_FRAMES = 20_000

# No job has this many ranks: a larger world size or rank in a dump is not believed (listing the
# ranks of a world of 10**12 that wrote no dump would never finish).
MAX_WORLD = 1 << 20

# the dump formats read: "1.x" (seq_id, pg_id) and "2.x" (collective_seq_id, process_group), as
# the pickle (_dump_nccl_trace, on a timeout) or as JSON (_dump_nccl_trace_json)
KNOWN_MAJOR = (1, 2)

_P2P_NAME = re.compile(r":(?:send|recv)\b")

_SEND = re.compile(r"[a-z]+:send ([0-9]{1,7})->([0-9]{1,7})")

_RECV = re.compile(r"[a-z]+:recv ([0-9]{1,7})<-([0-9]{1,7})")


def integer(value: Any) -> int | None:
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
    pg_id = integer(raw.get("pg_id"))
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


def split_entries(data: Any) -> tuple[list[Entry], list[Entry]]:
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
        seq = integer(raw.get(key, raw.get("seq_id")))
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
            timeout_ms=integer(raw.get("timeout_ms")),
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


def pg_config(data: Any) -> dict[str, list[int]]:
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


def version_of(data: Any, path: Path, notes: list[str]) -> str | None:
    version = data.get("version") if isinstance(data, dict) else None
    if not isinstance(version, str):
        notes.append(f"{path}: the dump names no format version; read as format 2.x")
        return None
    major = integer(version.split(".")[0])
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
        line = integer(item.get("line"))
        out.append(
            Frame(
                file=_text(item.get("file", "?"), 1000),
                line=line if line is not None else 0,
                function=_text(item.get("function", "?")),
                code=_text(item.get("code", ""), 400),
            )
        )
    return out


def read_stacks(data: Any, dump: RankDump) -> None:
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
    number = integer(value)
    return number is not None and 0 <= number < MAX_WORLD


def _rank_count(value: Any) -> int | None:
    number = integer(value)
    return number if number is not None and 0 < number <= MAX_WORLD else None


_STATUS_KEYS = ("last_enqueued_collective", "last_started_collective", "last_completed_collective")


def pg_status(data: dict[Any, Any]) -> dict[str, tuple[int | None, int | None, int | None]]:
    """``pg_status``: each group's last collective enqueued, started and completed, as torch
    keeps them apart from the ring buffer (ints in the pickle, strings in JSON; -1 for none)."""
    raw = data.get("pg_status")
    out: dict[str, tuple[int | None, int | None, int | None]] = {}
    if not isinstance(raw, dict):
        return out
    for key, value in list(raw.items())[:10_000]:
        if isinstance(value, dict):
            a, b, c = (integer(value.get(k)) for k in _STATUS_KEYS)
            out[_text(key)] = (a, b, c)
    return out
