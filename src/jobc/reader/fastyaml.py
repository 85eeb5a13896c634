"""The fast reading of an ordinary spec: libyaml's C parser, read with YAML 1.2 rules.

ruamel's round-trip loader is pure Python and costs tens of milliseconds for a page of YAML, more
than everything else lint does; libyaml (through PyYAML's C extension) reads the same page in
well under one. libyaml implements YAML 1.1 and does not resolve values itself, so this module
takes its events and does what the round-trip loader would do for the plain subset of YAML that
specs are written in: block and flow mappings and sequences, string keys, quoted, block and plain
scalars with the YAML 1.2 core types. It records the same positions and the same ambiguous-scalar
problems (JC004).

Anything outside that subset — anchors and aliases, tags, directives, merge keys, non-string or
duplicate keys, several documents, a syntax error, numbers in any but the simplest spelling,
dates, characters where the two YAML versions differ — makes `parse` return None, and the caller
uses ruamel, which stays the reference: a test holds the two to the same data, problems and
positions.
"""

from __future__ import annotations

import re
from typing import Any

from jobc.reader.locate import MapPos, Pos, SeqPos
from jobc.reader.scalars import Unsupported as _Unsupported
from jobc.reader.scalars import plain_value as _plain
from jobc.reader.scalars import string_key

try:
    from yaml import _yaml as _libyaml
    from yaml import events as _events
    from yaml import tokens as _tokens
    from yaml.error import YAMLError as _YAMLError
except ImportError:  # PyYAML without its C extension, or none at all: ruamel does all the reading
    _libyaml = None

AVAILABLE = _libyaml is not None

MAX_DEPTH = 32  # deeper documents go to ruamel, which reports the nesting limit

# Characters that YAML 1.1 (libyaml) and YAML 1.2 (ruamel) treat differently (NEL and the Unicode
# line separators are line breaks only in 1.1), tabs (where the versions differ on separation),
# and the unprintable ones, which each parser rejects in its own words. Written as the characters
# to find rather than the printable ones to allow: that class compiles in a fraction of the time.
_UNUSUAL = re.compile("[\x00-\x09\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff\ufffe\uffff]")

# A `"\ud800"` escape makes half a surrogate pair, which is no character: ruamel's reading reports it.
_SURROGATE = re.compile("[\ud800-\udfff]")


def scalar_spans(text: str) -> list[tuple[tuple[int, int], tuple[int, int]]] | None:
    """Where every scalar token starts and ends (0-based line, column), or None: ask ruamel."""
    if not _ordinary(text):
        return None
    parser = _libyaml.CParser(text)
    scalar = _tokens.ScalarToken
    out = []
    try:
        while (token := parser.get_token()) is not None:
            if type(token) is scalar:
                start, end = token.start_mark, token.end_mark
                out.append(((start.line, start.column), (end.line, end.column)))
    except _YAMLError:
        return None
    return out


def _ordinary(text: str) -> bool:
    """Whether libyaml may read this text at all: it is there, and nothing in it reads otherwise."""
    return (
        _libyaml is not None
        and bool(text)
        and not text.startswith("...")
        and "\n..." not in text
        and _UNUSUAL.search(text) is None
    )


# a block scalar's header as YAML 1.2 allows it: libyaml also takes a comment without a space
_BLOCK_HEADER = re.compile(r"[|>](?:[1-9][-+]?|[-+][1-9]?)?(?: +(?:#.*)?)?\Z")


def parse(text: str) -> tuple[Any, Pos, list[tuple[tuple[str | int, ...], str]]] | None:
    """(data, positions, ambiguous scalars as (path, message)) for an ordinary document, else None."""
    if not _ordinary(text):
        return None
    try:
        return _walk(_libyaml.CParser(text), text)
    except (_Unsupported, _YAMLError):
        return None


def _walk(parser: Any, text: str) -> tuple[Any, Pos, list[tuple[tuple[str | int, ...], str]]]:
    get = parser.get_event
    scalar_event = _events.ScalarEvent
    map_start, seq_start = _events.MappingStartEvent, _events.SequenceStartEvent
    map_end, seq_end = _events.MappingEndEvent, _events.SequenceEndEvent
    _open_document(get)
    problems: list[tuple[tuple[str | int, ...], str]] = []
    lines: list[str] | None = None
    # The open collection lives in locals (its data, whether it is a mapping, its positions, its
    # path, the key waiting for its value and where that key is); the enclosing ones wait on the
    # stack. The bottom level holds the document's root value and has no path (None).
    root: list[Any] = []
    root_pos = SeqPos(0, 0)
    data: Any = root
    is_map = False
    entries: Any = root_pos.items
    path: tuple[str | int, ...] | None = None
    key: Any = None
    kline = kcol = 0
    stack: list[tuple[Any, ...]] = []
    while True:
        event = get()
        kind = type(event)
        if kind is scalar_event:
            if event.anchor is not None or event.tag is not None:
                raise _Unsupported
            value, style = event.value, event.style
            mark = event.start_mark
            if style == '"' and _SURROGATE.search(value):
                raise _Unsupported
            if is_map and key is None:
                if style == "" and not string_key(value):
                    raise _Unsupported  # a key that is not a plain string
                if value in data:
                    raise _Unsupported  # ruamel reports the duplicate
                key, kline, kcol = value, mark.line, mark.column
                continue
            if style != "":
                if style in "|>":
                    if path is None:
                        raise _Unsupported  # at the root, the two disagree on where its text ends
                    if lines is None:
                        lines = text.splitlines()
                    if not _block_scalar_ok(lines, mark.line, mark.column):
                        raise _Unsupported
                item: Any = value
            else:
                item, message = _plain(value)
                if message is not None:
                    problems.append((_child(path, key if is_map else len(data)), message))
            if is_map:
                data[key] = item
                entries[key] = (kline, kcol, mark.line, mark.column, None, item is None)
                key = None
            else:
                data.append(item)
                entries.append((mark.line, mark.column, None))
            if path is None:
                break
        elif kind is map_start or kind is seq_start:
            if event.anchor is not None or event.tag is not None or len(stack) >= MAX_DEPTH:
                raise _Unsupported
            if is_map and key is None:
                raise _Unsupported  # a collection as a key
            mark = event.start_mark
            pos: Pos
            if kind is map_start:
                container: Any = {}
                pos = MapPos(mark.line, mark.column)
            else:
                container = []
                pos = SeqPos(mark.line, mark.column)
            if is_map:
                data[key] = container
                entries[key] = (kline, kcol, mark.line, mark.column, pos, False)
            else:
                data.append(container)
                entries.append((mark.line, mark.column, pos))
            stack.append((data, is_map, entries, path, key, kline, kcol))
            path = _child(path, key if is_map else len(data) - 1)
            data, key = container, None
            if kind is map_start:
                is_map, entries = True, pos.entries  # type: ignore[union-attr]
            else:
                is_map, entries = False, pos.items  # type: ignore[union-attr]
        elif kind is map_end or kind is seq_end:
            data, is_map, entries, path, key, kline, kcol = stack.pop()
            key = None  # the collection just closed was this key's value
            if path is None:
                break
        else:  # an alias
            raise _Unsupported
    if type(get()) is not _events.DocumentEndEvent or type(get()) is not _events.StreamEndEvent:
        raise _Unsupported  # a second document
    _, _, top = root_pos.items[0]
    # a document that is a single scalar has no positions inside it: every path falls back to 1:1
    return root[0], top if top is not None else MapPos(0, 0), problems


def _open_document(get: Any) -> None:
    """Read past the stream's and the document's start; a %YAML or %TAG directive is ruamel's."""
    if type(get()) is not _events.StreamStartEvent:
        raise _Unsupported
    doc = get()
    if type(doc) is not _events.DocumentStartEvent or doc.version is not None or doc.tags:
        raise _Unsupported


def _block_scalar_ok(lines: list[str], line: int, col: int) -> bool:
    """Whether ruamel reads this block scalar's header and leading blank lines as libyaml does."""
    if not _BLOCK_HEADER.match(lines[line], col):
        return False
    for following in lines[line + 1 :]:
        if following.strip(" "):
            return True
        if following:  # ruamel refuses some leading lines of spaces that libyaml takes as blank
            return False
    return True


def _child(path: tuple[str | int, ...] | None, last: str | int) -> tuple[str | int, ...]:
    """The data path of a value in the collection at ``path`` (None: the document's root)."""
    return () if path is None else (*path, last)
