"""A file's path as text, read the way `pathlib.PurePosixPath` reads it.

A cold lint of a file named on the command line needs a path's text, its directory and its
suffix, and nothing else of `pathlib`; importing `pathlib` (with `fnmatch`, `urllib.parse`,
`ipaddress` and `ntpath` behind it) was about a tenth of a script's lint. These functions give
the same answers as `str(PurePosixPath(p))`, `str(PurePosixPath(p).parent)` and
`PurePosixPath(p).suffix` for any text (a test holds them to pathlib's), so that the paths a
lint shows and the directories it reads from stay what they were.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import TypeAlias

    PathArg: TypeAlias = "str | os.PathLike[str]"


def plain(path: PathArg) -> str:
    """`str(PurePosixPath(path))`: empty and `.` components and repeated and trailing slashes
    dropped; a path that starts with exactly two slashes keeps them, as POSIX allows."""
    text = os.fspath(path)
    if (
        "//" not in text
        and "/./" not in text
        and not text.startswith("./")
        and not text.endswith(("/", "/."))
        and text not in ("", ".")
    ):
        return text  # no empty or `.` component, no trailing slash: already as pathlib writes it
    if text.startswith("/"):
        root = "//" if text.startswith("//") and not text.startswith("///") else "/"
    else:
        root = ""
    parts = [part for part in text.split("/") if part and part != "."]
    return root + "/".join(parts) if root or parts else "."


def parent(path: PathArg) -> str:
    """`str(PurePosixPath(path).parent)`: the directory part, `.` for a bare name."""
    text = plain(path)
    cut = text.rfind("/")
    if cut < 0:
        return "."
    head = text[: cut + 1]
    return head if head.strip("/") == "" else head.rstrip("/")


def name(path: PathArg) -> str:
    """`PurePosixPath(path).name`: the last component, empty for a root."""
    text = plain(path)
    if text.strip("/") == "" or text == ".":
        return ""
    return text[text.rfind("/") + 1 :]


def suffix(path: PathArg) -> str:
    """`PurePosixPath(path).suffix`: from the last dot of the name, unless the name starts or
    ends with that dot (`.bashrc`, `job.`)."""
    last = name(path)
    dot = last.rfind(".")
    return last[dot:] if 0 < dot < len(last) - 1 else ""
