"""What a running job asks Slurm about itself: its record, its earlier runs, its partition.

Run inside the allocation by the batch shell's `jobc heal` (Slurm's client commands are there:
the script requeues itself with scontrol). Every answer that cannot be had is None or empty,
never a guess: the judge then blames no node.
"""

from __future__ import annotations

from collections.abc import Iterable

from jobc.jobs import slurm
from jobc.jobs.attempts import NODE


def hostnames(node_list: str) -> list[str]:
    """The node names of a Slurm hostlist (`hx[0-1],gpu7`), by scontrol; [] when it cannot."""
    if not node_list or node_list in ("(null)", "None assigned"):
        return []
    try:
        done = slurm.run(["scontrol", "show", "hostnames", node_list], check=False)
    except slurm.SlurmError:
        return []
    if done.returncode != 0:
        return []
    return [line.strip() for line in done.stdout.splitlines() if NODE.match(line.strip())]


def job(job_id: str) -> dict[str, str]:
    """The job's `scontrol show job` record; {} when Slurm does not answer."""
    try:
        records = slurm.scontrol_job(job_id)
    except slurm.SlurmError:
        return {}
    if not records:
        return {}
    return next((r for r in records if r.get("JobId") == job_id), records[0])


def runs(job_id: str) -> list[tuple[str, str]] | None:
    """(state, node list) of every run of the job, oldest first (`sacct --duplicates`); None
    without accounting."""
    try:
        rows = slurm.sacct(job_id)
    except slurm.SlurmError:
        return None
    if rows is None:
        return None
    return [(r["State"].split(" ", 1)[0], r["NodeList"]) for r in rows if r.get("JobID") == job_id]


def down(nodes: Iterable[str]) -> list[str]:
    """Of these nodes, those Slurm has down, drained, failing or not responding now."""
    names = [n for n in nodes if NODE.match(n)]
    if not names:
        return []
    try:
        found = slurm.unavailable_nodes([",".join(names)])
    except slurm.SlurmError:
        return []
    return [n for n in names if n in found]


def partition_nodes(partition: str) -> dict[str, str] | None:
    """Every node of the partition with its state (sinfo's %T); None when sinfo cannot say."""
    if not partition:
        return None
    try:
        done = slurm.run(["sinfo", "-h", "-N", "-p", partition, "-o", "%N|%T"], check=False)
    except slurm.SlurmError:
        return None
    if done.returncode != 0:
        return None
    found: dict[str, str] = {}
    for line in done.stdout.splitlines():
        name, sep, state = line.strip().partition("|")
        if sep and NODE.match(name):
            found[name] = state
    return found or None


def room(partition: str, needed: int, excluded: list[str]) -> str | None:
    """Why the partition could not hold the job without `excluded`, or None when it could (or
    when sinfo cannot say: then the job tries, rather than stop on a guess)."""
    nodes = partition_nodes(partition)
    if nodes is None:
        return None
    usable = [n for n, state in nodes.items() if n not in excluded and not slurm.unavailable(state)]
    if len(usable) >= needed:
        return None
    return (
        f"without {', '.join(excluded)} partition {partition} has {len(usable)} usable node"
        f"{'' if len(usable) == 1 else 's'}, fewer than the job's {needed}: the retry would never start"
    )
