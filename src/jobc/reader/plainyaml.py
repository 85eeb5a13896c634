"""The fastest reading of an ordinary spec: the plain subset of YAML that specs are written in,
read line by line in Python, with no parser library to import.

A lint of one spec is a fresh process, and importing PyYAML (for libyaml, `fastyaml`) took a
tenth of it; ruamel's reading, the reference, takes more. Most specs use a small part of YAML:
block mappings and sequences, one-line plain and quoted scalars, one-line flow collections and
comments. This module reads exactly that, with the data, the positions and the ambiguous-scalar
problems (JC004) that ruamel gives for the same text. Anything else (a block scalar, a scalar
or flow collection over several lines, an empty value, anchors, aliases, tags, document
markers, an unusual key or escape, a tab, a carriage return, a syntax error) makes `parse`
return None, and the caller asks `fastyaml`, then ruamel: a test holds this reading to ruamel's
in every detail wherever it answers.
"""

from __future__ import annotations

from jobc.core.lazyre import lazy
from jobc.reader.locate import MapPos, Pos, SeqPos
from jobc.reader.scalars import Unsupported, plain_value, string_key

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

MAX_DEPTH = 30  # deeper documents are left to the other readers, which report the limits

# What this reader leaves to the others whatever the structure: tabs and carriage returns (where
# the YAML versions differ on separation and line breaks), a byte-order mark, the characters YAML
# 1.1 reads as line breaks and the unprintable ones.
_UNUSUAL = lazy("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]")
# a key as specs write them: words of letters, digits and `_ . $ / @ + = -`, single spaces between
_KEY = lazy(r"([A-Za-z0-9_][A-Za-z0-9_.$/@+=-]*(?: [A-Za-z0-9_.$/@+=-]+)*):(?: +|$)")
# the one-character escapes of a double-quoted scalar that YAML 1.1 and 1.2 read alike
_ESCAPES = {"\\": "\\", '"': '"', "/": "/", "n": "\n", "t": "\t", "r": "\r", "0": "\0", "a": "\a",
            "b": "\b", "e": "\x1b", "f": "\f", "v": "\v"}  # fmt: skip
_HEX = {"x": 2, "u": 4, "U": 8}
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")
# a plain scalar may not start with an indicator; `-`, `?` and `:` only when a space follows
_INDICATORS = frozenset("-?:,[]{}#&*!|>'\"%@`")
# inside flow collections a plain scalar stops at these, and this reader leaves `:` and `#` in
# one to the others
# (searched for from a place on: one search, where a loop in Python took a step per character)
_FLOW_STOP = lazy("[,\\[\\]{}:#'\"]")

Problems = list[tuple[tuple[str | int, ...], str]]

# The specs of a repository share most of their keys and plain values: what each reads as (a
# string key; a value with no YAML 1.1 ambiguity) is kept for the process, up to a bound.
_MEMO = 10_000
_STRING_KEYS: set[str] = set()
_PLAIN: dict[str, Any] = {}
_MISSING: Any = object()


def _string_key(key: str) -> bool:
    """Whether a plain key is a string ruamel reads as such, and short enough to be a key."""
    if len(key) > 1000 or not string_key(key):
        return False
    if len(_STRING_KEYS) < _MEMO:
        _STRING_KEYS.add(key)
    return True


# the ASCII bytes that are never unusual: printable characters and the line feed
_USUAL_BYTES = bytes([0x0A, *range(0x20, 0x7F)])


def _unusual(text: str) -> bool:
    # Deleting the usual ASCII bytes from the text's UTF-8 leaves its ASCII control characters and
    # the encodings of its other characters whole (every byte of those is above 0x7F): what is
    # left is searched, a few characters where the whole text took a search per character.
    rest = text.encode("utf-8", "surrogatepass").translate(None, _USUAL_BYTES)
    if not rest:
        return False
    return _UNUSUAL.search(rest.decode("utf-8", "surrogatepass")) is not None


class _Refuse(Exception):
    """Not in the subset this reader reads: leave the text to the other readers."""


Mark = tuple[int, int]  # 0-based (line, column)


def parse(text: str) -> tuple[Any, Pos, Problems] | None:
    """(data, positions, ambiguous scalars as (path, message)) for a document in the subset, else None."""
    if not text or _unusual(text):
        return None
    try:
        return _Reader(text).document()
    except (_Refuse, Unsupported, RecursionError):
        return None


def scalar_spans(text: str) -> list[tuple[Mark, Mark]] | None:
    """Where every scalar (key or value) starts and ends, in document order, for a document in the
    subset; else None. A `#` inside one of them is text, not a comment."""
    if not text or _unusual(text):
        return None
    try:
        reader = _Reader(text)
        reader.spans = []
        reader.document()
    except (_Refuse, Unsupported, RecursionError):
        return None
    return reader.spans


class _Reader:
    def __init__(self, text: str) -> None:
        # the lines that hold something: (line number, indentation, the line); comments and blank
        # lines are read past
        self.rows: list[tuple[int, int, str]] = []
        append = self.rows.append
        for number, line in enumerate(text.split("\n")):
            body = line.lstrip(" ")
            if not body:
                continue
            first = body[0]
            if first == "#":
                continue
            if first == "%" or (first in "-." and line.startswith(("---", "..."))):
                raise _Refuse  # document markers and directives
            append((number, len(line) - len(body), line))
        self.problems: Problems = []
        self.spans: list[tuple[Mark, Mark]] | None = None  # kept only for `scalar_spans`

    def span(self, number: int, start: int, end: int) -> None:
        if self.spans is not None:
            self.spans.append(((number, start), (number, end)))

    def document(self) -> tuple[Any, Pos, Problems]:
        if not self.rows:
            raise _Refuse  # no document: the other readers say what it is
        _, indent, line = self.rows[0]
        if _entry(line, indent) is None:
            raise _Refuse  # a document that is not a block mapping
        data, pos, end = self.mapping(0, indent, (), 0)
        if end != len(self.rows):
            raise _Refuse  # a line the document's mapping does not take
        return data, pos, self.problems

    def mapping(self, i: int, indent: int, path: tuple[str | int, ...], depth: int) -> tuple[Any, Pos, int]:
        """The block mapping whose keys stand at `indent` from row `i` on: (data, positions, next row)."""
        if depth > MAX_DEPTH:
            raise _Refuse
        rows = self.rows
        count = len(rows)
        spans = self.spans
        key_match = _KEY.match
        number = rows[i][0]
        data: dict[str, Any] = {}
        pos = MapPos(number, indent)
        entries = pos.entries
        while i < count:
            number, at, line = rows[i]
            if at != indent:
                if at > indent:
                    raise _Refuse  # more indented than the keys, after a value that ends on its line
                break
            # the common key, read here; quoted keys, items and refusals by `_entry`
            found = key_match(line, at)
            if found is not None:
                key = found.group(1)
                if key not in _STRING_KEYS and not _string_key(key):
                    raise _Refuse  # a long implicit key, or one that is not a string
                end, start = found.end(1), found.end()
            else:
                entry = _entry(line, at)
                if entry is None:
                    break  # a sequence item at the keys' indentation ends an indentless sequence's mapping
                key, end, start = entry
            if spans is not None:
                spans.append(((number, at), (number, end)))
            if key in data:
                raise _Refuse  # a duplicate key: ruamel reports it
            if start < len(line) and line[start] != "#":
                first = line[start]
                if first in _INDICATORS:
                    value, child, vcol = self.inline(line, start, number, (*path, key), depth)
                else:
                    value, child, vcol = self.plain(line, start, number, path, key), None, start
                data[key] = value
                entries[key] = (number, at, number, vcol, child, value is None)
                i += 1
                continue
            # nothing after the key on its line: a block collection below it
            i += 1
            if i >= count:
                raise _Refuse  # an empty value
            below, col, following = rows[i]
            if col > indent:
                value, child, i = self.block(i, col, (*path, key), depth + 1)
            elif col == indent and _item(following, col) is not None:
                value, child, i = self.sequence(i, col, (*path, key), depth + 1)
            else:
                raise _Refuse  # an empty value
            data[key] = value
            entries[key] = (number, at, below, col, child, False)
        return data, pos, i

    def sequence(self, i: int, indent: int, path: tuple[str | int, ...], depth: int) -> tuple[Any, Pos, int]:
        """The block sequence whose dashes stand at `indent` from row `i` on."""
        if depth > MAX_DEPTH:
            raise _Refuse
        rows = self.rows
        data: list[Any] = []
        pos = SeqPos(rows[i][0], indent)
        items = pos.items
        while i < len(rows):
            number, at, line = rows[i]
            if at != indent:
                if at > indent:
                    raise _Refuse
                break
            start = _item(line, at)
            if start is None:
                break  # a key after an indentless sequence
            where = (*path, len(data))
            if start >= len(line) or line[start] == "#":
                raise _Refuse  # an empty item, or one whose value starts below
            if _entry(line, start) is not None:
                # `- key: value`: a mapping whose first key shares the dash's line
                rows[i] = (number, start, line)
                value, inner, i = self.mapping(i, start, where, depth + 1)
                data.append(value)
                items.append((number, start, inner))
                continue
            if line[start] == "-" and start + 1 < len(line) and line[start + 1] in " ":
                raise _Refuse  # `- - x`: a sequence in a sequence
            if line[start] in _INDICATORS:
                value, child, vcol = self.inline(line, start, number, where, depth)
            else:
                value, child, vcol = self.plain(line, start, number, path, len(data)), None, start
            data.append(value)
            items.append((number, vcol, child))
            i += 1
        return data, pos, i

    def block(self, i: int, indent: int, path: tuple[str | int, ...], depth: int) -> tuple[Any, Pos, int]:
        line = self.rows[i][2]
        if _item(line, indent) is not None:
            return self.sequence(i, indent, path, depth)
        if _entry(line, indent) is not None:
            return self.mapping(i, indent, path, depth)
        raise _Refuse  # a scalar on the line below its key

    def inline(
        self, line: str, start: int, number: int, path: tuple[str | int, ...], depth: int
    ) -> tuple[Any, Pos | None, int]:
        """The value that starts at `start` of `line` and ends on it: (value, its positions, its column)."""
        first = line[start]
        if first in "[{":
            value, child, end = _Flow(self, line, number).collection(start, path, depth + 1)
            _rest(line, end)
            return value, child, start
        if first in "\"'":
            text, end = _quoted(line, start)
            _rest(line, end)
            self.span(number, start, end)
            return text, None, start
        return self.plain(line, start, number, path[:-1], path[-1]), None, start

    def plain(self, line: str, start: int, number: int, path: tuple[str | int, ...], last: str | int) -> Any:
        """A plain scalar from `start` to the line's end or its comment, the value at (*path, last)."""
        if line[start] in _INDICATORS and (
            line[start] != "-" or start + 1 >= len(line) or line[start + 1] == " "
        ):
            raise _Refuse  # an indicator: an anchor, a tag, a block scalar, a nested item …
        end = line.find(" #", start)
        text = (line[start:] if end < 0 else line[start:end]).rstrip(" ")
        if ": " in text or text.endswith(":"):
            raise _Refuse  # a mapping inside a value: a syntax error for the others to report
        if self.spans is not None:
            self.spans.append(((number, start), (number, start + len(text))))
        known = _PLAIN.get(text, _MISSING)
        if known is not _MISSING:
            return known
        value, problem = plain_value(text)
        if problem is not None:
            self.problems.append(((*path, last), problem))
        elif len(_PLAIN) < _MEMO:
            _PLAIN[text] = value
        return value


class _Flow:
    """A flow collection written on one line: `[a, "b", {c: d}]`, `{k: v}`."""

    def __init__(self, reader: _Reader, line: str, number: int) -> None:
        self.reader, self.line, self.number = reader, line, number

    def collection(self, i: int, path: tuple[str | int, ...], depth: int) -> tuple[Any, Pos, int]:
        if depth > MAX_DEPTH:
            raise _Refuse
        line = self.line
        mapping = line[i] == "{"
        close = "}" if mapping else "]"
        data: Any = {} if mapping else []
        pos: Pos = MapPos(self.number, i) if mapping else SeqPos(self.number, i)
        i = self.space(i + 1)
        if self.at(i) == close:
            return data, pos, i + 1
        while True:
            if mapping:
                key, kcol, kend = self.key(i)
                if key in data:
                    raise _Refuse
                self.reader.span(self.number, kcol, kend)
                if self.line[kend : kend + 2] != ": ":
                    raise _Refuse  # `{a:b}`, `{a}`, `{a : b}`: read differently by the YAML versions
                i = self.space(kend + 2)
                value, child, vcol, i = self.value(i, (*path, key), depth)
                data[key] = value
                pos.entries[key] = (self.number, kcol, self.number, vcol, child, value is None)  # type: ignore[union-attr]
            else:
                value, child, vcol, i = self.value(i, (*path, len(data)), depth)
                data.append(value)
                pos.items.append((self.number, vcol, child))  # type: ignore[union-attr]
            i = self.space(i)
            if self.at(i) == close:
                return data, pos, i + 1
            if self.at(i) != ",":
                raise _Refuse
            i = self.space(i + 1)
            if self.at(i) in (close, ","):
                raise _Refuse  # a trailing or doubled comma

    def at(self, i: int) -> str:
        return self.line[i] if i < len(self.line) else ""

    def space(self, i: int) -> int:
        while self.at(i) == " ":
            i += 1
        return i

    def stop(self, i: int) -> int:
        """Where the plain scalar from `i` stops: at the first of `_FLOW_STOP`, or at the line's end."""
        found = _FLOW_STOP.search(self.line, i)
        return len(self.line) if found is None else found.start()

    def key(self, i: int) -> tuple[str, int, int]:
        """The key that starts at `i`: (its text, where it starts, where it ends)."""
        if self.at(i) in ('"', "'"):
            text, end = _quoted(self.line, i)
            return text, i, end
        end = self.stop(i)
        text = self.line[i:end].rstrip(" ")
        if not text or not _KEY.fullmatch(text + ": ") or not string_key(text):
            raise _Refuse
        return text, i, i + len(text)

    def value(self, i: int, path: tuple[str | int, ...], depth: int) -> tuple[Any, Pos | None, int, int]:
        """(value, its positions, where it starts, where it ends)."""
        first = self.at(i)
        if first in ("[", "{"):
            value, child, end = self.collection(i, path, depth + 1)
            return value, child, i, end
        if first in ('"', "'"):
            text, end = _quoted(self.line, i)
            self.reader.span(self.number, i, end)
            return text, None, i, end
        end = self.stop(i)
        text = self.line[i:end].rstrip(" ")
        if not text or (text[0] in _INDICATORS and (text[0] != "-" or len(text) < 2 or text[1] == " ")):
            raise _Refuse  # an empty value, or one that starts with an indicator
        self.reader.span(self.number, i, i + len(text))
        value, problem = plain_value(text)
        if problem is not None:
            self.reader.problems.append((path, problem))
        return value, None, i, end


def _entry(line: str, at: int) -> tuple[str, int, int] | None:
    """(key, where it ends, where its value starts) when `line` holds `key:` at column `at`."""
    first = line[at] if at < len(line) else ""
    if first in ('"', "'"):
        text, end = _quoted(line, at)
        if line[end : end + 1] != ":" or (end + 1 < len(line) and line[end + 1] != " "):
            return None
        return text, end, _skip(line, end + 1)
    found = _KEY.match(line, at)
    if found is None:
        if first == "-" and (at + 1 >= len(line) or line[at + 1] == " "):
            return None  # a sequence item
        cut = line.find(" #", at)
        body = (line[at:] if cut < 0 else line[at:cut]).rstrip(" ")
        if ": " in body or body.endswith(":"):
            raise _Refuse  # a key this reader does not read
        return None
    key = found.group(1)
    if len(key) > 1000 or not string_key(key):
        raise _Refuse  # a long implicit key, or one that is not a string
    return key, found.end(1), found.end()


def _item(line: str, at: int) -> int | None:
    """Where a sequence item's value starts when `line` holds `- ` at column `at`, else None."""
    if line.startswith("-", at) and (at + 1 == len(line) or line[at + 1] == " "):
        return _skip(line, at + 1)
    return None


def _skip(line: str, i: int) -> int:
    while i < len(line) and line[i] == " ":
        i += 1
    return i


def _rest(line: str, end: int) -> None:
    """After a value that closes on its line: nothing but spaces and a comment."""
    rest = line[end:]
    if rest.strip(" ") and not (rest.startswith(" ") and rest.lstrip(" ").startswith("#")):
        raise _Refuse


def _quoted(line: str, start: int) -> tuple[str, int]:
    """The text of the quoted scalar at `start` and the index after its closing quote."""
    quote = line[start]
    i = start + 1
    if quote == "'":
        out = []
        while True:
            close = line.find("'", i)
            if close < 0:
                raise _Refuse  # it goes on to the next line
            if line.startswith("'", close + 1):  # '' is one quote
                out.append(line[i : close + 1])
                i = close + 2
                continue
            out.append(line[i:close])
            return "".join(out), close + 1
    close = line.find('"', i)
    if close < 0:
        raise _Refuse
    if line.find("\\", i, close) < 0:
        return line[i:close], close + 1  # no escape: the text as written
    out = []
    n = len(line)
    while i < n:
        ch = line[i]
        if ch == '"':
            return "".join(out), i + 1
        if ch == "\\":
            i = _escape(line, i + 1, out)
            continue
        out.append(ch)
        i += 1
    raise _Refuse  # it goes on to the next line


def _escape(line: str, i: int, out: list[str]) -> int:
    code = line[i] if i < len(line) else ""
    if code in _ESCAPES:
        out.append(_ESCAPES[code])
        return i + 1
    width = _HEX.get(code)
    digits = line[i + 1 : i + 1 + width] if width else ""
    if not width or len(digits) != width or not _HEX_DIGITS.issuperset(digits):
        raise _Refuse  # an escape the YAML versions read differently, or none
    value = int(digits, 16)
    if 0xD800 <= value <= 0xDFFF or value > 0x10FFFF:
        raise _Refuse  # half a surrogate pair, or no character: ruamel reports it
    out.append(chr(value))
    return i + 1 + width
