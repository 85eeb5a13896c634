"""What a dump says, field by field: its collectives and point-to-point operations, the
members of its process groups, its format version, the program's stack. Every value is
checked for its type and size before it is kept: a hostile dump is read as far as it makes
sense and no further.

What is kept of the dumps of one analysis has a budget (`Budget`): entries, frames and
characters of text, shared out among the dumps, and no more than `MAX_ENTRIES`,
`MAX_DUMP_FRAMES` and `MAX_DUMP_TEXT` of one dump. A pickle names one object again in two
bytes (a memo reference), so each value is read once however often the dump names it (what
it was read as is kept by the object's identity), and each text is kept once for all the dumps
(torch's dumps of one job repeat the same names, sizes and files). A dump whose newest entries
already spend its share is read that far, and the note of its file says what was left out.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jobc.jobs.flight.model import Entry, Frame, RankDump

MAX_FRAMES = 200

# torch's recorder keeps 2,000 entries by default (TORCH_NCCL_TRACE_BUFFER_SIZE); the newest this
# many of a dump are read, and this many frames of them in all
MAX_ENTRIES = 20_000

MAX_DUMP_FRAMES = 20_000
#: characters of new text one dump may add (a text the dumps already hold costs nothing)
MAX_DUMP_TEXT = 2_000_000
#: what all the dumps of one analysis may keep: about 150 bytes an entry, 80 a frame, 1 a character
TOTAL_ENTRIES = 500_000
TOTAL_FRAMES = 500_000
TOTAL_TEXT = 32_000_000

# No job has this many ranks: a larger world size or rank in a dump is not believed (listing the
# ranks of a world of 10**12 that wrote no dump would never finish).
MAX_WORLD = 1 << 20

# the dump formats read: "1.x" (seq_id, pg_id) and "2.x" (collective_seq_id, process_group), as
# the pickle (_dump_nccl_trace, on a timeout) or as JSON (_dump_nccl_trace_json)
KNOWN_MAJOR = (1, 2)

_P2P_NAME = re.compile(r":(?:send|recv)\b")

_SEND = re.compile(r"[a-z]+:send ([0-9]{1,7})->([0-9]{1,7})")

_RECV = re.compile(r"[a-z]+:recv ([0-9]{1,7})<-([0-9]{1,7})")

_STATUS_KEYS = ("last_enqueued_collective", "last_started_collective", "last_completed_collective")


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


@dataclass
class Budget:
    """What the dumps of one analysis may still keep, and every text kept so far (once)."""

    entries: int = TOTAL_ENTRIES
    frames: int = TOTAL_FRAMES
    text: int = TOTAL_TEXT
    strings: dict[str, str] = field(default_factory=dict)


class _Spent(Exception):
    """A dump's share of the budget is spent; the argument says of what."""


class Fields:
    """The reader of one dump's fields, within its share of the budget (`dumps` is how many
    dumps, this one included, are still to be read)."""

    def __init__(self, path: Path, notes: list[str], budget: Budget, dumps: int = 1) -> None:
        self.path, self.notes, self.budget = path, notes, budget
        share = max(dumps, 1)
        self.entries = min(MAX_ENTRIES, budget.entries // share)
        self.frames = min(MAX_DUMP_FRAMES, budget.frames // share)
        self.text_left = min(MAX_DUMP_TEXT, budget.text // share)
        self.ranks_left = MAX_WORLD  # group members listed, in all the dump's groups
        # what each object of the dump was read as, by its identity (the object is kept too, so
        # that its identity is not reused while the dump is read)
        self._seen: dict[tuple[int, str], tuple[Any, Any]] = {}

    # --- values

    def _keep(self, text: str) -> str:
        known = self.budget.strings.get(text)
        if known is not None:
            return known
        if len(text) > self.text_left:
            raise _Spent(f"{MAX_DUMP_TEXT:,} characters of text")
        self.text_left -= len(text)
        self.budget.text -= len(text)
        self.budget.strings[text] = text
        return text

    def text(self, value: Any, limit: int = 200) -> str:
        key = (id(value), f"text{limit}")
        seen = self._seen.get(key)
        if seen is not None:
            return str(seen[1])
        if isinstance(value, str):
            out = value[:limit]
        else:
            parts: list[str] = []
            _short(value, parts, [limit])
            out = "".join(parts)[:limit]
        out = self._keep(out)
        self._seen[key] = (value, out)
        return out

    def dtypes(self, raw: Any) -> str:
        """``["Float", "Float"]`` as ``Float,Float``; absent (format 1.x) as nothing."""
        if isinstance(raw, list) and all(isinstance(t, str) for t in raw[:64]):
            key = (id(raw), "dtypes")
            seen = self._seen.get(key)
            if seen is None:
                seen = self._seen[key] = (raw, self._keep(",".join(t[:40] for t in raw[:64])[:400]))
            return str(seen[1])
        return "" if raw is None else self.text(raw)

    def frames_of(self, raw: Any, *, torch: bool = False) -> tuple[Frame, ...]:
        """Frames of a list of dicts, innermost first, within the dump's frames: jobc.runtime's
        (``file``, ``line``, ``function``, ``code``), or torch's (``filename``, ``line``, ``name``)."""
        if not isinstance(raw, list):
            return ()
        key = (id(raw), f"frames{torch}")
        seen = self._seen.get(key)
        if seen is not None:
            return tuple(seen[1])
        out: list[Frame] = []
        for item in raw[: min(MAX_FRAMES, self.frames)]:
            if not isinstance(item, dict):
                continue
            line = integer(item.get("line"))
            out.append(
                Frame(
                    file=self.text(item.get("filename" if torch else "file", "?"), 1000),
                    line=line if line is not None else 0,
                    function=self.text(item.get("name" if torch else "function", "?")),
                    code="" if torch else self.text(item.get("code", ""), 400),
                )
            )
        self.frames -= max(len(out), 1)
        self.budget.frames -= len(out)
        frames = tuple(out)
        self._seen[key] = (raw, frames)
        return frames

    def members(self, ranks: Any) -> list[int] | None:
        """A group's global ranks from a list or torch's text ``"[0, 1, 2]"``; None when they
        are not ranks. Each group's count is taken from the dump's `MAX_WORLD` listed ranks in
        all, however often one list is named."""
        key = (id(ranks), "members")
        seen = self._seen.get(key)
        if seen is None:
            listed = re.findall(r"-?\d{1,9}", ranks[:1_000_000]) if isinstance(ranks, str) else ranks
            read = None
            if isinstance(listed, list) and len(listed) <= MAX_WORLD and all(_rank(r) for r in listed):
                read = [int(r) for r in listed]
            seen = self._seen[key] = (ranks, read)
        read = seen[1]
        if read is None or len(read) > self.ranks_left:
            return None
        self.ranks_left -= len(read)
        return list(read)

    # --- the dump's parts

    def split_entries(self, data: Any) -> tuple[list[Entry], list[Entry]]:
        """(collectives, point-to-point operations) of one dump, in the order recorded: the
        newest first, as far as the dump's share of the budget goes."""
        collectives: list[Entry] = []
        p2p: list[Entry] = []
        if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
            return collectives, p2p
        listed = data["entries"]
        read = 0
        try:
            for order, raw in enumerate(reversed(listed[-self.entries :] if self.entries else [])):
                entry = self._entry(raw, order)
                read += 1
                if entry is not None:
                    (p2p if _is_p2p(raw, entry.op) else collectives).append(entry)
        except _Spent as spent:
            self._said(
                f"the newest {read:,} of its {len(listed):,} entries were read: the older ones would "
                f"take more than the {spent} jobc keeps of one dump"
            )
        else:
            if read < len(listed):
                self._said(
                    f"the newest {read:,} of its {len(listed):,} entries were read, as many as jobc "
                    "keeps of one dump among these"
                )
        self.budget.entries -= read
        return collectives[::-1], p2p[::-1]

    def _entry(self, raw: Any, order: int) -> Entry | None:
        if not isinstance(raw, dict):
            return None
        op = self.text(raw.get("profiling_name", "?"))
        # 2.x counts collectives and point-to-point apart; 1.x has one seq_id for both
        key = "p2p_seq_id" if _is_p2p(raw, op) and "p2p_seq_id" in raw else "collective_seq_id"
        seq = integer(raw.get(key, raw.get("seq_id")))
        if seq is None or seq <= 0:
            return None
        name, description = self._group_of(raw)
        peers = _peers(op)
        state = raw.get("state")
        if op.startswith("gloo:") and raw.get("retired") is True:
            # gloo's recorder never marks a collective started or completed (every entry stays
            # "scheduled"); one that left the work list finished, or timed out: "retired"
            state = "retired"
        return Entry(
            group=name,
            description=description,
            seq=seq,
            op=op,
            sizes=self.text(raw.get("input_sizes", _NO_SIZES)),
            dtypes=self.dtypes(raw.get("input_dtypes")),
            state=self.text(state, 20) if isinstance(state, str) else "",
            frames=self.frames_of(raw.get("frames"), torch=True) if self.frames > 0 else (),
            src=peers[0],
            dst=peers[1],
            timeout_ms=integer(raw.get("timeout_ms")),
            age=order,
        )

    def _group_of(self, raw: dict[Any, Any]) -> tuple[str, str]:
        """(name, description): ``process_group`` is a (name, desc) pair since format 2.0 (a
        tuple in the pickle, a list in JSON); format 1.x has only the group's number, ``pg_id``."""
        group = raw.get("process_group")
        if isinstance(group, (list, tuple)) and group:
            return self.text(group[0]), self.text(group[1]) if len(group) > 1 else ""
        if isinstance(group, str):
            return self.text(group), ""
        pg_id = integer(raw.get("pg_id"))
        return (self._keep(str(pg_id)), "") if pg_id is not None else ("", "")

    def pg_config(self, data: Any) -> dict[str, list[int]]:
        """Each process group's global ranks, as the dump's ``pg_config`` lists them: 2.x maps a
        group's name to ``{"name", "desc", "ranks": "[0, 1, 2]"}``; 1.x a group's number to a list."""
        out: dict[str, list[int]] = {}
        config = data.get("pg_config") if isinstance(data, dict) else None
        if not isinstance(config, dict):
            return out
        try:
            for key, value in list(config.items())[:10_000]:
                name, ranks = key, value  # a pickle's key may be an int past what str() prints
                if isinstance(value, dict):
                    name, ranks = value.get("name", key), value.get("ranks")
                members = self.members(ranks)
                if members:
                    out[self.text(name)] = sorted(set(members))
        except _Spent as spent:
            self._said(
                f"the members of {len(out):,} of its process groups were read: more would take more "
                f"than the {spent} jobc keeps of one dump"
            )
        return out

    def version_of(self, data: Any) -> str | None:
        version = data.get("version") if isinstance(data, dict) else None
        if not isinstance(version, str):
            self.notes.append(f"{self.path}: the dump names no format version; read as format 2.x")
            return None
        major = integer(version.split(".")[0])
        if major not in KNOWN_MAJOR:
            self.notes.append(
                f"{self.path}: format version {version[:20]!r} is not one jobc knows (1.x, 2.x); read as 2.x"
            )
        return self._keep(version[:20])

    def read_stacks(self, data: Any, dump: RankDump) -> None:
        """jobc.runtime's stacks file: the main thread's frames, the reason, the host, the world
        size and each group's members."""
        if not isinstance(data, dict):
            return
        try:
            threads = data.get("threads")
            if isinstance(threads, list):
                main = next((t for t in threads if isinstance(t, dict) and t.get("main") is True), None)
                if main is not None:
                    dump.stack = list(self.frames_of(main.get("frames")))
            dump.reason = self.text(data["reason"], 400) if isinstance(data.get("reason"), str) else None
            dump.host = self.text(data["host"]) if isinstance(data.get("host"), str) else None
            dump.world_size = _rank_count(data.get("world_size"))
            groups = data.get("groups")
            if isinstance(groups, dict):
                for name, ranks in list(groups.items())[:10_000]:
                    members = self.members(ranks) if isinstance(ranks, list) else None
                    if members is not None:
                        dump.groups[self.text(name)] = members
        except _Spent as spent:
            self._said(f"read only in part: the rest would take more than the {spent} jobc keeps of one dump")

    def pg_status(self, data: dict[Any, Any]) -> dict[str, tuple[int | None, int | None, int | None]]:
        """``pg_status``: each group's last collective enqueued, started and completed, as torch
        keeps them apart from the ring buffer (ints in the pickle, strings in JSON; -1 for none)."""
        raw = data.get("pg_status")
        out: dict[str, tuple[int | None, int | None, int | None]] = {}
        if not isinstance(raw, dict):
            return out
        try:
            for key, value in list(raw.items())[:10_000]:
                if isinstance(value, dict):
                    a, b, c = (integer(value.get(k)) for k in _STATUS_KEYS)
                    out[self.text(key)] = (a, b, c)
        except _Spent:
            pass  # the groups read so far are enough to compare with the entries
        return out

    def _said(self, text: str) -> None:
        self.notes.append(f"{self.path}: {text}")


_NO_SIZES: list[Any] = []


def _is_p2p(raw: dict[Any, Any], op: str) -> bool:
    return raw.get("is_p2p") is True or bool(_P2P_NAME.search(op))


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


def _peers(op: str) -> tuple[int | None, int | None]:
    """(source, destination) of a send or recv within its group, as torch names them."""
    if m := _SEND.fullmatch(op):
        return int(m[1]), int(m[2])
    if m := _RECV.fullmatch(op):
        return int(m[2]), int(m[1])
    return None, None


def _rank(value: Any) -> bool:
    number = integer(value)
    return number is not None and 0 <= number < MAX_WORLD


def _rank_count(value: Any) -> int | None:
    number = integer(value)
    return number if number is not None and 0 < number <= MAX_WORLD else None
