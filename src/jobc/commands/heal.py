"""`jobc heal start|end …`: run by a compiled script's batch shell, inside the job, at the start and
the end of each attempt of a self-healing job (`resilience.retry_on`, `resilience.preflight`).

It prints one line for the batch shell — `go -`, `requeue NODES` or `exit CODE` — and says why
in the job's log (stderr). Outside a job it refuses."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from jobc.commands import Exit


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="judge an attempt of a self-healing job (run by the compiled script, inside the job)",
        description=(
            "Run by the batch shell of a script compiled from a spec with resilience.retry_on or "
            "resilience.preflight: 'start' records the attempt (and any attempt lost with its "
            "batch host), 'end' judges how it ended. Prints 'go -', 'requeue NODES' (the "
            "ExcNodeList to set after scontrol requeue) or 'exit CODE'; the reasons go to the "
            "job's log and to <log stem>.attempts.jsonl beside it."
        ),
    )
    p.add_argument("phase", choices=("start", "end"))
    p.add_argument("--log", required=True, help="the job's log file (the batch shell's stdout)")
    p.add_argument(
        "--log-offset", type=int, default=0, help="start: where this attempt's part of the log begins"
    )
    p.add_argument("--retry-on", default="", help="resilience.retry_on, comma-separated")
    p.add_argument("--max-restarts", type=int, required=True, help="resilience.max_restarts")
    p.add_argument("--exclude-failed-nodes", action="store_true", help="resilience.exclude_failed_nodes")
    p.add_argument("--requeue", action="store_true", help="resilience.requeue")
    p.add_argument("--status", type=int, default=0, help="end: the step's exit code")
    p.add_argument("--signal", default="", help="end: the signal that reached the batch shell, if any")
    p.add_argument(
        "--preflight", action="store_true", help="end: judge the preflight's report, read from stdin"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jobc.jobs.heal import judge
    from jobc.jobs.heal.run import end, job_from_env, start

    if not os.environ.get("SLURM_JOB_ID"):
        print("jobc heal: not inside a Slurm job; the compiled script runs this", file=sys.stderr)
        return Exit.ERROR
    policy = judge.Policy(
        retry_on=frozenset(c for c in args.retry_on.split(",") if c),
        max_restarts=max(args.max_restarts, 0),
        exclude=args.exclude_failed_nodes,
        requeue=args.requeue,
    )
    job = job_from_env(os.environ, args.log)
    if args.phase == "start":
        answer = start(job, policy, max(args.log_offset, 0))
    else:
        report = sys.stdin.read(1 << 20) if args.preflight else None
        answer = end(job, policy, args.status, args.signal, report)
    print(answer, flush=True)
    return Exit.OK
