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

from jobc.locate import MapPos, Pos, SeqPos

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

_NULLS = frozenset(["", "~", "null", "Null", "NULL"])
_BOOLS = {"true": True, "True": True, "TRUE": True, "false": False, "False": False, "FALSE": False}
_INT = re.compile(r"(?:0|-?[1-9][0-9]*)\Z")
_FLOAT = re.compile(r"-?(?:0|[1-9][0-9]*)\.[0-9]+\Z")
# the first characters of what YAML 1.2 (as ruamel reads it) may take for a number or a date
_NUMERIC_START = frozenset("-+.0123456789<=")
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


def _ruamel_number(value: str) -> bool:
    return re.match(_RUAMEL_NUMBERS, value, re.X) is not None


def _numeric_key(value: str) -> bool:
    return value[0] in _NUMERIC_START and _ruamel_number(value)


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


class _Unsupported(Exception):
    pass


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
    from jobc.source import plain_string_problem

    get = parser.get_event
    scalar_event = _events.ScalarEvent
    map_start, seq_start = _events.MappingStartEvent, _events.SequenceStartEvent
    map_end, seq_end = _events.MappingEndEvent, _events.SequenceEndEvent
    if type(get()) is not _events.StreamStartEvent:
        raise _Unsupported
    doc = get()
    if type(doc) is not _events.DocumentStartEvent or doc.version is not None or doc.tags:
        raise _Unsupported
    problems: list[tuple[tuple[str | int, ...], str]] = []
    # one frame per open collection: [data, positions, path, pending key, key line, key col];
    # the bottom frame holds the document's root value and has no path of its own
    top: list[Any] = [[], SeqPos(0, 0), None, None, 0, 0]
    stack = [top]
    lines: list[str] | None = None
    while True:
        event = get()
        kind = type(event)
        if kind is scalar_event:
            if event.anchor is not None or event.tag is not None:
                raise _Unsupported
            frame = stack[-1]
            value, style = event.value, event.style
            mark = event.start_mark
            if frame[3] is None and type(frame[0]) is dict:
                if style == "" and (
                    value in _NULLS
                    or value in _BOOLS
                    or (value[0] in _NUMERIC_START and _ruamel_number(value))
                ):
                    raise _Unsupported  # a key that is not a plain string
                if value in frame[0]:
                    raise _Unsupported  # ruamel reports the duplicate
                frame[3], frame[4], frame[5] = value, mark.line, mark.column
                continue
            if style != "":
                if style in "|>":
                    if frame is top:
                        raise _Unsupported  # at the root, the two disagree on where its text ends
                    if lines is None:
                        lines = text.splitlines()
                    if not _block_scalar_ok(lines, mark.line, mark.column):
                        raise _Unsupported
                data: Any = value
            elif value in _NULLS:
                data = None
            elif value in _BOOLS:
                data = _BOOLS[value]
            elif value[0] in _NUMERIC_START and _INT.match(value):
                data = int(value)
            elif value[0] in _NUMERIC_START and _FLOAT.match(value):
                data = float(value)
            elif value[0] in _NUMERIC_START and _ruamel_number(value):
                raise _Unsupported
            else:
                data = value
                message = plain_string_problem(value)
                if message is not None:
                    problems.append((_child_path(frame), message))
            _attach(frame, data, None, mark.line, mark.column)
            if frame is top:
                break
        elif kind is map_start or kind is seq_start:
            if event.anchor is not None or event.tag is not None or len(stack) > MAX_DEPTH:
                raise _Unsupported
            parent = stack[-1]
            if parent[3] is None and type(parent[0]) is dict:
                raise _Unsupported  # a collection as a key
            mark = event.start_mark
            pos: Pos
            if kind is map_start:
                container: Any = {}
                pos = MapPos(mark.line, mark.column)
            else:
                container = []
                pos = SeqPos(mark.line, mark.column)
            path = _child_path(parent)
            _attach(parent, container, pos, mark.line, mark.column)
            stack.append([container, pos, path, None, 0, 0])
        elif kind is map_end or kind is seq_end:
            stack.pop()
            if len(stack) == 1:
                break
        else:  # an alias
            raise _Unsupported
    if type(get()) is not _events.DocumentEndEvent or type(get()) is not _events.StreamEndEvent:
        raise _Unsupported  # a second document
    _, _, root_pos = top[1].items[0]
    # a document that is a single scalar has no positions inside it: every path falls back to 1:1
    return top[0][0], root_pos if root_pos is not None else MapPos(0, 0), problems


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


def _child_path(frame: list[Any]) -> tuple[str | int, ...]:
    """The data path of the value about to be added to this frame."""
    if frame[2] is None:
        return ()
    container = frame[0]
    return (*frame[2], frame[3] if type(container) is dict else len(container))


def _attach(frame: list[Any], data: Any, pos: Pos | None, line: int, col: int) -> None:
    container = frame[0]
    if type(container) is dict:
        key = frame[3]
        container[key] = data
        frame[1].entries[key] = (frame[4], frame[5], line, col, pos, data is None)
        frame[3] = None
    else:
        container.append(data)
        frame[1].items.append((line, col, pos))
