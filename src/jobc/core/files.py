"""Open a file jobc only reads, refusing what is not a regular file without waiting on it; and
rewrite a file jobc fixes in place, only if it still holds what jobc read.

A path jobc was handed or found (a job's log, a ledger entry, a hang dump) may name a FIFO, a
device or a socket: `open()` of a FIFO waits for a writer for ever, and `/dev/zero` never ends.
Opening with O_NONBLOCK returns at once whatever the path is, and `fstat` of the open file (not
of the path, which may change between the two) says what it is.

`rewrite` writes into the file itself (the same inode), so that the file keeps its owner, its
mode, its other hard links and its extended attributes, as an editor saving in place does; a new
file renamed over it would belong to whoever runs jobc and would leave the other links with the
old text.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

__all__ = ["Changed", "NotRegular", "open_regular", "rewrite"]


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


class Changed(OSError):
    """The file no longer holds what was read from it: someone wrote it in between."""


def rewrite(path: str | os.PathLike[str], before: bytes, after: bytes) -> None:
    """Write `after` into the regular file at `path` in place, if it still holds exactly `before`.

    Raises Changed (and writes nothing) when it does not, NotRegular for what is not a regular
    file, and OSError as `open` does. An advisory lock is held from the comparison to the end of
    the write, so a cooperating writer cannot slip in between."""
    import fcntl

    fd = os.open(Path(path), os.O_RDWR | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise NotRegular(0, _kind(mode), str(path))
        fcntl.flock(fd, fcntl.LOCK_EX)
        current = bytearray()
        while chunk := os.read(fd, 1 << 20):
            current += chunk
            if len(current) > len(before):
                break
        if current != before:
            raise Changed(0, "the file changed since jobc read it", str(path))
        os.lseek(fd, 0, os.SEEK_SET)
        view = memoryview(after)
        while view:
            view = view[os.write(fd, view) :]
        os.ftruncate(fd, len(after))
        os.fsync(fd)
    finally:
        os.close(fd)
