"""`jobc status [JOBID…] [--format text|json]`: state, pending reason, restarts, elapsed, nodes,
exit code of the given jobs, or of every job in the ledger."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from jobc.commands import Exit
from jobc.commands.common import CommandError
from jobc.commands.jobs_ import add_ledger_argument, check_job_id, ledger_dir
from jobc.core.text import visible


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="show the state of submitted jobs",
        description=(
            "State, pending reason, restarts, elapsed time, nodes and exit code of the jobs, from "
            "squeue and sacct (when the cluster keeps accounting; else scontrol), one call each "
            "per 1,700-odd jobs. Jobs named by JOBID show their steps too. Without JOBID: every "
            "job in the ledger."
        ),
    )
    p.add_argument("job_ids", nargs="*", metavar="JOBID")
    p.add_argument("--format", choices=("text", "json"), default="text")
    add_ledger_argument(p)
    p.set_defaults(run=run)


_COLUMNS = ("job_id", "name", "state", "reason", "restarts", "elapsed", "nodes", "node_list", "exit_code")


# `jobc status` with no ledger here shows this many of the user's most recent jobs.
RECENT = 20


def _user_jobs(directory: Path) -> tuple[list[str], int]:
    """The user's most recent jobs, from any directory, when the project's ledger here has none;
    says where they come from."""
    from jobc.jobs import userledger

    shown, bad, total = userledger.recent(RECENT)
    for item in bad:
        print(f"jobc status: {item}", file=sys.stderr)
    if shown:
        which = f"the {len(shown)} most recent of {total}" if total > len(shown) else f"all {total}"
        print(
            f"jobc status: no jobs in the ledger {directory}; {which} of your jobs from the user "
            f"ledger {userledger.root()} (jobc status JOBID finds any of them)",
            file=sys.stderr,
        )
    return [e.job_id for e in shown], len(bad)


def run(args: argparse.Namespace) -> int:
    from jobc.jobs import ledger
    from jobc.jobs.slurm import NotSlurm, SlurmError, require
    from jobc.jobs.status import statuses

    try:
        for job_id in args.job_ids:
            check_job_id("status", job_id)
        require("scontrol")
        ids = list(args.job_ids)
        problems = 0
        if not ids:
            directory = ledger_dir(args)
            for item in ledger.entries(directory):
                if isinstance(item, ledger.LedgerError):
                    print(f"jobc status: {item}", file=sys.stderr)
                    problems += 1
                else:
                    ids.append(item.job_id)
            if not ids and not problems and not args.ledger:
                ids, problems = _user_jobs(directory)
            if not ids and not problems:
                where = f"the ledger {directory}"
                if not args.ledger:
                    from jobc.jobs import userledger

                    where += f" nor in the user ledger {userledger.root()}"
                print(f"jobc status: no jobs in {where}", file=sys.stderr)
                return Exit.OK
    except CommandError as exc:
        print(f"jobc status: {exc}", file=sys.stderr)
        return Exit.ERROR
    except NotSlurm as exc:
        print(f"jobc status: {exc}", file=sys.stderr)
        return Exit.ERROR
    try:
        found, unknown = statuses(ids)
    except SlurmError as exc:
        print(f"jobc status: {exc}", file=sys.stderr)
        return Exit.ERROR
    for message in unknown:
        print(f"jobc status: {message}", file=sys.stderr)
    problems += len(unknown)
    rows: list[dict[str, Any]] = [s.as_json() for s in found]
    _add_attempts(rows, args)
    if args.format == "json":
        sys.stdout.write(json.dumps(rows, indent=2) + "\n")
    elif rows:
        # the jobs asked for by id show their steps too; the ledger's overview is one line a job
        table = [
            [_cell(r.get(c)) for c in _COLUMNS]
            for row in rows
            for r in [row, *([_step_row(step) for step in row["steps"]] if args.job_ids else [])]
        ]
        header = ["JOBID", "NAME", "STATE", "REASON", "RESTARTS", "ELAPSED", "NODES", "NODELIST", "EXIT"]
        widths = [max(len(h), *(len(row[i]) for row in table)) for i, h in enumerate(header)]
        for row in [header, *table]:
            print("  ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)).rstrip())
        _print_attempts(rows, args)
    return Exit.ERROR if problems else Exit.OK


def _step_row(step: dict[str, Any]) -> dict[str, Any]:
    return {
        "job_id": f"  {step['step_id']}",
        "name": step["name"],
        "state": step["state"],
        "elapsed": step["elapsed"],
        "node_list": step["node_list"],
        "exit_code": step["exit_code"],
    }


def _cell(value: Any) -> str:
    # a job name, a reason or a node list is Slurm's text: it may hold ESC or BEL
    return "-" if value is None else visible(str(value))


def _add_attempts(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Each job's attempts (a self-healing job's record beside its log): `attempts`, oldest
    first, [] for a job without one. The job's own `state` stays its final one."""
    from jobc.jobs.story import attempts_of, log_of

    try:
        directory = ledger_dir(args)
    except CommandError:
        directory = None
    for row in rows:
        log = None
        if directory is not None:
            log = log_of(row["job_id"], directory, row.get("log"), ask=bool(args.job_ids))
        row["attempts"] = attempts_of(row["job_id"], log, row["state"])


def _print_attempts(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    """Under the table, for the jobs asked by id: the story of each that has attempts."""
    from jobc.jobs.story import render
    from jobc.lint.report.safe import visible  # causes quote log lines: escape what a terminal acts on

    if not args.job_ids:
        return
    for row in rows:
        if row["attempts"]:
            print(f"\njob {row['job_id']}: {len(row['attempts'])} attempts, now {row['state']}")
            for line in render(row["attempts"]):
                print(visible(line))
