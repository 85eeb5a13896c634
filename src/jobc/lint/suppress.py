"""`# jobc: ignore[JC101,JC2]` comments: on the finding's line, or alone on the line above."""

from __future__ import annotations

import bisect

from jobc.core.diagnostics import Edit, Fix, Span
from jobc.core.lazyre import lazy
from jobc.core.record import field, record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

_MARK = lazy(r"jobc:\s*ignore\[([^\]]*)\]")


@record(frozen=False)
class Suppression:
    line: int  # 1-based line of the comment
    col: int  # 1-based column of the "jobc:" marker
    width: int
    codes: tuple[str, ...]
    targets: tuple[int, ...]  # lines it applies to
    used: set[str] = field(default_factory=set)
    # in a batch script: the grammar read every line up to the marker, so the comment is one to
    # bash too. After a line it could not read (`"${` run on over lines), the grammar may take a
    # line of a word for a comment: the marker still suppresses, but nothing removes it
    sure: bool = True


def parse(text: str, *, shell: bool = False) -> list[Suppression]:
    """Suppressions in real comments only: a marker inside a string value is not one.

    ``shell``: the text is a batch script, whose comments follow bash's rules, not YAML's.
    """
    if "jobc:" not in text:
        return []
    lines = text.splitlines()
    scalars = None if shell else _scalar_spans(text)
    tree: Any = None  # the script's bash tree, parsed at the first marker that needs it
    ends = [end for _, end in scalars] if scalars is not None else []
    out: list[Suppression] = []
    following: list[int] | None = None  # made at the first comment alone on its line
    sure = True
    for number, line in enumerate(lines, 1):
        if "jobc:" not in line:
            continue
        if shell and number == 1 and line.startswith("#!"):
            continue  # the interpreter line: the kernel reads it whole, a marker there is its argument
        if shell:
            hash_at = _shell_comment_start(line)
            if hash_at >= 0:
                if tree is None:
                    tree = _bash_tree(text)
                if not _bash_comment(tree, number - 1, line, hash_at):
                    continue  # a line of a string, a heredoc or a continued command: text, not a comment
                sure = not tree.has_error or _read_before(tree, number - 1)
        elif scalars is None:
            hash_at = _comment_start(line)
        else:
            hash_at = _comment_outside(line, number - 1, scalars, ends)
        if hash_at < 0:
            continue
        match = _MARK.search(line, hash_at)
        if match is None:
            continue
        codes = tuple(c.strip().upper() for c in match.group(1).split(",") if c.strip())
        alone = not line[:hash_at].strip()
        if alone and following is None:
            following = _next_content_lines(lines)
        targets = (number, following[number]) if alone and following is not None else (number,)
        found = Suppression(number, match.start() + 1, match.end() - match.start(), codes, targets)
        found.sure = sure
        out.append(found)
    return out


def removal(lines: list[str], sup: Suppression, unused: list[str], *, shell: bool = False) -> Fix | None:
    """JC007's repair: the unused codes out of the marker, the marker out of its comment, and a
    comment that held only the marker out of the file (its whole line, when alone on it).

    None in a batch script another interpreter runs (`#!/usr/bin/env python3`): what is a comment
    there, and what a string, is that language's business, not bash's."""
    if shell and lines and not _bash_body(lines[0]):
        return None
    if not sup.sure:
        return None
    if not 1 <= sup.line <= len(lines):
        return None
    line = lines[sup.line - 1]
    start, end = sup.col - 1, sup.col - 1 + sup.width
    match = _MARK.fullmatch(line, start, end)
    if match is None:
        return None
    if shell and _sbatch_reads(line, start):
        # a comment to bash, but words to sbatch (`#SBATCH --time=04:00jobc: ignore[…]`): sbatch
        # reads an #SBATCH line up to its first unquoted `#`, and taking the marker off would
        # change the options it reads
        return None
    kept = [c.strip() for c in match.group(1).split(",") if c.strip() and c.strip().upper() not in unused]
    if kept:
        inner = match.group(1)
        joined = (", " if ", " in inner else ",").join(kept)
        span = Span(sup.line, sup.col + match.start(1) - start, sup.line, sup.col + match.end(1) - start)
        return Fix.make(f"drop {', '.join(unused)} from the suppression", Edit(span, joined))
    hash_at = line.rfind("#", 0, start)
    if hash_at < 0 or line[hash_at + 1 : start].strip():
        # the marker is inside a longer comment: only the marker goes, with the separator before it
        cut = len(line[:start].rstrip(" \t,;")) + 1
        return Fix.make(
            "remove the unused suppression", Edit(Span(sup.line, cut, sup.line, sup.col + sup.width), "")
        )
    if not line[:hash_at].strip():
        if shell and sup.line > 1 and _continued(lines[sup.line - 2]):
            # the line before goes on into this one (`\` at its end), and the comment ends that
            # command: without the line the next one would join it, so only its text goes
            return Fix.make(
                "remove the unused suppression", Edit(Span(sup.line, 1, sup.line, len(line) + 1), "")
            )
        # a comment alone on its line: the line goes
        return Fix.make("remove the unused suppression", Edit(Span(sup.line, 1, sup.line + 1, 1), ""))
    if shell and line[hash_at - 1] not in " \t":
        # glued to the word before it (`declare -a A=(…)# jobc: …`), the `#` may be that word's
        # text to bash, not a comment: taking it off would change the word (there, make the
        # string an array), so no repair is offered
        return None
    before = len(line[:hash_at].rstrip())
    return Fix.make(
        "remove the unused suppression",
        Edit(Span(sup.line, before + 1, sup.line, len(line) + 1), ""),
    )


def _sbatch_reads(line: str, at: int) -> bool:
    """Whether sbatch reads column ``at`` of ``line`` as a directive's words."""
    from jobc.script.directives import PREFIX, sbatch_comment_at

    # (every line that starts with the prefix is sbatch's: `#SBATCHjobc: …` it refuses outright)
    if not line.startswith(PREFIX):
        return False
    ends = sbatch_comment_at(line)
    return ends < 0 or ends > at


def _continued(text: str) -> bool:
    """Whether a shell line ends in a backslash that escapes its line break (an odd number of them)."""
    return (len(text) - len(text.rstrip("\\"))) % 2 == 1


Mark = tuple[int, int]  # 0-based (line, column)


def _scalar_spans(text: str) -> list[tuple[Mark, Mark]] | None:
    """Where every scalar starts and ends, from YAML's own scanner; None if it cannot scan.

    Quotes, escapes, multi-line strings and block scalars (`setup: |`) are the scanner's
    business: a `#` inside any of them is text, not a comment.
    """
    from jobc.reader import plainyaml

    fast = plainyaml.scalar_spans(text)
    if fast is not None:
        return fast
    from jobc.reader import fastyaml

    fast = fastyaml.scalar_spans(text)
    if fast is not None:
        return fast
    from ruamel.yaml import YAML
    from ruamel.yaml.error import YAMLError
    from ruamel.yaml.tokens import ScalarToken

    try:
        return [
            ((tok.start_mark.line, tok.start_mark.column), (tok.end_mark.line, tok.end_mark.column))
            for tok in YAML(typ="rt", pure=True).scan(text)
            if isinstance(tok, ScalarToken)
        ]
    except YAMLError:
        return None


def _comment_outside(line: str, line0: int, scalars: list[tuple[Mark, Mark]], ends: list[Mark]) -> int:
    """Index of the first '#' on this line that starts a comment (not inside a scalar), or -1.

    Scalars come in the scanner's order and do not overlap, so their ends are sorted too: the
    ones on this line are found by bisection and walked once beside the characters.
    """
    k = bisect.bisect_right(ends, (line0, 0))
    i = line.find("#")
    while i >= 0:
        while k < len(scalars) and scalars[k][1] <= (line0, i):
            k += 1
        inside = k < len(scalars) and scalars[k][0] <= (line0, i)
        if (i == 0 or line[i - 1] in " \t") and not inside:
            return i
        i = line.find("#", i + 1)
    return -1


def _next_content_lines(lines: list[str]) -> list[int]:
    """For each 1-based line number, the first line after it that is neither blank nor a comment
    (the line a comment alone on its line applies to); past the last one, the line after.

    One pass from the bottom: looking forward from each of many consecutive comment lines would
    cost the square of their number."""
    out = [0] * (len(lines) + 1)
    nxt: int | None = None
    for number in range(len(lines), 0, -1):
        out[number] = nxt if nxt is not None else number + 1
        stripped = lines[number - 1].strip()
        if stripped and not stripped.startswith("#"):
            nxt = number
    return out


def _bash_body(first: str) -> bool:
    from jobc.script.parse import BASH_LIKE, shell_of

    return shell_of(first.removeprefix("\ufeff")) in BASH_LIKE


def _bash_tree(text: str) -> Any:
    # the reader's parse, which shows the grammar what bash keeps in a word as a word's byte
    from jobc.script.tree import parse

    return parse(text.encode("utf-8", "surrogateescape")).root_node


def _bash_comment(root: Any, row: int, line: str, at: int) -> bool:
    """Whether bash reads a comment from column ``at`` (0-based) of line ``row``: the line may be
    inside a string or a heredoc that runs over several lines, where a `#` is text."""
    col = len(line[:at].encode("utf-8", "surrogateescape"))
    node = root.descendant_for_point_range((row, col), (row, col + 1))
    if node is None or node.type != "comment" or node.start_point != (row, col):
        return False
    return not _in_arithmetic(node)


def _in_arithmetic(node: Any) -> bool:
    """Whether the grammar's comment is inside `$((…))`, `((…))` or `for ((…))`: bash has no
    comments in arithmetic, where a `#` is text (`2#101`, or a syntax error bash reports)."""
    parent = node.parent
    while parent is not None:
        if parent.type == "arithmetic_expansion":
            return True
        if parent.type in ("compound_statement", "c_style_for_statement"):
            opener = parent.children[0] if parent.children else None
            if parent.type == "c_style_for_statement" and len(parent.children) > 1:
                opener = parent.children[1]
            if opener is not None and opener.type == "((":
                closer = next((c for c in parent.children if c.type == "))"), None)
                if closer is None or node.start_byte < closer.start_byte:
                    return True
        parent = parent.parent
    return False


def _read_before(root: Any, row: int) -> bool:
    """Whether the grammar read every line before ``row`` (0-based) without an error: no part of
    the tree it could not read starts there."""
    stack = [root]
    while stack:
        node = stack.pop()
        if node.start_point[0] >= row or not node.has_error:
            continue
        if node.is_error or node.is_missing:
            return False
        stack.extend(node.children)
    return True


def _shell_comment_start(line: str) -> int:
    """Index of the '#' that starts a bash comment on this line, or -1: a '#' that begins a word,
    outside quotes (`${#x}`, `a#b` and `"#"` are not comments)."""
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if quote == '"' and ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch == "\\":
            i += 2
            continue
        elif ch in "\"'":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t;&|()"):
            return i
        i += 1
    return -1


def _comment_start(line: str) -> int:
    """Index of the '#' that starts a YAML comment on this line, or -1 (quotes respected).

    The fallback for text the scanner rejects; it knows one line only.
    """
    quote = ""
    i = 0
    while i < len(line):
        ch = line[i]
        if quote:
            if quote == '"' and ch == "\\":
                i += 2
                continue
            if ch == quote:
                quote = ""
        elif ch in "\"'" and (i == 0 or line[i - 1] in " \t:[{,-?"):
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1] in " \t"):
            return i
        i += 1
    return -1


def matches(code: str, selector: str) -> bool:
    return code.startswith(selector)


def by_line(sups: list[Suppression]) -> dict[int, list[Suppression]]:
    """The suppressions that cover each line: a finding looks up its own line only."""
    out: dict[int, list[Suppression]] = {}
    for sup in sups:
        for line in dict.fromkeys(sup.targets):
            out.setdefault(line, []).append(sup)
    return out


def apply(sups: list[Suppression] | dict[int, list[Suppression]], code: str, span: Span) -> bool:
    """True when a suppression covers this finding (and records that it was used)."""
    hit = False
    for sup in sups.get(span.line, ()) if isinstance(sups, dict) else sups:
        if span.line in sup.targets:
            for sel in sup.codes:
                if matches(code, sel):
                    sup.used.add(sel)
                    hit = True
    return hit
