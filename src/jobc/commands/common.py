"""What several commands share: reading specs with overrides and config, and printing findings."""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from jobc.core.diagnostics import Finding

if TYPE_CHECKING:
    from jobc.lint.config import Config
    from jobc.lint.pipeline import Override, Result


class CommandError(Exception):
    """A usage or configuration problem: one line on stderr, exit 2."""


def overrides(values: Sequence[str] | None) -> list[Override]:
    from jobc.lint.pipeline import OverrideError, parse_override

    try:
        return [parse_override(v) for v in values or []]
    except OverrideError as exc:
        raise CommandError(str(exc)) from None


def config(path: str | None, select: str | None, ignore: str | None) -> Config:
    from jobc.lint import config as cfg
    from jobc.lint.rules import RULES

    known = set(RULES)
    try:
        if path is not None:
            p = Path(path)
            if not p.is_file():
                raise CommandError(f"--config {path}: no such file")
            conf = cfg.load(p, known)
        else:
            found = cfg.find(Path.cwd())
            conf = cfg.load(found, known) if found else cfg.Config()
        if select is not None:
            conf.select = cfg.check_selectors([select], known, "--select")
        if ignore is not None:
            conf.ignore = [*conf.ignore, *cfg.check_selectors([ignore], known, "--ignore")]
    except cfg.ConfigError as exc:
        raise CommandError(str(exc)) from None
    return conf


def spec_files(paths: Sequence[str]) -> Iterator[Path]:
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            from jobc.script.detect import walk_candidate

            found = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.relative_to(path).parts)
                and (p.suffix in (".yaml", ".yml") or walk_candidate(p))
            )
            if not found:
                # a directory given by name (perhaps spec.yaml/ itself) that holds no spec: linting
                # nothing and passing would hide the mistake
                raise CommandError(
                    f"{raw}: a directory with no *.yaml or *.yml files and no sbatch scripts in it"
                )
            yield from found
        elif path.is_file():
            yield path
        elif path.exists():
            raise CommandError(f"{raw}: not a regular file")
        else:
            raise CommandError(f"{raw}: no such file or directory")


def lint_one(path: Path, conf: Config, overs: list[Override], profile: Path | None = None) -> Result:
    from jobc.lint.scripts import lint_path

    try:
        return lint_path(path, config=conf, overrides=overs, display=str(path), profile=profile)
    except OSError as exc:
        raise CommandError(f"{path}: cannot read: {exc.strerror or exc}") from None


def print_findings(
    findings: Sequence[Finding],
    result_sources: dict[str, list[str]],
    fmt: str = "text",
    stream: str = "stdout",
) -> None:
    from jobc.lint.report import reporter

    out = sys.stdout if stream == "stdout" else sys.stderr
    reporter(fmt)(findings, result_sources, out, out.isatty())


def add_spec_arguments(parser: Any, example: str) -> None:
    """SPEC, --set and --config: the arguments of every command that reads one spec."""
    parser.add_argument("spec", metavar="SPEC")
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        metavar="KEY=VALUE",
        help=f"override a spec value, e.g. --set {example}",
    )
    parser.add_argument("--config", metavar="FILE", help="a .jobc.toml or pyproject.toml to use")


def lint_spec(args: Any) -> Result:
    """Lint the one spec a command was given, with its overrides and the project config."""
    conf = config(args.config, None, None)
    path = Path(args.spec)
    if not path.is_file():
        raise CommandError(f"{args.spec}: {not_a_file(path)}")
    return lint_one(path, conf, overrides(args.overrides))


def not_a_file(path: Path) -> str:
    """Why a path that is not a regular file cannot be read: a FIFO, a device or a directory is
    not missing, and saying so sent the user looking for a typo."""
    if path.is_dir():
        return "is a directory"
    return "not a regular file" if path.exists() else "no such file"
