"""Open a file jobc only reads, refusing what is not a regular file without waiting on it.

A path jobc was handed or found (a job's log, a ledger entry, a hang dump) may name a FIFO, a
device or a socket: `open()` of a FIFO waits for a writer for ever, and `/dev/zero` never ends.
Opening with O_NONBLOCK returns at once whatever the path is, and `fstat` of the open file (not
of the path, which may change between the two) says what it is.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

__all__ = ["NotRegular", "open_regular"]


class NotRegular(OSError):
    """The path names something other than a regular file (`strerror` says what)."""


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO, not a regular file"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device, not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    if stat.S_ISDIR(mode):
        return "a directory, not a regular file"
    return "not a regular file"


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """The file at `path`, open for reading in binary. Raises NotRegular for a FIFO, a device, a
    socket or a directory, and OSError as `open` does (no such file, no permission)."""
    fd = os.open(Path(path), os.O_RDONLY | os.O_NONBLOCK)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(0, _kind(mode), str(path))
        # O_NONBLOCK means nothing to a regular file's reads; it stays set, harmlessly
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
