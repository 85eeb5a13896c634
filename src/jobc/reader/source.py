"""Reading one YAML file into plain data plus the round-trip tree that knows every position.

Everything that can go wrong with the bytes themselves (size, encoding, syntax, duplicate keys,
alias bombs, depth) is reported here as a finding at the parser's position; nothing raises.
"""

from __future__ import annotations

import functools
import re

from jobc.core.diagnostics import DataPath, Span
from jobc.core.lazyre import lazy
from jobc.core.paths import plain
from jobc.core.record import field, record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.core.paths import PathArg
    from jobc.reader.locate import Pos

SPEC_SUFFIXES = (".yaml", ".yml")  # a file named so is YAML (a spec or a profile), never a script
MAX_BYTES = 1 << 20  # a spec is a page of YAML; a megabyte is a mistake or an attack
MAX_NODES = 100_000  # bounds alias expansion ("billion laughs") when copying to plain data
MAX_DEPTH = 64
_FIRST_READ = 64 * 1024
# Spec numbers are counts, sizes and seconds; past 64 bits a number is a mistake, and one past
# Python's 4,300-digit conversion limit (or float range) would fail in arithmetic or printing.
MAX_INT = 2**63
_MAX_INT_TEXT = 64  # characters of an integer's YAML text worth converting (0b + 62 digits)
_SURROGATE = lazy("[\ud800-\udfff]")
_YAML_DIRECTIVE = lazy(r"^%YAML[ \t]+(\S+)", re.MULTILINE)


@record
class SourceProblem:
    code: str  # JC001 yaml-syntax, JC002 duplicate-key, JC003 schema, JC004 ambiguous-scalar
    span: Span | None  # None: located later from the data path
    message: str
    path: DataPath = ()


@record(frozen=False)
class Source:
    """One loaded file: its text, its round-trip tree (for positions) and plain data (for rules)."""

    file: str
    text: str
    tree: Pos | None = None  # where keys, values and items start; None when unparseable
    data: Any = None  # plain dict/list/str/int/float/bool/None
    problems: list[SourceProblem] = field(default_factory=list)

    @functools.cached_property
    def lines(self) -> list[str]:
        # split once: every finding is placed through these lines, and a file can hold thousands
        return self.text.splitlines()

    @property
    def ok(self) -> bool:
        return not any(p.code in ("JC001", "JC002") for p in self.problems)


class _Limit(Exception):
    def __init__(self, message: str, path: DataPath) -> None:
        super().__init__(message)
        self.path = path


def read(path: PathArg, display: str | None = None) -> Source:
    """Read and parse a file. Raises OSError only for files that cannot be read at all."""
    name = display if display is not None else plain(path)
    with open(path, "rb") as fh:
        # a spec is a few kilobytes: a read of up to the limit at once made a buffer of a
        # megabyte for each file, which cost several times the reading of the spec
        raw = fh.read(_FIRST_READ)
        if len(raw) == _FIRST_READ:
            raw += fh.read(MAX_BYTES + 1 - _FIRST_READ)
    if len(raw) > MAX_BYTES:
        src = Source(name, "")
        src.problems.append(
            SourceProblem(
                "JC001",
                Span.point(1, 1),
                f"file is larger than {MAX_BYTES // 1024} KiB; a job spec is never this big "
                "(is this the right file?)",
            )
        )
        return src
    return parse_bytes(raw, name)


def path_problem(text: str) -> str | None:
    """Why a path written in a spec can name no file at all, before the file system is asked."""
    if "\0" in text:
        return "a path cannot hold a NUL character"
    if not text.isascii() and any("\ud800" <= c <= "\udfff" for c in text):
        return "a path cannot hold half of a UTF-16 surrogate pair"
    if any(len(part.encode()) > 255 for part in text.split("/")):
        return "a file name in the path is longer than 255 bytes"
    return None


def parse_bytes(raw: bytes, name: str) -> Source:
    # the YAML reader's own modules are imported when a YAML file is read: a script's lint,
    # which makes its layer from text, needs none of them
    from jobc.reader import yamlguard

    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    encoding = yamlguard.foreign_encoding(raw)
    if encoding is not None:
        src = Source(name, "")
        src.problems.append(
            SourceProblem("JC001", Span.point(1, 1), f"the file is {encoding} text; save it as UTF-8")
        )
        return src
    nul = raw.find(b"\x00")
    if nul >= 0:
        line = raw.count(b"\n", 0, nul) + 1
        col = nul - (raw.rfind(b"\n", 0, nul) + 1) + 1
        src = Source(name, "")
        src.problems.append(
            SourceProblem("JC001", Span.point(line, col), "NUL byte: this is a binary file, not YAML")
        )
        return src
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        src = Source(name, "")
        src.problems.append(
            SourceProblem(
                "JC001",
                Span.point(line, col),
                f"invalid UTF-8 (byte 0x{raw[exc.start]:02x}); save the file as UTF-8",
            )
        )
        return src
    # a search from every line's start: asked only of a text that holds the directive's name
    directive = _YAML_DIRECTIVE.search(text) if "%YAML" in text else None
    if directive is not None and directive.group(1) != "1.2":
        # A `%YAML 1.1` directive switches the parser to 1.1: `time: 12:00:00` would silently
        # become 43200 minutes and `yes` a boolean. jobc reads specs as YAML 1.2 only.
        src = Source(name, text)
        line = text.count("\n", 0, directive.start()) + 1
        src.problems.append(
            SourceProblem(
                "JC001",
                Span.point(line, 1, len(directive.group(0))),
                f"%YAML {directive.group(1)}: jobc reads specs as YAML 1.2; remove the directive "
                "(under 1.1, 12:00:00 is a number and yes a boolean)",
            )
        )
        return src
    return parse_text(text, name)


def parse_text(text: str, name: str) -> Source:
    from jobc.reader import plainyaml

    # the plain subset most specs are written in needs no parser library; libyaml reads the rest
    # of what ruamel would read alike, and ruamel everything else
    fast = plainyaml.parse(text)
    if fast is None:
        from jobc.reader import fastyaml

        fast = fastyaml.parse(text)
    if fast is not None:
        src = Source(name, text)
        src.data, src.tree, ambiguous = fast
        for path, message in ambiguous:
            _ambiguous(src, path, message)
        return src
    return _parse_round_trip(text, name)


def _read_documents(text: str) -> list[Any] | SourceProblem:
    """ruamel's documents (two at most: enough to refuse the file), or the problem that stopped
    it, in its words."""
    import itertools
    import warnings

    from ruamel.yaml import YAML
    from ruamel.yaml.constructor import DuplicateKeyError
    from ruamel.yaml.error import MarkedYAMLError, YAMLError

    from jobc.reader import yamlguard

    yaml = YAML(typ="rt", pure=True)
    yaml.Constructor = _constructor()
    yaml.preserve_quotes = True
    try:
        with warnings.catch_warnings():
            # a reused anchor is legal YAML (the later one wins); ruamel's warning would reach
            # stderr in the middle of jobc's own output
            warnings.simplefilter("ignore")
            # two are enough to refuse the file: reading a hundred thousand `---` would take minutes
            docs = list(itertools.islice(yaml.load_all(text), 2))
    except DuplicateKeyError as exc:
        dup = exc.problem_mark
        key = _duplicate_key_name(exc)
        # ruamel's context mark is where the mapping starts, not where the key first appears
        first = _first_definition(text, exc.context_mark, key)
        where = (
            f"first defined at line {first[0] + 1}, column {first[1] + 1}"
            if first is not None
            else f"in the mapping that starts at line {exc.context_mark.line + 1}"
        )
        return SourceProblem(
            "JC002",
            _mark_span(text, dup.line, dup.column),
            f"duplicate key {key!r}: {where}; YAML keeps only one of them",
        )
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = (exc.problem or exc.context or "invalid YAML").strip()
        if exc.context and exc.problem:
            problem = f"{problem} ({exc.context.strip()})"
        problem = yamlguard.tab_problem(problem) or problem
        line, col = (mark.line, mark.column) if mark is not None else (0, 0)
        return SourceProblem("JC001", _mark_span(text, line, col), problem)
    except RecursionError:
        return SourceProblem("JC001", Span.point(1, 1), "nesting is too deep to be a job spec")
    except YAMLError as exc:  # errors without a mark; a reader error knows its character's index
        span, message = Span.point(1, 1), str(exc).splitlines()[0]
        position, character = getattr(exc, "position", None), getattr(exc, "character", None)
        if isinstance(position, int) and isinstance(character, int | str) and 0 <= position <= len(text):
            code = character if isinstance(character, int) else ord(character[:1] or "\0")
            line = text.count("\n", 0, position)
            span = _mark_span(text, line, position - (text.rfind("\n", 0, position) + 1))
            message = f"character U+{code:04X} is not allowed in YAML; remove it"
        return SourceProblem("JC001", span, message)
    except (IndexError, KeyError, TypeError, ValueError, AttributeError, RuntimeError, AssertionError) as exc:
        # ruamel's round-trip reader has corners it does not handle (a plain `-_` in a flow
        # sequence, collection keys, overlapping comments, a duplicate key in an `!!omap`) and
        # fails with a bare Python error;
        # that is still a file jobc cannot read, not a bug to show as a traceback
        return SourceProblem(
            "JC001",
            Span.point(1, 1),
            f"the YAML reader cannot read this file ({type(exc).__name__}); simplify the YAML "
            "near unusual syntax (flow collections, complex keys, comments inside values)",
        )
    return docs


def _parse_round_trip(text: str, name: str) -> Source:
    """ruamel's reading: every document fastyaml leaves alone, and each problem in its words."""
    from jobc.reader import yamlguard
    from jobc.reader.locate import MapPos

    src = Source(name, text)
    deep = yamlguard.too_deep(text, MAX_DEPTH)
    if deep is not None:
        src.problems.append(
            SourceProblem(
                "JC001",
                _mark_span(text, *deep),
                f"nesting deeper than {MAX_DEPTH} levels; a job spec is never this deep",
            )
        )
        return src
    docs = _read_documents(text)
    if isinstance(docs, SourceProblem):
        src.problems.append(docs)
        return src
    if len(docs) > 1:
        second = _second_document_line(text)
        src.problems.append(
            SourceProblem(
                "JC001",
                Span.point(second, 1, 3),
                "more than one YAML document; a spec file holds exactly one",
            )
        )
        return src
    tree = docs[0] if docs else None
    if yamlguard.expands_beyond(tree, MAX_NODES):
        src.problems.append(
            SourceProblem(
                "JC001",
                Span.point(1, 1),
                f"the document expands to more than {MAX_NODES} nodes (aliases?); "
                "a job spec is never this big",
            )
        )
        return src
    try:
        src.data, pos = _plain(tree, (), [0], set(), src)
    except _Limit as exc:
        src.data = None
        src.problems.append(SourceProblem("JC001", Span.point(1, 1), str(exc), exc.path))
        return src
    # a document that is a single scalar has no positions inside it: every path falls back to 1:1
    src.tree = pos if pos is not None else MapPos(0, 0)
    return src


class _Oversized(str):
    """The text of an integer too long to convert: reported at its path, never converted."""

    __slots__ = ()


def _constructor() -> Any:
    from ruamel.yaml.constructor import ConstructorError, RoundTripConstructor
    from ruamel.yaml.nodes import MappingNode, ScalarNode, SequenceNode

    class Constructor(RoundTripConstructor):
        def construct_yaml_int(self, node: Any) -> Any:
            if len(node.value) > _MAX_INT_TEXT:
                return _Oversized(node.value)
            return super().construct_yaml_int(node)

        def construct_yaml_omap(self, node: Any) -> Any:
            # ruamel asserts that an ordered map's keys differ; say where one repeats instead
            seen: set[str] = set()
            for item in node.value if isinstance(node, SequenceNode) else ():
                if isinstance(item, MappingNode) and len(item.value) == 1:
                    key = item.value[0][0]
                    if isinstance(key, ScalarNode):
                        if key.value in seen:
                            raise ConstructorError(
                                problem=f"duplicate key {key.value!r} in an !!omap",
                                problem_mark=key.start_mark,
                            )
                        seen.add(key.value)
            return super().construct_yaml_omap(node)

    Constructor.add_constructor("tag:yaml.org,2002:int", Constructor.construct_yaml_int)
    Constructor.add_constructor("tag:yaml.org,2002:omap", Constructor.construct_yaml_omap)
    return Constructor


def _number_problem(src: Source, path: DataPath, digits: int, span: Span | None = None) -> None:
    src.problems.append(
        SourceProblem(
            "JC001",
            span,
            f"a number of {digits:,} digits; no spec value is this large (numbers fit in 64 bits)",
            path,
        )
    )


def _surrogate_problem(src: Source, path: DataPath, text: str) -> str:
    """Report a lone surrogate (from a `\\ud800` escape) and give the text without it."""
    found = _SURROGATE.search(text)
    if found is None:
        return text
    src.problems.append(
        SourceProblem(
            "JC001",
            None,
            f"\\u{ord(found.group(0)):04x} is half of a UTF-16 surrogate pair, not a character; "
            "write the character itself",
            path,
        )
    )
    return _SURROGATE.sub("\ufffd", text)


def _first_definition(text: str, mapping: Any, key: str) -> tuple[int, int] | None:
    """Where `key` first appears (0-based) in the mapping that starts at the `mapping` mark."""
    from ruamel.yaml import YAML
    from ruamel.yaml import tokens as tk
    from ruamel.yaml.error import YAMLError

    opens = (
        tk.BlockMappingStartToken,
        tk.FlowMappingStartToken,
        tk.BlockSequenceStartToken,
        tk.FlowSequenceStartToken,
    )
    closes = (tk.BlockEndToken, tk.FlowMappingEndToken, tk.FlowSequenceEndToken)
    here = (mapping.line, mapping.column)
    stack: list[tuple[int, int]] = []
    after_key = False
    try:
        for tok in YAML(typ="rt", pure=True).scan(text):
            if isinstance(tok, opens):
                stack.append((tok.start_mark.line, tok.start_mark.column))
            elif isinstance(tok, closes) and stack:
                stack.pop()
            elif after_key and isinstance(tok, tk.ScalarToken) and tok.value == key and stack[-1:] == [here]:
                return tok.start_mark.line, tok.start_mark.column
            after_key = isinstance(tok, tk.KeyToken)
    except YAMLError:
        return None
    return None


def _duplicate_key_name(exc: Exception) -> str:
    match = re.search(r'duplicate key "(.*?)" with value', str(getattr(exc, "problem", "")))
    return match.group(1) if match else "?"


def _second_document_line(text: str) -> int:
    seen = 0
    for number, line in enumerate(text.splitlines(), 1):
        if line.startswith("---"):
            seen += 1
            # a leading "---" opens the first document; the next one opens the second
            if seen == 2 or (seen == 1 and number > 1 and _has_content_before(text, number)):
                return number
    return 1


def _has_content_before(text: str, line: int) -> bool:
    for previous in text.splitlines()[: line - 1]:
        stripped = previous.strip()
        if stripped and not stripped.startswith("#") and not stripped.startswith("%"):
            return True
    return False


def _mark_span(text: str, line0: int, col0: int) -> Span:
    lines = text.splitlines()
    if line0 >= len(lines):
        # the parser points past the end of the text: show the last line instead
        line0 = max(len(lines) - 1, 0)
        col0 = len(lines[line0]) if lines else 0
    return Span.point(line0 + 1, col0 + 1)


def _plain(
    node: Any, path: DataPath, count: list[int], active: set[int], src: Source
) -> tuple[Any, Pos | None]:
    """Copy the round-trip tree into plain data and positions, bounding size, depth and alias cycles."""
    import datetime as _dt  # ruamel's dates; the libyaml reading leaves every date to ruamel

    from ruamel.yaml.comments import CommentedMap, CommentedSeq, TaggedScalar
    from ruamel.yaml.scalarint import ScalarInt
    from ruamel.yaml.scalarstring import ScalarString

    from jobc.reader.locate import MapPos, SeqPos
    from jobc.reader.scalars import plain_string_problem

    count[0] += 1
    if count[0] > MAX_NODES:
        raise _Limit(
            f"the document expands to more than {MAX_NODES} nodes (aliases?); a job spec is never this big",
            path,
        )
    if len(path) > MAX_DEPTH:
        raise _Limit(f"nesting deeper than {MAX_DEPTH} levels", path)
    if isinstance(node, CommentedMap | CommentedSeq):
        if id(node) in active:
            raise _Limit("an alias refers to a node that contains it (a cycle)", path)
        active.add(id(node))
        try:
            if isinstance(node, CommentedMap):
                out: dict[str, Any] = {}
                mpos = MapPos(node.lc.line or 0, node.lc.col or 0)
                placed = node.lc.data or {}  # keys merged in with `<<:` have no position of their own
                for key, value in node.items():
                    if isinstance(key, _Oversized):
                        line, col = node.lc.key(key)
                        _number_problem(
                            src, path, sum(c.isalnum() for c in key), Span.point(line + 1, col + 1)
                        )
                        continue
                    if not isinstance(key, str) or isinstance(key, bool):
                        _non_string_key(src, node, key, path)
                        continue
                    name = _surrogate_problem(src, (*path, str(key)), str(key))
                    out[name], child = _plain(value, (*path, name), count, active, src)
                    if key in placed:
                        kline, kcol = node.lc.key(key)
                        vline, vcol = node.lc.value(key)
                        mpos.entries[name] = (kline, kcol, vline, vcol, child, value is None)
                return out, mpos
            items: list[Any] = []
            spos = SeqPos(node.lc.line or 0, node.lc.col or 0)
            placed = node.lc.data or {}  # a tagged sequence keeps no item positions
            for i, v in enumerate(node):
                item, child = _plain(v, (*path, i), count, active, src)
                items.append(item)
                line, col = placed.get(i, (spos.line, spos.col))
                spos.items.append((line, col, child))
            return items, spos
        finally:
            active.discard(id(node))
    if isinstance(node, _Oversized):
        _number_problem(src, path, sum(c.isalnum() for c in node))
        return None, None
    if isinstance(node, TaggedScalar):
        return _surrogate_problem(src, path, str(node.value)), None
    if isinstance(node, ScalarString):
        return _surrogate_problem(src, path, str(node)), None
    if isinstance(node, str):
        node = _surrogate_problem(src, path, node)
        problem = plain_string_problem(node)
        if problem is not None:
            _ambiguous(src, path, problem)
        return node, None
    if isinstance(node, bool):
        return bool(node), None
    if isinstance(node, int) and abs(node) >= MAX_INT:
        _number_problem(src, path, len(str(abs(node))))
        return None, None
    if isinstance(node, ScalarInt):
        width = getattr(node, "_width", None)
        text = str(int(node))
        if type(node) is ScalarInt and width is not None and width > len(text):
            _ambiguous(
                src,
                path,
                f"leading zero: YAML 1.2 reads {int(node)}, YAML 1.1 tools read an "
                "octal number; drop the zero, or quote it if it is a string",
            )
        return int(node), None
    if isinstance(node, int):
        return int(node), None
    if isinstance(node, float):
        return float(node), None
    if isinstance(node, _dt.date | _dt.datetime):
        text = node.isoformat()
        _ambiguous(src, path, f'unquoted {text} is a date, not a string; quote it: "{text}"')
        return text, None
    if node is None:
        return None, None
    return str(node), None


def _ambiguous(src: Source, path: DataPath, message: str) -> None:
    src.problems.append(SourceProblem("JC004", None, message, path))


def _non_string_key(src: Source, parent: Any, key: Any, path: DataPath) -> None:
    try:
        line, col = parent.lc.key(key)
        span = Span.point(line + 1, col + 1, len(str(key)))
    except (KeyError, TypeError, AttributeError):
        span = Span.point(1, 1)
    src.problems.append(
        SourceProblem(
            "JC003",
            span,
            _non_string_message(key),
            path,
        )
    )


def _non_string_message(key: Any) -> str:
    from jobc.reader import yamlguard

    shown = yamlguard.describe_key(key)
    if shown.startswith("a "):
        return f"{shown} cannot be a key; spec keys are names"
    return f'key {shown} is not a string; spec keys are names (quote it if a name is meant: "{shown}")'
