"""`jobc logs JOBID [-f] [--rank N]`"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from jobc.commands import Exit
from jobc.commands.common import CommandError
from jobc.commands.jobs_ import add_ledger_argument, check_job_id, locate_job


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="print a job's output, or one rank's lines of it",
        description=(
            "Print the job's output file; -f follows it while the job runs; --rank keeps one rank's lines."
        ),
    )
    p.add_argument("job_id", metavar="JOBID")
    p.add_argument("-f", "--follow", action="store_true", help="keep printing new lines until the job ends")
    p.add_argument("--rank", type=int, metavar="N", help="only the lines rank N wrote")
    add_ledger_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jobc.jobs import ledger
    from jobc.jobs.logs import LogError, follow, keep, lines, log_path, running
    from jobc.jobs.slurm import NotSlurm, SlurmError, require

    out = sys.stdout.buffer
    try:
        check_job_id("logs", args.job_id)
        require("scontrol")
        directory, _ = locate_job(args, args.job_id)
        path = log_path(args.job_id, directory)
        torchrun, per_node = _layout(args.job_id, directory)

        def write(raw: bytes) -> None:
            out.write(raw)
            out.flush()

        if args.follow:
            from jobc.jobs.status import status

            active = running(args.job_id, status)
            follow(path, write, active, rank=args.rank, torchrun=torchrun, per_node=per_node)
            return Exit.OK
        from jobc.core.files import open_regular  # a FIFO as the job's output is not waited on

        try:
            stream = open_regular(path)
        except OSError as exc:
            raise LogError(f"{path}: cannot read: {exc.strerror or exc}") from None
        world = _world(args.job_id, directory)
        if args.rank is not None and world is not None and not 0 <= args.rank < world:
            raise CommandError(f"--rank {args.rank}: job {args.job_id} has {world} ranks (0-{world - 1})")
        kept = 0
        with stream:
            for raw in lines(stream):
                if keep(raw, args.rank, torchrun, per_node):
                    out.write(raw)
                    kept += 1
        out.flush()
        if args.rank is not None and not kept:
            # a filter that keeps nothing says so: an empty output reads as an empty log
            print(f"jobc logs: no line of {path} is labelled as rank {args.rank}'s", file=sys.stderr)
            return Exit.FINDINGS
    except CommandError as exc:
        print(f"jobc logs: {exc}", file=sys.stderr)
        return Exit.ERROR
    except (NotSlurm, SlurmError, LogError, ledger.LedgerError) as exc:
        print(f"jobc logs: {exc}", file=sys.stderr)
        return Exit.ERROR
    return Exit.OK


def _layout(job_id: str, directory: Path) -> tuple[bool, int | None]:
    """Whether the job launched with torchrun, and its ranks per node, from the recorded script."""
    from jobc.jobs import ledger

    entry = ledger.find(directory, job_id)
    if entry is None:
        return False, None
    return script_layout(entry.script)


def _world(job_id: str, directory: Path) -> int | None:
    """The job's world size from its recorded script (JOBC_WORLD_SIZE), when the ledger has it."""
    import re

    from jobc.core.numbers import ascii_int
    from jobc.jobs import ledger

    entry = ledger.find(directory, job_id)
    m = re.search(r"^export JOBC_WORLD_SIZE='([0-9]+)'$", entry.script, re.M) if entry else None
    return ascii_int(m.group(1)) if m else None


def script_layout(script: str) -> tuple[bool, int | None]:
    import re

    from jobc.core.numbers import ascii_int

    # ASCII digits only, of a count's size: the ledger's script is a file a hand may have edited
    m = re.search(r"--nproc-per-node=([0-9]+)", script)
    if m:
        return True, ascii_int(m.group(1))
    m = re.search(r"^#SBATCH --ntasks-per-node=([0-9]+)", script, re.M)
    return False, ascii_int(m.group(1)) if m else None
