"""A small validator for the spec's own JSON Schema: answers "valid or not", fast.

The clean spec is the common case (a pre-commit hook runs on every commit), so lint asks this
walker first and loads the full explainer (jsonschema plus messages) only for a spec that fails.
It understands exactly the keywords the generated schema uses and follows pydantic's strict
mode, so it accepts what the models accept; a test holds the two to that.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

_IGNORED = frozenset({"title", "description", "default", "examples", "$schema", "$id", "$comment"})


@cache
def _schema() -> dict[str, Any]:
    from jobc.data import read_text

    text = read_text("jobc.schema.json")
    loaded: dict[str, Any] = json.loads(text)
    return loaded


@cache
def _regex(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern)


def valid(data: Any, definition: str) -> bool:
    """Whether ``data`` matches ``#/$defs/<definition>`` of the packaged schema."""
    root = _schema()
    return _ok(data, root["$defs"][definition], root["$defs"])


def _type_ok(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, int | float) and not isinstance(value, bool)
    if name == "string":
        return isinstance(value, str)
    if name == "boolean":
        return isinstance(value, bool)
    if name == "null":
        return value is None
    if name == "object":
        return isinstance(value, dict)
    if name == "array":
        return isinstance(value, list)
    raise ValueError(f"schema type {name!r} is not supported")


def _ok(value: Any, node: dict[str, Any], defs: dict[str, Any]) -> bool:
    for key, want in node.items():
        if key in _IGNORED:
            continue
        if key == "$ref":
            if not _ok(value, defs[want.rsplit("/", 1)[-1]], defs):
                return False
        elif key == "type":
            names = want if isinstance(want, list) else [want]
            if not any(_type_ok(value, n) for n in names):
                return False
        elif key == "anyOf":
            if not any(_ok(value, option, defs) for option in want):
                return False
        elif key == "enum":
            if not any(value == v and type(value) is type(v) for v in want):
                return False
        elif key == "const":
            if not (value == want and type(value) is type(want)):
                return False
        elif key == "properties":
            if isinstance(value, dict):
                for name, sub in want.items():
                    if name in value and not _ok(value[name], sub, defs):
                        return False
        elif key == "additionalProperties":
            if isinstance(value, dict):
                known = node.get("properties", {})
                for name, item in value.items():
                    if name in known:
                        continue
                    if want is False or (isinstance(want, dict) and not _ok(item, want, defs)):
                        return False
        elif key == "propertyNames":
            if isinstance(value, dict) and not all(_ok(k, want, defs) for k in value):
                return False
        elif key == "required":
            if isinstance(value, dict) and not all(k in value for k in want):
                return False
        elif key == "items":
            if isinstance(value, list) and not all(_ok(v, want, defs) for v in value):
                return False
        elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and not _bound(key, value, want)
            ):
                return False
        elif key in ("pattern", "maxLength", "minLength"):
            if isinstance(value, str) and not _string_ok(key, value, want):
                return False
        elif key in ("if", "then", "else"):
            continue  # only the top-level document switch uses these; lint picks the branch itself
        else:
            raise ValueError(f"schema keyword {key!r} is not supported by the fast check")
    return True


def _bound(key: str, value: float, limit: float) -> bool:
    if key == "minimum":
        return value >= limit
    if key == "maximum":
        return value <= limit
    if key == "exclusiveMinimum":
        return value > limit
    return value < limit


def _string_ok(key: str, value: str, want: Any) -> bool:
    if key == "pattern":
        return _regex(want).search(value) is not None
    if key == "maxLength":
        return bool(len(value) <= want)
    return bool(len(value) >= want)
