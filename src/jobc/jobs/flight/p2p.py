"""Point-to-point operations (pipeline parallelism) matched by peer, as torch's fr_trace
matches them: a send or recv left open whose partner the peer never posted names that peer."""

from __future__ import annotations

from dataclasses import dataclass

from jobc.jobs.flight.model import OPEN, Divergence, Entry, RankDump, user_first
from jobc.jobs.flight.text import describe_group


@dataclass(frozen=True)
class _Posted:
    """A send or recv a rank posted and did not complete."""

    rank: int
    entry: Entry
    state: str
    send: bool


def p2p_state(dump: RankDump) -> list[tuple[Entry, str]]:
    """Each point-to-point entry with the state that counts: inside a batch (``batch_isend_irecv``
    records each op, then one ``nccl:coalesced`` entry of the same sequence number that alone
    carries the batch's state) the batch's, else its own."""
    marks = {(e.group, e.seq): e.state for e in dump.p2p if e.op.endswith(":coalesced")}
    return [(e, marks.get((e.group, e.seq), e.state)) for e in dump.p2p if not e.op.endswith(":coalesced")]


def _posted(dumps: dict[int, RankDump]) -> list[_Posted]:
    return [
        _Posted(rank, e, state, ":send " in e.op)
        for rank, dump in sorted(dumps.items())
        for e, state in p2p_state(dump)
        if state in OPEN and e.src is not None and e.dst is not None
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
        f"{describe_group(e.group, e.description)}, stage pair {e.src} → {e.dst})"
    )


def _p2p_call(rank: int, entry: Entry | None) -> str:
    if entry is None or not entry.frames:
        return ""
    return f"; rank {rank} called {entry.op} at {user_first(entry.frames)[0].where()}"


def p2p_hang(dumps: dict[int, RankDump], world: int | None) -> Divergence | None:
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
            f"{head}; its peer is rank {local} of {describe_group(e.group, e.description)}, whose "
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
