"""The YAML `jobc import` writes: spec data and comments, every text escaped by this writer.

Nothing a script holds is pasted into the YAML. A key is written plain only when it is a plain
name; every string is double-quoted, with `"`, `\\` and every character that could end a line,
move the cursor or be read differently (controls, DEL, C1, line separators, bidirectional
overrides, a BOM) written as a YAML escape; a comment is one line whose unsafe characters are
shown as backslash escapes. A string holding bytes that are not UTF-8 cannot be written at all (a
spec is UTF-8 text): `Unwritable` says which value, and the caller reports it.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from jobc.core.diagnostics import DataPath
from jobc.core.numbers import MAX_DIGITS
from jobc.core.text import UNSAFE, visible

_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_.-]*")
# words YAML 1.1 tools read as booleans or null, whatever YAML 1.2 says: always quoted as keys
_SPECIAL = frozenset({"true", "false", "null", "y", "n", "yes", "no", "on", "off", "~"})
_YAML_ESCAPES = {
    "\0": "\\0",
    "\a": "\\a",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\v": "\\v",
    "\f": "\\f",
    "\r": "\\r",
    "\x1b": "\\e",
    '"': '\\"',
    "\\": "\\\\",
}
_QUOTE = re.compile('["\\\\]|' + UNSAFE.pattern)


class Unwritable(ValueError):
    """A value a YAML file cannot hold (bytes that are not UTF-8, a number past any count)."""

    def __init__(self, path: DataPath, why: str) -> None:
        super().__init__(why)
        self.path = path
        self.why = why


def _yaml_escape(match: re.Match[str]) -> str:
    ch = match.group(0)
    named = _YAML_ESCAPES.get(ch)
    if named is not None:
        return named
    code = ord(ch)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def quoted(text: str, path: DataPath = ()) -> str:
    """``text`` as a YAML double-quoted scalar that reads back as exactly ``text``."""
    if any("\ud800" <= ch <= "\udfff" for ch in text):
        shown = visible(text)
        raise Unwritable(path, f"{shown} holds bytes that are not UTF-8, which a spec cannot hold")
    return '"' + _QUOTE.sub(_yaml_escape, text) + '"'


#: YAML reads a key written before `: ` on its line only within 1,024 characters of its start
#: ("mapping values are not allowed here" after that); a little room is kept for the quotes.
MAX_KEY = 1000


def key(name: Any, path: DataPath = ()) -> str:
    if isinstance(name, str) and _PLAIN_KEY.fullmatch(name) and name.lower() not in _SPECIAL:
        written = name
    else:
        written = quoted(str(name), path)
    if len(written) > MAX_KEY:
        raise Unwritable(path, f"a name of {len(str(name)):,} characters, longer than a YAML key may be")
    return written


def scalar(value: Any, path: DataPath = ()) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        if value.bit_length() > 64 or len(str(abs(value))) > MAX_DIGITS:
            raise Unwritable(path, "a number larger than any spec value")
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return quoted(value, path)
    raise Unwritable(path, f"a {type(value).__name__}, which a spec value never is")


def comment(text: str) -> str:
    """One comment line's text: every unsafe character (a line break included) escaped."""
    return visible(text)


def document(
    data: Mapping[str, Any],
    *,
    order: Sequence[str] = (),
    header: Iterable[str] = (),
    notes: Mapping[DataPath, str] | None = None,
    footer: Iterable[str] = (),
    required: Iterable[str] = (),
) -> str:
    """The YAML text of ``data``: ``header`` comment lines, the mapping (its top-level keys in
    ``order`` first, empty sections left out unless ``required``), a `# note` after each value
    ``notes`` names, and ``footer`` comment lines at the end."""
    notes = notes or {}
    keep = frozenset(required)
    out = [f"# {comment(line)}" if line else "#" for line in header]
    keys = [k for k in order if k in data] + [k for k in data if k not in order]
    stack: list[tuple[DataPath, Any, int]] = [((k,), data[k], 0) for k in reversed(keys)]
    while stack:
        path, value, depth = stack.pop()
        pad = "  " * depth
        name = key(path[-1], path)
        if isinstance(value, Mapping):
            if not _has_values(value) and len(path) == 1 and path[0] in keep:
                out.append(f"{pad}{name}: {{}}")
            elif _has_values(value):
                out.append(f"{pad}{name}:")
                stack.extend(((*path, k), v, depth + 1) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            if value:
                out.append(f"{pad}{name}:")
                for i, item in enumerate(value):
                    note = notes.get((*path, i)) or notes.get(path)
                    out.append(f"{pad}  - {scalar(item, (*path, i))}{_note(note)}")
        else:
            out.append(f"{pad}{name}: {scalar(value, path)}{_note(notes.get(path))}")
    tail = [f"# {comment(line)}" if line else "" for line in footer]
    return "\n".join([*out, *tail]) + "\n"


def _note(text: str | None) -> str:
    return f"  # {comment(text)}" if text else ""


def _has_values(value: Any) -> bool:
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, Mapping):
            stack.extend(node.values())
        elif not isinstance(node, list) or node:
            return True
    return False
