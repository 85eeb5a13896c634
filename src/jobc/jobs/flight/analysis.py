"""The analysis of one set of dumps: read them, match each group's collectives and the
point-to-point operations, and say where the ranks named are."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from jobc.jobs.flight.logstacks import fatal_stacks, log_lines
from jobc.jobs.flight.match import (
    by_group,
    first_divergence,
    lost_ranks,
    members_of,
    never_joined,
    status_notes,
    stuck,
)
from jobc.jobs.flight.model import DONE, Divergence, FlightReport, Frame
from jobc.jobs.flight.p2p import p2p_hang, p2p_state
from jobc.jobs.flight.read import read_dump_files, read_dumps
from jobc.jobs.flight.render import place, place_p2p, sharpen
from jobc.jobs.flight.text import ranks_text


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
    groups = by_group(dumps)
    found: list[Divergence] = []
    missing: set[int] = set()
    members: dict[str, list[int]] = {}
    known: set[str] = set()
    for group in sorted(groups, key=lambda g: (g != "0", g)):
        ranks = groups[group]
        members[group] = members_of(group, dumps, ranks, world)
        if any(group in d.groups and set(ranks) <= set(d.groups[group]) for d in dumps.values()) or (
            group == "0" and world is not None
        ):
            known.add(group)
        missing |= {m for m in members[group] if m not in dumps}
        idle = [m for m in members[group] if m in dumps and not dumps[m].entries and not dumps[m].p2p]
        d = never_joined(group, ranks, idle) if group in known else None
        d = d or first_divergence(group, ranks)
        if d is not None:
            found.append(d)
    divergence = found[0] if found else None
    lost = sorted(missing)
    log_stacks = fatal_stacks(log_lines(logs), torchrun=torchrun) if logs else {}
    stacks: dict[int, list[Frame]] = {r: d.stack for r, d in dumps.items() if d.stack}
    for rank, frames in log_stacks.items():
        stacks.setdefault(rank, frames)
    if lost and (divergence is None or divergence.kind == "late"):
        divergence = lost_ranks(
            lost, dumps=dumps, groups=groups, members=members, stacks=stacks, directory=directory
        )
    if divergence is None:
        divergence = stuck(groups, known)
    p2p = p2p_hang(dumps, world)
    # every collective recorded completed: the ranks without a dump held up no collective, the
    # open send or recv is what waits
    settled = all(
        e.state in DONE for ranks in groups.values() for seqs in ranks.values() for e in seqs.values()
    )
    if p2p is not None and (
        divergence is None
        or divergence.kind == "stuck"
        or (divergence.kind == "lost" and (settled or (p2p.ranks and set(p2p.ranks) <= set(lost))))
    ):
        if divergence is not None and divergence.kind == "lost":
            notes.append(f"{ranks_text(lost)} wrote no dump (or their files were not given)")
        divergence = p2p
        place_p2p(divergence, dumps, stacks)
    elif divergence is not None:
        place(divergence, dumps, groups, stacks)
        sharpen(divergence, dumps, groups)
        if p2p is not None:
            notes.append(f"point-to-point: {p2p.detail}")
    versions = sorted({d.version for d in dumps.values() if d.version})
    if len(versions) > 1:
        notes.append(f"{directory}: the dumps are of different formats ({', '.join(versions)})")
    notes.extend(status_notes(dumps, groups))
    report = FlightReport(directory, restart, dumps, lost, divergence, notes)
    # a coalesced group's collectives by its marker's state (torch never updates theirs)
    recorded = (e for ranks in groups.values() for seqs in ranks.values() for e in seqs.values())
    report.completed = all(e.state == "completed" for e in recorded) and all(
        state == "completed" for d in dumps.values() for _, state in p2p_state(d)
    )
    report.unknown_members = sorted(g for g in groups if g not in known)
    return report
