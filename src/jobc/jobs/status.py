"""A job's state from Slurm: sacct when accounting is configured, else `scontrol show job`
(which knows a finished job for MinJobAge seconds), with squeue's view of queued jobs."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from jobc.core.numbers import ascii_int
from jobc.jobs import slurm


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


def _from_sacct(rows: list[dict[str, str]]) -> list[Status]:
    """The last record of each job id (a requeued job has one per run; their count less one is
    its restarts)."""
    by_id: dict[str, list[dict[str, str]]] = {}
    for row in rows:
        by_id.setdefault(row["JobID"], []).append(row)
    out = []
    for job_id, runs in by_id.items():
        last = runs[-1]
        out.append(
            Status(
                job_id=job_id,
                state=last["State"].split(" ", 1)[0],
                reason=None,
                restarts=len(runs) - 1,
                elapsed=_none(last["Elapsed"]),
                nodes=_none(last["NNodes"]),
                node_list=_none(last["NodeList"]),
                exit_code=_none(last["ExitCode"]),
                name=_none(last["JobName"]),
                source="sacct",
            )
        )
    return out


def status(job_id: str) -> list[Status]:
    """Every record Slurm has of the job (one, or one per array task).

    scontrol first: it has the pending reason and the restart count, which sacct lacks. sacct
    answers for jobs scontrol has forgotten. Raises SlurmError for a job neither knows.
    """
    records = slurm.scontrol_job(job_id)
    if records is not None:
        found = [_from_scontrol(r) for r in records]
        if "_" in job_id:
            found = [s for s in found if s.job_id == job_id] or found
        queued = slurm.squeue_states([s.job_id for s in found if s.state in ("PENDING", "RUNNING")])
        return [
            _with_queue(s, queued[s.job_id]) if s.job_id in queued else s  # squeue is the live view
            for s in found
        ]
    rows = slurm.sacct(job_id)
    if rows:
        return _from_sacct(rows)
    if rows is None:
        raise slurm.SlurmError(
            f"job {job_id}: Slurm does not know it (scontrol has no record of it, and there is no "
            "accounting (sacct) on this cluster to ask about finished jobs)"
        )
    raise slurm.SlurmError(f"job {job_id}: Slurm does not know it (neither scontrol nor sacct has a record)")


def _with_queue(s: Status, queue: tuple[str, str]) -> Status:
    state, reason = queue
    values = s.as_json()
    values["state"] = state or s.state
    values["reason"] = _none(reason) or s.reason
    return Status(**values)


def sacct_state(job_id: str) -> str | None:
    """The final state sacct recorded (OUT_OF_MEMORY, NODE_FAIL, …), None without accounting."""
    rows = slurm.sacct(job_id)
    if not rows:
        return None
    return rows[-1]["State"].split(" ", 1)[0]
