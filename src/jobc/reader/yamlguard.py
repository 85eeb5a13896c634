"""Checks that run before (or instead of) the YAML parser, so hostile input costs no parser time.

ruamel's pure-Python scanner is quadratic in flow nesting (ten thousand `[` take minutes), and
copying an alias bomb into plain data costs time in proportion to its expanded size. Both are
measured here first, in linear time, on what the parser has not yet seen or has built without
expanding.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

# A fallback for machines without libyaml, where the brackets are counted without reading quotes:
# a generous bound that ordinary text never reaches, and ruamel stays fast up to it.
_RAW_FACTOR = 4

_BOMS = (
    (b"\x00\x00\xfe\xff", "UTF-32"),
    (b"\xff\xfe\x00\x00", "UTF-32"),
    (b"\xfe\xff", "UTF-16"),
    (b"\xff\xfe", "UTF-16"),
)


def foreign_encoding(raw: bytes) -> str | None:
    """The name of a UTF-16/32 encoding the bytes announce with a byte-order mark, if any."""
    for bom, name in _BOMS:
        if raw.startswith(bom):
            return name
    return None


def too_deep(text: str, limit: int) -> tuple[int, int] | None:
    """Where (0-based line, column) collections first nest deeper than ``limit``, if they do.

    With libyaml the parser's own events are counted (a C parser, linear, quotes and block
    scalars understood); without it, flow brackets are counted outside comments.
    """
    try:
        from yaml import _yaml as libyaml
        from yaml import events
    except ImportError:
        return _raw_depth(text, limit * _RAW_FACTOR)
    starts = (events.MappingStartEvent, events.SequenceStartEvent)
    ends = (events.MappingEndEvent, events.SequenceEndEvent)
    parser = libyaml.CParser(text)
    depth = documents = 0
    try:
        while True:
            event = parser.get_event()
            if event is None or isinstance(event, events.StreamEndEvent):
                return None
            if isinstance(event, events.DocumentStartEvent):
                documents += 1
                if documents > 1:  # the reader refuses a second document; the rest is never read
                    return None
            if isinstance(event, starts):
                depth += 1
                if depth > limit:
                    return event.start_mark.line, event.start_mark.column
            elif isinstance(event, ends):
                depth -= 1
    except Exception:  # a syntax error: the real parser reports it in its own words
        return None
    finally:
        parser.dispose()


def _raw_depth(text: str, limit: int) -> tuple[int, int] | None:
    depth = line = col = 0
    comment = False
    previous = "\n"
    for ch in text:
        if ch == "\n":
            line, col, comment = line + 1, 0, False
            previous = ch
            continue
        if not comment:
            if ch == "#" and previous in " \t\n":
                comment = True
            elif ch in "[{":
                depth += 1
                if depth > limit:
                    return line, col
            elif ch in "]}" and depth:
                depth -= 1
        previous = ch
        col += 1
    return None


def expands_beyond(tree: Any, limit: int) -> bool:
    """Whether copying ``tree`` (ruamel's nodes, aliases shared) would visit more than ``limit``
    nodes. Sizes are memoised per node, so a billion laughs is sized in a few thousand steps;
    a node that contains itself is left to the copy, which reports the cycle."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq

    sizes: dict[int, int] = {}
    active: set[int] = set()
    stack: list[tuple[Any, bool]] = [(tree, False)]
    while stack:
        node, done = stack.pop()
        if not isinstance(node, CommentedMap | CommentedSeq):
            continue
        key = id(node)
        children = list(node.values()) if isinstance(node, CommentedMap) else list(node)
        if done:
            active.discard(key)
            total = 1 + sum(
                sizes.get(id(c), 1) if isinstance(c, CommentedMap | CommentedSeq) else 1 for c in children
            )
            sizes[key] = total
            if total > limit:
                return True
            continue
        if key in sizes or key in active:
            continue
        active.add(key)
        stack.append((node, True))
        stack.extend((child, False) for child in children)
    return False


def describe_key(key: Any) -> str:
    """A non-string mapping key as the user wrote it, not as Python prints it."""
    if key is None:
        return "null"
    if isinstance(key, bool):
        return "true" if key else "false"
    if isinstance(key, int | float):
        return str(key)
    if isinstance(key, tuple | list):
        return "a sequence"
    if hasattr(key, "items"):
        return "a mapping"
    if hasattr(key, "isoformat"):
        return str(key.isoformat())
    return f"a {type(key).__name__}"


def tab_problem(problem: str) -> str | None:
    """A clearer message for the scanner's complaint about a tab, or None for other problems."""
    if "'\\t'" in problem:
        return "a tab character here: YAML indents with spaces only; replace the tab with spaces"
    return None
