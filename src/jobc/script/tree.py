"""The bash parse tree of one script: the parser, positions (tree-sitter counts bytes, findings
count characters) and the small walks over nodes every part of the reader shares."""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy_bytes
from jobc.script import values as _values
from jobc.script.facts import PER_RANK, Expansion, ScriptFacts, Word

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

_PARSER: Any = None


def parser() -> Any:
    """The bash parser, made once; tree-sitter is imported only when a script is read."""
    global _PARSER  # noqa: PLW0603 - one parser per process; building it loads the grammar
    if _PARSER is None:
        core = _binding("tree_sitter")
        if core is None:
            import tree_sitter as core
        _PARSER = core.Parser(core.Language(_bash_language()))
    return _PARSER


def parse(raw: bytes) -> Any:
    """The parse tree of ``raw``. A carriage return that ends no line (`a\rb`) is part of a word to
    bash, but a blank to the grammar, which split `--size 9\r9` into two words where bash passes
    one: the grammar is shown a byte it takes for a word's, of the same length, so every offset
    (and the text the reader takes from ``raw``) stays the script's own. So is every byte of a
    Unicode space (bash's blanks are space, tab and newline alone; the grammar's scanner ends a
    word at any character the C library calls a space, so `'a'<U+2003>b` was two words)."""
    if b"\r" in raw:
        raw = _LONE_CR.sub(b"\x01", raw)
    if b"\\ " in raw or b"\\\t" in raw:
        # an escaped blank that starts a word (`echo \ #x`) is a blank to the grammar, which then
        # read a comment where bash passes the word ` #x`: it is shown an escaped word's byte
        raw = _ESCAPED_BLANK.sub(lambda m: m[1] + b"\\\x01", raw)
    if b"#" in raw:
        # a `#` after a digit ends no word and starts no comment to bash (`--batch_size 64#`); the
        # grammar read the digits as the start of a number in a base (`16#ff`) and dropped the word
        raw = _DIGIT_HASH.sub(b"\x01", raw)
        # nor after a letter (`$(hostn#SBATCH --nodes=x)`), where the grammar read a comment
        # inside a `$(…)` and ran the substitution on to the script's end; a `${name#…}` and a
        # `$name#` keep theirs
        raw = _LETTER_HASH.sub(_hash_in_word, raw)
    if b"\n\\" in raw:
        # a line that is a lone `\` (a line continuation that starts the line) after a line that
        # ends its command: bash ends the command at that line's end and joins the next line to
        # nothing, a command of its own; the grammar joined it to the command above
        raw = _LINE_START_CONTINUATION.sub(_unjoined, raw)
    if b"$" in raw:
        # a `$` before a byte beyond ASCII starts no expansion to bash (no name starts with one):
        # it is a `$` of the word. The grammar ended the word there after some bytes (`-\xec$\xb1C`
        # was two words where bash passes one): it is shown a word's byte
        raw = _DOLLAR_BEYOND_ASCII.sub(b"\x01", raw)
    # a byte-order mark that starts the file is JC811's: the grammar skips it, as sbatch does not
    start = 3 if raw.startswith(b"\xef\xbb\xbf") else 0
    if _UNICODE_SPACE.search(raw, start) is not None:
        raw = raw[:start] + _UNICODE_SPACE.sub(lambda m: b"\x01" * len(m[0]), raw[start:])
    return parser().parse(raw)


_LONE_CR = lazy_bytes(rb"\r(?!\n)")
# a backslash at a line's start before the line's end, with the backslashes that end the line above
_LINE_START_CONTINUATION = lazy_bytes(rb"(\\*)\n\\(?=\r?\n)")
# a backslash that escapes a space or a tab: one after an even run of backslashes (`\\ ` is an
# escaped backslash, and the blank after it ends the word)
_ESCAPED_BLANK = lazy_bytes(rb"(?<!\\)((?:\\\\)*)\\[ \t]")
# a `#` after a digit, before what ends a word
_DIGIT_HASH = lazy_bytes(rb"(?<=[0-9])#(?=[ \t\r\n;&|()<>]|\Z)")
# a `$` before a byte beyond ASCII
_DOLLAR_BEYOND_ASCII = lazy_bytes(rb"\$(?=[\x80-\xff])")
# a `#` after a letter or an underscore
_LETTER_HASH = lazy_bytes(rb"(?<=[A-Za-z_])#")


def _hash_in_word(m: Any) -> bytes:
    """A word's `#` shown as a word's byte, unless it follows a variable's name (`${name#x}`,
    `${!name#x}`, `$name#`), which the grammar reads as bash does."""
    raw: bytes = m.string
    at = m.start()
    while at > 0 and raw[at - 1] < 128 and (raw[at - 1 : at].isalnum() or raw[at - 1 : at] == b"_"):
        at -= 1
    if raw[max(at - 1, 0) : at] == b"$" or raw[max(at - 2, 0) : at] in (b"${", b"{!"):
        return b"#"
    return b"\x01"


# Unicode's spaces and their invisible kin, in UTF-8: NEL, no-break space, Ogham space mark,
# Mongolian vowel separator, U+2000-U+200B, line and paragraph separators, narrow no-break space,
# medium mathematical space, ideographic space, zero-width no-break space (a BOM inside the file)
_UNICODE_SPACE = lazy_bytes(
    rb"\xc2[\x85\xa0]|\xe1\x9a\x80|\xe1\xa0\x8e|\xe2\x80[\x80-\x8b\xa8\xa9\xaf]|\xe2\x81\x9f"
    rb"|\xe3\x80\x80|\xef\xbb\xbf"
)


def _unjoined(m: Any) -> bytes:
    """The line-start `\\` shown as a blank, unless the line above ends in a continuation itself
    (an odd run of backslashes before its newline): then the two join as bash joins them."""
    if len(m[1]) % 2:
        return bytes(m[0])
    return bytes(m[1]) + b"\n "


def _bash_language() -> Any:
    """tree-sitter-bash's grammar, from its compiled binding.

    The package's own `__init__` imports `importlib.resources` (and with it tempfile, random,
    shutil and the compression modules: a tenth of a script lint) for query files jobc never
    reads, so the binding is loaded from the package's directory without running it; a package
    laid out otherwise is imported as usual."""
    binding = _binding("tree_sitter_bash")
    if binding is None:
        import tree_sitter_bash

        return tree_sitter_bash.language()
    return binding.language()


def _binding(package: str) -> Any:
    """The compiled module `<package>._binding`, loaded from the package's directory without
    running the package's `__init__`; None when the package is laid out otherwise.

    tree-sitter's own `__init__` re-exports its binding and imports `typing` for one Protocol,
    a millisecond and a half of a script lint; the binding itself imports nothing. The functions
    `importlib.util` re-exports are taken from `importlib._bootstrap`, where they live (importing
    `importlib.util` brought contextlib, about a millisecond of every script lint)."""
    import importlib.machinery
    import sys

    find_spec, module_from_spec = _import_functions()
    name = f"{package}._binding"
    binding = sys.modules.get(name)
    if binding is not None:
        return binding
    found = find_spec(package)
    places = found.submodule_search_locations if found is not None else None
    spec = None
    for place in places or ():
        finder = importlib.machinery.FileFinder(
            place, (importlib.machinery.ExtensionFileLoader, importlib.machinery.EXTENSION_SUFFIXES)
        )
        spec = finder.find_spec(name)
        if spec is not None:
            break
    if spec is None or spec.loader is None:
        return None
    binding = module_from_spec(spec)
    spec.loader.exec_module(binding)
    sys.modules[name] = binding  # `import <package>` later finds it there
    return binding


def _import_functions() -> tuple[Any, Any]:
    """`importlib.util.find_spec` and `module_from_spec` (for a top-level name, as `find_spec` is
    asked here): the frozen bootstrap's own, already loaded; `importlib.util`'s where a Python
    lays them out otherwise."""
    import sys

    bootstrap = sys.modules.get("importlib._bootstrap")
    find = getattr(bootstrap, "_find_spec", None)
    make = getattr(bootstrap, "module_from_spec", None)
    if find is None or make is None:
        import importlib.util

        return importlib.util.find_spec, importlib.util.module_from_spec

    def find_spec(name: str) -> Any:
        module: Any = sys.modules.get(name, _NOT_LOADED)
        if module is _NOT_LOADED:
            return find(name, None)  # what importlib.util.find_spec does for a name not imported
        return None if module is None else module.__spec__

    return find_spec, make


_NOT_LOADED = object()


class Positions:
    """The script being read: its facts, its bytes, and where each node of its tree stands."""

    def __init__(self, facts: ScriptFacts, raw: bytes, runs: dict[int, int]) -> None:
        self.facts = facts
        self.raw = raw
        self.runs = runs  # first row → last row of each run of plain lines read as one
        self.line_bytes = raw.split(b"\n")
        self.line_starts = [0]
        for line in self.line_bytes[:-1]:
            self.line_starts.append(self.line_starts[-1] + len(line) + 1)
        self.ascii = raw.isascii()
        self.src = _values.Src(raw)

    def col(self, row: int, byte: int) -> int:
        if self.ascii or row >= len(self.line_bytes):
            return byte + 1
        return len(self.line_bytes[row][:byte].decode("utf-8", "surrogateescape")) + 1

    def span(self, node: Any, src: _values.Src | None = None) -> Span:
        if src is not None and src is not self.src:
            where = src.range(node.start_byte, node.end_byte)
            return self.offsets(*where) if where is not None else src.fallback
        (r0, c0), (r1, c1) = node.start_point, node.end_point
        if self.ascii:
            return Span(r0 + 1, c0 + 1, r1 + 1, c1 + 1)
        return Span(r0 + 1, self.col(r0, c0), r1 + 1, self.col(r1, c1))

    def where(self, node: Any, src: _values.Src) -> Span:
        """Where a command is run: in the script, or the line that runs the text it came from."""
        return src.fallback if src.fallback is not None else self.span(node)

    def offsets(self, a: int, b: int) -> Span:
        r0 = bisect.bisect_right(self.line_starts, a) - 1
        r1 = bisect.bisect_right(self.line_starts, max(b - 1, a)) - 1
        end = b - self.line_starts[r1]
        return Span(r0 + 1, self.col(r0, a - self.line_starts[r0]), r1 + 1, self.col(r1, end))

    def text(self, node: Any, src: _values.Src | None = None) -> str:
        if src is not None and src is not self.src:
            return src.show(node.start_byte, node.end_byte)
        # the script's own bytes, not the tree's: the grammar was shown a stand-in for a lone \r
        return self.src.raw[node.start_byte : node.end_byte].decode("utf-8", "surrogateescape")

    def expansions(self, node: Any, shell: str, src: _values.Src | None = None) -> Iterator[Expansion]:
        """Per-rank variables that ``node`` expands (raw strings and escapes expand nothing)."""
        stack = [node]
        while stack:
            cur = stack.pop()
            if cur.type in ("simple_expansion", "expansion"):
                for child in cur.named_children:
                    if child.type == "variable_name":
                        name = self.text(child, src)
                        if name in PER_RANK:
                            yield Expansion(name, self.span(cur, src), shell)
                continue
            if cur.type == "arithmetic_expansion":
                for sub in descendants(cur):
                    if sub.type == "variable_name" and self.text(sub, src) in PER_RANK:
                        yield Expansion(self.text(sub, src), self.span(cur, src), shell)
                continue
            stack.extend(reversed(cur.children))


def statements(node: Any) -> Iterator[tuple[Any, bool]]:
    """The named children of ``node``, each with whether an `&` follows it (runs in the background).

    From one list of the children: a node's `next_sibling` walks its parent's children from the
    first, which made a script of thousands of lines cost the square of its length."""
    children = node.children
    last = len(children) - 1
    for i, child in enumerate(children):
        if child.is_named:
            yield child, i < last and children[i + 1].type == "&"


_SKIPPED = frozenset({"command_substitution", "heredoc_body", "heredoc_start", "heredoc_end", "comment"})


def runs(node: Any) -> bool:
    """Whether a child node is a statement the walk follows (not a comment or a heredoc's text)."""
    return node.type not in _SKIPPED


def descendants(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(cur.children))


def argument_nodes(node: Any) -> list[Any]:
    """The words of a command: its name and arguments, without assignments and redirections."""
    out: list[Any] = []
    for child in node.children:
        if not child.is_named:
            if child.type == "$":
                out.append(child)  # a `$` alone (`echo $ x`): text to bash, a token to the grammar
            continue
        if child.type == "command_name":
            out.extend(child.named_children or [child])
        elif child.type in ("variable_assignment", "file_redirect", "herestring_redirect", "comment"):
            continue
        else:
            out.append(child)
    return out


def dash_c(option: str) -> bool:
    """`-c`, `-lc`, `-ec`, `-xc`: bash's option that runs its next word as a script."""
    return option.startswith("-") and not option.startswith("--") and "c" in option and option[1:].isalpha()


def field(w: Word) -> _values.Field:
    """A word's value as segments (a word made of nothing followed is one segment of its text)."""
    if w.segs is not None:
        return tuple(w.segs)
    return ((w.text, -1, -1, w.literal),)


def within(inner: Span, outer: Span) -> bool:
    return (inner.line, inner.col) >= (outer.line, outer.col) and (inner.end_line, inner.end_col) <= (
        outer.end_line,
        outer.end_col,
    )
