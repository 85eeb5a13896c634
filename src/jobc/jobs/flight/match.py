"""Lining up each process group's collectives by sequence number across the ranks, and the
first point where they part: a desync, a late rank, a lost one, or every rank stuck in one."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from jobc.jobs.flight.model import DONE, OPEN, Divergence, Entry, Frame, Groups, RankDump, user_first
from jobc.jobs.flight.text import describe_group, ranks_text, span_text

_PROGRESS = {"scheduled": 0, "started": 1, "retired": 2, "completed": 2}


def by_group(dumps: dict[int, RankDump]) -> dict[str, dict[int, dict[int, Entry]]]:
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
    # each cut short: a dump's thousands of groups would otherwise each make a long text
    listed = ", ".join(e.describe()[:80] for e in inner[:16])
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


def members_of(group: str, dumps: dict[int, RankDump], seen: Iterable[int], world: int | None) -> list[int]:
    ranks = set(seen)
    for dump in dumps.values():
        # a list that leaves out a rank that recorded the group's collectives is not its members
        # (gloo's recorder lists the default group as "" with one rank)
        if group in dump.groups and ranks <= set(dump.groups[group]):
            return sorted(dump.groups[group])
    if group == "0" and world is not None:  # the default group is the whole world
        return list(range(world))
    return sorted(seen)


def first_divergence(group: str, ranks: dict[int, dict[int, Entry]]) -> Divergence | None:
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
                f"{ranks_text(sorted(r for r, e in present.items() if e.signature == sig))} "
                f"{'calls' if n == 1 else 'call'} {' '.join(part for part in sig if part)}"
                for sig, n in ranked
            )
            detail = f"collectives differ at #{seq} of {describe_group(group, entry.description)}: {calls}"
            op = None
        else:
            named = sorted(r for r, e in present.items() if e.signature != majority)
            others = sorted(r for r, e in present.items() if e.signature == majority)
            theirs = "; ".join(f"{ranks_text([r])} calls {present[r].describe()}" for r in named)
            detail = (
                f"collectives differ at #{seq} of {describe_group(group, entry.description)}: "
                f"{theirs} where {ranks_text(others)} call "
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
            f"{ranks_text(first)} never entered {what} of {describe_group(group, desc)}{shape or ','} "
            f"which {ranks_text(waiting)} wait in"
        )
        return Divergence("late", group, desc, late_seq, op, first, waiting, detail)
    return desync


def never_joined(group: str, ranks: dict[int, dict[int, Entry]], idle: list[int]) -> Divergence | None:
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
        f"{ranks_text(idle)} never entered {entry.op} #{seq} of "
        f"{describe_group(group, entry.description)}, {first} {ranks_text(waiting)} recorded: "
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


def lost_ranks(
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
    where = f"{op} #{seq} of {describe_group(group, description)}" if op else "their last collective"
    if state:
        where += f" ({state})"
    gone = "wrote no dump" if named == lost else f"wrote no dump (or their files are not in {directory})"
    detail = f"{ranks_text(lost)} {gone}"
    if named == lost and not odd:
        detail += " (the process died, taking its flight recorder along, or its file is not there)"
    detail += f"; {ranks_text(waiting)} {'was' if len(waiting) == 1 else 'were'} last in {where}"
    if not named:
        detail += f"; which of {ranks_text(lost)} did not reach it cannot be told without their dumps"
    elif len(lost) > len(named):
        rest = [r for r in lost if r not in named]
        detail += f"; {ranks_text(rest)} died too, at the same line as the others"
    return Divergence("lost", group, description, seq, op, named, waiting, detail)


def stuck(groups: Groups, known: set[str]) -> Divergence | None:
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
            if all(st in DONE for st in states.values()):
                continue
            entry = next(iter(present.values()))
            least = min(_PROGRESS[st] for st in states.values())
            behind = sorted(r for r, st in states.items() if _PROGRESS[st] == least)
            what = f"{entry.describe()} #{seq} of {describe_group(group, entry.description)}"
            if "retired" in states.values():
                still = sorted(r for r, st in states.items() if st not in DONE)
                detail = (
                    f"every rank that wrote a dump ({span_text(sorted(present))}) entered {what}; "
                    f"{ranks_text(still)} {'is' if len(still) == 1 else 'are'} still in it, the others "
                    "left it (gloo records no completion: finished or timed out), so the dumps cannot "
                    "tell which rank held it up"
                )
                return Divergence(
                    "stuck", group, entry.description, seq, entry.op, [], sorted(present), detail
                )
            if len(behind) == len(present):
                detail = (
                    f"every rank that wrote a dump ({span_text(sorted(present))}) "
                    f"entered {what} and none completed it ({entry.state}): no rank skipped it; the "
                    "dumps cannot tell which rank's GPU or network link held it up (NCCL's own log, "
                    "NCCL_DEBUG=INFO, or a GPU error on one node can)"
                )
                return Divergence(
                    "stuck", group, entry.description, seq, entry.op, [], sorted(present), detail
                )
            by_state = "; ".join(
                f"{ranks_text(sorted(r for r, st in states.items() if st == name))} {name} it"
                for name in ("completed", "started", "scheduled")
                if name in states.values()
            )
            detail = (
                f"every rank entered {what}, but not every rank's GPU began it: {by_state}; "
                f"{ranks_text(behind)} never started it (still busy with earlier work)"
            )
            others = sorted(r for r in present if r not in behind)
            return Divergence("stuck", group, entry.description, seq, entry.op, behind, others, detail)
    return None


def status_notes(dumps: dict[int, RankDump], groups: Groups) -> list[str]:
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
            if (done is not None and done > completed) or (said is not None and said.state in OPEN):
                out.append(
                    f"rank {rank}: pg_status of process group {group} says the last collective "
                    f"completed is #{completed}, but its entries record #{done if done is not None else '?'} "
                    "as the last completed; the entries are used"
                )
            if len(out) >= 8:
                return out
    return out
