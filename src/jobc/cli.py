"""`jobc` command line: `main(argv) -> int`, the exit code (`jobc.commands.Exit`)."""

from __future__ import annotations

import gc
import io
import sys
from collections.abc import Sequence

from jobc.commands import COMMANDS, Exit, crash
from jobc.commands.argv import UsageError, lint_args
from jobc.core import colour
from jobc.core.text import visible_lines

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    import argparse
    from typing import TextIO


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
    """The command line parser; when ``argv`` starts with a command, only that command's part."""
    from jobc.commands.parser import build

    return build(argv)


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
        # `jobc lint FILE…` is read without argparse (see jobc.commands.argv)
        fast = lint_args(args_list)
        if fast is not None:
            from jobc.commands.lint import run

            colour.choice = fast.color
            return run(fast)
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
