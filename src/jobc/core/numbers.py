"""Whole numbers as Slurm, bash and the launchers write them: ASCII digits, and of a size they hold.

Two traps this module keeps out of every stage. `str.isdigit()` is true for `²` and `٣`, which
`int()` refuses or reads as 3, while sbatch, srun and torchrun read only ASCII digits. And
`int()` refuses a string of more than 4300 digits (CPython's conversion limit), so a number copied
from a hostile file must be measured before it is converted. Every place that turns text from a
script, a spec or a log into a number asks `ascii_int`, and says what it could not read.
"""

from __future__ import annotations

from jobc.core.lazyre import lazy

__all__ = ["MAX_DIGITS", "SLURM_MAX", "ascii_int", "is_digits", "shown"]

#: Digits past which no count, port or limit of Slurm or a launcher exists (int64 has 19).
MAX_DIGITS = 18
#: The largest count Slurm's option parsers read (a C int); past it sbatch refuses the value.
SLURM_MAX = 2**31 - 1

_DIGITS = lazy(r"[0-9]+")


def is_digits(text: str | None) -> bool:
    """Whether ``text`` is one or more ASCII digits, and nothing else (no sign, blank or `_`)."""
    return text is not None and _DIGITS.fullmatch(text) is not None


def ascii_int(text: str | None, *, max_digits: int = MAX_DIGITS) -> int | None:
    """The value of ``text`` when it is ASCII digits of at most ``max_digits`` (leading zeros
    aside); None otherwise. `is_digits(text) and ascii_int(text) is None` means: a number, too
    large to be any count."""
    if not is_digits(text):
        return None
    assert text is not None  # for the type checker: is_digits said so
    significant = text.lstrip("0")
    if len(significant) > max_digits:
        return None
    return int(significant or "0")  # int() counts leading zeros against its 4300-digit limit


def shown(value: str | int, *, keep: int = 12) -> str:
    """A long number (or text) for a message: `123456…789012 (5000 digits)`; short ones as they are.

    An int is never converted whole when it is huge: `str()` refuses past 4300 digits too."""
    if isinstance(value, int):
        if value.bit_length() > 1000:
            digits = int(abs(value).bit_length() * 0.30103) + 1
            return f"a number of about {digits} digits"
        value = str(value)
    text = value
    if len(text) <= 2 * keep + 1:
        return text
    what = "digits" if is_digits(text) else "characters"
    return f"{text[:keep]}…{text[-keep:]} ({len(text)} {what})"
