"""`jobc profile [-o FILE]`: write a cluster profile from what the live Slurm cluster says."""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from jobc.commands import Exit
from jobc.core.numbers import ascii_int


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="write a cluster profile from the live Slurm cluster",
        description=(
            "Read the cluster's partitions (time limits, nodes, per-job node limit, preemption, the "
            "default), its kinds of node (CPUs, memory, GPUs and their GRES type, features) from "
            "scontrol, and write them as a cluster profile for specs to extend. What Slurm cannot "
            "know (shared storage, the GPUs' catalogue key) is named in the header, not guessed. "
            "The date in the header comes from SOURCE_DATE_EPOCH when it is set."
        ),
    )
    p.add_argument("-o", "--output", metavar="FILE", help="write the profile here (default: stdout)")
    p.set_defaults(run=run)


def _date() -> str:
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "")
    number = ascii_int(epoch, max_digits=11)  # ASCII digits of a date's size, not "²" or 5000 digits
    seconds = number if number is not None else time.time()
    return time.strftime("%Y-%m-%d", time.gmtime(seconds))


def run(args: argparse.Namespace) -> int:
    from jobc.jobs import cluster
    from jobc.jobs.slurm import SlurmError
    from jobc.spec.profilegen import render

    try:
        facts = cluster.read(accounting=False)
    except SlurmError as exc:
        print(f"jobc profile: cannot ask the cluster: {exc}", file=sys.stderr)
        return Exit.ERROR
    if not facts.partitions:
        print("jobc profile: scontrol shows no partitions; nothing to write", file=sys.stderr)
        return Exit.ERROR
    text = render(facts, command="jobc profile", date=_date())
    if args.output is None:
        sys.stdout.write(text)
        return Exit.OK
    from jobc.core.atomic import replace

    try:
        replace(args.output, text)  # whole or not at all: a full disk leaves the old profile
    except OSError as exc:
        print(f"jobc profile: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR
    print(f"jobc profile: wrote {args.output}", file=sys.stderr)
    return Exit.OK
