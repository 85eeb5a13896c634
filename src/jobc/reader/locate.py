"""Turning data paths into spans. The only place in jobc that computes line and column numbers.

The loader records where every key, value and sequence item starts (0-based) in a small position
tree (`MapPos`/`SeqPos`); ends are found by reading the scalar's text on its line.
"""

from __future__ import annotations

import re

from jobc.core.diagnostics import DataPath, Span
from jobc.core.lazyre import lazy
from jobc.core.record import record

_NULL = lazy(r"(~|null|Null|NULL)(?=$|[\s,\]}])")


class MapPos:
    """A mapping: where it starts, and for each string key where the key and its value start."""

    __slots__ = ("col", "entries", "line")

    def __init__(self, line: int, col: int) -> None:
        self.line, self.col = line, col
        # key -> (key line, key col, value line, value col, value's own positions, value is null)
        self.entries: dict[str, tuple[int, int, int, int, Pos | None, bool]] = {}


class SeqPos:
    """A sequence: where it starts, and where each item starts."""

    __slots__ = ("col", "items", "line")

    def __init__(self, line: int, col: int) -> None:
        self.line, self.col = line, col
        self.items: list[tuple[int, int, Pos | None]] = []  # (line, col, item's own positions)


Pos = MapPos | SeqPos


@record
class Located:
    span: Span
    exact: bool  # False: the path is not in this file, the span is its deepest existing ancestor


def locate(tree: Pos | None, lines: list[str], path: DataPath, *, at_value: bool = True) -> Located:
    """The span of ``path`` in ``tree``: the value for scalars (when ``at_value``), else the key."""
    node = tree
    key_pos: tuple[int, int] | None = None
    key_len = 1
    for depth, part in enumerate(path):
        last = depth == len(path) - 1
        if isinstance(node, MapPos) and isinstance(part, str) and part in node.entries:
            kline, kcol, vline, vcol, child, null = node.entries[part]
            if last and at_value and child is None:
                if null and not _spells_null(lines, vline, vcol):
                    # `key:` with nothing after it: the parser places the value at the next token,
                    # which belongs to another key; the key itself is what the user sees.
                    return Located(_key_span(lines, (kline, kcol), len(part)), True)
                return Located(_scalar_span(lines, vline, vcol), True)
            key_pos, key_len = (kline, kcol), len(part)
            if last and at_value and child is not None and _is_flow(lines, vline, vcol):
                return Located(_scalar_span(lines, vline, vcol), True)
            node = child
        elif isinstance(node, SeqPos) and isinstance(part, int) and 0 <= part < len(node.items):
            iline, icol, child = node.items[part]
            if child is None or last:
                return Located(_scalar_span(lines, iline, icol), last)
            key_pos, key_len = (iline, icol), 1
            node = child
        else:
            return Located(_fallback(node, key_pos, key_len, lines), False)
    if key_pos is None:
        return Located(_fallback(node, None, 1, lines), not path)
    return Located(_key_span(lines, key_pos, key_len), True)


def _fallback(node: Pos | None, key_pos: tuple[int, int] | None, key_len: int, lines: list[str]) -> Span:
    if key_pos is not None:
        return _key_span(lines, key_pos, key_len)
    if node is not None:
        return Span.point(node.line + 1, node.col + 1)
    return Span.point(1, 1)


def _key_span(lines: list[str], pos: tuple[int, int], length: int) -> Span:
    line, col = pos
    text = lines[line] if line < len(lines) else ""
    if col < len(text) and text[col] in "\"'":
        return _scalar_span(lines, line, col)
    return Span(line + 1, col + 1, line + 1, col + 1 + max(length, 1))


def _spells_null(lines: list[str], line: int, col: int) -> bool:
    text = lines[line] if line < len(lines) else ""
    return _NULL.match(text, col) is not None


def _is_flow(lines: list[str], line: int, col: int) -> bool:
    text = lines[line] if line < len(lines) else ""
    return col < len(text) and text[col] in "[{"


def _scalar_span(lines: list[str], line: int, col: int) -> Span:
    """The scalar that starts at (line, col), 0-based, up to where it ends on that line."""
    text = lines[line] if line < len(lines) else ""
    if col >= len(text):
        return Span.point(line + 1, col + 1)
    start = text[col]
    end = len(text)
    if start in "\"'":
        i = col + 1
        while i < len(text):
            if start == "'" and text[i] == "'" and i + 1 < len(text) and text[i + 1] == "'":
                i += 2
                continue
            if start == '"' and text[i] == "\\":
                i += 2
                continue
            if text[i] == start:
                end = i + 1
                break
            i += 1
    elif start in "[{":
        depth = 0
        for i in range(col, len(text)):
            if text[i] in "[{":
                depth += 1
            elif text[i] in "]}":
                depth -= 1
                if depth == 0:
                    end = i + 1
                    break
    elif start in "|>":
        end = col + 1
    else:
        # a plain scalar ends at " #", at a flow indicator inside flow context, or at the line end
        comment = text.find(" #", col)
        if comment >= 0:
            end = comment
        for stop in (",", "]", "}"):
            i = text.find(stop, col)
            if i >= 0 and _inside_flow(text, col) and i < end:
                end = i
        end = len(text[:end].rstrip())
    return Span(line + 1, col + 1, line + 1, max(end, col + 1) + 1)


def _inside_flow(text: str, col: int) -> bool:
    depth = 0
    for ch in text[:col]:
        if ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
    return depth > 0


def entry_insertion(tree: Pos | None, text: str, path: DataPath, entry: str) -> tuple[Span, str] | None:
    """Where and how to write `entry` (`key: value`) as a new entry of the mapping at `path` of a
    file whose text is `text`: before the mapping's first key, at its indentation, or first inside
    its braces; a top-level section that is not there is added at the end of a block-style file.
    None when the mapping is written in a way an insertion could get wrong."""
    lines = text.split("\n")
    node: Pos | None = tree
    if not isinstance(node, MapPos) or _is_flow(lines, node.line, node.col):
        return None
    for depth, part in enumerate(path):
        if not isinstance(node, MapPos) or not isinstance(part, str):
            return None
        if part not in node.entries:
            if depth != len(path) - 1 or depth != 0:
                return None
            # a top-level section the file does not have yet: at its end
            lead = "" if text.endswith("\n") or not text else "\n"
            end = Span(len(lines), len(lines[-1]) + 1, len(lines), len(lines[-1]) + 1)
            return end, f"{lead}{part}:\n  {entry}\n"
        _, _, vline, vcol, child, _ = node.entries[part]
        node = child
        if depth == len(path) - 1:
            if not isinstance(child, MapPos):
                return None
            if _is_flow(lines, vline, vcol):
                after = Span(vline + 1, vcol + 2, vline + 1, vcol + 2)
                return after, f"{entry}, " if child.entries else entry
            if not child.entries:
                return None
            kline, kcol = min((k[0], k[1]) for k in child.entries.values())
            if lines[kline][:kcol].strip():
                return None  # the first key shares its line with something else
            return Span(kline + 1, 1, kline + 1, 1), f"{' ' * kcol}{entry}\n"
    return None


def entry_removal(tree: Pos | None, text: str, path: DataPath) -> Span | None:
    """The text to delete to take the entry at `path` (a key with a one-line scalar value) out of
    its mapping: in braces, the entry and its comma; in a block, its whole line. None when the
    entry is written otherwise, or is the only one of a block mapping (which would become null)."""
    lines = text.split("\n")
    node: Pos | None = tree
    for part in path[:-1]:
        if not isinstance(node, MapPos) or not isinstance(part, str) or part not in node.entries:
            return None
        node = node.entries[part][4]
    key = path[-1] if path else None
    if not isinstance(node, MapPos) or not isinstance(key, str) or key not in node.entries:
        return None
    kline, kcol, vline, vcol, child, null = node.entries[key]
    if child is not None or null or vline != kline:
        return None
    line = lines[kline]
    end = _scalar_span(lines, vline, vcol).end_col - 1
    if _inside_flow(line, kcol):
        rest = re.match(r"\s*,\s*", line[end:])
        if rest is not None:
            return Span(kline + 1, kcol + 1, kline + 1, end + rest.end() + 1)
        before = re.search(r",\s*$", line[:kcol])
        if before is not None:
            return Span(kline + 1, before.start() + 1, kline + 1, end + 1)
        return Span(kline + 1, kcol + 1, kline + 1, end + 1)  # the only entry: `{}` is left
    if line[:kcol].strip() or not re.fullmatch(r"\s*(#.*)?", line[end:]) or len(node.entries) < 2:
        return None
    return Span(kline + 1, 1, kline + 2, 1)
