"""Replace a file whole or not at all.

Every command that writes a file the user named (`-o`) goes through `replace` (fixes are written
into the file itself instead, keeping its owner and links: `jobc.core.files.rewrite`):
the new content is encoded first, written to a temporary file beside the target, flushed, and
renamed over the target only when all of it is on disk. A failure at any point (an encoding
error, a full disk, an interrupt) leaves the old file exactly as it was and no temporary behind.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

__all__ = ["replace"]


def _umask() -> int:
    # the only portable way to read the umask is to set it; put it straight back
    mask = os.umask(0)
    os.umask(mask)
    return mask


def replace(path: str | os.PathLike[str], content: str | bytes, *, mode: int | None = None) -> None:
    """Write `content` (text is encoded as UTF-8, newlines untouched) to `path` atomically.

    `mode` is the permission a new file gets (less the umask; default 0o666, as `open` gives); an
    existing file keeps its own. A symlink is followed, so the file it points to gets the content
    and the link stays. A device or a FIFO (`-o /dev/stdout`, a pipe) is written through, never
    replaced by a regular file (as root, replacing /dev/null would break the machine). Raises
    OSError (IsADirectoryError for a directory) and UnicodeEncodeError before anything is touched.
    """
    import tempfile  # only writing commands pay for importing it

    data = content.encode("utf-8") if isinstance(content, str) else content
    target = Path(os.path.realpath(path))
    try:
        existing = target.stat().st_mode
    except FileNotFoundError:
        existing = None
    if existing is not None and stat.S_ISDIR(existing):
        raise IsADirectoryError(21, "is a directory", str(path))
    if existing is not None and not stat.S_ISREG(existing):
        with target.open("wb") as out:
            out.write(data)
        return
    new = (0o666 if mode is None else mode) & ~_umask()
    wanted = stat.S_IMODE(existing) if existing is not None else new
    directory = target.parent if str(target.parent) else Path(".")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, wanted)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
