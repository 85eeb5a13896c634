"""An internal error, reported so that a user can send it.

A bug in jobc still ends in one line on stderr, never a traceback across the user's terminal,
but the line names a file that holds the whole report: jobc's and Python's versions, the command
line and the traceback. The file goes under the user's cache directory
(`$XDG_CACHE_HOME/jobc/` or `~/.cache/jobc/`), or the temporary directory when that cannot be
written; `jobc --debug …` prints the traceback instead.

The report must not fail in turn, least of all when the error was running out of memory: the
memory it needs is held in reserve from the start of the run and released first, and whatever
goes wrong while reporting ends in a fixed line written from bytes allocated at import.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path

#: Released before a report is built: room for the traceback's text when memory ran out.
RESERVE_BYTES = 256 * 1024
#: The last resort, allocated now because there may be no memory to build it later.
FALLBACK = (
    b"jobc: internal error, and another one while reporting it "
    b"(please report this, with the command you ran)\n"
)
# the one line shows this much of the error's message; the file has all of it
_MESSAGE_CHARS = 300

_reserve: list[bytearray] = []


def hold_reserve() -> None:
    """Set memory aside for a report (called once a run starts)."""
    if not _reserve:
        _reserve.append(bytearray(RESERVE_BYTES))


def report(exc: BaseException, argv: Sequence[str], *, debug: bool) -> None:
    """Tell the user about an internal error in one line, the traceback in a file or on stderr."""
    _reserve.clear()
    try:
        _report(exc, argv, debug)
    # Whatever failed here (memory again, a message whose __str__ raises, a closed stderr), the
    # user still learns that jobc failed, from bytes that need no allocation.
    except BaseException:
        fallback()


def fallback() -> None:
    # not contextlib.suppress: that is one more object to allocate
    try:  # noqa: SIM105
        os.write(2, FALLBACK)
    except OSError:
        pass  # stderr itself is gone; the exit code still says it


def _report(exc: BaseException, argv: Sequence[str], debug: bool) -> None:
    import traceback

    trace = "".join(traceback.format_exception(exc))
    line = f"jobc: internal error: {summary(exc)}"
    if debug:
        sys.stderr.write(f"{trace}{line} (please report this, with the traceback above)\n")
        return
    try:
        path = write_report(trace, argv)
    except OSError as error:
        sys.stderr.write(
            f"{line} (please report this; the traceback could not be saved: {error.strerror or error}; "
            "jobc --debug prints it)\n"
        )
        return
    sys.stderr.write(f"{line} (please report this, with {path})\n")


def summary(exc: BaseException) -> str:
    """`Type: message` on one line of printable characters, cut to a readable length."""
    message = str(exc)
    first = message.splitlines()[0] if message else ""
    if len(first) > _MESSAGE_CHARS:
        first = first[:_MESSAGE_CHARS] + "…"
    elif first != message:
        first += " …"
    text = f"{type(exc).__name__}: {first}" if first else type(exc).__name__
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def report_dirs() -> list[Path]:
    """Where a report may go, in order: the user's cache directory, then the temporary one."""
    import tempfile
    from pathlib import Path  # here: every run imports this module, and pathlib costs a lint 3 ms

    cache = os.environ.get("XDG_CACHE_HOME", "")
    temporary = Path(tempfile.gettempdir())
    # the XDG spec: a relative value is invalid and is ignored
    if os.path.isabs(cache):
        return [Path(cache) / "jobc", temporary]
    try:
        home = Path.home()
    except (RuntimeError, KeyError):  # no HOME and no passwd entry (a bare container)
        return [temporary]
    return [home / ".cache" / "jobc", temporary]


def write_report(trace: str, argv: Sequence[str]) -> Path:
    """Write the report to a new file of the first directory that takes it; its path."""
    import platform
    import shlex
    import time

    from jobc import __version__

    text = (
        f"jobc {__version__}, Python {platform.python_version()} on {platform.platform()}\n"
        f"command: jobc {shlex.join(argv)}\n\n{trace}"
    )
    name = f"jobc-crash-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}.txt"
    error: OSError | None = None
    for directory in report_dirs():
        path = directory / name
        try:
            directory.mkdir(mode=0o700, parents=True, exist_ok=True)
            # the traceback names the user's paths: readable by them alone
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except OSError as exc:
            error = exc
            continue
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace") as out:
            out.write(text)
        return path
    assert error is not None
    raise error
