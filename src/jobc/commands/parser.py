"""The full command line parser (argparse), for every command and every form of it.

Imported only when the command line is not one `jobc.commands.argv` reads by itself: argparse,
with the gettext and locale modules it imports, is a large part of a short command's run.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from jobc import __version__
from jobc.commands import COMMANDS
from jobc.commands.argv import UsageError

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any


class _Help(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal, measured without `shutil`.

    argparse builds a formatter for every option it adds, and the formatter measures the terminal
    with `shutil.get_terminal_size`: importing `shutil` (and the compression modules it imports)
    was a millisecond of every run. The width is found the same way here.
    """

    def __init__(
        self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None
    ) -> None:
        super().__init__(
            prog, indent_increment, max_help_position, _columns() - 2 if width is None else width
        )


def _columns() -> int:
    """What `shutil.get_terminal_size().columns` answers: $COLUMNS, else stdout's terminal, else 80."""
    import os

    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 80
    return columns


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Help)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # type: ignore[override]
        raise UsageError(f"{self.prog}: {message}")


def build(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
    """The command line parser; when ``argv`` starts with a command, only that command's part.

    argparse looks up translations on disk for every parser and option it builds, which made
    building all of them a tenth of a lint's run; a command needs only its own.
    """
    top = _Parser(
        prog="jobc",
        description="Lint and compile declarative Slurm job specs for distributed PyTorch.",
    )
    top.add_argument("--version", action="version", version=f"jobc {__version__}")
    top.add_argument(
        "--debug", action="store_true", help="on an internal error, print the traceback instead of saving it"
    )
    sub = top.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    first = next((a for a in argv if a != "--debug"), None)
    names = [first] if first in COMMANDS else COMMANDS
    for name in names:
        import_module(f"jobc.commands.{COMMANDS[name]}").register(sub, name)
        _colour_option(sub.choices[name], argparse.SUPPRESS)
    _colour_option(top, "auto")
    return top


def _colour_option(p: argparse.ArgumentParser, default: str) -> None:
    """`--color` before or after the command: the command's own default is SUPPRESS, so a value
    given before the command is not overwritten by the command's default."""
    p.add_argument(
        "--color",
        choices=("auto", "always", "never"),
        default=default,
        help="colour the output: auto (a terminal, unless NO_COLOR is set or TERM=dumb), always, never",
    )
