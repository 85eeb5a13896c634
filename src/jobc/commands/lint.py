"""`jobc lint PATH…`"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from jobc.commands import Exit
from jobc.commands.common import (
    CommandError,
    config,
    lint_one,
    overrides,
    print_findings,
    spec_files,
)
from jobc.core.diagnostics import Finding, Severity


def register(sub: Any, name: str) -> None:
    p = sub.add_parser(
        name,
        help="lint spec files, cluster profiles and sbatch scripts",
        description=(
            "Lint spec files, cluster profiles and sbatch scripts (directories are walked for "
            "*.yaml, *.yml, and *.sh, *.sbatch, *.slurm files with #SBATCH lines)."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--format", choices=("text", "json", "sarif", "github"), default="text")
    # repeatable, like comma lists: `--ignore JC101 --ignore JC004` must not drop the first
    p.add_argument(
        "--select",
        metavar="CODES",
        action="append",
        help="only these rules (codes or prefixes, comma-separated; repeatable)",
    )
    p.add_argument(
        "--ignore", metavar="CODES", action="append", help="skip these rules (codes or prefixes; repeatable)"
    )
    p.add_argument("--strict", action="store_true", help="warnings fail too (exit 1)")
    p.add_argument("--config", metavar="FILE", help="a .jobc.toml or pyproject.toml to use")
    p.add_argument(
        "--set",
        dest="overrides",
        action="append",
        metavar="KEY=VALUE",
        help="override a spec value, e.g. --set resources.nodes=8",
    )
    p.add_argument(
        "--profile",
        metavar="PROFILE.yaml",
        help="a cluster profile for sbatch scripts (partition limits, GPUs, CPUs, shared storage)",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    try:
        conf = config(
            args.config,
            None if args.select is None else ",".join(args.select),
            None if args.ignore is None else ",".join(args.ignore),
        )
        overs = overrides(args.overrides)
        files = list(spec_files(args.paths))
        profile = Path(args.profile) if args.profile else None
        if profile is not None and not profile.is_file():
            raise CommandError(f"--profile {args.profile}: no such file")
        findings: list[Finding] = []
        sources: dict[str, list[str]] = {}
        if overs:
            from jobc.script.detect import is_script

            scripts = [str(p) for p in files if is_script(p)]
            if scripts:
                # a script's values are its own lines; there is no spec field to override
                print(
                    f"jobc lint: --set applies to specs, not to sbatch scripts: {', '.join(scripts)}",
                    file=sys.stderr,
                )
        for path in files:
            result = lint_one(path, conf, overs, profile)
            findings.extend(result.findings)
            if sys.stdout.isatty():
                for src in result.sources:
                    sources[src.file] = src.lines
    except CommandError as exc:
        print(f"jobc lint: {exc}", file=sys.stderr)
        return Exit.ERROR
    # A profile shared by several specs is read once per spec; its findings are shown once.
    unique = {(f.file, f.span, f.code, f.message): f for f in findings}
    findings = sorted(unique.values(), key=Finding.sort_key)
    print_findings(findings, sources, args.format)
    threshold = Severity.WARNING if (args.strict or conf.strict) else Severity.ERROR
    return Exit.FINDINGS if any(f.severity >= threshold for f in findings) else Exit.OK
