"""What several commands share: reading specs with overrides and config, and printing findings."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator, Sequence

from jobc.core.diagnostics import Finding
from jobc.core.lazyre import lazy_bytes
from jobc.core.paths import plain

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from jobc.core.paths import PathArg
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
            from pathlib import Path

            p = Path(path)
            if not p.is_file():
                raise CommandError(f"--config {path}: no such file or directory")
            conf = cfg.load(p, known)
        else:
            found = cfg.find(os.getcwd())
            conf = cfg.load(found, known) if found else cfg.Config()
        if select is not None:
            conf.select = cfg.check_selectors([select], known, "--select")
        if ignore is not None:
            conf.ignore = [*conf.ignore, *cfg.check_selectors([ignore], known, "--ignore")]
    except cfg.ConfigError as exc:
        raise CommandError(str(exc)) from None
    return conf


# A YAML file in a walked directory is a spec or a profile when it has one of these keys at its
# top level, or `name` beside a spec section; a training config (configs/train.yaml) has neither
# and is not jobc's to lint. A file named on the command line is always linted.
# (compiled when a directory is walked: a lint of the files named needs none of them)
_SPEC_KEYS = lazy_bytes(rb"""(?m)^[{ ]?["']?(?:version|extends|profile)["']?[ \t]*:""")
_NAME_KEY = lazy_bytes(rb"""(?m)^[{ ]?["']?name["']?[ \t]*:""")
_SECTION_KEY = lazy_bytes(rb"""(?m)^["']?(?:resources|launch|slurm)["']?[ \t]*:""")
# Only the start of a file is read to decide: a spec's keys come early.
_PEEK = 64 * 1024


def looks_like_spec(path: Path) -> bool:
    """Whether a YAML file found in a directory is a job spec or a cluster profile."""
    try:
        with path.open("rb") as handle:
            head = handle.read(_PEEK)
    except OSError:
        return True  # unreadable: linting it says why
    if _SPEC_KEYS.search(head):
        return True
    return bool(_NAME_KEY.search(head) and _SECTION_KEY.search(head))


def spec_files(paths: Sequence[str], skipped: list[Path] | None = None) -> Iterator[PathArg]:
    """The files to lint: each path given, and in each directory its specs, profiles and sbatch
    scripts; YAML files of a directory that are not specs go to `skipped`.

    A file named is given as its path's text, as `pathlib` would print it (the lint of one file
    does not import `pathlib`); the files found in a directory are `Path`s."""
    for raw in paths:
        text = plain(raw)  # what pathlib would ask about: `""` is `.`, `job.sh/` is `job.sh`
        if os.path.isdir(text):
            from pathlib import Path

            from jobc.script.detect import walk_candidate

            path = Path(raw)
            depth = len(path.parts)  # a found path's parts below the directory, as relative_to's
            candidates = sorted(
                p
                for p in path.rglob("*")
                if p.is_file()
                and not any(part.startswith(".") for part in p.parts[depth:])
                and (p.suffix in (".yaml", ".yml") or walk_candidate(p))
            )
            found = [p for p in candidates if p.suffix not in (".yaml", ".yml") or looks_like_spec(p)]
            if skipped is not None:
                kept = set(found)  # a directory of thousands of specs: not a list's `in` for each
                skipped.extend(p for p in candidates if p not in kept)
            if not found:
                # a directory given by name (perhaps spec.yaml/ itself) that holds no spec: linting
                # nothing and passing would hide the mistake
                other = f" ({len(candidates)} YAML files that are not job specs)" if candidates else ""
                raise CommandError(f"{raw}: a directory with no job specs and no sbatch scripts in it{other}")
            yield from found
        elif os.path.isfile(text):
            yield text
        elif os.path.exists(text):
            raise CommandError(f"{raw}: not a regular file")
        else:
            raise CommandError(f"{raw}: no such file or directory")


def lint_one(path: PathArg, conf: Config, overs: list[Override], profile: Path | None = None) -> Result:
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
    from pathlib import Path

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
    return "not a regular file" if path.exists() else "no such file or directory"
