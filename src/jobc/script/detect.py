"""Which files are batch scripts: a shell shebang, or `#SBATCH` lines. YAML stays a spec."""

from __future__ import annotations

import re

from jobc.core.lazyre import lazy_bytes
from jobc.core.paths import suffix
from jobc.reader.source import SPEC_SUFFIXES

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.core.paths import PathArg

SCRIPT_SUFFIXES = (".sh", ".sbatch", ".slurm", ".bash")
_SHELL_SHEBANG = lazy_bytes(rb"^#![ \t]*\S*/(?:env[ \t]+(?:-\S+[ \t]+)*)?(?:ba|da|k|z|tc|c|a|fi)?sh\b")
_DIRECTIVE = lazy_bytes(rb"^#SBATCH[ \t]", re.M)
HEAD = 1 << 16  # the bytes that decide whether a file is a script


def is_script(path: PathArg) -> bool:
    """Whether ``path`` holds an sbatch script (read only its head; never raises)."""
    kind = suffix(path).lower()
    if kind in SPEC_SUFFIXES:
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(HEAD)
    except OSError:
        return False
    return looks_like_script(head, kind)


def looks_like_script(head: bytes, suffix: str = "") -> bool:
    head = head.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark (JC811) hides no script
    if _SHELL_SHEBANG.match(head):
        return True
    return bool(_DIRECTIVE.search(head))


def walk_candidate(path: PathArg) -> bool:
    """In a directory walk: scripts by their name, and only those that hold #SBATCH lines."""
    if suffix(path).lower() not in SCRIPT_SUFFIXES:
        return False
    try:
        with open(path, "rb") as f:
            return bool(_DIRECTIVE.search(f.read(HEAD)))
    except OSError:
        return False
