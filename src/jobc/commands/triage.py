"""`jobc triage JOBID|LOG… [--spec SPEC] [--format text|json]`: why the job ended, first cause first.

`jobc triage --signatures [--format text|json|markdown]` lists the failure signatures it knows;
`docs/triage.md` is that list as markdown."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from jobc.commands import Exit
from jobc.commands.common import CommandError
from jobc.commands.jobs_ import add_ledger_argument, locate_job


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="say why a job failed: the first cause first, with its evidence lines",
        description=(
            "Read a job's log (and Slurm's record of it, when given a job id) and report the first "
            "cause first: the first failing rank and its node, its exception or signal, with the "
            "file:line of the evidence; collective timeouts and lost peers are shown as symptoms."
        ),
    )
    p.add_argument("targets", nargs="*", metavar="JOBID|LOG")
    p.add_argument(
        "--spec", metavar="SPEC", help="the job's spec, for rank coordinates (default: the ledger's)"
    )
    p.add_argument(
        "--signatures",
        action="store_true",
        help="list the failure signatures triage recognises (with --format markdown: docs/triage.md)",
    )
    p.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    p.add_argument(
        "--dumps",
        metavar="DIR|FILE",
        nargs="+",
        action="extend",
        help=(
            "a directory of hang dumps (jobc.runtime's, or torch's flight-recorder files), or "
            "torch's dump files themselves (<prefix><rank>, e.g. nccl_trace_rank_0) "
            "(default: <log stem>.flight beside the log)"
        ),
    )
    add_ledger_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jobc.jobs import ledger
    from jobc.jobs.logs import LogError, log_path
    from jobc.jobs.slurm import NotSlurm, SlurmError, require, valid_job_id
    from jobc.jobs.status import sacct_state, status
    from jobc.jobs.story import render_attempts, triage_attempts
    from jobc.jobs.triage import render, triage_files, with_hang_dumps
    from jobc.lint.report.safe import visible

    if args.signatures:
        from jobc.jobs.catalogue_doc import listing

        sys.stdout.write(listing(args.format))
        return Exit.OK
    if not args.targets:
        # --dumps takes every path after it: a log written after it was taken for a dump
        hint = "; --dumps takes every path after it, so put it last" if args.dumps else ""
        print(f"jobc triage: give a job id or a log file (or --signatures){hint}", file=sys.stderr)
        return Exit.ERROR
    if args.format == "markdown":
        print("jobc triage: --format markdown is for --signatures", file=sys.stderr)
        return Exit.ERROR
    reports = []
    attempts: dict[int, list[dict[str, Any]]] = {}  # by report: a self-healing job's attempts
    try:
        for target in args.targets:
            given = Path(target)
            # a FIFO, device or directory given by name is a file argument, refused as what it is
            if given.is_file() or (given.exists() and not valid_job_id(target)):
                coords, per_node = _coords(Path(args.spec) if args.spec else None)
                report = triage_files([Path(target)], coords=coords, per_node=per_node)
                reports.append(with_hang_dumps(report, _dumps(args)))
                continue
            if not valid_job_id(target):
                raise CommandError(f"{visible(target)}: neither a log file nor a job id")
            require("scontrol")  # a log file needs no Slurm; a job id does
            directory, entry = locate_job(args, target)
            path = log_path(target, directory)
            state = exit_code = final = None
            try:
                found = status(target)
                mine = [s for s in found if s.job_id == target] or found
                state, exit_code = mine[0].state, mine[0].exit_code
                final = sacct_state(target)
            except NotSlurm:
                raise
            except SlurmError as exc:
                print(f"jobc triage: {exc}; reading the log only", file=sys.stderr)
            spec = Path(args.spec) if args.spec else _unchanged_spec(entry)
            coords, per_node = _coords(spec)
            if not path.exists():
                raise LogError(f"job {target}: its log {path} does not exist (yet)")
            healed = triage_attempts(path, target, state=state, exit_code=exit_code, final=final)
            if healed is not None:
                # a self-healing job: each attempt on its own part of the log, the last one first
                report, attempts[len(reports)] = healed
            else:
                report = triage_files(
                    [path],
                    job_id=target,
                    state=state,
                    exit_code=exit_code,
                    sacct_state=final,
                    coords=coords,
                    per_node=per_node,
                )
            reports.append(with_hang_dumps(report, _dumps(args)))
    except CommandError as exc:
        print(f"jobc triage: {visible(str(exc))}", file=sys.stderr)
        return Exit.ERROR
    except (NotSlurm, SlurmError, LogError, ledger.LedgerError) as exc:
        print(f"jobc triage: {visible(str(exc))}", file=sys.stderr)
        return Exit.ERROR
    except OSError as exc:
        name = visible(str(getattr(exc, "filename", "") or ""))
        print(f"jobc triage: {name}: cannot read: {visible(str(exc.strerror or exc))}", file=sys.stderr)
        return Exit.ERROR
    if args.format == "json":
        data = [
            r.as_json() | ({"attempts": attempts[i]} if i in attempts else {}) for i, r in enumerate(reports)
        ]
        # ASCII JSON: control characters, and the lone surrogates of a file name that is not
        # UTF-8, become \u escapes that any terminal and any encoding carry.
        sys.stdout.write(json.dumps(data[0] if len(data) == 1 else data, indent=2, ensure_ascii=True) + "\n")
    else:
        # log lines and file names may hold ESC, BEL or undecodable bytes: escaped, as lint does
        text = "\n".join(
            render(r) + ("\n" + render_attempts(attempts[i]) if i in attempts else "")
            for i, r in enumerate(reports)
        )
        sys.stdout.write("\n".join(visible(line) for line in text.split("\n")))
    return Exit.OK


def _dumps(args: argparse.Namespace) -> Path | list[Path] | None:
    """One directory, or dump files (one or several)."""
    if not args.dumps:
        return None
    paths = [Path(p) for p in args.dumps]
    for path in paths:
        if not path.is_dir() and not path.is_file():
            raise CommandError(f"--dumps {path}: neither a directory nor a dump file")
    dirs = [p for p in paths if p.is_dir()]
    if dirs and len(paths) > 1:
        raise CommandError(f"--dumps {dirs[0]}: give one directory, or dump files, not both or several")
    return dirs[0] if dirs else paths


def _unchanged_spec(entry: Any) -> Path | None:
    """The ledger's spec, when the file is still the one that was submitted."""
    if entry is None:
        return None
    path = Path(entry.spec)
    try:
        if hashlib.sha256(path.read_bytes()).hexdigest() == entry.spec_sha256:
            return path
    except OSError:
        return None
    print(f"jobc triage: {path} changed since the job was submitted; no rank coordinates", file=sys.stderr)
    return None


def _coords(spec: Path | None) -> tuple[dict[int, dict[str, int]] | None, int | None]:
    """Every rank's tp/pp/dp/ep coordinates from the spec, and its ranks per node."""
    if spec is None:
        return None, None
    from jobc.lint.pipeline import lint_file
    from jobc.memory import context as mem
    from jobc.memory.ranks import coordinate_table

    try:
        result = lint_file(spec, display=str(spec))
    except OSError as exc:
        raise CommandError(f"--spec {spec}: cannot read: {exc.strerror or exc}") from None
    ctx = result.context
    if ctx is None:
        return None, None
    sizes = mem.sizes(ctx)
    table = None if sizes is None else coordinate_table(sizes, ctx.gpus_per_node)
    return table, ctx.gpus_per_node or None
