"""Where each named rank is, said in the divergence's detail: its stack at the dump (jobc's
stacks, or faulthandler's in the log), else where torch recorded its call; and what pg_status
and the timeout add."""

from __future__ import annotations

from jobc.jobs.flight.model import DONE, Divergence, Entry, Frame, Groups, RankDump, user_first
from jobc.jobs.flight.text import ranks_text


def _called(d: Divergence, rank: int, groups: Groups) -> Entry | None:
    """The entry of ``rank`` that ``d`` is about: the one at the divergence, or a late rank's last."""
    seqs = groups.get(d.group, {}).get(rank, {})
    if d.kind == "late":
        return seqs[max(seqs)] if seqs else None
    return seqs.get(d.seq) if d.seq is not None else None


def place(d: Divergence, dumps: dict[int, RankDump], groups: Groups, stacks: dict[int, list[Frame]]) -> None:
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
            heres.append(f"{ranks_text([rank])} is at {frame.where()}{code}")
            continue
        entry = _called(d, rank, groups)
        if entry is None or not entry.frames:
            if rank in dumps and not dumps[rank].entries:
                heres.append(
                    f"{ranks_text([rank])} recorded no collective, so where it is the dumps do not say"
                )
            elif rank in dumps:
                heres.append(f"{ranks_text([rank])}'s dump records no call stack")
            continue
        d.stacks[rank] = user_first(entry.frames)
        where = d.stacks[rank][0].where()
        if d.kind == "late":
            heres.append(
                f"{ranks_text([rank])} last called {entry.op} #{entry.seq} at {where}; where it is "
                "now the flight recorder does not record"
            )
        else:
            heres.append(f"{ranks_text([rank])} called {entry.op} #{entry.seq} at {where}")
    waiting = [r for r in d.others if r not in stacks]
    if d.seq is not None and d.kind != "desync" and waiting:
        entry = next(
            (e for r in waiting if (e := groups.get(d.group, {}).get(r, {}).get(d.seq)) and e.frames), None
        )
        if entry is not None:
            verb = ("waits" if len(waiting) == 1 else "wait") + " in it, called"
            verb = verb if d.kind != "stuck" else "called it"
            heres.append(f"{ranks_text(waiting)} {verb} at {user_first(entry.frames)[0].where()}")
    if heres:
        d.detail += "; " + "; ".join(heres)


def place_p2p(d: Divergence, dumps: dict[int, RankDump], stacks: dict[int, list[Frame]]) -> None:
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


def sharpen(d: Divergence, dumps: dict[int, RankDump], groups: Groups) -> None:
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
    if entry is not None and entry.state not in DONE and entry.timeout_ms and entry.timeout_ms > 0:
        d.detail += f"; its timeout was {entry.timeout_ms / 1000:g} s (timeout_ms {entry.timeout_ms})"
