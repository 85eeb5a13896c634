"""`jobc heal start` and `jobc heal end`: the batch shell's questions at the start and the end of
each attempt of a self-healing job, answered inside the allocation.

Each answer is one line on stdout for the batch shell to act on — `go -`, `requeue NODES` (the
comma-separated ExcNodeList to set after `scontrol requeue`, `-` for none) or `exit CODE` — and
what it means in words on stderr, which is the job's log. Every decision is also appended to the
attempts file beside the log (`jobc.jobs.attempts`), which `jobc status` and `jobc triage` read.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from jobc.jobs import attempts as ledger
from jobc.jobs.heal import cluster, judge
from jobc.jobs.heal.segment import diagnose
from jobc.tables import contract

#: Job states in which the batch shell's own judgement no longer counts: Slurm (a node failure)
#: or someone else (scontrol requeue, scancel) has ended this attempt already.
_TAKEN_OVER = ("PENDING", "REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED", "CANCELLED")


@dataclass(frozen=True)
class Job:
    """The attempt the batch shell runs: read from Slurm's environment."""

    job_id: str
    restart: int
    nodes: list[str]
    batch_host: str | None
    partition: str
    log: Path

    @property
    def ledger(self) -> Path:
        return ledger.path_for(self.log)


def job_from_env(env: Mapping[str, str], log: str) -> Job:
    restart = env.get("SLURM_RESTART_COUNT", "0")
    host = env.get("SLURMD_NODENAME")
    return Job(
        job_id=env.get("SLURM_JOB_ID", ""),
        restart=int(restart) if restart.isascii() and restart.isdigit() and len(restart) < 9 else 0,
        nodes=cluster.hostnames(env.get("SLURM_JOB_NODELIST", "")),
        batch_host=host if host and ledger.NODE.match(host) else None,
        partition=env.get("SLURM_JOB_PARTITION", ""),
        log=Path(log),
    )


def say(text: str) -> None:
    print(f"jobc: {text}", file=sys.stderr, flush=True)


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def _end_record(n: int, ending: judge.Ending, decision: judge.Decision, source: str) -> dict[str, Any]:
    return {
        "event": "end",
        "restart": n,
        "state": ending.state,
        "class": ending.cls,
        "cause": ending.cause,
        "node": ending.node,
        "excluded": decision.excluded,
        "decision": decision.decision,
        "reason": decision.reason,
        "source": source,
        "time": _now(),
    }


def _requeue_line(excluded: list[str]) -> str:
    return "requeue " + (",".join(excluded) if excluded else "-")


def _all_excluded(job: Job, earlier: list[ledger.Attempt], new: list[str]) -> list[str]:
    """Every node the job must keep out of: what Slurm excludes now (the user's own --exclude
    too: the update replaces the list), what earlier attempts excluded, and the new ones."""
    record = cluster.job(job.job_id)
    current = cluster.hostnames(record.get("ExcNodeList", ""))
    return list(dict.fromkeys([*current, *ledger.excluded(earlier), *new]))


# -- the start of an attempt -----------------------------------------------------------------


def start(job: Job, policy: judge.Policy, log_offset: int) -> str:
    """Record the attempt, after the attempts Slurm restarted without their own word; refuse to
    run past the budget or on a node an earlier attempt excluded."""
    past = ledger.read(job.ledger)
    runs = cluster.runs(job.job_id) if any(a.end is None for a in past) else None
    stopped = None
    for index, attempt in enumerate(past):
        if attempt.end is None and attempt.restart < job.restart:
            after = past[index + 1].log_offset if index + 1 < len(past) else log_offset
            closed = _close_lost(job, attempt, after, runs, policy)
            if not closed.requeue:
                stopped = closed.reason
    past = ledger.read(job.ledger)
    ledger.append(
        job.ledger,
        {
            "event": "start",
            "restart": job.restart,
            "job_id": job.job_id,
            "nodes": job.nodes,
            "batch_host": job.batch_host,
            "log": str(job.log),
            "log_offset": log_offset,
            "time": _now(),
        },
    )
    total = policy.max_restarts + 1
    say(f"attempt {job.restart + 1} of at most {total} on {', '.join(job.nodes) or 'unknown nodes'}")
    if stopped is not None:
        return _refuse(job, stopped)
    if job.restart > policy.max_restarts:
        return _refuse(
            job,
            f"the restart budget is spent: this is restart {job.restart}, and resilience.max_restarts "
            f"is {policy.max_restarts}",
        )
    banned = [n for n in job.nodes if n in ledger.excluded(past)]
    if banned:
        return _leave(job, past, policy, banned)
    return "go -"


def _close_lost(
    job: Job,
    attempt: ledger.Attempt,
    after: int | None,
    runs: list[tuple[str, str]] | None,
    policy: judge.Policy,
) -> judge.Decision:
    """Write the end of an attempt that could not: from accounting, its log and sinfo."""
    state = runs[attempt.restart][0] if runs is not None and attempt.restart < len(runs) else None
    d = None
    if attempt.log_offset is not None:
        try:
            d = diagnose(job.log, attempt.log_offset, after)
        except OSError:
            d = None
    ending = judge.from_accounting(state, d, attempt.nodes, cluster.down(attempt.nodes))
    decision = judge.after_lost(ending, policy, attempt.nodes)
    say(f"attempt {attempt.restart + 1} ended without its own word: {ending.cause}; {decision.reason}")
    ledger.append(job.ledger, _end_record(attempt.restart, ending, decision, "accounting"))
    return decision


def _refuse(job: Job, why: str) -> str:
    """End this attempt before the program: it must not run."""
    say(f"not starting the program: {why}")
    ending = judge.Ending("FAILED", None, f"did not start the program: {why}")
    ledger.append(job.ledger, _end_record(job.restart, ending, judge.Decision(False, 1, "stop", why), "job"))
    return "exit 1"


def _leave(job: Job, past: list[ledger.Attempt], policy: judge.Policy, banned: list[str]) -> str:
    """The allocation holds a node an earlier attempt excluded (an exclusion that did not reach
    Slurm, or a node that came back): requeue again, with the exclusion, within the budget."""
    why = f"the allocation holds {', '.join(banned)}, excluded after an earlier attempt"
    if job.restart >= policy.max_restarts:
        return _refuse(job, f"{why}, and the restart budget is spent")
    _requeueing(job, policy, f"{why}: requeued without {'it' if len(banned) == 1 else 'them'}")
    ending = judge.Ending("FAILED", None, f"did not start the program: {why}")
    decision = judge.Decision(True, 0, "retry", f"requeued without {', '.join(banned)}")
    ledger.append(job.ledger, _end_record(job.restart, ending, decision, "job"))
    return _requeue_line(_all_excluded(job, past, banned))


# -- the end of an attempt -------------------------------------------------------------------


def end(job: Job, policy: judge.Policy, status: int, signal: str, preflight: str | None) -> str:
    """Judge the attempt that just ended and say what the batch shell does next."""
    record = cluster.job(job.job_id)
    state = record.get("JobState", "").split(" ", 1)[0]
    restarts = record.get("Restarts", "0")
    if state.startswith(_TAKEN_OVER) or (restarts.isdigit() and int(restarts) > job.restart):
        say(f"Slurm has this job {state or 'requeued'} already: the next attempt records how this one ended")
        return f"exit {status or 1}"
    past = ledger.read(job.ledger)
    mine = next((a for a in past if a.restart == job.restart), None)
    if preflight is not None:
        found = judge.from_preflight(preflight, job.nodes)
        if found is None:
            say(f"preflight passed on all {len(job.nodes)} nodes")
            return "go -"
        ending = found
        status = 1
    else:
        offset = mine.log_offset if mine is not None and mine.log_offset is not None else 0
        try:
            d = diagnose(job.log, offset, None, job_id=job.job_id)
        except OSError as exc:
            say(f"cannot read the log {job.log}: {exc.strerror or exc}")
            d = None
        ending = (
            judge.from_step(status, signal, d, job.nodes)
            if d is not None
            else judge.Ending(
                "FAILED", "unknown", f"the step ended with exit code {status}; the log cannot be read"
            )
        )
        if d is None and status == 0 and not signal:
            ending = judge.Ending("COMPLETED", None, "the program finished (exit code 0)")

    def room(excluded: list[str]) -> str | None:
        return cluster.room(job.partition, len(job.nodes), _all_excluded(job, past, excluded))

    decision = judge.decide(ending, policy, job.restart, job.nodes, status=status, room=room)
    ledger.append(job.ledger, _end_record(job.restart, ending, decision, "job"))
    if ending.cls is not None:
        say(f"attempt {job.restart + 1} ended: {ending.cause}")
    if decision.requeue:
        _requeueing(job, policy, decision.reason)
        return _requeue_line(_all_excluded(job, past, decision.excluded))
    if decision.decision != "done":
        say(decision.reason)
    return f"exit {decision.exit_code}"


def _requeueing(job: Job, policy: judge.Policy, why: str) -> None:
    """The compiled script's own requeue line, which triage reads (jobc.tables.contract)."""
    line = contract.REQUEUE.printf % (job.job_id, why, job.restart + 1, policy.max_restarts)
    print(line, file=sys.stderr, flush=True)
