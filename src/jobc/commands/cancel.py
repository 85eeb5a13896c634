"""`jobc cancel JOBID [--checkpoint]`"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from jobc.commands import Exit
from jobc.commands.common import CommandError
from jobc.commands.jobs_ import add_ledger_argument, check_job_id, locate_job


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="cancel a job, or make it checkpoint and requeue",
        description=(
            "scancel the job. --checkpoint instead sends the spec's resilience.signal to the batch "
            "shell, which forwards it to every rank: the job checkpoints and requeues as if it "
            "had been preempted."
        ),
    )
    p.add_argument("job_id", metavar="JOBID")
    p.add_argument("--checkpoint", action="store_true", help="signal the job to checkpoint and requeue")
    add_ledger_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jobc.jobs import ledger
    from jobc.jobs.slurm import SlurmError, require, scancel, scontrol_job

    try:
        check_job_id("cancel", args.job_id)
        require("scancel")
        signal = None
        if args.checkpoint:
            _, entry = locate_job(args, args.job_id)
            signal = _signal_of(entry.script) if entry is not None else None
            if signal is None:
                raise CommandError(
                    f"job {args.job_id}: no signal to send: "
                    + ("it is not in the ledger" if entry is None else "its spec sets no resilience.signal")
                )
        # scancel says nothing, and exits 0, for a job id it does not know
        if scontrol_job(args.job_id) is None:
            raise SlurmError(f"job {args.job_id}: Slurm does not know it (finished long ago, or a wrong id)")
        scancel(args.job_id, signal=signal, batch=signal is not None)
    except CommandError as exc:
        print(f"jobc cancel: {exc}", file=sys.stderr)
        return Exit.ERROR
    except ledger.LedgerError as exc:
        print(f"jobc cancel: {exc}", file=sys.stderr)
        return Exit.ERROR
    except SlurmError as exc:
        print(f"jobc cancel: {exc}", file=sys.stderr)
        return Exit.ERROR
    what = f"sent SIG{signal} to the batch shell of" if signal else "cancelled"
    print(f"jobc cancel: {what} job {args.job_id}", file=sys.stderr)
    return Exit.OK


def _signal_of(script: str) -> str | None:
    """The signal the compiled script asks Slurm for (`#SBATCH --signal=B:USR1@120`)."""
    import re

    m = re.search(r"^#SBATCH --signal=B?:?([A-Z0-9]+)@", script, re.M)
    if not m:
        return None
    name = m.group(1)
    return name[3:] if name.startswith("SIG") else name
