"""`jobc lint PATH…`"""

from __future__ import annotations

import os
import sys

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

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    import argparse
    from pathlib import Path
    from typing import Any

    from jobc.commands.argv import LintArgs
    from jobc.core.paths import PathArg
    from jobc.lint.config import Config
    from jobc.lint.fix import Outcome


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
    fixing = p.add_argument_group("fixes")
    fixing.add_argument(
        "--fix", action="store_true", help="apply the safe fixes in place; what stays unfixed is reported"
    )
    fixing.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="with --fix or --diff, apply the unsafe fixes too (they change behaviour or choose a value)",
    )
    fixing.add_argument(
        "--fix-only",
        action="store_true",
        help="apply the fixes and report nothing else: exit 0 unless a file could not be read or written",
    )
    fixing.add_argument(
        "--show-fixes",
        action="store_true",
        help="with --fix or --diff, list what was fixed in each file (the rules and how many times)",
    )
    fixing.add_argument(
        "--diff",
        action="store_true",
        help="print the fixes as a unified diff and write nothing; findings left after them decide the exit",
    )
    p.add_argument(
        "--live",
        action="store_true",
        help=(
            "also check against the Slurm cluster this machine talks to: partitions and their limits, "
            "nodes' GPUs and features, accounts and QOS (JC120-JC123)"
        ),
    )
    p.set_defaults(run=run)


def _live_cluster() -> Any:
    """The live cluster's facts, or None with a one-line note on stderr saying why not."""
    from jobc.jobs.cluster import read
    from jobc.jobs.slurm import SlurmError

    try:
        facts = read()
    except SlurmError as exc:
        print(f"jobc lint: --live: cannot ask the cluster ({exc}); linted without it", file=sys.stderr)
        return None
    if facts.accounts is None:
        print(
            "jobc lint: --live: the cluster's accounting does not answer (no slurmdbd or sacctmgr); "
            "accounts and QOS are not checked",
            file=sys.stderr,
        )
    return facts


def run(args: argparse.Namespace | LintArgs) -> int:
    try:
        conf = config(
            args.config,
            None if args.select is None else ",".join(args.select),
            None if args.ignore is None else ",".join(args.ignore),
        )
        overs = overrides(args.overrides)
        skipped: list[Path] = []
        files = list(spec_files(args.paths, skipped))
        if skipped:
            shown = ", ".join(str(p) for p in skipped[:3]) + (", …" if len(skipped) > 3 else "")
            print(
                f"jobc lint: skipped {len(skipped)} YAML file{'s' if len(skipped) != 1 else ''} that "
                f"{'are' if len(skipped) != 1 else 'is'} not a job spec (no version, extends or profile "
                f"key): {shown}; name a file to lint it anyway",
                file=sys.stderr,
            )
        profile = None
        if args.profile:
            from pathlib import Path

            profile = Path(args.profile)
        if profile is not None and not profile.is_file():
            raise CommandError(f"--profile {args.profile}: no such file or directory")
        findings: list[Finding] = []
        sources: dict[str, list[str]] = {}
        fixing = args.fix or args.fix_only or args.diff
        if fixing and overs:
            raise CommandError("--fix, --fix-only and --diff edit files, so they cannot be used with --set")
        if args.unsafe_fixes and not fixing:
            raise CommandError("--unsafe-fixes is applied with --fix, --fix-only or --diff")
        if args.show_fixes and not fixing:
            raise CommandError(
                "--show-fixes lists what --fix, --fix-only or --diff repairs; give one of them"
            )
        from jobc.lint.live import using

        live = _live_cluster() if args.live else None
        if fixing:
            with using(live):
                return _fix(args, files, conf, profile)
        if overs:
            from jobc.script.detect import is_script

            scripts = [str(p) for p in files if is_script(p)]
            if scripts:
                # a script's values are its own lines; there is no spec field to override
                print(
                    f"jobc lint: --set applies to specs, not to sbatch scripts: {', '.join(scripts)}",
                    file=sys.stderr,
                )
        with using(live):
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
    if args.format == "text":
        _say_fixable(findings)
    threshold = Severity.WARNING if (args.strict or conf.strict) else Severity.ERROR
    return Exit.FINDINGS if any(f.severity >= threshold for f in findings) else Exit.OK


def _fix(
    args: argparse.Namespace | LintArgs, files: list[PathArg], conf: Config, profile: Path | None
) -> Exit:
    """`--fix` / `--diff`: fix each file in memory, then write it (or print the diff)."""
    from pathlib import Path

    from jobc.core.text import visible_lines
    from jobc.lint.fix import diff, fix_path

    findings: list[Finding] = []
    sources: dict[str, list[str]] = {}
    fixed = changed = 0
    shown: list[tuple[str, list[Finding]]] = []
    failed = False
    trees = _trees(args.paths)
    seen: set[Path] = set()
    for named in files:
        path = Path(named)
        if path.resolve() in seen:
            continue
        seen.add(path.resolve())
        try:
            outcome = fix_path(
                path, config=conf, unsafe=args.unsafe_fixes, display=str(path), profile=profile
            )
        except OSError as exc:
            print(f"jobc lint: {path}: cannot read: {exc.strerror or exc}", file=sys.stderr)
            return Exit.ERROR
        if outcome.stopped:
            print(f"jobc lint: {path}: {outcome.stopped}", file=sys.stderr)
        result = outcome.result
        if outcome.changed and args.diff:
            # for patch, the file's own bytes; for a terminal, its control characters escaped
            text = diff(outcome)
            _out(visible_lines(text) if sys.stdout.isatty() else text)
        elif outcome.changed:
            problem = _write_fixed(path, outcome, trees)
            if problem is not None:
                print(f"jobc lint: {path}: {problem}", file=sys.stderr)
                failed = True
                try:  # what stays is what the file holds now
                    result = lint_one(path, conf, [], profile)
                except CommandError:
                    result = None
                if result is not None:
                    findings.extend(result.findings)
                continue
        if outcome.changed:
            changed += 1
            fixed += len(outcome.fixed)
            shown.append((str(path), outcome.fixed))
        if result is not None:
            findings.extend(result.findings)
            if sys.stdout.isatty():
                for src in result.sources:
                    sources[src.file] = src.lines
    unique = {(f.file, f.span, f.code, f.message): f for f in findings}
    findings = sorted(unique.values(), key=Finding.sort_key)
    sys.stdout.flush()  # the diff or the findings before the summary, as a terminal shows them
    if args.show_fixes:
        _show_fixes(shown, "Would fix" if args.diff else "Fixed")
    if args.fix_only:
        # a formatter's contract: what changed is the result; the findings are jobc lint's
        plural = "" if fixed == 1 else "s"
        print(f"jobc lint: fixed {fixed} finding{plural} in {changed} file(s)", file=sys.stderr)
        return Exit.ERROR if failed else Exit.OK
    if not args.diff:
        print_findings(findings, sources, args.format)
        sys.stdout.flush()
    verb = "would fix" if args.diff else "fixed"
    where = "file" if changed == 1 else "files"
    print(
        f"jobc lint: {verb} {fixed} finding{'' if fixed == 1 else 's'} in {changed} {where}; "
        f"{len(findings)} remain{'s' if len(findings) == 1 else ''}",
        file=sys.stderr,
    )
    if failed:
        return Exit.ERROR
    threshold = Severity.WARNING if (args.strict or conf.strict) else Severity.ERROR
    return Exit.FINDINGS if any(f.severity >= threshold for f in findings) else Exit.OK


def _show_fixes(shown: list[tuple[str, list[Finding]]], verb: str) -> None:
    """What the fixes repaired, per file and rule, as ruff's --show-fixes lists them."""
    from collections import Counter

    from jobc.core.text import visible

    total = sum(len(found) for _, found in shown)
    if not total:
        print(f"jobc lint: {verb.lower()} nothing", file=sys.stderr)
        return
    lines = [f"{verb} {total} finding{'' if total == 1 else 's'}:"]
    for file, found in shown:
        lines.append(f"- {visible(file)}:")
        counts = Counter((f.code, f.name) for f in found)
        lines += [f"    {n} × {code} ({name})" for (code, name), n in sorted(counts.items())]
    print("\n".join(lines), file=sys.stderr)


def _trees(paths: list[str]) -> list[tuple[str, str]]:
    """The directories asked for: (as given, absolute without resolving links)."""
    return [(p, os.path.abspath(p)) for p in paths if os.path.isdir(p)]


def _write_fixed(path: Path, outcome: Outcome, trees: list[tuple[str, str]]) -> str | None:
    """Write the fixed text into the file itself (owner, mode and hard links kept), or say in one
    line why not: a link out of the directory asked for, a read-only file, a file that changed
    since it was read (someone's edit is never lost), an error of the system."""
    from jobc.core.files import Changed, rewrite

    real = os.path.realpath(path)
    where = os.path.abspath(path)
    for given, tree in trees:
        inside = os.path.commonpath([where, tree]) == tree
        if inside and os.path.commonpath([real, os.path.realpath(tree)]) != os.path.realpath(tree):
            return f"not fixed: a symbolic link to a file outside {given}, the directory being fixed"
    try:
        if not os.access(real, os.W_OK) or not os.stat(real).st_mode & 0o222:
            # root may write a file its owner made read-only: jobc does not
            return "cannot write: permission denied (the file is read-only)"
        # the bytes jobc could not decode go back as they were
        rewrite(
            real,
            outcome.before.encode("utf-8", "surrogateescape"),
            outcome.after.encode("utf-8", "surrogateescape"),
        )
    except Changed:
        return "not fixed: the file changed since jobc read it; run jobc lint --fix again"
    except OSError as exc:
        return f"cannot write: {exc.strerror or exc}"
    return None


def _say_fixable(findings: list[Finding]) -> None:
    """Which findings --fix would repair (JSON and SARIF carry each finding's fix instead)."""
    safe = sum(1 for f in findings if f.fix is not None and f.fix.safe)
    unsafe = sum(1 for f in findings if f.fix is not None and not f.fix.safe)
    if not safe and not unsafe:
        return
    parts = [f"{safe} fixable with --fix"] if safe else []
    if unsafe:
        parts.append(f"{unsafe} {'more ' if safe else ''}fixable with --fix --unsafe-fixes")
    print(f"jobc lint: {'; '.join(parts)} (--diff shows the changes first)", file=sys.stderr)


def _out(text: str) -> None:
    """A diff holds the file's own bytes, which may not be UTF-8: they are written as they were."""
    try:
        sys.stdout.write(text)
    except UnicodeEncodeError:
        sys.stdout.flush()
        sys.stdout.buffer.write(text.encode("utf-8", "surrogateescape"))
