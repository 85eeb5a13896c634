"""`jobc` command line: `main(argv) -> int`, the exit code (`jobc.commands.Exit`)."""

from __future__ import annotations

import argparse
import gc
import io
import sys
from collections.abc import Sequence
from importlib import import_module

from jobc import __version__
from jobc.commands import COMMANDS, Exit, crash
from jobc.core import colour
from jobc.core.text import visible_lines

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any, TextIO


class UsageError(Exception):
    """A problem with how jobc was called; one line, exit 2."""


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


class _Escaping(io.TextIOBase):
    """stderr as the commands write it, with every control character of a message escaped: a
    file name, a job id or a value quoted in a one-line error cannot move the cursor or retitle
    the terminal, whichever message forgot to escape it."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:
        self._inner.write(visible_lines(text))
        return len(text)

    def flush(self) -> None:
        self._inner.flush()

    def isatty(self) -> bool:
        return self._inner.isatty()

    def fileno(self) -> int:
        return self._inner.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return self._inner.encoding


def parser(argv: Sequence[str] = ()) -> argparse.ArgumentParser:
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


def main(argv: Sequence[str] | None = None) -> int:
    # A command imports most of jobc and builds a spec's data: many objects, none of them cyclic
    # garbage (a lint of 300 specs leaves the same ~100 unreachable objects as a lint of one, all
    # from argparse). The cyclic collector's passes over them were about a tenth of a cold lint,
    # so it rests while a command runs and is restored afterwards.
    collecting = gc.isenabled()
    gc.disable()
    stderr = sys.stderr
    sys.stderr = _Escaping(stderr)
    try:
        return _run(argv)
    finally:
        sys.stderr = stderr
        colour.choice = "auto"
        if collecting:
            gc.enable()


def _run(argv: Sequence[str] | None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    crash.hold_reserve()
    try:
        args = parser(args_list).parse_args(args_list)
        colour.choice = args.color
        if args.command is None:
            parser().print_help(sys.stderr)
            return Exit.ERROR
        code: int = args.run(args)
        return code
    except UsageError as exc:
        print(f"{_with_suggestion(exc, args_list)} (see jobc --help)", file=sys.stderr)
        return Exit.ERROR
    except SystemExit as exc:  # --help and --version
        return int(exc.code) if isinstance(exc.code, int) else Exit.OK
    except KeyboardInterrupt:
        return Exit.INTERRUPTED
    except BrokenPipeError:
        return Exit.OK
    except Exception as exc:  # a bug in jobc: one line, and the traceback saved for the report
        crash.report(exc, args_list, debug=_debug(args_list))
        return Exit.ERROR


def _with_suggestion(exc: UsageError, argv: Sequence[str]) -> str:
    """A usage error, with the command meant when the word given is close to one (`jobc lnt`)."""
    words = list(argv)
    word = None
    for i, arg in enumerate(words):
        if not arg.startswith("-") and (i == 0 or words[i - 1] != "--color"):
            word = arg
            break
    if word is None or word in COMMANDS:
        return str(exc)
    import difflib

    close = difflib.get_close_matches(word, list(COMMANDS), n=1, cutoff=0.6)
    if not close:
        return f"jobc: {word!r} is not a command (commands: {', '.join(COMMANDS)})"
    return f"jobc: {word!r} is not a command; did you mean {close[0]!r}?"


def _debug(argv: Sequence[str]) -> bool:
    """Whether `--debug` stands among the options before the command (read from the words, since
    the error may come before the parser has read them)."""
    for arg in argv:
        if arg == "--debug":
            return True
        if not arg.startswith("-"):
            return False
    return False
