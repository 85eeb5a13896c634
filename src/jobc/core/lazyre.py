"""Regular expressions compiled the first time they are used, not when their module is imported.

A cold lint is a fresh process, and compiling the patterns of every module it imports was about a
fifth of its time, although most patterns serve a branch that a given file never takes (a token
shape after the prefilter matched, a Megatron hint when the spec says its framework). `lazy`
gives an object that reads as the compiled pattern (`.search`, `.match`, `.sub`, …): the first
use compiles it, and keeps its methods, so later calls cost what the pattern's own do.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

_METHODS = ("search", "match", "fullmatch", "finditer", "findall", "sub", "subn", "split", "scanner")


class _Lazy:
    def __init__(self, pattern: str | bytes, flags: int) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str) -> Any:
        # only reached for what the instance does not hold yet: compile, and keep the methods
        compiled = re.compile(self.pattern, self._flags)
        for method in _METHODS:
            self.__dict__[method] = getattr(compiled, method)
        self.__dict__["groups"] = compiled.groups
        self.__dict__["groupindex"] = compiled.groupindex
        self.__dict__["flags"] = compiled.flags
        return getattr(compiled, name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled on first use."""
    return _Lazy(pattern, flags)  # type: ignore[return-value]  # it reads as one


def lazy_bytes(pattern: bytes, flags: int = 0) -> re.Pattern[bytes]:
    """`re.compile(pattern, flags)` for bytes, compiled on first use."""
    return _Lazy(pattern, flags)  # type: ignore[return-value]
