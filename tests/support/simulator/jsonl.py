"""JSON lines as the sandbox's processes write them (records, events), without the `json` package.

Every stub starts a Python interpreter of its own, and importing `json` (with `re`, `enum` and
more behind it) cost as much as starting the interpreter: this writes the few shapes the records
and events have — dicts, lists, texts, numbers, booleans, None — as `json.dumps(ensure_ascii=True)`
writes them, with the encoder `json` itself uses for a text. The test process reads them with
`json.loads`. Standard library only.
"""

from __future__ import annotations

from _json import encode_basestring_ascii as _text


def dumps(value: object) -> str:
    if isinstance(value, str):
        return str(_text(value))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return float.__repr__(value)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{_text(str(k))}: {dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(dumps(v) for v in value) + "]"
    raise TypeError(f"not written as JSON: {type(value).__name__}")
