"""Patterns compiled on their first use, for the tables.

A lint imports these tables for every file, and most files need few of their patterns; compiling
them all at import cost more than the checks. The tables import nothing of jobc, so they do not
use `jobc.core.lazyre`, which does the same for the other stages; the first use compiles from
`jobc.tables.compiled`, the engine's program for each of these patterns (see `jobc.core.lazyre`).
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any


# every (pattern, flags) made here, in order: what `tools/regen.py` compiles ahead of time
MADE: list[tuple[str | bytes, int]] = []


class _Later:
    """A pattern compiled on its first use, read as the compiled one (`.search`, `.finditer`, …);
    the first use keeps the compiled methods, so later calls cost what the pattern's own do."""

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern, self._flags = pattern, flags
        MADE.append((pattern, int(flags)))

    def __getattr__(self, name: str) -> Any:
        from jobc.tables.compiled import compile

        compiled = compile(self.pattern, self._flags)
        for method in ("search", "match", "fullmatch", "finditer", "findall", "sub", "split"):
            self.__dict__[method] = getattr(compiled, method)
        return getattr(compiled, name)


def later(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """`re.compile(pattern, flags)`, compiled on first use."""
    return _Later(pattern, flags)  # type: ignore[return-value]  # it reads as one
