"""Explaining why a spec does not match the spec format. Loaded only when it does not.

Messages come from the committed JSON Schema (the one editors use), rewritten to name the fix:
unknown keys and enum values get a "did you mean".
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from functools import cache
from typing import Any

from jobc.core.diagnostics import DataPath, Edit, Fix, Hit
from jobc.spec.model import ENV_NAME_PATTERN, NAME_PATTERN

_PATTERN_WORDS = {
    ENV_NAME_PATTERN: "is not a variable name (letters, digits and '_', not starting with a digit)",
    NAME_PATTERN: "may hold only letters, digits, '.', '_' and '-'",
}

_TYPE_NAMES = {
    "integer": "a whole number",
    "number": "a number",
    "string": "a string",
    "boolean": "true or false",
    "object": "a mapping",
    "array": "a list",
    "null": "null",
}


@cache
def schema() -> dict[str, Any]:
    from jobc.spec.model import json_schema

    return json_schema()


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    from jobc.spec.fastcheck import regex

    if validator.is_type(instance, "string") and regex(pattern).search(instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def explain(data: Any, *, profile: bool) -> list[Hit]:
    from jsonschema import Draft202012Validator, validators

    root = schema()
    target = {"$ref": "#/$defs/Profile" if profile else "#/$defs/JobSpec", "$defs": root["$defs"]}
    # the schema's own `pattern`, with `$` read as JSON Schema reads it (see fastcheck.regex)
    checker = validators.extend(Draft202012Validator, {"pattern": _pattern})
    validator = checker(target)
    hits: list[Hit] = []
    for error in validator.iter_errors(data):
        hits.extend(_explain(error, root))
    return hits


_HINTS = 50  # unknown keys of one mapping that get a "did you mean"


def _where(path: DataPath) -> str:
    """`launch.args[1]`: the way messages name a place in the spec."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the spec"


def _describe(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f"the string {shown!r}"
    return f"the number {value}"


def _expected_types(schema_node: dict[str, Any]) -> list[str]:
    if "type" in schema_node:
        t = schema_node["type"]
        return list(t) if isinstance(t, list) else [t]
    out: list[str] = []
    for option in schema_node.get("anyOf", []):
        out.extend(_expected_types(option))
    if "$ref" in schema_node or "properties" in schema_node:
        out.append("object")
    if "const" in schema_node or "enum" in schema_node:
        out.append("choice")
    return out


def _resolve(node: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        resolved: dict[str, Any] = root["$defs"][ref.split("/")[-1]]
        return resolved
    return node


def _choices(node: dict[str, Any], root: dict[str, Any]) -> list[Any]:
    node = _resolve(node, root)
    if "enum" in node:
        return list(node["enum"])
    if "const" in node:
        return [node["const"]]
    out: list[Any] = []
    for option in node.get("anyOf", []):
        out.extend(_choices(option, root))
    return out


_YES, _NO = frozenset({"yes", "y", "on", "true"}), frozenset({"no", "n", "off", "false"})


def _retype(path: DataPath, value: Any, types: list[str]) -> Fix | None:
    """A string where a number or a boolean belongs, when its meaning is plain: `"8"` → 8 (safe:
    the same number), `yes` → true (unsafe: YAML 1.2 read a string, the schema wants a boolean)."""
    if not isinstance(value, str) or not path:
        return None
    word = value.strip()
    if "integer" in types and word.isascii() and word.isdigit():
        number = word.lstrip("0") or "0"  # not int(): a string of digits may be of any length
        return Fix.make(f"write {number} without quotes", Edit(path, number))
    if "boolean" in types and word.lower() in _YES | _NO:
        flag = "true" if word.lower() in _YES else "false"
        return Fix.make(f"write {flag}", Edit(path, flag), safe=False)
    return None


def _explain(error: Any, root: dict[str, Any]) -> Iterator[Hit]:
    path: DataPath = tuple(error.absolute_path)
    kind = error.validator
    value = error.instance
    where = _where(path)
    if kind == "additionalProperties":
        yield from _unknown_keys(error, path, value, where)
        return
    if kind == "required":
        for name in error.validator_value:
            if isinstance(value, dict) and name not in value:
                yield Hit(path, f"{where} needs {name!r}", at_value=False)
        return
    if kind == "if":
        return
    if kind in ("enum", "const") or (kind in ("anyOf",) and _choices(error.schema, root)):
        hit = _not_a_choice(error, root, path, value, where)
        if hit is not None:
            yield hit
            return
    if kind == "anyOf":
        yield from _union(error, root, path, value, where)
        return
    if kind == "type":
        raw = error.validator_value
        types: list[str] = raw if isinstance(raw, list) else [raw]
        names = [_TYPE_NAMES.get(t, t) for t in types]
        hint = ""
        if (
            isinstance(value, str)
            and "integer" in types
            and value.strip().isascii()
            and value.strip().isdigit()
        ):
            hint = f" (write {value.strip()} without quotes)"
        yield Hit(
            path,
            f"{where} is {_describe(value)}, expected {' or '.join(names)}{hint}",
            fix=_retype(path, value, types),
        )
        return
    if kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
        words = {
            "minimum": "at least",
            "exclusiveMinimum": "greater than",
            "maximum": "at most",
            "exclusiveMaximum": "less than",
        }
        yield Hit(path, f"{where} is {value}, must be {words[kind]} {error.validator_value}")
        return
    if kind == "pattern" and "propertyNames" in error.schema_path:
        yield Hit(
            (*path, value),
            f"{value!r} is not a valid variable name (letters, digits and '_', not starting with a digit)",
            at_value=False,
        )
        return
    if kind == "pattern":
        rule = _PATTERN_WORDS.get(error.validator_value, f"must match {error.validator_value}")
        yield Hit(path, f"{where} is {_describe(value)}, which {rule}")
        return
    if kind == "maxLength":
        yield Hit(path, f"{where} is longer than {error.validator_value} characters")
        return
    yield Hit(path, f"{where}: {error.message}")


def _unknown_keys(error: Any, path: DataPath, value: Any, where: str) -> Iterator[Hit]:
    """Each key a mapping does not know, with the closest known spelling (a few of them)."""
    allowed = sorted(error.schema.get("properties", {}))
    extras = [k for k in value if k not in allowed]
    for n, key in enumerate(extras):
        # a spelling hint is worth its cost for a few typos; past that the mapping is not a
        # spec section at all, and the hints would cost more than the rest of lint together
        close_keys = difflib.get_close_matches(key, allowed, n=1, cutoff=0.6) if n < _HINTS else []
        suggestion = (
            f"; did you mean {close_keys[0]!r}?" if close_keys else f"; known keys: {', '.join(allowed)}"
        )
        # a rename is unsafe: the closest spelling is a guess, and the key may be meant for a
        # newer jobc; none when the known key is there already (the rename would duplicate it)
        fix = (
            Fix.make(
                f"rename {key!r} to {close_keys[0]!r}",
                Edit((*path, key), close_keys[0], at_value=False),
                safe=False,
            )
            if close_keys and close_keys[0] not in value
            else None
        )
        yield Hit((*path, key), f"unknown key {key!r} in {where}{suggestion}", at_value=False, fix=fix)


def _not_a_choice(error: Any, root: dict[str, Any], path: DataPath, value: Any, where: str) -> Hit | None:
    """A scalar that is none of the allowed values (None when the value is a section)."""
    choices = _choices(error.schema, root)
    if choices and not isinstance(value, dict | list):
        shown = ", ".join("null" if c is None else str(c) for c in choices)
        hint = ""
        if isinstance(value, str):
            names = [str(c) for c in choices if c is not None]
            # case first: `sigterm` means SIGTERM, not the closest spelling
            same = [c for c in names if c.lower() == value.lower()]
            close = same or difflib.get_close_matches(value, names, n=1, cutoff=0.5)
            if close:
                hint = f"; did you mean {close[0]!r}?"
        return Hit(path, f"{where} is {_describe(value)}, expected one of: {shown}{hint}")
    return None


def _union(error: Any, root: dict[str, Any], path: DataPath, value: Any, where: str) -> Iterator[Hit]:
    """A value that fits no branch of a union: what is wrong inside it, or the types it may have."""
    # a section that may be null ({...} or null): its value is a mapping, so what is wrong is
    # inside it; report that, not the union
    inner = [sub for sub in error.context or [] if len(sub.absolute_path) > len(path)]
    if inner:
        for sub in inner:
            yield from _explain(sub, root)
        return
    # a union such as "integer or null": report the type, or the one branch that fits the type
    for sub in error.context or []:
        if sub.validator not in ("type", "const", "enum") and sub.validator != "$ref":
            yield from _explain(sub, root)
            return
    options: list[str] = []
    for option in error.schema.get("anyOf", []):
        options.extend(_expected_types(_resolve(option, root)))
    if "number" in options:  # a whole number is a number
        options = [t for t in options if t != "integer"]
    names = [_TYPE_NAMES.get(t, t) for t in dict.fromkeys(options) if t not in ("choice", "null")]
    yield Hit(
        path,
        f"{where} is {_describe(value)}, expected {' or '.join(names)}",
        fix=_retype(path, value, options),
    )
