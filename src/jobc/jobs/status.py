"""A job's state from Slurm: sacct when accounting is configured, else `scontrol show job`
(which knows a finished job for MinJobAge seconds), with squeue's view of queued jobs.

`statuses` asks about any number of jobs with one squeue and one sacct per chunk of a few
thousand jobs (the kernel takes no longer argument), or, without accounting, one `scontrol show
job`: a ledger of a thousand jobs costs what a ledger of one does. Each record is matched to the
job asked about by its id, never by a search through every job asked.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

from jobc.core.numbers import ascii_int
from jobc.jobs import slurm


@dataclass(frozen=True)
class Step:
    """One step of a job's run, as sacct records it: `123.batch`, `123.extern`, `123.0` …"""

    step_id: str
    name: str | None
    state: str
    exit_code: str | None
    elapsed: str | None
    node_list: str | None


@dataclass(frozen=True)
class Status:
    job_id: str
    state: str
    reason: str | None = None
    restarts: int | None = None
    elapsed: str | None = None
    nodes: str | None = None
    node_list: str | None = None
    exit_code: str | None = None
    name: str | None = None
    source: str = "scontrol"
    log: str | None = None
    steps: tuple[Step, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _none(value: str | None) -> str | None:
    if value is None or value in ("", "(null)", "None", "Unknown", "N/A"):
        return None
    return value


def _from_scontrol(record: dict[str, str]) -> Status:
    job_id = record.get("JobId", "?")
    if record.get("ArrayTaskId") and record.get("ArrayJobId"):
        job_id = f"{record['ArrayJobId']}_{record['ArrayTaskId']}"
    restarts = record.get("Restarts", "")
    return Status(
        job_id=job_id,
        state=record.get("JobState", "UNKNOWN"),
        reason=_none(record.get("Reason")),
        restarts=ascii_int(restarts),
        elapsed=_none(record.get("RunTime")),
        nodes=_none(record.get("NumNodes")),
        node_list=_none(record.get("NodeList")),
        exit_code=_none(record.get("ExitCode")),
        name=_none(record.get("JobName")),
        source="scontrol",
        log=_none(record.get("StdOut")),
    )


def _job_part(job_id: str) -> str:
    return job_id.split(".", 1)[0]


def _owner(job_id: str, asked: set[str]) -> str | None:
    """The asked job a record's job id (`123`, `123_4`, `123_[5-9]`, `123_4.batch`) is about:
    that job, or the array it is a task of; None for another job."""
    job = _job_part(job_id)
    if job in asked:
        return job
    array = job.split("_", 1)[0]
    return array if array in asked else None


def _runs_from_sacct(rows: list[dict[str, str]]) -> list[Status]:
    """One Status per job id, from its last run, with that run's steps and the number of
    earlier runs (a requeued job has one allocation record per run) as its restarts."""
    runs: dict[str, list[tuple[dict[str, str], list[Step]]]] = {}
    for row in rows:
        job_id = row["JobID"]
        if "." not in job_id:
            runs.setdefault(job_id, []).append((row, []))
            continue
        mine = runs.get(_job_part(job_id))
        if mine:  # a step: it belongs to the run listed just before it
            mine[-1][1].append(
                Step(
                    step_id=job_id,
                    name=_none(row["JobName"]),
                    state=row["State"].split(" ", 1)[0],
                    exit_code=_none(row["ExitCode"]),
                    elapsed=_none(row["Elapsed"]),
                    node_list=_none(row["NodeList"]),
                )
            )
    out = []
    for job_id, job_runs in runs.items():
        last, steps = job_runs[-1]
        out.append(
            Status(
                job_id=job_id,
                state=last["State"].split(" ", 1)[0],
                reason=None,
                restarts=len(job_runs) - 1,
                elapsed=_none(last["Elapsed"]),
                nodes=_none(last["NNodes"]),
                node_list=_none(last["NodeList"]),
                exit_code=_none(last["ExitCode"]),
                name=_none(last["JobName"]),
                source="sacct",
                steps=tuple(steps),
            )
        )
    return out


def statuses(job_ids: Sequence[str]) -> tuple[list[Status], list[str]]:
    """The records of many jobs (one each, or one per array task), in the order asked, and a
    message for each job Slurm does not know.

    One squeue (the live state and the pending reason) and one sacct per chunk of job ids;
    `scontrol show job` (one call, every job the controller holds) only for jobs accounting has
    no record of, such as all of them on a cluster without accounting.
    """
    asked = list(dict.fromkeys(job_ids))
    if not asked:
        return [], []
    wanted = set(asked)
    queued = slurm.squeue_states(asked)
    rows = slurm.sacct_jobs(asked)
    found: dict[str, list[Status]] = {}
    for st in _runs_from_sacct(rows or []):
        owner = _owner(st.job_id, wanted)
        if owner is not None:
            found.setdefault(owner, []).append(st)
    missing = wanted - set(found)
    # slurmdbd hears of a job's end a moment after the controller: sacct may still say RUNNING
    # of a job squeue no longer lists; the controller's record is the truth then
    stale = {
        st.job_id for job in found for st in found[job] if st.state in _ACTIVE and st.job_id not in queued
    }
    if missing or stale:
        _ask_the_controller(found, missing, stale)
    _name_lost_nodes(found)
    out: list[Status] = []
    problems = []
    for job in asked:
        mine = found.get(job)
        if not mine:
            problems.append(
                f"job {job}: Slurm does not know it (scontrol has no record of it, and there is no "
                "accounting (sacct) on this cluster to ask about finished jobs)"
                if rows is None
                else f"job {job}: Slurm does not know it (neither scontrol nor sacct has a record)"
            )
            continue
        out.extend(_tidy(_with_queue(s, queued[s.job_id]) if s.job_id in queued else s) for s in mine)
    return out, problems


def _tidy(st: Status) -> Status:
    """What Slurm says, as a user reads it: `NumNodes=2-2` (scontrol's minimum and maximum) is
    2 nodes; a reason is kept while the job is queued or running, and for a lost node, but not
    for a job that has ended, whose reason is the one it had while it waited (a cancelled job
    still said `Dependency`) or repeats its state (`NonZeroExitCode`, `TimeLimit`)."""
    nodes = st.nodes
    if nodes is not None and "-" in nodes:
        low, _, high = nodes.partition("-")
        if low == high:
            nodes = low
    reason = st.reason
    if st.state not in _ACTIVE and st.state != "NODE_FAIL":
        reason = None
    return replace(st, nodes=nodes, reason=reason)


def _ask_the_controller(found: dict[str, list[Status]], missing: set[str], stale: set[str]) -> None:
    """Fill in, from `scontrol show job` (every job the controller holds, one call), the jobs
    accounting has no record of, and the state of those it has not heard the end of."""
    current = {}
    for record in slurm.scontrol_jobs():
        st = _from_scontrol(record)
        if st.job_id in stale:
            current[st.job_id] = st
        owner = _owner(st.job_id, missing)
        if owner is None and record.get("JobId") in missing:
            owner = record["JobId"]  # an array's first task, listed under the array's own id
        if owner is not None:
            found.setdefault(owner, []).append(st)
    for job, known in found.items():
        found[job] = [_settled(st, current.get(st.job_id)) if st.job_id in stale else st for st in known]


def status(job_id: str) -> list[Status]:
    """Every record Slurm has of one job (one, or one per array task); raises JobUnknown (a
    SlurmError) for a job Slurm does not know, and SlurmError when a command did not answer."""
    found, problems = statuses([job_id])
    if problems:
        raise slurm.JobUnknown(problems[0])
    return found


_ACTIVE = frozenset({"PENDING", "RUNNING", "REQUEUED", "RESIZING", "SUSPENDED", "COMPLETING", "CONFIGURING"})


def _name_lost_nodes(found: dict[str, list[Status]]) -> None:
    """A NODE_FAIL job's reason: which of its nodes Slurm has down or not responding now
    (accounting does not record which node the job lost). One sinfo per node list of such
    jobs: they are few, whatever the size of the ledger."""
    lists = {st.node_list for sts in found.values() for st in sts if st.state == "NODE_FAIL" and st.node_list}
    down = {node_list: slurm.unavailable_nodes([node_list]) for node_list in sorted(lists)}
    for job, sts in found.items():
        found[job] = [
            replace(st, reason=_lost(down[st.node_list]) or st.reason)
            if st.state == "NODE_FAIL" and st.node_list
            else st
            for st in sts
        ]


def _lost(down: dict[str, tuple[str, str]]) -> str | None:
    if not down:
        return None
    nodes = [f"{name} {state} ({reason})" for name, (state, reason) in sorted(down.items())]
    return "down now: " + ", ".join(nodes)


def _settled(st: Status, now: Status | None) -> Status:
    """An accounting record the controller has moved on from: its state, exit code and time."""
    if now is None:
        return st
    return replace(st, state=now.state, exit_code=now.exit_code, elapsed=now.elapsed)


def _with_queue(s: Status, queue: tuple[str, str]) -> Status:
    state, reason = queue
    return replace(s, state=state or s.state, reason=_none(reason) or s.reason)


def sacct_state(job_id: str) -> str | None:
    """The final state sacct recorded (OUT_OF_MEMORY, NODE_FAIL, …), None without accounting."""
    rows = slurm.sacct(job_id)
    if not rows:
        return None
    return rows[-1]["State"].split(" ", 1)[0]
