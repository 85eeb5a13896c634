"""A small validator for the spec's own JSON Schema: answers "valid or not", fast.

The clean spec is the common case (a pre-commit hook runs on every commit), so lint asks this
walker first and loads the full explainer (jsonschema plus messages) only for a spec that fails.
It understands exactly the keywords the generated schema uses and follows pydantic's strict
mode, so it accepts what the models accept; a test holds the two to that.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache

from jobc.core.lazyre import lazy

_IGNORED = frozenset({"title", "description", "default", "examples", "$schema", "$id", "$comment"})
_END = lazy(r"(?<!\\)\$")


@cache
def regex(pattern: str) -> re.Pattern[str]:
    """A schema pattern as JSON Schema means it: `$` is the end of the text. Python's `$` also
    matches before a final newline, which let `env: {"FOO\\n": x}` pass the check and break
    the script. Compiled from `jobc.core.compiled`, which holds the schema's patterns too
    (`patterns`): a lint compiled two or three of them in every run."""
    from jobc.core.compiled import compile

    return compile(_END.sub(r"\\Z", pattern))


def patterns() -> Iterator[str]:
    """Every pattern of the packaged schema as `regex` compiles it, for `tools/regen.py`'s table."""
    from jobc.data.literals import SCHEMA_DEFS

    stack: list[object] = [SCHEMA_DEFS]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            want = node.get("pattern")
            if isinstance(want, str):
                yield _END.sub(r"\\Z", want)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    Check = Callable[[Any], bool]


def valid(data: Any, definition: str) -> bool:
    """Whether ``data`` matches ``#/$defs/<definition>`` of the packaged schema."""
    return _validators()[definition](data)


@cache
def _validators() -> dict[str, Check]:
    """One function per definition, built from the schema the first time it is needed.

    Walking the schema's dictionaries for every value cost a fifth of a lint in a long run; the
    functions do the same checks, in the same way, with the walking done once. A definition (and
    an object's property) is compiled when a value first reaches it: a spec meets a few of the
    schema's hundreds of nodes, and compiling all of them was a millisecond of every cold lint.
    """
    from jobc.data.literals import SCHEMA_DEFS  # the packaged schema's, as literals: no json to import

    return _Definitions(SCHEMA_DEFS)


class _Definitions(dict[str, "Check"]):
    """Each definition's check by name, compiled on first lookup (the schema is packaged data)."""

    def __init__(self, nodes: dict[str, Any]) -> None:
        super().__init__()
        self._nodes = nodes

    def __missing__(self, name: str) -> Check:
        check = self[name] = _compile(self._nodes[name], self)
        return check


# a tuple: `int | float` in a check would make a union object at every call
_NUMBER = (int, float)


def _type_check(name: str) -> Check:
    if name == "integer":
        return lambda v: isinstance(v, int) and not isinstance(v, bool)
    if name == "number":
        return lambda v: isinstance(v, _NUMBER) and not isinstance(v, bool)
    if name == "string":
        return lambda v: isinstance(v, str)
    if name == "boolean":
        return lambda v: isinstance(v, bool)
    if name == "null":
        return lambda v: v is None
    if name == "object":
        return lambda v: isinstance(v, dict)
    if name == "array":
        return lambda v: isinstance(v, list)
    raise ValueError(f"schema type {name!r} is not supported")


def _compile(node: dict[str, Any], defs: dict[str, Check]) -> Check:
    """The checks of one schema node, all of which must pass."""
    checks: list[Check] = []
    for key, want in node.items():
        if key in _IGNORED or key in ("if", "then", "else", "properties", "additionalProperties"):
            # if/then/else: only the top-level document switch uses these; lint picks the branch
            continue
        if key == "$ref":
            checks.append(_ref(defs, want.rsplit("/", 1)[-1]))
        elif key == "type":
            types = [_type_check(n) for n in (want if isinstance(want, list) else [want])]
            checks.append(types[0] if len(types) == 1 else _any(types))
        elif key == "anyOf":
            checks.append(_any([_compile(option, defs) for option in want]))
        elif key == "enum":
            checks.append(_any([_const(w) for w in want]))
        elif key == "const":
            checks.append(_const(want))
        elif key == "propertyNames":
            checks.append(_names(_compile(want, defs)))
        elif key == "required":
            checks.append(_required(tuple(want)))
        elif key == "items":
            checks.append(_items(_compile(want, defs)))
        elif key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            checks.append(_bound_check(key, want))
        elif key in ("pattern", "maxLength", "minLength"):
            checks.append(_string_check(key, want))
        else:
            raise ValueError(f"schema keyword {key!r} is not supported by the fast check")
    if "properties" in node or "additionalProperties" in node:
        checks.append(_object_check(node, defs))
    if not checks:
        return lambda v: True
    if len(checks) == 1:
        return checks[0]
    return _all(checks)


def _ref(defs: dict[str, Check], name: str) -> Check:
    # looked up when called: definitions refer to each other in any order
    return lambda v: defs[name](v)  # noqa: PLW0108


# plain loops: a generator handed to all()/any() costs more than the checks it runs
def _all(checks: list[Check]) -> Check:
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) and second(v)

    def check(value: Any) -> bool:
        for one in checks:  # noqa: SIM110 - see above
            if not one(value):
                return False
        return True

    return check


def _any(checks: list[Check]) -> Check:
    if len(checks) == 2:
        first, second = checks
        return lambda v: first(v) or second(v)

    def check(value: Any) -> bool:
        for one in checks:  # noqa: SIM110 - see above
            if one(value):
                return True
        return False

    return check


def _const(want: Any) -> Check:
    return lambda v: bool(v == want and type(v) is type(want))


def _names(check: Check) -> Check:
    return lambda v: not isinstance(v, dict) or all(check(k) for k in v)


def _required(keys: tuple[str, ...]) -> Check:
    return lambda v: not isinstance(v, dict) or all(k in v for k in keys)


def _items(check: Check) -> Check:
    def items(value: Any) -> bool:
        if isinstance(value, list):
            for item in value:
                if not check(item):
                    return False
        return True

    return items


def _object_check(node: dict[str, Any], defs: dict[str, Check]) -> Check:
    """`properties` and `additionalProperties` together: one pass over the mapping's items."""
    nodes: dict[str, Any] = node.get("properties", {})
    known: dict[str, Check] = {}  # a property's check, compiled when a value first has it
    extra = node.get("additionalProperties", True)
    other: Check | None = None
    if extra is False:
        other = _never
    elif isinstance(extra, dict):
        other = _compile(extra, defs)

    def check(value: Any) -> bool:
        if not isinstance(value, dict):
            return True
        for name, item in value.items():
            sub = known.get(name)
            if sub is None:
                if name in nodes:
                    sub = known[name] = _compile(nodes[name], defs)
                else:
                    sub = other
            if sub is not None and not sub(item):
                return False
        return True

    return check


def _never(value: Any) -> bool:
    return False


def _bound_check(key: str, limit: float) -> Check:
    def check(value: Any) -> bool:
        return not isinstance(value, _NUMBER) or isinstance(value, bool) or _bound(key, value, limit)

    return check


def _string_check(key: str, want: Any) -> Check:
    def check(value: Any) -> bool:
        return not isinstance(value, str) or _string_ok(key, value, want)

    return check


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
        return regex(want).search(value) is not None
    if key == "maxLength":
        return bool(len(value) <= want)
    return bool(len(value) >= want)
