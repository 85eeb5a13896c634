"""`jobc init [PATH] [--shape SHAPE] [--force]`: write a commented starter spec.

Each shape is a spec that lints clean and compiles as it is, with the lines a user must make
their own marked EDIT: one node under torchrun, several nodes under torchrun, several under
srun (one task per GPU), and a job that survives preemption and the time limit.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from jobc.commands import Exit

#: Shape → (packaged file, what it is).
SHAPES: dict[str, tuple[str, str]] = {
    "single-node": ("single-node.yaml", "one node, torchrun, one worker per GPU"),
    "multi-node": ("multi-node-torchrun.yaml", "several nodes, torchrun once per node"),
    "srun": ("multi-node-srun.yaml", "several nodes, srun starts one task per GPU"),
    "preemption": ("preemption.yaml", "checkpoints on Slurm's warning signal and requeues itself"),
}


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="write a commented starter spec",
        description=(
            "Write a starter job spec with comments: a file that lints clean and compiles as it is, "
            "whose lines marked EDIT are yours to make. Shapes: "
            + "; ".join(f"{shape}: {what}" for shape, (_, what) in SHAPES.items())
            + "."
        ),
    )
    p.add_argument(
        "path", nargs="?", default="job.yaml", metavar="PATH", help="where to write it (- for stdout)"
    )
    p.add_argument(
        "--shape", choices=tuple(SHAPES), default="single-node", help="which starter (default: single-node)"
    )
    p.add_argument("--force", action="store_true", help="replace PATH if it exists")
    p.set_defaults(run=run)


def starter(shape: str) -> str:
    from jobc.data import read_text

    return read_text(f"starters/{SHAPES[shape][0]}")


def run(args: argparse.Namespace) -> int:
    text = starter(args.shape)
    if args.path == "-":
        sys.stdout.write(text)
        return Exit.OK
    # O_NONBLOCK: a FIFO in the way is refused below, never waited on
    flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | (os.O_TRUNC if args.force else os.O_EXCL)
    try:
        if args.force and os.path.exists(args.path) and not os.path.isfile(args.path):
            print(
                f"jobc init: {args.path} exists and is not a regular file; not replacing it", file=sys.stderr
            )
            return Exit.ERROR
        fd = os.open(args.path, flags, 0o644)
    except FileExistsError:
        print(
            f"jobc init: {args.path} exists; choose another name, or --force to replace it", file=sys.stderr
        )
        return Exit.ERROR
    except OSError as exc:
        print(f"jobc init: {args.path}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        out.write(text)
    print(
        f"jobc init: wrote {args.path} ({args.shape}: {SHAPES[args.shape][1]}); edit the lines marked "
        f"EDIT, then: jobc lint {args.path} && jobc plan {args.path}",
        file=sys.stderr,
    )
    return Exit.OK
