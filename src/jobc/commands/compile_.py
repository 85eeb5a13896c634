"""`jobc compile SPEC [-o FILE] [--set KEY=VALUE]… [--attach JOBID]`"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

from jobc.commands import Exit
from jobc.commands.common import CommandError, add_spec_arguments, lint_spec, print_findings
from jobc.core.diagnostics import Severity

_JOB_ID = re.compile(r"[0-9]+")


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="compile a spec to an sbatch script",
        description=(
            "Print the sbatch script for a spec. Refuses (exit 1) when lint finds errors; "
            "warnings are printed to stderr and do not block."
        ),
    )
    add_spec_arguments(p, "resources.nodes=8")
    p.add_argument("-o", "--output", metavar="FILE", help="write the script here (a new file is executable)")
    p.add_argument(
        "--attach",
        metavar="JOBID",
        help="a bash script that runs the launch inside the running allocation JOBID (salloc)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jobc.compile import CompileError, compile_attach, compile_batch

    try:
        if args.attach is not None and not _JOB_ID.fullmatch(args.attach):
            raise CommandError(f"--attach {args.attach!r}: a job id is a number")
        result = lint_spec(args)
    except CommandError as exc:
        print(f"jobc compile: {exc}", file=sys.stderr)
        return Exit.ERROR
    sources = {src.file: src.lines for src in result.sources} if sys.stderr.isatty() else {}
    if result.findings:
        print_findings(result.findings, sources, "text", stream="stderr")
    if any(f.severity >= Severity.ERROR for f in result.findings) or result.context is None:
        print(f"jobc compile: {result.file}: not compiled: lint found errors", file=sys.stderr)
        return Exit.FINDINGS
    try:
        if args.attach is not None:
            text = compile_attach(result.context, args.attach)
        else:
            text = compile_batch(result.context)
    except CompileError as exc:
        print(f"jobc compile: {result.file}: {exc}", file=sys.stderr)
        return Exit.FINDINGS
    if args.output is None:
        sys.stdout.write(text)
        return Exit.OK
    try:
        _write(Path(args.output), text)
    except OSError as exc:
        print(f"jobc compile: {args.output}: cannot write: {exc.strerror or exc}", file=sys.stderr)
        return Exit.ERROR
    return Exit.OK


def _write(path: Path, text: str) -> None:
    """Replace the file whole, so a reader never sees half a script (a new one is executable)."""
    from jobc.core.atomic import replace

    replace(path, text, mode=0o755)
