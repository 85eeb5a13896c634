"""Whether to colour what goes to a stream, by the conventions terminals and their users share.

`--color=always` and `--color=never` decide alone. Otherwise (`auto`, the default) colour is on
only for a terminal, and off when `NO_COLOR` is set to anything but the empty string
(https://no-color.org) or `TERM` is `dumb` (Emacs' shell, some CI logs: escapes would show as
text). `FORCE_COLOR` (set, not empty) turns it on for a pipe, as in other tools, for a pager
that shows colour.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

CHOICES = ("auto", "always", "never")

#: The `--color` of the running command (`jobc.cli` sets it once per command line).
choice = "auto"


TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Protocol

    class _Stream(Protocol):
        def isatty(self) -> bool: ...


def wanted(stream: _Stream, choice: str | None = None, env: Mapping[str, str] | None = None) -> bool:
    """Whether output to `stream` should carry colour, for the `--color` `choice` (default: the
    running command's)."""
    choice = globals()["choice"] if choice is None else choice
    if choice == "always":
        return True
    if choice == "never":
        return False
    environ = os.environ if env is None else env
    if environ.get("NO_COLOR", ""):
        return False
    if environ.get("TERM", "") == "dumb":
        return False
    if environ.get("FORCE_COLOR", ""):
        return True
    try:
        return stream.isatty()
    except (OSError, ValueError):  # a closed or detached stream
        return False
