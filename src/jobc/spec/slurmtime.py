"""Slurm wall-time limits (`--time`, a partition's `MaxTime`): parsing and formatting.

Slurm accepts six forms, read left to right as in ``time_str2secs``:

==============  ============================
``M``           minutes
``M:S``         minutes and seconds
``H:M:S``       hours, minutes and seconds
``D-H``         days and hours
``D-H:M``       days, hours and minutes
``D-H:M:S``     days, hours, minutes and seconds
==============  ============================

Fields are decimal digits and are not range-checked (Slurm reads ``90`` as ninety minutes and
``1:90:00`` as two and a half hours). ``UNLIMITED``, ``INFINITE`` and ``-1`` (any case) mean no
limit, and so does ``0``: "a time limit of zero requests that no time limit be imposed" (sbatch).
A YAML integer is a number of minutes. Slurm reads the limit into a C int of minutes, so a
longer one (or a field of more digits than any such limit has) is refused here as it is there.
"""

from __future__ import annotations

import re

from jobc.core.lazyre import lazy
from jobc.core.numbers import MAX_DIGITS, SLURM_MAX, shown

_UNLIMITED_WORDS = frozenset({"unlimited", "infinite", "-1"})
_FORM = lazy(
    r"""
    (?P<days>[0-9]+)-(?P<dh>[0-9]+)(?::(?P<dm>[0-9]+)(?::(?P<ds>[0-9]+))?)?    # D-H, D-H:M, D-H:M:S
    | (?P<a>[0-9]+)(?::(?P<b>[0-9]+)(?::(?P<c>[0-9]+))?)?                   # M, M:S, H:M:S
    """,
    re.VERBOSE,
)

FORMS = '"MM", "MM:SS", "HH:MM:SS", "D-HH", "D-HH:MM", "D-HH:MM:SS" or a number of minutes'


class TimeLimitError(ValueError):
    """A value Slurm would not accept as a time limit."""


def _too_long(value: str | int) -> TimeLimitError:
    return TimeLimitError(
        f"{shown(value, keep=30)} is longer than any limit Slurm holds (at most {SLURM_MAX} minutes); "
        f"write one of {FORMS}"
    )


def parse_time(value: str | int) -> int | None:
    """The limit in seconds, or None when the value means no limit at all."""
    if isinstance(value, bool):
        raise TimeLimitError(f"{value!r} is not a time limit; write one of {FORMS}")
    if isinstance(value, int):
        if value in (-1, 0):
            return None
        if value < 0:
            raise TimeLimitError(f"{value} minutes is negative; write one of {FORMS}")
        if value > SLURM_MAX:
            raise _too_long(value)
        return value * 60
    if value.lower() in _UNLIMITED_WORDS:
        return None
    match = _FORM.fullmatch(value)
    if match is None:
        raise TimeLimitError(f"{shown(repr(value), keep=30)} is not a Slurm time limit; write one of {FORMS}")
    # the fields as written, in the form's order (unmatched ones are None)
    days, dh, dm, ds, a, b, c = match.groups()
    for text in (days, dh, dm, ds, a, b, c):
        if text is not None and len(text.lstrip("0")) > MAX_DIGITS:
            raise _too_long(repr(value))  # measured before int(), which refuses 4300 digits
    if days is not None:
        seconds = int(days) * 86400 + int(dh) * 3600 + int(dm or 0) * 60 + int(ds or 0)
    elif c is not None:
        seconds = int(a) * 3600 + int(b) * 60 + int(c)
    else:
        seconds = int(a) * 60 + int(b or 0)
    if minutes(seconds) > SLURM_MAX:
        raise _too_long(repr(value))
    return seconds or None


def format_time(seconds: int) -> str:
    """Slurm's own rendering: ``HH:MM:SS``, or ``D-HH:MM:SS`` from one day on."""
    if seconds < 0:
        raise ValueError(f"a time limit cannot be negative ({seconds} s)")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    clock = f"{hours:02d}:{minutes:02d}:{secs:02d}"
    return f"{days}-{clock}" if days else clock


def minutes(seconds: int) -> int:
    """Whole minutes as Slurm stores a limit: seconds are rounded up."""
    return -(-seconds // 60)


def describe(seconds: int) -> str:
    """A short human reading for messages: ``90 min``, ``48 h``, ``49 h 30 min``."""
    hours, rest = divmod(minutes(seconds), 60)
    if not hours:
        return f"{rest} min"
    return f"{hours} h" if not rest else f"{hours} h {rest} min"
