"""Plain scalars: what YAML 1.2 (ruamel's reading, the reference) makes of one, and the ones it
reads as strings but YAML 1.1 tools (PyYAML, many CI linters) read as booleans or sexagesimal
numbers. Every reader reports them the same way."""

from __future__ import annotations

import re

from jobc.core.lazyre import lazy

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any


class Unsupported(Exception):
    """A scalar the fast readers leave to ruamel: it reads it in a way they do not reproduce."""


NULLS = frozenset(["", "~", "null", "Null", "NULL"])
BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_MAX_INT_DIGITS = 18  # past int64 is ruamel's reading, which reports numbers no spec value can hold
_INT = lazy(r"(?:0|-?[1-9][0-9]*)\Z")
_FLOAT = lazy(r"-?(?:0|[1-9][0-9]*)\.[0-9]+\Z")
_DIGIT_OR_DOT = frozenset("0123456789.")
# ruamel's YAML 1.2 implicit types for numbers and dates: anything they match that the simple
# forms above do not (underscores, octal, hex, exponents, leading zeros, dates) is ruamel's to read.
# Compiled on first use: most specs never need it.
_RUAMEL_NUMBERS = r"""(?:
        [-+]?0b[0-1_]+
       |[-+]?0o?[0-7_]+
       |[-+]?[0-9_]+
       |[-+]?0x[0-9a-fA-F_]+
       |[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?
       |[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)
       |[-+]?\.[0-9_]+(?:[eE][-+][0-9]+)?
       |[-+]?\.(?:inf|Inf|INF)
       |\.(?:nan|NaN|NAN)
       |[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?(?:(?:[Tt]|[\ \t]+).*)?
       |<<|=
    )\Z"""


def ruamel_number(value: str) -> bool:
    return re.match(_RUAMEL_NUMBERS, value, re.X) is not None


def may_be_number(value: str) -> bool:
    """Whether ruamel could read this plain scalar as a number, a date, `<<` or `=`.

    ruamel tries its patterns for a scalar whose first character is a sign, a digit, a dot, `<` or
    `=`, and every one that matches starts with a digit or a dot (an underscore, after a sign)
    after at most one sign: `--flag` and `-x` need not meet the full patterns.
    """
    first = value[0]
    if first in "+-":  # ruamel's integers take underscores anywhere after the sign
        return len(value) > 1 and (value[1] in _DIGIT_OR_DOT or value[1] == "_")
    return first in _DIGIT_OR_DOT or value in ("<<", "=")


def string_key(value: str) -> bool:
    """Whether ruamel reads this plain key as a string (not null, a boolean, a number or a date)."""
    return not (value in NULLS or value in BOOLS or (may_be_number(value) and ruamel_number(value)))


def plain_value(value: str) -> tuple[Any, str | None]:
    """A plain scalar's value as ruamel reads it, and what YAML 1.1 tools would make of it
    differently (None when they agree). Unsupported for the forms left to ruamel."""
    if value in NULLS:
        return None, None
    if value in BOOLS:
        return BOOLS[value], None
    if may_be_number(value):
        if _INT.match(value):
            if len(value) > _MAX_INT_DIGITS:
                raise Unsupported
            return int(value), None
        if _FLOAT.match(value):
            return float(value), None
        if ruamel_number(value):
            raise Unsupported
        # the only plain strings that YAML 1.1 reads as numbers: 12:30 and the like
        return value, plain_string_problem(value) if ":" in value else None
    return value, plain_string_problem(value) if value in AMBIGUOUS_WORDS else None


AMBIGUOUS_WORDS = frozenset(
    ["y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"]
)
_SEXAGESIMAL = lazy(r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$")


def plain_string_problem(text: str) -> str | None:
    """Why an unquoted string that YAML 1.2 reads as text is read otherwise by YAML 1.1 tools."""
    if text in AMBIGUOUS_WORDS:
        return (
            f"unquoted {text!r} is a string in YAML 1.2 but a boolean in "
            f"YAML 1.1 tools (PyYAML); write true/false, or quote it"
        )
    if _SEXAGESIMAL.match(text):
        return (
            f"unquoted {text!r} is read as the number "
            f'{_sexagesimal(text)} by YAML 1.1 tools (PyYAML); quote it: "{text}"'
        )
    return None


def _sexagesimal(text: str) -> int | float:
    sign = -1 if text.startswith("-") else 1
    value: float = 0
    for part in text.lstrip("+-").replace("_", "").split(":"):
        value = value * 60 + float(part)
    return sign * (int(value) if value.is_integer() else value)
