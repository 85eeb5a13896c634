"""`jobc submit SPEC [--set KEY=VALUE]… [--after JOBID] [--then SPEC]… [--dry-run]`"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from jobc.commands import Exit
from jobc.commands.common import (
    CommandError,
    add_spec_arguments,
    config,
    lint_one,
    not_a_file,
    overrides,
    print_findings,
)
from jobc.commands.jobs_ import add_ledger_argument, check_job_id, ledger_dir
from jobc.core.diagnostics import Severity


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="lint, compile and sbatch a spec, and record the job in the ledger",
        description=(
            "Lint the spec (refusing on errors, as compile does), compile it, create its log "
            "directory, submit it with sbatch and record the job (id, spec, its sha256, the exact "
            "script, time, partition, git commit) in the ledger. --then submits more specs, each "
            "starting after the one before it succeeded (afterok)."
        ),
    )
    add_spec_arguments(p, "resources.nodes=8")
    p.add_argument("--after", metavar="JOBID", action="append", help="start after JOBID succeeded (afterok)")
    p.add_argument("--then", metavar="SPEC", action="append", help="a spec to run after this one succeeded")
    p.add_argument(
        "--dry-run", action="store_true", help="lint, compile and print the script; submit nothing"
    )
    add_ledger_argument(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from jobc.jobs.slurm import NotSlurm, SlurmError, require
    from jobc.jobs.submit import SubmitError

    try:
        if not args.dry_run:
            require("sbatch")  # before the lint: without Slurm there is nothing to submit to
        for job_id in args.after or []:
            check_job_id("submit", job_id)
        specs = [Path(args.spec), *(Path(p) for p in args.then or [])]
        for path in specs:
            if not path.is_file():
                raise CommandError(f"{path}: {not_a_file(path)}")
        conf = config(args.config, None, None)
        overs = overrides(args.overrides)
        compiled = [_compile(path, conf, overs if i == 0 else []) for i, path in enumerate(specs)]
    except CommandError as exc:
        print(f"jobc submit: {exc}", file=sys.stderr)
        return Exit.ERROR
    except NotSlurm as exc:
        print(f"jobc submit: {exc}", file=sys.stderr)
        return Exit.ERROR
    except _Refused:
        return Exit.FINDINGS
    if args.dry_run:
        for path, (_, script, _) in zip(specs, compiled, strict=True):
            print(f"jobc submit: --dry-run: would submit {path} with sbatch --parsable", file=sys.stderr)
            sys.stdout.write(script)
        return Exit.OK
    from jobc.jobs.submit import submit

    after = list(args.after or [])
    submitted = []
    try:
        for path, (ctx, script, logs) in zip(specs, compiled, strict=True):
            directory = ledger_dir(args, path)
            entry = submit(ctx, path, script, logs, directory, after=after, sweep=_sweep(ctx))
            submitted.append(entry)
            after = [entry.job_id]
    except CommandError as exc:
        print(f"jobc submit: {exc}", file=sys.stderr)
        return Exit.ERROR
    except NotSlurm as exc:
        print(f"jobc submit: {exc}", file=sys.stderr)
        return Exit.ERROR
    except (SlurmError, SubmitError) as exc:
        done = (
            f" (submitted before the failure: {', '.join(e.job_id for e in submitted)})" if submitted else ""
        )
        print(f"jobc submit: {exc}{done}", file=sys.stderr)
        return Exit.ERROR
    for entry in submitted:
        print(entry.job_id)
    last = submitted[-1].job_id
    chain = " → ".join(e.job_id for e in submitted)
    print(
        f"jobc submit: {chain} submitted; recorded in {ledger_dir(args, specs[-1])}\n"
        f"  jobc status {last}\n  jobc logs {last} -f\n  jobc triage {last}",
        file=sys.stderr,
    )
    return Exit.OK


class _Refused(Exception):
    pass


def _compile(path: Path, conf: Any, overs: Any) -> tuple[Any, str, str | None]:
    from jobc.compile import CompileError, compile_batch
    from jobc.compile.plan import make_plan

    result = lint_one(path, conf, overs)
    sources = {src.file: src.lines for src in result.sources} if sys.stderr.isatty() else {}
    if result.findings:
        print_findings(result.findings, sources, "text", stream="stderr")
    if (
        any(f.severity >= Severity.ERROR for f in result.findings)
        or result.context is None
        or result.is_profile
    ):
        print(f"jobc submit: {result.file}: not submitted: lint found errors", file=sys.stderr)
        raise _Refused
    try:
        script = compile_batch(result.context)
    except CompileError as exc:
        print(f"jobc submit: {result.file}: {exc}", file=sys.stderr)
        raise _Refused from None
    return result.context, script, make_plan(result.context).logs


def _sweep(ctx: Any) -> list[dict[str, object]]:
    from jobc.compile.sweep import combinations

    sweep = ctx.spec.sweep
    return combinations(sweep) if sweep is not None else []
