"""Plain scalars that YAML 1.2 reads as strings but YAML 1.1 tools (PyYAML, many CI linters)
read as booleans or sexagesimal numbers: both readers report them the same way."""

from __future__ import annotations

import re

AMBIGUOUS_WORDS = frozenset(
    ["y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF"]
)
_SEXAGESIMAL = re.compile(r"^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$")


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
