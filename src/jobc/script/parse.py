"""A batch script → facts, from a real bash parse tree (tree-sitter-bash) that keeps positions.

tree-sitter recovers from syntax errors: a script with an unterminated quote or another shell's
syntax still gives a tree with ERROR nodes around the parts it could not read, so a damaged
script yields the facts of its readable parts and a problem that says where reading failed.
"""

from __future__ import annotations

import os
import re

from jobc.core import paths
from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy, lazy_bytes
from jobc.script import bashcheck
from jobc.script import directives as _directives
from jobc.script import values as _values
from jobc.script.expand import Expander
from jobc.script.facts import PER_RANK, Export, Problem, ScriptFacts
from jobc.script.flow import Flow
from jobc.script.steps import PYTHON, Steps
from jobc.script.tree import Positions, statements
from jobc.script.tree import parse as parse_tree
from jobc.script.variables import Variables
from jobc.tables.secrets import PREFILTER

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.core.paths import PathArg

__all__ = [
    "BASH_LIKE",
    "MAX_BYTES",
    "MAX_WORDS",
    "RUN",
    "read",
    "read_bytes",
    "shell_of",
    "split_lines",
]

# Shells whose syntax tree-sitter-bash reads; any other interpreter's body is not read.
BASH_LIKE = frozenset({"bash", "sh", "dash", "ksh", "ash"})
# words that may stand in front of an assignment bash makes: a declaration and its flags, or
# other assignments (`A=1 NODE_RANK=0 cmd`)
_DECLARERS = frozenset({b"export", b"local", b"declare", b"typeset", b"readonly"})
_ASSIGN_WORD = lazy_bytes(rb"[A-Za-z_][A-Za-z0-9_]*\+?=\S*")
_ENV_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*$")
_SEPARATORS = (b";", b"&", b"|", b"(", b"{")
_LOOK_BACK = 4096


def _nbytes(text: str) -> int:
    """How many bytes ``text`` was in the script (a byte that is not UTF-8 is one surrogate)."""
    return len(text.encode("utf-8", "surrogateescape"))


def _assigns(raw: bytes, name: str) -> bool:
    """Whether the script gives ``name`` a value: `NAME=…` where bash reads an assignment (a
    command's start, after `export`/`local`/`declare` and their flags, `((`, or other
    assignments), not text inside a word (`echo "SLURM_NODEID=$SLURM_NODEID"` sets nothing); or a
    `for NAME` loop. Linear: each candidate looks back only to its own line's start."""
    key = name.encode()
    if re.search(rb"\bfor\s+" + key + rb"\b", raw):
        return True
    for m in re.finditer(rb"(?<![\w$\"'])" + key + rb"\+?=", raw):
        # at most a window back, so that a huge one-line file costs no more than its length
        low = max(0, m.start() - _LOOK_BACK)
        prefix = raw[raw.rfind(b"\n", low, m.start()) + 1 or low : m.start()]
        cut = max(prefix.rfind(c) for c in _SEPARATORS)
        words = prefix[cut + 1 :].split()
        if all(w in _DECLARERS or w.startswith(b"-") or _ASSIGN_WORD.fullmatch(w) for w in words):
            return True
    return False


_MAY_EXPAND = lazy_bytes(rb"(?:" + b"|".join(n.encode() for n in sorted(PER_RANK)) + rb")")


def read(path: PathArg, display: str | None = None) -> ScriptFacts:
    with open(path, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)  # past the limit the rest is never needed
    return read_bytes(data, display or paths.plain(path), paths.parent(path))


def read_bytes(data: bytes, file: str, base: PathArg | None = None) -> ScriptFacts:
    if len(data) > MAX_BYTES:
        return _refused(data, file, f"the script is larger than {MAX_BYTES >> 20} MiB, {_TOO_BIG}")
    text = data.decode("utf-8", "surrogateescape")
    lines = split_lines(text)
    facts = ScriptFacts(file=file, lines=lines, shell="bash", readable=False)
    if (crlf := data.find(b"\r\n")) >= 0:
        facts.crlf = data.count(b"\n", 0, crlf) + 1
        facts.crlf_lines = tuple(n for n, raw in enumerate(data.split(b"\n"), 1) if raw.endswith(b"\r"))
    if b"\0" in data:  # anywhere: sbatch refuses a script with a NUL byte wherever it stands
        at = data.index(b"\0")
        line = data.count(b"\n", 0, at) + 1
        facts.problems.append(
            Problem(
                "this is a binary file, not a batch script (a NUL byte at line "
                f"{line}); jobc reads bash scripts",
                Span.point(line, 1),
                "error",
            )
        )
        return facts
    facts.shell = shell_of(lines[0].removeprefix("\ufeff") if lines else "")
    if facts.shell not in BASH_LIKE:
        _directives_by_lines(facts)
        facts.problems.append(
            Problem(
                f"the script runs under {facts.shell}, not bash: only its #SBATCH lines were read "
                "(jobc reads bash and POSIX sh scripts)",
                Span(1, 1, 1, len(lines[0]) + 1 if lines else 2),
            )
        )
        return facts
    raw, runs = _collapse(data)
    if _words(raw) > MAX_WORDS:
        return _refused(
            data,
            file,
            f"the script holds more than {MAX_WORDS:,} words: jobc reads no script this long "
            "(a batch script is never this long; is this the right file?)",
        )
    facts.readable = True
    # bash's verdict on the script is asked once the tree is walked (`Reader._errors`, with this
    # text); it runs meanwhile on its own
    bashcheck.ahead("\n".join(lines) + "\n")
    try:
        tree = parse_tree(raw)
        Reader(facts, raw, base, runs).run(tree.root_node)
    finally:
        bashcheck.drop_ahead()
    return facts


# sbatch's own limit (slurm.conf's max_script_size, 4 MiB unless the site raised it: sbatch
# refuses a bigger script, tried on the test cluster)
MAX_BYTES = 4 << 20
_TOO_BIG = (
    "past sbatch's own limit (max_script_size), so sbatch refuses it unless the site raised the "
    "limit; jobc reads no script this big"
)
# words one script may hold: the parse tree and the facts of each word cost hundreds of bytes,
# and a few million made a script of a few megabytes run out of memory
MAX_WORDS = 200_000
_WORD = lazy_bytes(rb"[^\s;&|]+|[;&|]")


def _words(raw: bytes) -> int:
    """The words of ``raw`` as blanks and `;`, `&`, `|` part them (a quoted string may count as
    several, which only counts more)."""
    if (len(raw) + 1) // 2 <= MAX_WORDS:
        return (len(raw) + 1) // 2  # the common case: no more words than that fit in the bytes
    return sum(1 for _ in _WORD.finditer(raw))


def _refused(data: bytes, file: str, why: str) -> ScriptFacts:
    """Facts of a script jobc does not read: its first line and why, nothing else."""
    first = data[: data.find(b"\n")] if b"\n" in data[:4096] else data[:4096]
    lines = split_lines(first.decode("utf-8", "surrogateescape"))
    facts = ScriptFacts(file=file, lines=lines, shell="bash", readable=False)
    facts.problems.append(Problem(why, Span.point(1, 1), "error"))
    return facts


def split_lines(text: str) -> list[str]:
    """The script's lines as bash counts them: split at `\n` only (a form feed or a `\x85` in
    a line is no line break to bash or to the parse tree), a CRLF's `\r` dropped."""
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    if "\r" in text:
        lines = [line.removesuffix("\r") for line in lines]
    return lines


# A line that only prints or waits: one of these commands and short plain words, nothing bash
# expands, no quote, nothing the secret rules look at. Long runs of them make a script huge.
_PLAIN_NAMES = rb"echo|printf|date|hostname|nvidia-smi|sleep|true|pwd|ls|mkdir|touch"
# (`printf -v NAME` sets a variable: no plain line)
_PLAIN = lazy_bytes(
    rb"(?![ \t]*printf[ \t]+-v)[ \t]*(?:" + _PLAIN_NAMES + rb")(?:[ \t]+[A-Za-z0-9_./,+%:-]{1,16})*[ \t]*"
)
# a script that defines a function or alias by one of those names runs it instead
_REDEFINED = lazy_bytes(rb"(?:^|[\s;&|(])(?:function[ \t]+)?(?:" + _PLAIN_NAMES + rb")[ \t]*\(|alias[ \t]")
RUN = 32  # plain lines in a row that are read as one


def _collapse(data: bytes) -> tuple[bytes, dict[int, int]]:
    """The bytes handed to the parser, and the runs of plain lines they stand for.

    A run of at least `RUN` plain lines in a row (a million `echo hi`) would cost a parse-tree
    node and a command record each, hundreds of bytes a line. The parser gets `:` on the run's
    first line and empty lines for the rest (so every other line keeps its row and columns), and
    the run is recorded as one command that spans it. Returns the first row of each run → its
    last row (0-based)."""
    if data.count(b"\n") < RUN or _REDEFINED.search(data):
        return data, {}
    lines = data.split(b"\n")
    runs: dict[int, int] = {}
    start: int | None = None
    known: dict[bytes, bool] = {}  # generated lines repeat: each distinct one is judged once
    for row, line in enumerate([*lines, b"-"]):  # a sentinel ends the last run
        plain = known.get(line)
        if plain is None:
            plain = (
                _PLAIN.fullmatch(line) is not None
                and PREFILTER.search(line.decode("ascii")) is None  # nothing JC702 would look at
            )
            if len(known) < 4096:
                known[line] = plain
        plain = plain and not (row and lines[row - 1].endswith(b"\\"))  # not a continued command
        if plain and start is None:
            start = row
        elif not plain and start is not None:
            if row - start >= RUN:
                runs[start] = row - 1
            start = None
    if not runs:
        return data, {}
    for first, last in runs.items():
        lines[first] = b":"
        lines[first + 1 : last + 1] = [b""] * (last - first)
    return b"\n".join(lines), runs


def shell_of(first: str) -> str:
    """The interpreter a shebang names (`#!/usr/bin/env -S bash -l` → bash); bash when none."""
    if not first.startswith("#!"):
        return "bash"
    words = first[2:].split()
    if not words:
        return "bash"
    name = os.path.basename(words[0])
    if name == "env":
        rest = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        name = os.path.basename(rest[0]) if rest else "env"
    return "python" if PYTHON.match(name) else name


def _directives_by_lines(facts: ScriptFacts) -> None:
    """Directives of a script whose body is not bash: sbatch's own rule, line by line."""
    honoured = True
    for number, line in enumerate(facts.lines, 1):
        stripped = line.strip()
        if honoured and stripped and not stripped.startswith("#"):
            honoured = False
            facts.first_command = Span(number, 1, number, len(line) + 1)
        if _directives.is_directive(line):
            facts.directives.extend(_directives.parse_line(line, number, honoured))


class Reader:
    """One walk over the tree of one script: positions, variables and values, control flow and
    steps, each in its own module (`tree`, `variables` and `expand`, `flow`, `steps`)."""

    def __init__(
        self, facts: ScriptFacts, raw: bytes, base: PathArg | None = None, runs: dict[int, int] | None = None
    ) -> None:
        self.facts = facts
        self.pos = Positions(facts, raw, runs or {})
        self.state = Variables(len(raw))
        self.expand = Expander(self.pos, self.state, _MAY_EXPAND)
        self.steps = Steps(self.pos, self.state, self.expand, base)
        self.flow = Flow(self.pos, self.state, self.expand, self.steps, base)
        self.first_row: int | None = None

    def run(self, root: Any) -> None:
        for child in root.named_children:
            if child.type != "comment":
                self.first_row = child.start_point[0]
                self.facts.first_command = self.pos.span(child)
                break
        self._comments(root)
        self._sbatch_export()
        self.flow.walk(self.pos.src, list(statements(root)))
        self._errors(root)
        if self.facts.unrun_from is not None:
            for step in self.facts.steps:
                if max(step.span.line, step.reached) >= self.facts.unrun_from and step.ended is None:
                    step.ended = (
                        f"bash cannot parse the script from line {self.facts.unrun_from} on and fails "
                        "there, before it"
                    )
        self._own_variables()
        for name in {e.name for e in self.facts.exports}:
            value = self.state.vars.get(name)
            known = isinstance(value, tuple) and len(value) == 1 and _values.literal(value[0])
            self.facts.final[name] = _values.text(value[0]) if known and value is not None else None

    def _sbatch_export(self) -> None:
        """`#SBATCH --export=ALL,NCCL_DEBUG=INFO,…`: sbatch sets each NAME=value in the job's
        environment before the batch shell starts (with or without ALL), so the batch shell and
        every step it starts see it, as if the script's first line exported it."""
        d = self.facts.honoured().get("export")
        if d is None or not d.value or d.span.line != d.span.end_line:
            return
        row = d.span.line - 1
        line = self.facts.lines[row] if row < len(self.facts.lines) else ""
        at = d.span.col - 1
        for item in d.value.split(","):
            name, eq, value = item.partition("=")
            if not eq or not _ENV_NAME.match(name):
                continue
            found = line.find(item, at)
            if found < 0:
                span = value_span = d.span
                start = end = self.pos.line_starts[row] if row < len(self.pos.line_starts) else 0
            else:
                at = found + len(item)
                col = found + 1
                span = Span(d.span.line, col, d.span.line, col + len(item))
                value_span = Span(d.span.line, col + len(name) + 1, d.span.line, col + len(item))
                start = self.pos.line_starts[row] + _nbytes(line[: found + len(name) + 1])
                end = start + _nbytes(value)
            self.state.setvar(name, (((value, start, end, True),),))
            self.state.export(name)
            self.facts.exports.append(Export(name, value, value, span, value_span, True, directive=True))

    def _own_variables(self) -> None:
        """A per-rank name the script gives a value itself (`NODE_RANK=1`, `for NODE_RANK in …`,
        `(( NODE_RANK=1; … ))`) is the script's own variable, not the one Slurm or the launcher
        sets for each rank: its expansions are not per-rank ones (where its value came from is
        checked where it was assigned)."""
        raw = self.pos.src.raw
        if not _MAY_EXPAND.search(raw):
            return
        own = {name for name in PER_RANK if _assigns(raw, name)}
        if own:
            self.facts.own = frozenset(own)
            self.facts.expansions[:] = [x for x in self.facts.expansions if x.name not in own]

    def _comments(self, root: Any) -> None:
        """`#SBATCH` lines that bash reads as comments (not a heredoc's or a string's lines)."""
        for row, line in enumerate(self.facts.lines):
            if not line.startswith(_directives.PREFIX) or not _directives.is_directive(line):
                continue
            if self.first_row is None or row < self.first_row:
                # above the first command there are only comments: no need to ask the tree
                self.facts.directives.extend(_directives.parse_line(line, row + 1, True))
                continue
            node = root.descendant_for_point_range((row, 0), (row, 1))
            if node is None or node.type != "comment" or node.start_point != (row, 0):
                continue
            if not _bash_comment(node):
                continue
            self.facts.directives.extend(_directives.parse_line(line, row + 1, False))

    def _errors(self, root: Any) -> None:
        if not root.has_error:
            # the grammar read it all; bash may still refuse it (a stray `fi`): bash has the say
            refused = bashcheck.refusal_stops("\n".join(self.facts.lines) + "\n")
            if refused is not None:
                line, said, stops = refused
                then = "the job would fail there at once" if stops else "bash skips that command and runs on"
                if stops:
                    self.facts.unrun_from = _top_level_start(self.facts.lines, line, root)
                self.facts.problems.append(
                    Problem(
                        f"bash cannot parse the script: line {line}: {said}; {then}, and findings "
                        "after this line may be incomplete",
                        Span.point(line, 1),
                        "error",
                    )
                )
            return
        stack = [root]
        while stack:
            node = stack.pop()
            if node.type == "ERROR" or node.is_missing:
                what = f"a missing {node.type!r}" if node.is_missing else "text bash cannot parse"
                parent = node.parent
                if node.is_missing and node.type in ("'", '"', "`") and parent is not None:
                    # the quote that is never closed, not the end of the file where bash gave up
                    node, what = parent, f"a {node.type} that is never closed"
                elif node.type == "ERROR" and self.pos.text(node)[:1] in ("'", '"'):
                    what = "a quote that is never closed"
                line = node.start_point[0] + 1
                severity = "warning"
                message = (
                    f"{what} at line {line}: the script was read up to here "
                    "and around it; findings after this point may be incomplete"
                )
                text = "\n".join(self.facts.lines) + "\n"
                refused = bashcheck.refusal_stops(text)
                accepted = False if refused is not None else bashcheck.accepts(text)
                if refused is not None:
                    severity = "error"  # bash refuses it too
                    if refused[2]:  # and stops there: nothing after it runs
                        self.facts.unrun_from = _top_level_start(self.facts.lines, refused[0], root)
                if accepted:
                    # bash reads it: the grammar is wrong, not the script
                    severity = "info"
                    # to the end of the command it is in: the grammar's way around the part it
                    # cannot read may take the rest of that command for something else (inside a
                    # `$((…))` in a string, it read the string on over lines bash runs as commands)
                    self.facts.unread = (line, max(line, node.end_point[0] + 1, _statement_end(node)))
                    message = (
                        f"line {line} holds a construct jobc's bash grammar cannot read (bash itself "
                        "accepts the script): it was read around it, and findings after this point "
                        "may be incomplete"
                    )
                elif what == "text bash cannot parse" and _no_bash():
                    message = message.replace("text bash cannot parse", "text jobc cannot parse", 1)
                self.facts.problems.append(
                    Problem(message, Span.point(line, self.pos.col(*node.start_point)), severity)
                )
                return  # the first place is the one to fix; later ones often follow from it
            stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))


#: Where a `#` is text to bash, never a comment: inside `${…}`, `$((…))` and quotes. The grammar
#: lets a comment stand anywhere (`${A=1` / `#SBATCH --time=1:00:00` / `}` gives a comment node).
_LITERAL_CONTEXT = frozenset(
    {"expansion", "arithmetic_expansion", "string", "raw_string", "ansi_c_string", "translated_string"}
)
#: The tokens that open an expansion or a string, as the grammar's error recovery keeps them
_OPENERS = frozenset({"${", "$((", '"', "'", "$'", '$"'})
#: Where bash reads commands again, and so comments: a command substitution, a subshell, a group.
_COMMAND_CONTEXT = frozenset(
    {"program", "command_substitution", "process_substitution", "subshell", "compound_statement"}
)


def _bash_comment(node: Any) -> bool:
    """Whether bash reads the grammar's comment node as a comment: not text of an expansion or a
    string around it, up to the nearest place bash reads commands again."""
    parent = node.parent
    while parent is not None and parent.type not in _COMMAND_CONTEXT:
        if parent.type in _LITERAL_CONTEXT:
            return False
        if parent.type == "ERROR" and any(
            c.type in _OPENERS and c.start_byte < node.start_byte for c in parent.children
        ):
            # the grammar gave up inside an expansion or a string it saw open (`${A[$B) = 1` and
            # lines on to the next `}`): to bash, the lines after the opener are its text
            return False
        parent = parent.parent
    return True


def _statement_end(node: Any) -> int:
    """The last line (1-based) of the top-level command ``node`` is part of."""
    while node.parent is not None and node.parent.parent is not None:
        node = node.parent
    return int(node.end_point[0]) + 1


def _top_level_start(lines: list[str], line: int, root: Any = None) -> int:
    """The first line of the top-level command that holds ``line`` (1-based), where bash refuses
    the script: bash reads a whole top-level command (an `if`, a loop, a function, a line of `&&`)
    before it runs any of it, so nothing from that line on runs. Asked of bash itself: the longest
    run of lines before ``line`` that bash parses whole ends where that command begins. The
    grammar's own tree is no guide to the nearest lines, as its recovery from the error may
    swallow lines bash runs; past the look-back (a command of hundreds of lines), the start of the
    grammar's top-level command there is taken when bash parses every line above it whole."""
    for end in range(line - 1, max(0, line - 1 - _LOOK_BACK), -1):
        if bashcheck.accepts("\n".join(lines[:end]) + "\n"):
            return end + 1
    if root is not None and line - 1 > _LOOK_BACK:
        starts: list[int] = [
            c.start_point[0] for c in root.children if c.start_point[0] < line - 1 - _LOOK_BACK
        ]
        if starts and starts[-1] > 0 and bashcheck.accepts("\n".join(lines[: starts[-1]]) + "\n"):
            return starts[-1] + 1
    return 1


# how many lines back to look for the start of the command bash refuses (each look is one `bash
# -n`); a longer command is taken to start at line 1, which withholds more repairs, never fewer
_LOOK_BACK = 64


def _no_bash() -> bool:
    import shutil  # only for a script tree-sitter stumbles on: shutil brings the compression modules

    return shutil.which("bash") is None
