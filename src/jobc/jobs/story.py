"""The story of a self-healing job, for `jobc status` and `jobc triage`: every attempt with its
nodes, how it ended, the cause, and the nodes excluded after it.

The attempts come from the job's own record beside its log (`jobc.jobs.attempts`); each is
matched with Slurm's record of the same run (`sacct --duplicates`: the n-th allocation record is
restart n) where accounting has one. An attempt the job could not close (the job was cancelled,
or ended while jobc could not run) takes its state from Slurm.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jobc.jobs import attempts, ledger, slurm
from jobc.jobs.submit import expand_log
from jobc.jobs.triage import Diagnosis

_LIVE = frozenset({"PENDING", "RUNNING", "REQUEUED", "COMPLETING", "CONFIGURING", "SUSPENDED", "RESIZING"})


def log_of(job_id: str, directory: Path, known: str | None, ask: bool) -> Path | None:
    """The job's log: what Slurm said (`known`), else the ledger's pattern, else (when `ask`)
    scontrol's StdOut."""
    if known:
        return Path(known)
    try:
        entry = ledger.find(directory, job_id)
    except ledger.LedgerError:
        entry = None
    if entry is not None and entry.log is not None:
        return Path(expand_log(entry.log, job_id))
    if not ask:
        return None
    from jobc.jobs.logs import LogError, log_path

    try:
        return log_path(job_id, directory)
    except (LogError, slurm.SlurmError):
        return None


def attempts_of(job_id: str, log: Path | None, job_state: str) -> list[dict[str, Any]]:
    """Every attempt of the job as JSON objects (oldest first); [] for a job without a record."""
    if log is None:
        return []
    found = attempts.read(attempts.path_for(log))
    if not found:
        return []
    try:
        runs = slurm.sacct(job_id)
    except slurm.SlurmError:
        runs = None
    states = [r["State"].split(" ", 1)[0] for r in runs or [] if r.get("JobID") == job_id]
    out = []
    for index, attempt in enumerate(found):
        row = attempt.as_json()
        row["slurm_state"] = states[attempt.restart] if attempt.restart < len(states) else None
        if attempt.end is None:
            last = index == len(found) - 1
            if not last:
                row["state"] = row["slurm_state"] or "UNKNOWN"
            elif job_state not in _LIVE:
                row["state"] = job_state
        out.append(row)
    return out


def render(rows: list[dict[str, Any]]) -> list[str]:
    """Text lines for `jobc status JOBID`: one per attempt, then its cause and what followed."""
    lines = []
    for row in rows:
        nodes = ",".join(row["nodes"]) or "?"
        head = f"  attempt {row['attempt']}  {row['state']}  on {nodes}"
        if row.get("decision"):
            head += f"  -> {row['decision']}"
        lines.append(head)
        if row.get("cause"):
            lines.append(f"    cause: {row['cause']}")
        if row.get("excluded"):
            lines.append(f"    excluded after it: {', '.join(row['excluded'])}")
        if row.get("reason") and row.get("decision") not in ("done", None):
            lines.append(f"    {row['reason']}")
    return lines


def triage_attempts(
    log: Path,
    job_id: str,
    *,
    state: str | None = None,
    exit_code: str | None = None,
    final: str | None = None,
) -> tuple[Diagnosis, list[dict[str, Any]]] | None:
    """Triage of every attempt of a self-healing job on its own part of the log: the last
    attempt's diagnosis (which the job's final state belongs to) and, for each attempt, what it
    recorded (nodes, how it ended, the cause, the nodes excluded after it) with its findings.
    None for a job without an attempts record."""
    from jobc.jobs.heal.segment import diagnose

    found = attempts.read(attempts.path_for(log))
    found = [a for a in found if a.log_offset is not None]
    if not found:
        return None
    out = []
    last: Diagnosis | None = None
    for index, attempt in enumerate(found):
        end = found[index + 1].log_offset if index + 1 < len(found) else None
        is_last = end is None
        d = diagnose(
            log, attempt.log_offset or 0, end, job_id=job_id, state=final or state if is_last else None
        )
        if is_last:
            d.exit_code = exit_code
            last = d
        row = attempt.as_json()
        row["findings"] = [f.as_json() for f in d.findings]
        out.append(row)
    assert last is not None
    return last, out


def render_attempts(rows: list[dict[str, Any]]) -> str:
    """Text for `jobc triage JOBID`: each attempt with its own first cause."""
    lines = [f"attempts: {len(rows)}"]
    for row in rows:
        nodes = ",".join(row["nodes"]) or "?"
        lines.append(
            f"attempt {row['attempt']} on {nodes}: {row['state']}"
            + (f" -> {row['decision']}" if row.get("decision") else "")
        )
        if row.get("cause"):
            lines.append(f"  {row['cause']}")
        causes = [f for f in row["findings"] if f["cause"]]
        for f in causes[:1]:
            lines.append(f"  first cause in its log: [{f['class']}] {f['summary']}")
            for e in f["evidence"][:2]:
                lines.append(f"    {e['file']}:{e['line']}: {e['text']}")
        if row.get("excluded"):
            lines.append(f"  excluded after it: {', '.join(row['excluded'])}")
    return "\n".join(lines) + "\n"
