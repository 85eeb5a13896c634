"""What the job commands share: finding the ledger, and turning Slurm's failures into one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from jobc.commands.common import CommandError


def add_ledger_argument(parser: Any) -> None:
    parser.add_argument(
        "--ledger",
        metavar="DIR",
        help=(
            "the ledger directory (default: [tool.jobc] ledger, else .jobc/ here, then the user's "
            "ledger of every job, $XDG_STATE_HOME/jobc/ledger)"
        ),
    )


def ledger_dir(args: Any, spec: Path | None = None) -> Path:
    """--ledger, else `[tool.jobc] ledger` of the nearest configuration, else `.jobc/` beside the
    spec (submit) or in the current directory (the other commands)."""
    from jobc.jobs.ledger import ledger_dir as resolve
    from jobc.lint import config as cfg

    if getattr(args, "ledger", None):
        return Path(args.ledger)
    start = spec.resolve().parent if spec is not None else Path.cwd()
    try:
        found = cfg.find(start)
        conf = cfg.load(found, _codes()) if found else cfg.Config()
    except cfg.ConfigError as exc:
        raise CommandError(str(exc)) from None
    if conf.ledger:
        return resolve(spec or Path.cwd() / "x", conf.ledger, conf.source)
    return (spec.resolve().parent if spec is not None else Path.cwd()) / ".jobc"


def locate_job(args: Any, job_id: str) -> tuple[Path, Any]:
    """The ledger a job is recorded in and its entry (None when no ledger has it): `--ledger`
    alone when given; else the project's (configured, or `.jobc/` here), then the user's, which
    holds every job this user submitted from any directory."""
    from jobc.jobs import ledger, userledger

    if getattr(args, "ledger", None):
        directory = Path(args.ledger)
        return directory, ledger.find(directory, job_id)
    return userledger.locate(ledger_dir(args), job_id)


def _codes() -> set[str]:
    from jobc.lint.rules import RULES

    return set(RULES)


def check_job_id(prog: str, job_id: str) -> None:
    from jobc.jobs.slurm import valid_job_id

    if not valid_job_id(job_id):
        raise CommandError(f"{job_id!r} is not a job id (digits, or 123_4 for an array task)")
