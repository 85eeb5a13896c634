"""A batch script → facts, from a real bash parse tree (tree-sitter-bash) that keeps positions.

tree-sitter recovers from syntax errors: a script with an unterminated quote or another shell's
syntax still gives a tree with ERROR nodes around the parts it could not read, so a damaged
script yields the facts of its readable parts and a problem that says where reading failed.
"""

from __future__ import annotations

import bisect
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jobc.core.diagnostics import Span
from jobc.core.numbers import ascii_int, is_digits
from jobc.script import bashcheck
from jobc.script import directives as _directives
from jobc.script import values as _values
from jobc.script.facts import (
    PER_RANK,
    Command,
    Expansion,
    Export,
    Launcher,
    Problem,
    ScriptFacts,
    Step,
    Trap,
    Word,
)
from jobc.script.signals import normalise
from jobc.tables import launchers as _launchers
from jobc.tables.secrets import PREFILTER
from jobc.tables.slurm_options import SRUN_FLAGS, SRUN_SHORT, SRUN_SHORT_FLAGS

# Shells whose syntax tree-sitter-bash reads; any other interpreter's body is not read.
BASH_LIKE = frozenset({"bash", "sh", "dash", "ksh", "ash"})
# Commands that run the rest of their words as a command
_WRAPPERS = frozenset(
    {"nohup", "time", "command", "builtin", "setsid", "stdbuf", "taskset", "numactl", "nice"}
)
# launcher options without a value (normalised: no dashes, '-' → '_')
_LAUNCHER_FLAGS = frozenset(
    {
        "standalone",
        "no_python",
        "module",
        "m",
        "run_path",
        "multi_gpu",
        "use_deepspeed",
        "use_fsdp",
        "use_megatron_lm",
        "cpu",
        "debug",
        "quiet",
        "q",
        "no_local_rank",
        "force_multi",
        "autotuning",
        "elastic_training",
        "save_pid",
        "enable_each_rank_log",
        "bind_cores_to_rank",
        "dynamo_use_dynamic",
        "tee_output",
    }
)
_PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_LITERAL_TYPES = frozenset({"word", "number", "raw_string"})
_SPECIAL_WORD = re.compile(r"[\\*?\[]")
# what a backslash escapes: in double quotes only $ ` " \ and a newline, outside any character
_QUOTED_ESCAPE = re.compile(r'\\([$`"\\\n])')
_ESCAPE = re.compile(r"\\(.)")
# names a command that may start a step or set a trap; any other command is only recorded
# `${X:=8}` and `${X=8}` assign X as they expand (`: "${X:=8}"` is how scripts give defaults)
_ASSIGNS_DEFAULT = re.compile(rb"\$\{[A-Za-z_][A-Za-z0-9_]*:?=")
_MAY_LAUNCH = re.compile(
    rb"(?:^|/)(?:srun|exec|env|trap|torchrun|deepspeed|accelerate|uv|python[0-9.]*|bash|sh|"
    rb"nohup|time|command|builtin|setsid|stdbuf|taskset|numactl|nice|eval|source|\.|shift|"
    rb"set|mpirun|mpiexec|lightning|composer|apptainer|singularity|conda|micromamba)$"
)
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_MAX_CALLS = 16  # functions followed inside one another
_MAX_FIELDS = 1024  # words one expansion may give and still be followed
_MAX_SOURCED = 8  # files followed through `source`
_UNSET: Any = object()  # a variable the script never set
_MAY_EXPAND = re.compile(rb"(?:" + b"|".join(n.encode() for n in sorted(PER_RANK)) + rb")")

_PARSER: Any = None


def parser() -> Any:
    """The bash parser, made once; tree-sitter is imported only when a script is read."""
    global _PARSER  # noqa: PLW0603 - one parser per process; building it loads the grammar
    if _PARSER is None:
        import tree_sitter_bash
        from tree_sitter import Language, Parser

        _PARSER = Parser(Language(tree_sitter_bash.language()))
    return _PARSER


def read(path: Path, display: str | None = None) -> ScriptFacts:
    return read_bytes(path.read_bytes(), display or str(path), path.parent)


def read_bytes(data: bytes, file: str, base: Path | None = None) -> ScriptFacts:
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
    facts.readable = True
    raw, runs = _collapse(data)
    tree = parser().parse(raw)
    reader = _Reader(facts, raw, base, runs)
    _LOCATE.append(reader.offsets)
    _BASE.append(base)
    try:
        reader.run(tree.root_node)
    finally:
        _LOCATE.pop()
        _BASE.pop()
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
_PLAIN = re.compile(rb"[ \t]*(?:" + _PLAIN_NAMES + rb")(?:[ \t]+[A-Za-z0-9_./,+%:-]{1,16})*[ \t]*")
# a script that defines a function or alias by one of those names runs it instead
_REDEFINED = re.compile(rb"(?:^|[\s;&|(])(?:function[ \t]+)?(?:" + _PLAIN_NAMES + rb")[ \t]*\(|alias[ \t]")
RUN = 32  # plain lines in a row that are read as one
_MAX_INDEX = 1 << 16  # `A[N]=x` past this is not followed (it would allocate N empty elements)


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
    return "python" if _PYTHON.match(name) else name


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


class _Frame:
    """The positional parameters of a function being followed, and the work left to spend."""

    __slots__ = ("args",)

    def __init__(self, args: list[_values.Field] | None) -> None:
        self.args = args  # None: the script's own arguments, which are not known


class _Branches:
    """An `if`/`case`/loop: what each of its branches set, to merge at its end."""

    __slots__ = ("complete", "mark", "results")

    def __init__(self, mark: int, complete: bool) -> None:
        self.mark = mark  # where the journal stood before the first branch
        self.complete = complete  # one branch always runs (an `else` or a `*)` case)
        self.results: list[dict[str, Any]] = []  # per branch: the variables it set, as it left them


class _Reader:
    """One walk over the tree of one script, following what each variable holds as it goes."""

    def __init__(
        self, facts: ScriptFacts, raw: bytes, base: Path | None = None, runs: dict[int, int] | None = None
    ) -> None:
        self.facts = facts
        self.raw = raw
        self.runs = runs or {}  # first row → last row of each run of plain lines read as one
        self.line_bytes = raw.split(b"\n")
        self.line_starts = [0]
        for line in self.line_bytes[:-1]:
            self.line_starts.append(self.line_starts[-1] + len(line) + 1)
        self.first_row: int | None = None
        self.ascii = raw.isascii()
        self.src = _values.Src(raw)
        self.bodies: dict[str, tuple[_values.Src, Any]] = {}  # function name → its definition
        self.vars: dict[str, _values.Value | None] = {}  # None: set, but to something unknown
        # every change of a variable, with the value before it: branches are undone and merged
        # from it, so an `if` costs what its branches set, not the number of variables
        self.journal: list[tuple[str, Any]] = []
        # variables set differently on two paths, each time to srun options or nothing
        # (`AUTO_RESUME=""; if …; then AUTO_RESUME="--auto-resume=1"; fi`): unknown, but an
        # option wherever they stand among srun's options
        self.optionish: set[str] = set()
        self.frames: list[_Frame] = [_Frame(None)]
        self.base = base
        self.exported: set[str] = set()
        self.allexport = False  # `set -a`: every variable set from here on is exported
        self.sourced: set[Path] = set()
        # statements followed through calls, eval and sourced files: bounded by the script's size
        self.budget = 50_000 + 20 * len(raw)
        # characters of values copied into the words that use them, and how many may be
        self.spent = 0
        self.allowance = 4 * _values.MAX_VALUE + 8 * len(raw)

    # positions: tree-sitter counts bytes, findings count characters
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
        return bytes(node.text).decode("utf-8", "surrogateescape")

    def run(self, root: Any) -> None:
        for child in root.named_children:
            if child.type != "comment":
                self.first_row = child.start_point[0]
                self.facts.first_command = self.span(child)
                break
        self._comments(root)
        self.walk(self.src, list(_statements(root)))
        self._errors(root)
        self._own_variables()
        for name in {e.name for e in self.facts.exports}:
            value = self.vars.get(name)
            known = isinstance(value, tuple) and len(value) == 1 and _values.literal(value[0])
            self.facts.final[name] = _values.text(value[0]) if known and value is not None else None

    def _own_variables(self) -> None:
        """A per-rank name the script gives a value itself (`NODE_RANK=1`, `for NODE_RANK in …`,
        `(( NODE_RANK=1; … ))`) is the script's own variable, not the one Slurm or the launcher
        sets for each rank: its expansions are not per-rank ones (where its value came from is
        checked where it was assigned)."""
        raw = self.src.raw
        if not _MAY_EXPAND.search(raw):
            return
        own = {
            name
            for name in PER_RANK
            if re.search(
                rb"(?<![\w$])" + name.encode() + rb"\+?=|\bfor\s+" + name.encode() + rb"\b",
                raw,
            )
        }
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
            self.facts.directives.extend(_directives.parse_line(line, row + 1, False))

    def _errors(self, root: Any) -> None:
        if not root.has_error:
            # the grammar read it all; bash may still refuse it (a stray `fi`): bash has the say
            refused = bashcheck.refusal("\n".join(self.facts.lines) + "\n")
            if refused is not None:
                line, said = refused
                self.facts.problems.append(
                    Problem(
                        f"bash cannot parse the script: line {line}: {said}; the job would fail there "
                        "at once, and findings after this line may be incomplete",
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
                elif node.type == "ERROR" and self.text(node)[:1] in ("'", '"'):
                    what = "a quote that is never closed"
                line = node.start_point[0] + 1
                severity = "warning"
                message = (
                    f"{what} at line {line}: the script was read up to here "
                    "and around it; findings after this point may be incomplete"
                )
                accepted = bashcheck.accepts("\n".join(self.facts.lines) + "\n")
                if accepted is False:
                    severity = "error"  # bash refuses it too: the job would fail there at once
                if accepted:
                    # bash reads it: the grammar is wrong, not the script
                    severity = "info"
                    message = (
                        f"line {line} holds a construct jobc's bash grammar cannot read (bash itself "
                        "accepts the script): it was read around it, and findings after this point "
                        "may be incomplete"
                    )
                elif what == "text bash cannot parse" and shutil.which("bash") is None:
                    message = message.replace("text bash cannot parse", "text jobc cannot parse", 1)
                self.facts.problems.append(
                    Problem(message, Span.point(line, self.col(*node.start_point)), severity)
                )
                return  # the first place is the one to fix; later ones often follow from it
            stack.extend(reversed([c for c in node.children if c.has_error or c.is_missing]))

    # statements: one explicit stack, so nesting depth costs no Python recursion ----------------

    def walk(self, src: _values.Src, statements: list[tuple[Any, bool]]) -> None:
        stack: list[tuple[Any, ...]] = [("s", src, n, bg) for n, bg in reversed(statements)]
        while stack:
            item = stack.pop()
            kind = item[0]
            if kind == "s":
                self.budget -= 1
                self.statement(stack, item[1], item[2], item[3])
            elif kind == "snapshot":
                item[1].mark = len(self.journal)
            elif kind == "branch_end":
                item[1].results.append(self.undo(item[1].mark))
            elif kind == "merge":
                self.merge(item[1])
            elif kind == "restore":
                self.undo(item[1])
            elif kind == "frame_end":
                self.frames.pop()

    def setvar(self, name: str, value: _values.Value | None) -> None:
        self.optionish.discard(name)
        self.journal.append((name, self.vars.get(name, _UNSET)))
        self.vars[name] = value

    def undo(self, mark: int) -> dict[str, Any]:
        """Undo the changes since ``mark``; what each changed variable held before the undo."""
        changed: dict[str, Any] = {}
        journal = self.journal
        while len(journal) > mark:
            name, old = journal.pop()
            if name not in changed:
                changed[name] = self.vars.get(name, _UNSET)
            if old is _UNSET:
                self.vars.pop(name, None)
            else:
                self.vars[name] = old
        return changed

    def merge(self, state: _Branches) -> None:
        """After branches: a value every way through agrees on, else unknown."""
        names: dict[str, None] = {}
        for result in state.results:
            names.update(dict.fromkeys(result))
        for name in names:
            before = self.vars.get(name, _UNSET)
            ways = [r.get(name, before) for r in state.results]
            if not state.complete or not state.results:
                ways.append(before)
            first = ways[0]
            # the same text either way is the same value, wherever each way wrote it
            key = _values.key(first) if first is not _UNSET else _UNSET
            agree = key is not _UNSET and all(w is not _UNSET and _values.key(w) == key for w in ways[1:])
            merged = first if agree else None
            if merged is not before:
                self.setvar(name, merged)
            if not agree and all(w is _UNSET or _options_only(w) for w in ways):
                self.optionish.add(name)

    def statement(self, stack: list[tuple[Any, ...]], src: _values.Src, node: Any, bg: bool) -> None:
        kind = node.type
        if kind == "command":
            self.command(stack, src, node, bg)
        elif kind == "declaration_command":
            self.declaration(src, node)
        elif kind == "variable_assignment":
            self.assignment(src, node, exported=False)
        elif kind == "function_definition":
            self.function(src, node)
        elif kind == "comment":
            return
        elif kind == "redirected_statement":
            body = node.child_by_field_name("body") or (
                node.named_children[0] if node.named_children else None
            )
            if body is not None and body.type == "command" and self._read_heredoc(src, body, node):
                return
            if body is not None:
                stack.append(("s", src, body, bg))
        elif kind in ("if_statement", "case_statement"):
            self.branches(stack, src, node, bg)
        elif kind in ("for_statement", "while_statement", "c_style_for_statement", "until_statement"):
            # a loop body may run any number of times, none included: what it sets is unknown after
            state = _Branches(len(self.journal), complete=False)
            stack.append(("merge", state))
            stack.append(("branch_end", state))
            stack.extend(("s", src, c, bg or b) for c, b in reversed(list(_statements(node))) if _runs(c))
        elif kind == "list":
            # `a && b || c`: the first runs; what the others set may or may not be set after
            children = [(c, b) for c, b in _statements(node) if _runs(c)]
            if not children:
                return
            state = _Branches(len(self.journal), complete=False)
            stack.append(("merge", state))
            stack.append(("branch_end", state))
            stack.extend(("s", src, c, bg or b) for c, b in reversed(children[1:]))
            stack.append(("s", src, children[0][0], bg or children[0][1]))
        elif kind in ("subshell", "pipeline"):
            # a subshell's (and a pipeline's) assignments do not reach the batch shell
            stack.append(("restore", len(self.journal)))
            stack.extend(("s", src, c, bg or b) for c, b in reversed(list(_statements(node))) if _runs(c))
        else:
            stack.extend(("s", src, c, bg or b) for c, b in reversed(list(_statements(node))) if _runs(c))

    def branches(self, stack: list[tuple[Any, ...]], src: _values.Src, node: Any, bg: bool) -> None:
        """`if`/`case`: conditions run, then one of the branches; variables merge after."""
        conditions: list[Any] = []
        arms: list[list[tuple[Any, bool]]] = []
        complete = False
        if node.type == "if_statement":
            arm: list[tuple[Any, bool]] | None = None
            for clause in (
                node,
                *[c for c in node.named_children if c.type in ("elif_clause", "else_clause")],
            ):
                body = clause.type == "else_clause"
                arm = [] if body else None
                children = clause.children
                last = len(children) - 1
                for i, child in enumerate(children):
                    if child.type == "then":
                        body, arm = True, []
                        continue
                    if not child.is_named or child.type in ("elif_clause", "else_clause") or not _runs(child):
                        continue
                    bg = i < last and children[i + 1].type == "&"
                    if body and arm is not None:
                        arm.append((child, bg))
                    else:
                        conditions.append((child, bg))
                if arm is not None:
                    arms.append(arm)
                complete = complete or clause.type == "else_clause"
        else:
            for child, b in _statements(node):
                if child.type == "case_item":
                    pattern = child.named_children[0] if child.named_children else None
                    if pattern is not None and self.text(pattern, src) == "*":
                        complete = True
                    arms.append([(c, cb) for c, cb in list(_statements(child))[1:] if _runs(c)])
                elif _runs(child):
                    conditions.append((child, b))
        state = _Branches(len(self.journal), complete)
        stack.append(("merge", state))
        for arm_items in reversed(arms):
            stack.append(("branch_end", state))
            stack.extend(("s", src, c, bg or cb) for c, cb in reversed(arm_items) if _runs(c))
        # the conditions run first, then one branch, each from the variables as they were then
        stack.append(("snapshot", state))
        stack.extend(("s", src, c, bg or cb) for c, cb in reversed(conditions) if _runs(c))

    def function(self, src: _values.Src, node: Any) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.text(name_node, src)
        if name not in self.facts.functions:
            self.facts.functions.append(name)
        self.bodies[name] = (src, node)
        # the body runs where the function is called: inside a step (export -f, then
        # srun bash -c NAME), so its per-rank variables are not the batch shell's
        self.facts.expansions.extend(self.expansions(node, "step", src))
        if b"trap" in bytes(node.text):
            self.function_traps(src, node, name)

    def declaration(self, src: _values.Src, node: Any) -> None:
        keyword = node.children[0].type if node.children else ""
        options = {self.text(c, src) for c in node.children if c.type == "word"}
        exported = keyword == "export" or any(o.startswith("-") and "x" in o for o in options)
        associative = any(o.startswith("-") and "A" in o for o in options)
        for child in node.named_children:
            if child.type == "variable_assignment":
                self.assignment(src, child, exported=exported)
                if associative:
                    name = child.child_by_field_name("name")
                    if name is not None:
                        self.setvar(self.text(name, src), None)
            elif child.type == "variable_name":
                name = self.text(child, src)
                if exported:
                    self.exported.add(name)
                    for i, old in enumerate(self.facts.exports):
                        if old.name == name and not old.exported:
                            self.facts.exports[i] = Export(
                                old.name, old.value, old.raw, old.span, old.value_span, True
                            )
                elif keyword in ("local", "declare", "typeset") and name not in self.vars:
                    self.setvar(name, ((),) if not associative else None)
        self.batch_expansions(src, node)

    def assignment(self, src: _values.Src, node: Any, *, exported: bool) -> None:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return
        name = self.text(name_node, src)
        index: str | None = None
        if name_node.type == "subscript":
            var = name_node.child_by_field_name("name")
            idx = name_node.child_by_field_name("index")
            index = self.text(idx, src) if idx is not None else None
            name = self.text(var, src) if var is not None else name
        append = any(c.type == "+=" for c in node.children)
        value: _values.Value | None
        if value_node is None:
            value = ((),)
            fld: _values.Field = ()
            raw = ""
            value_span = Span.point(node.end_point[0] + 1, self.col(*node.end_point))
        elif value_node.type == "array":
            # a `# …` inside the parentheses is a comment, not an element
            value = tuple(
                f for c in value_node.named_children if c.type != "comment" for f in self.fields(src, c)
            )
            fld = _values.join(list(value))
            raw = self.text(value_node, src)
            value_span = self.span(value_node, src)
        else:
            got = self.fields(src, value_node, assigned=True)
            fld = _values.join(got, "") if got else ()
            value = (fld,)
            raw = self.text(value_node, src)
            value_span = self.word_of(fld, value_node, src).span
        old = self.vars.get(name, ((),))
        if index is not None:
            at = ascii_int(index)
            if old is None or at is None or at > _MAX_INDEX or value is None:
                value = None  # an index no array of a script reaches is not followed
            else:
                elements = list(old)
                while len(elements) <= at:
                    elements.append(())
                elements[at] = value[0] if value else ()
                value = tuple(elements)
        elif append and old is not None and value is not None:
            if value_node is not None and value_node.type == "array":
                value = old + value
            else:
                first = old[0] if old else ()
                value = (first + (value[0] if value else ()), *old[1:])
        elif append:
            value = None
        if value is not None and _values.size(value) > _values.MAX_VALUE:
            value = None
        if value is not None and len(value) == 1 and value[0] and not any(seg[3] for seg in value[0]):
            # nothing of it is known (`$(scontrol …)`): an unknown variable, shown by its name
            value = None
        self.setvar(name, value)
        if exported or self.allexport:
            self.exported.add(name)
        single = (
            value is not None and len(value) == 1 and value_node is not None and value_node.type != "array"
        )
        literal = single and value is not None and _values.literal(value[0])
        text = _values.text(value[0]) if literal and value is not None else None
        self.facts.exports.append(Export(name, text, raw, self.span(node, src), value_span, exported))
        del fld
        self.batch_expansions(src, node)

    def batch_expansions(self, src: _values.Src, node: Any) -> None:
        if _MAY_EXPAND.search(bytes(node.text)):
            self.facts.expansions.extend(self.expansions(node, "batch", src))

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
                for sub in _descendants(cur):
                    if sub.type == "variable_name" and self.text(sub, src) in PER_RANK:
                        yield Expansion(self.text(sub, src), self.span(cur, src), shell)
                continue
            stack.extend(reversed(cur.children))

    # words: what each argument expands to --------------------------------------------------------

    def fields(
        self, src: _values.Src, node: Any, *, quoted: bool = False, assigned: bool = False
    ) -> list[_values.Field]:
        """The fields ``node`` expands to (an assignment's value is not split)."""
        kind = node.type
        a, b = node.start_byte, node.end_byte
        if kind in ("word", "number"):
            return [tuple(_values.word_segs(src, a, b))]
        if kind == "raw_string":
            return [tuple(src.segs(a + 1, b - 1))]
        if kind == "string":
            return self._string(src, node)
        if kind in ("simple_expansion", "expansion"):
            got = self._parameter(src, node, quoted=quoted)
            if not (quoted or assigned):
                got = [piece for f in got for piece in _values.split(f)]
            if len(got) > _MAX_FIELDS:
                # thousands of words from one expansion are no launch line: not followed
                return [self._unknown(src, node)]
            self.spent += 64 * len(got)
            return got
        if kind == "concatenation":
            out: list[_values.Field] = []
            for child in node.children:
                if not child.is_named:
                    if child.type in ("$", "`"):
                        continue
                    part: list[_values.Field] = [
                        tuple(_values.word_segs(src, child.start_byte, child.end_byte))
                    ]
                else:
                    part = self.fields(src, child, quoted=quoted, assigned=assigned)
                if not part:
                    continue
                if out:
                    out[-1] = out[-1] + part[0]
                    out.extend(part[1:])
                else:
                    out.extend(part)
            return out
        if kind == "command_substitution":
            heredoc = self._cat_heredoc(src, node)
            if heredoc is not None:
                return [heredoc]
        return [self._unknown(src, node)]

    def _unknown(self, src: _values.Src, node: Any) -> _values.Field:
        seg = src.unknown_at(node.start_byte, node.end_byte)
        if seg is not None and node.type == "word":
            return (seg,)
        where = src.range(node.start_byte, node.end_byte)
        a, b = where if where is not None else (-1, -1)
        return _values.unknown(self.text(node, src), a, b)

    def _string(self, src: _values.Src, node: Any) -> list[_values.Field]:
        """A double-quoted string: one field, or one per element for `"$@"` and `"${A[@]}"`."""
        out: list[_values.Field] = [()]
        children = node.children
        for i, child in enumerate(children):
            kind = child.type
            if kind == '"' and i in (0, len(children) - 1):
                continue
            raw = src.raw[child.start_byte : child.end_byte] if kind != "string_content" else b""
            if raw[:1].isspace() and (lead := child.end_byte - len(raw.lstrip())) > child.start_byte:
                # the grammar counts the blanks between two expansions (`"$A $B"`, `"$A ${B}"`)
                # into the second one's `$`: they are the string's text all the same
                out = out or [()]
                out[-1] = out[-1] + tuple(_values.dq_segs(src, child.start_byte, lead))
            if kind == "string_content":
                out[-1] = out[-1] + tuple(_values.dq_segs(src, child.start_byte, child.end_byte))
            elif kind in ("simple_expansion", "expansion"):
                got = self._parameter(src, child, quoted=True)
                if not got:
                    if len(out) == 1 and not out[0] and _array_all(child):
                        out = []  # "${A[@]}" of an empty array: no field at all
                    continue
                if not out:
                    out = [()]
                out[-1] = out[-1] + got[0]
                out.extend(got[1:])
            elif kind == "command_substitution":
                heredoc = self._cat_heredoc(src, child)
                piece = heredoc if heredoc is not None else self._unknown(src, child)
                out[-1] = out[-1] + piece
            elif child.is_named:
                out[-1] = out[-1] + self._unknown(src, child)
            else:
                out[-1] = out[-1] + tuple(src.segs(child.start_byte, child.end_byte))
        return out

    def _parameter(self, src: _values.Src, node: Any, *, quoted: bool) -> list[_values.Field]:
        """`$NAME`, `${NAME}`, `${NAME:-default}`, `${A[@]}`, `$1`, `"$@"`: the fields it gives."""
        name = ""
        index: str | None = None
        op = ""
        operand: list[Any] = []
        length = False
        children = node.children
        for i, child in enumerate(children):
            kind = child.type
            if kind in ("variable_name", "special_variable_name") and not name:
                name = self.text(child, src)
            elif kind == "subscript":
                var = child.child_by_field_name("name")
                idx = child.child_by_field_name("index")
                name = self.text(var, src) if var is not None else ""
                index = self.text(idx, src) if idx is not None else None
            elif kind == "#" and i == 1:
                length = True
            elif not child.is_named and kind not in ("$", "${", "}") and name and not op:
                op = kind
            elif child.is_named and name and op:
                operand.append(child)
            elif child.is_named and name and not op:
                op = "?"  # an operation the grammar names differently: not followed
        if not name or length or (op and not _values.is_default(op) and op not in (":+", "+")):
            return [self._unknown(src, node)]
        value = self._lookup(name, index)
        if op:
            set_ = value is not None and value is not _UNSET
            empty = set_ and all(not f for f in value)
            if _values.is_default(op):
                if value is _UNSET and not _values.environment_name(name):
                    got = self._operand(src, operand, quoted)
                    if op in (":=", "="):
                        self.setvar(name, (_values.join(got, " "),) if got else ((),))
                    return got
                if set_ and empty and op.startswith(":"):
                    return self._operand(src, operand, quoted)
            elif op in (":+", "+"):
                if value is _UNSET or (empty and op == ":+"):
                    return [()] if quoted else []
                if set_:
                    return self._operand(src, operand, quoted)
        if value is None or value is _UNSET:
            return [self._unknown(src, node)]
        assert isinstance(value, tuple)
        self.spent += _values.size(value)
        if self.spent > self.allowance:
            # values copied into words past a multiple of the script's size: not followed further
            return [self._unknown(src, node)]
        if index in ("*",) or (name == "*" and index is None):
            return [_values.join(list(value))] if quoted else list(value)
        return list(value)

    def _operand(self, src: _values.Src, operand: list[Any], quoted: bool) -> list[_values.Field]:
        out: list[_values.Field] = []
        for child in operand:
            got = self.fields(src, child, quoted=quoted, assigned=quoted)
            if out and got:
                out[-1] = out[-1] + got[0]
                out.extend(got[1:])
            else:
                out.extend(got)
        return out or [()]

    def _lookup(self, name: str, index: str | None) -> Any:
        """A variable's fields (all its elements for `@`/`*`), None when unknown, _UNSET if unset."""
        if is_digits(name) or name in ("@", "*"):
            args = self.frames[-1].args
            if args is None:
                return None
            if name in ("@", "*"):
                return tuple(args)
            n = ascii_int(name)
            if not n:
                return None  # $0, or a position past any count: not followed
            return (args[n - 1],) if n <= len(args) else _UNSET
        if name in ("#", "?", "$", "!", "-", "_"):
            return None
        if name not in self.vars:
            return _UNSET
        value = self.vars[name]
        if value is None:
            return None
        if index in ("@", "*"):
            return value
        if index is None:
            return value[:1]
        if (at := ascii_int(index)) is not None:
            return (value[at],) if at < len(value) else _UNSET
        return None

    def _cat_heredoc(self, src: _values.Src, node: Any) -> _values.Field | None:
        """`$(cat <<EOF … EOF)`: the heredoc's text, trailing newlines removed as `$(…)` does."""
        inner = [c for c in node.named_children if c.type != "comment"]
        if len(inner) != 1 or inner[0].type != "redirected_statement":
            return None
        body = inner[0].child_by_field_name("body") or inner[0].named_children[0]
        if body.type != "command" or self.text(body, src).strip() != "cat":
            return None
        field = self._heredoc(src, inner[0])
        if field is None:
            return None
        while field and field[-1][3] and field[-1][0].endswith("\n"):
            last = field[-1]
            stripped = last[0].rstrip("\n")
            field = field[:-1] + ((_values._slice(last, 0, len(stripped)),) if stripped else ())
        return field

    def _heredoc(self, src: _values.Src, redirected: Any) -> _values.Field | None:
        for child in redirected.named_children:
            if child.type != "heredoc_redirect":
                continue
            start = next((c for c in child.named_children if c.type == "heredoc_start"), None)
            body = next((c for c in child.named_children if c.type == "heredoc_body"), None)
            if body is None:
                return ()
            quoted = start is not None and self.text(start, src)[:1] in ("'", '"', "\\")
            if quoted:
                return tuple(src.segs(body.start_byte, body.end_byte))
            out: _values.Field = ()
            pos = body.start_byte
            for part in body.named_children:
                if part.type == "heredoc_content":
                    continue
                out += tuple(_values.dq_segs(src, pos, part.start_byte))
                if part.type in ("simple_expansion", "expansion"):
                    got = self._parameter(src, part, quoted=True)
                    out += _values.join(got) if got else ()
                else:
                    out += self._unknown(src, part)
                pos = part.end_byte
            out += tuple(_values.dq_segs(src, pos, body.end_byte))
            return out
        return None

    def _read_heredoc(self, src: _values.Src, command: Any, redirected: Any) -> bool:
        """`read -r -d '' NAME <<EOF … EOF`: NAME holds the heredoc's text."""
        arguments = _argument_nodes(command)
        if not arguments or self.text(arguments[0], src) != "read":
            return False
        names = [self.text(a, src) for a in arguments[1:] if not self.text(a, src).startswith("-")]
        names = [n for n in names if _NAME.match(n)]
        if not names:
            return False
        field = self._heredoc(src, redirected)
        if field is None:
            return False
        self.setvar(names[-1], (field,) if len(names) == 1 else None)
        return True

    def word_of(self, f: _values.Field, node: Any, src: _values.Src) -> Word:
        """A word for one field of ``node``: as written when it is the node's own text, else
        placed where its parts were written."""
        literal = _values.literal(f)
        a, b = node.start_byte, node.end_byte
        if (
            src is self.src
            and all(a <= s[1] and s[2] <= b for s in f if s[1] >= 0)
            and any(s[1] >= 0 for s in f)
        ):
            raw = self.text(node)
            if literal:
                return Word(_values.text(f), self.span(node), True, raw, node, f)
            return Word(raw, self.span(node), False, raw, node, f)
        text = _values.text(f)
        where = _values.place(f)
        span = self.offsets(*where) if where is not None else self.where(node, src)
        return Word(text, span, literal, text, node, f, True)

    def words(self, src: _values.Src, nodes: list[Any]) -> list[Word]:
        out: list[Word] = []
        for node in nodes:
            if node.type == "word" and src is self.src and not _SPECIAL_WORD.search(self.text(node)):
                # the common case (options, file names, numbers): the text is the word
                raw = self.text(node)
                seg = (raw, node.start_byte, node.end_byte, True)
                out.append(Word(raw, self.span(node), True, raw, node, (seg,)))
                continue
            out.extend(self.word_of(f, node, src) for f in self.fields(src, node))
        return out

    # commands ---------------------------------------------------------------------------------

    def command(self, stack: list[tuple[Any, ...]], src: _values.Src, node: Any, background: bool) -> None:
        row = node.start_point[0]
        if src is self.src and row in self.runs:
            # a run of plain lines, read as one: the command of its first line, spanning them all
            last, line = self.runs[row], self.facts.lines[row]
            name = line.split()[0] if line.split() else ":"
            span = Span(row + 1, 1, last + 1, len(self.facts.lines[last]) + 1)
            self.facts.commands.append(Command(name, line.strip(), span, (name,)))
            return
        arguments = _argument_nodes(node)
        first = arguments[0] if arguments else None
        if (
            first is not None
            and first.type == "word"
            and not _MAY_LAUNCH.search(bytes(first.text))
            and self.text(first, src) not in self.bodies
        ):
            # most lines of a long script (echo, cd, module, mkdir …) start no step: their
            # words are not needed beyond the name
            name = self.text(first, src)
            self.batch_expansions(src, node)
            if _ASSIGNS_DEFAULT.search(bytes(node.text)):
                self.words(src, arguments)  # `: "${X:=8}"` sets X: its words are expanded for that
            words_text = tuple(w.text for w in self.words(src, arguments[:2])) if name == "cd" else (name,)
            self.facts.commands.append(Command(name, self.text(node, src), self.where(node, src), words_text))
            return
        self.batch_expansions(src, node)
        words = self.words(src, arguments)
        if not words:
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.assignment(src, child, exported=False)
            return
        text = self.text(node, src)
        span = self.where(node, src)
        name = words[0].text
        if name == "trap":
            self.trap(words, span)
            return
        if name in {"export", "declare"}:
            return
        if name in self.bodies and self.budget > 0 and len(self.frames) < _MAX_CALLS:
            self.call(stack, name, words[1:])
            return
        if name == "set" and any(w.text in ("-a", "allexport") for w in words[1:]):
            self.allexport = True
        if name == "shift":
            frame = self.frames[-1]
            if frame.args is not None:
                n = (ascii_int(words[1].text) if len(words) > 1 else None) or 1
                frame.args = frame.args[n:]
            return
        if name == "eval" and len(words) > 1 and self.budget > 0:
            self.facts.commands.append(Command(name, text, span, tuple(w.text for w in words)))
            self.run_text(stack, _values.join([_field(w) for w in words[1:]]), span)
            return
        if name in ("source", ".") and len(words) > 1:
            self.facts.commands.append(Command(name, text, span, tuple(w.text for w in words)))
            self.source(stack, words[1], span)
            return
        i, _ = _skip_wrappers(words, 0)
        rest = words[i:]
        if (
            rest
            and os.path.basename(rest[0].text) in ("bash", "sh")
            and len(rest) >= 3
            and _dash_c(rest[1].text)
            and self.budget > 0
            and rest[2].text not in self.bodies
        ):
            # `bash -c "$CMD"` in the batch shell: its commands run on the first node (an srun
            # among them starts a step)
            self.facts.commands.append(
                Command(os.path.basename(rest[0].text), text, span, tuple(w.text for w in words))
            )
            self.run_text(stack, _field(rest[2]), span)
            return
        step = self.step(words, text, span, background, src)
        if step is not None:
            # `bash -c '…'` and friends: the string is a script the step runs
            self.facts.steps.append(step)
            for w in _step_words(step, words):
                if not _within(w.span, span):
                    self.facts.origins.append((w.span, span))
            return
        self.facts.commands.append(Command(name, text, span, tuple(w.text for w in words)))

    def call(self, stack: list[tuple[Any, ...]], name: str, args: list[Word]) -> None:
        """A call of a function defined in the script: its body, with the call's arguments."""
        src, node = self.bodies[name]
        body = node.child_by_field_name("body")
        if body is None:
            return
        self.frames.append(_Frame([_field(w) for w in args]))
        stack.append(("frame_end",))
        stack.extend(("s", src, c, b) for c, b in reversed(list(_statements(body))) if _runs(c))

    def run_text(self, stack: list[tuple[Any, ...]], f: _values.Field, span: Span) -> None:
        """Commands held in a value (`eval "$CMD"`, `bash -c "$CMD"`), parsed and followed."""
        if not any(seg[3] and seg[0].strip() for seg in f):
            return  # nothing of it is known (`eval "$(conda shell.bash hook)"`)
        src = _values.assemble(f)
        src.fallback = span
        tree = parser().parse(src.raw)
        stack.extend(("s", src, c, b) for c, b in reversed(list(_statements(tree.root_node))) if _runs(c))

    def source(self, stack: list[tuple[Any, ...]], word: Word, span: Span) -> None:
        """`source FILE` of a file beside the script: its variables and functions are the script's."""
        if self.base is None or not word.literal or not word.text or word.text.startswith(("/", "~")):
            return
        path = (self.base / word.text).resolve()
        if path in self.sourced or len(self.sourced) >= _MAX_SOURCED or not path.is_file():
            return
        try:
            if path.stat().st_size > _values.MAX_VALUE:
                return
            data = path.read_bytes()
        except OSError:
            return
        self.sourced.add(path)
        # the file's text is written nowhere in this script: what it sets points at the source line
        src = _values.Src(data, [(0, (data.decode("utf-8", "surrogateescape"), -1, -1, True))])
        src.fallback = span
        tree = parser().parse(data)
        stack.extend(("s", src, c, b) for c, b in reversed(list(_statements(tree.root_node))) if _runs(c))

    def trap(self, words: list[Word], span: Span, function: str | None = None) -> None:
        if len(words) < 3 or words[1].text in ("-l", "-p"):
            return
        action = words[1].text
        if action == "-":
            return  # resets: nothing is trapped any more
        signals = tuple(normalise(w.text) for w in words[2:])
        self.facts.traps.append(Trap(action, signals, span, function))

    def function_traps(self, src: _values.Src, node: Any, function: str) -> None:
        """Traps a function sets: they trap in whichever shell calls the function."""
        for cmd in _descendants(node):
            if cmd.type != "command":
                continue
            arguments = _argument_nodes(cmd)
            if arguments and self.text(arguments[0], src) == "trap":
                self.trap(self.words(src, arguments), self.span(cmd, src), function)

    def step(
        self, words: list[Word], text: str, span: Span, background: bool, src: _values.Src
    ) -> Step | None:
        i, exec_ = 0, False
        i, exec_ = _skip_wrappers(words, i)
        srun: dict[str, Word] | None = None
        srun_flags: tuple[str, ...] = ()
        container: dict[str, Word] = {}
        if i < len(words) and os.path.basename(words[i].text) == "srun":
            srun, srun_flags, i = _srun_options(words, i + 1, self.optionish)
            container = {k: v for k, v in srun.items() if k.startswith("container-")}
            for w in words[:i]:
                flag = w.text.removeprefix("--")
                if flag in srun_flags and flag.startswith(("container-", "no-container-")):
                    container[flag] = w
            i, _ = _skip_wrappers(words, i)
        rest = words[i:]
        step = Step(
            span=span,
            text=text,
            srun=srun,
            srun_flags=srun_flags,
            launcher=None,
            python=None,
            uv_sync=False,
            program=None,
            module=None,
            args=[],
            container=container,
            background=background,
            exec_=exec_,
            line=span.line,
            command=os.path.basename(rest[0].text) if rest else "",
        )
        if (
            rest
            and os.path.basename(rest[0].text) in ("bash", "sh")
            and len(rest) >= 3
            and _dash_c(rest[1].text)
        ):
            self.inner_script(step, rest[2], span)
        else:
            _program(step, rest)
        if srun is None and step.launcher is None and step.program is None and step.module is None:
            if (
                len(rest) >= 2
                and step.command in ("bash", "sh")
                and not rest[1].text.startswith("-")
                and not background
            ):
                # `bash "$SCRIPT"` in the foreground: a step of its own, whatever the file runs
                return step
            return None
        return step

    def inner_script(self, step: Step, word: Word, span: Span) -> None:
        """`bash -c '…'`: the string is parsed as a script the step runs, positions kept."""
        if word.literal and word.text in self.bodies:
            # `srun bash -c train_fn` after `export -f train_fn`: the step runs the function
            src, body = self.bodies[word.text]
            self.commands_of(step, body, src)
            return
        f = _field(word)
        if not any(s[3] for s in f):
            return  # all of it unknown: nothing to read
        src = _values.assemble(f)
        src.fallback = span
        tree = parser().parse(src.raw)
        # what is left to expand in the string is expanded by the step's own shell
        self.facts.expansions.extend(self.expansions(tree.root_node, "step", src))
        self.commands_of(step, tree.root_node, src)

    def commands_of(self, step: Step, root: Any, src: _values.Src) -> None:
        """The first command under ``root`` that runs a launcher or a program fills the step.

        The step's shell is a new one: it sees the exported variables only, and its own arguments
        are not followed."""
        saved = self.vars, self.frames, self.journal
        names = self.vars if self.allexport else self.exported
        self.vars = {k: self.vars[k] for k in names if k in self.vars}
        self.frames, self.journal = [_Frame(None)], []
        try:
            self._commands_of(step, root, src)
        finally:
            self.vars, self.frames, self.journal = saved

    def _commands_of(self, step: Step, root: Any, src: _values.Src) -> None:
        for cmd in _descendants(root):
            if cmd.type != "command":
                continue
            words = self.words(src, _argument_nodes(cmd))
            i, _ = _skip_wrappers(words, 0)
            rest = words[i:]
            if (
                len(rest) >= 2
                and rest[0].text == "uv"
                and rest[1].text in ("sync", "pip")
                and step.syncs is None
            ):
                # each task of the step syncs the environment before the program starts
                step.syncs = self.where(cmd, src) if src.pieces is None else self.span(cmd, src)
                continue
            _program(step, rest)
            if step.launcher is not None or step.program is not None or step.module is not None:
                if step.uv_sync and step.syncs is None:
                    step.syncs = self.span(cmd, src)
                break


def _statements(node: Any) -> Iterator[tuple[Any, bool]]:
    """The named children of ``node``, each with whether an `&` follows it (runs in the background).

    From one list of the children: a node's `next_sibling` walks its parent's children from the
    first, which made a script of thousands of lines cost the square of its length."""
    children = node.children
    last = len(children) - 1
    for i, child in enumerate(children):
        if child.is_named:
            yield child, i < last and children[i + 1].type == "&"


_SKIPPED = frozenset({"command_substitution", "heredoc_body", "heredoc_start", "heredoc_end", "comment"})


def _runs(node: Any) -> bool:
    """Whether a child node is a statement the walk follows (not a comment or a heredoc's text)."""
    return node.type not in _SKIPPED


def _dash_c(option: str) -> bool:
    """`-c`, `-lc`, `-ec`, `-xc`: bash's option that runs its next word as a script."""
    return option.startswith("-") and not option.startswith("--") and "c" in option and option[1:].isalpha()


def _array_all(node: Any) -> bool:
    raw = bytes(node.text)
    return raw in (b"$@", b"${@}") or raw.endswith(b"[@]}")


def _step_words(step: Step, words: list[Word]) -> Iterator[Word]:
    """Every word of a step, those found inside a `bash -c` string included."""
    yield from words
    if step.srun is not None:
        yield from step.srun.values()
    if step.launcher is not None:
        yield from step.launcher.options.values()
        yield from (w for w in (step.launcher.host, step.launcher.port) if w is not None)
    for w in (step.program, step.module):
        if w is not None:
            yield w
    yield from step.args


def _field(w: Word) -> _values.Field:
    if w.segs is not None:
        return tuple(w.segs)
    return ((w.text, -1, -1, w.literal),)


def _within(inner: Span, outer: Span) -> bool:
    return (inner.line, inner.col) >= (outer.line, outer.col) and (inner.end_line, inner.end_col) <= (
        outer.end_line,
        outer.end_col,
    )


def _descendants(node: Any) -> Iterator[Any]:
    stack = [node]
    while stack:
        cur = stack.pop()
        yield cur
        stack.extend(reversed(cur.children))


def _argument_nodes(node: Any) -> list[Any]:
    out: list[Any] = []
    for child in node.named_children:
        if child.type == "command_name":
            out.extend(child.named_children or [child])
        elif child.type in ("variable_assignment", "file_redirect", "herestring_redirect", "comment"):
            continue
        else:
            out.append(child)
    return out


def _is_literal(node: Any) -> bool:
    if node.type in _LITERAL_TYPES:
        return not any(ch in bytes(node.text) for ch in b"*?[")
    if node.type == "string":
        return all(c.type == "string_content" for c in node.named_children)
    if node.type == "concatenation":
        return all(_is_literal(c) for c in node.named_children) and len(node.named_children) == len(
            [c for c in node.children if c.is_named]
        )
    return False


def _unquote(node: Any, raw: str) -> str:
    if node.type == "raw_string":
        return raw[1:-1]
    if node.type == "string":
        inner = raw[1:-1]
        return _QUOTED_ESCAPE.sub(r"\1", inner) if "\\" in inner else inner
    if node.type == "concatenation":
        return "".join(
            _unquote(c, bytes(c.text).decode("utf-8", "surrogateescape")) for c in node.named_children
        )
    return _ESCAPE.sub(r"\1", raw) if "\\" in raw else raw


def _skip_wrappers(words: list[Word], i: int) -> tuple[int, bool]:
    """Past `exec`, `env A=b`, `nohup`, `time` …: where the real command starts, and whether exec."""
    exec_ = False
    while i < len(words):
        w = words[i].text
        if w == "exec":
            exec_ = True
            i += 1
        elif w == "env":
            i += 1
            while i < len(words) and ("=" in words[i].text or words[i].text.startswith("-")):
                i += 1
        elif w in _WRAPPERS:
            i += 1
            while i < len(words) and words[i].text.startswith("-"):
                i += 1
        elif os.path.basename(w) in _CONTAINER_EXEC and i + 1 < len(words) and words[i + 1].text == "exec":
            # `singularity exec [options] IMAGE command …`: the command runs inside the image
            i = _past_options(words, i + 2, _CONTAINER_VALUED)
            i += 1  # the image
        elif os.path.basename(w) in _ENV_RUN and i + 1 < len(words) and words[i + 1].text == "run":
            # `conda run -n ENV python …`
            i = _past_options(words, i + 2, _ENV_RUN_VALUED)
        else:
            break
    return i, exec_


_CONTAINER_EXEC = frozenset({"singularity", "apptainer"})
_CONTAINER_VALUED = frozenset(
    {
        "-B",
        "--bind",
        "-H",
        "--home",
        "--env",
        "--env-file",
        "--pwd",
        "-W",
        "--workdir",
        "-o",
        "--overlay",
        "--mount",
    }
)
_ENV_RUN = frozenset({"conda", "mamba", "micromamba"})
_ENV_RUN_VALUED = frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})


def _past_options(words: list[Word], i: int, valued: frozenset[str]) -> int:
    while i < len(words) and words[i].text.startswith("-"):
        i += 2 if words[i].text in valued else 1
    return i


def _options_only(value: Any) -> bool:
    """A variable's value that is nothing or srun options only (`""`, `--auto-resume=1`)."""
    return isinstance(value, tuple) and all(
        _values.literal(f) and (not _values.text(f) or _values.text(f).startswith("-")) for f in value
    )


_PLAIN_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")


def _srun_options(
    words: list[Word], i: int, optionish: set[str] | frozenset[str] = frozenset()
) -> tuple[dict[str, Word], tuple[str, ...], int]:
    options: dict[str, Word] = {}
    flags: list[str] = []
    while i < len(words):
        w = words[i]
        text = w.text
        if not w.literal and (m := _PLAIN_VARIABLE.fullmatch(w.raw)) and m.group(1) in optionish:
            # srun options on some paths, nothing on others: kept as said, by its name
            flags.append(w.raw)
            i += 1
            continue
        if text == "--":
            return options, tuple(flags), i + 1
        if text.startswith("--") and len(text) > 2:
            name, eq, value = text[2:].partition("=")
            if eq:
                options[name] = _part(w, len(text) - len(value))
            elif name in SRUN_FLAGS or i + 1 >= len(words):
                flags.append(name)
            else:
                options[name] = _joined(w, words[i + 1])
                i += 1
        elif text.startswith("-") and len(text) > 1:
            letter = text[1]
            if letter in SRUN_SHORT_FLAGS:
                flags.append(SRUN_SHORT_FLAGS[letter])
            elif len(text) > 2:
                options[SRUN_SHORT.get(letter, letter)] = _part(w, 2)
            elif i + 1 < len(words):
                options[SRUN_SHORT.get(letter, letter)] = _joined(w, words[i + 1])
                i += 1
        else:
            return options, tuple(flags), i
        i += 1
    return options, tuple(flags), i


def _norm(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


def _launcher_options(
    words: list[Word], i: int, known_flags: frozenset[str] = frozenset()
) -> tuple[dict[str, Word], tuple[str, ...], int]:
    options: dict[str, Word] = {}
    flags: list[str] = []
    while i < len(words):
        w = words[i]
        if not w.text.startswith("-") or w.text in ("-", "--"):
            if w.text == "--":
                i += 1
            break
        name, eq, value = w.text.partition("=")
        key = _norm(name)
        if eq:
            options[key] = _part(w, len(w.text) - len(value))
        elif (
            key in known_flags
            or key in _LAUNCHER_FLAGS
            or i + 1 >= len(words)
            or words[i + 1].text.startswith("-")
            or _starts_program(words[i + 1].text)
        ):
            flags.append(key)
        else:
            options[key] = _joined(w, words[i + 1])
            i += 1
        i += 1
    return options, tuple(flags), i


def _starts_program(text: str) -> bool:
    """A word that is the program, not an option's value: an interpreter or a Python file."""
    return bool(_PYTHON.match(os.path.basename(text))) or text.endswith(".py")


def _joined(option: Word, value: Word) -> Word:
    """`--name value` as one word: the value's text, the span and the spelling of both."""
    span = Span(option.span.line, option.span.col, value.span.end_line, value.span.end_col)
    if value.placed != option.placed or span.end_line < span.line:
        # the value was written elsewhere (a variable): it is the place to point at
        return Word(
            value.text, value.span, value.literal, f"{option.raw} {value.raw}", None, value.segs, True
        )
    return Word(value.text, span, value.literal, f"{option.raw} {value.raw}", None, value.segs, value.placed)


# turns a byte range of the script being read into a span (set while a script is read)
_LOCATE: list[Any] = []


def _part(w: Word, at: int) -> Word:
    """The value of `--name=value` (from character ``at``): where the value itself was written when
    it came from a variable, else the option as written."""
    if w.segs is None:
        value = w.text[at:]
        return Word(value, w.span, w.literal, w.raw)
    if w.literal:
        # a literal word's text is its segments' text: the value starts at the same character
        segs = _values.cut(tuple(w.segs), at)
    else:
        # a word with unknown parts shows them as written (its text is the raw word, quotes and all)
        name = w.text[:at]
        full = _values.text(tuple(w.segs))
        segs = _values.cut(tuple(w.segs), len(name) if full.startswith(name) else at)
    text = _values.text(segs)
    literal = _values.literal(segs)
    if w.placed and _LOCATE:
        where = _values.place(segs)
        span = _LOCATE[-1](*where) if where is not None else w.span
        return Word(text, span, literal, w.raw, None, segs, True)
    return Word(text, w.span, literal, w.raw, None, segs)


def _program(step: Step, words: list[Word]) -> None:
    """Fill the step's launcher, interpreter, program or module and arguments from ``words``."""
    i = 0
    if i < len(words) and words[i].text == "uv" and i + 1 < len(words) and words[i + 1].text == "run":
        step.python = "uv"
        i += 2
        no_sync = False
        while i < len(words) and words[i].text.startswith("-"):
            opt = words[i].text
            no_sync = no_sync or opt in ("--no-sync", "--frozen")
            takes = opt in (
                "--with",
                "--project",
                "--directory",
                "--python",
                "-p",
                "--extra",
                "--group",
                "--env-file",
            )
            i += 2 if takes and "=" not in opt else 1
        step.uv_sync = not no_sync
    if i >= len(words):
        return
    first = words[i].text
    base = os.path.basename(first)
    found = _launchers.by_command(first, words[i + 1].text if i + 1 < len(words) else None)
    if found is not None:
        kind, n = found
        _launch(step, kind, words, i, i + n)
        return
    if _PYTHON.match(base):
        if step.python is None:
            step.python = first
        j = i + 1
        while j < len(words) and words[j].text.startswith("-") and words[j].text != "-m":
            j += 2 if words[j].text in ("-X", "-W") else 1
        if j + 1 < len(words) and words[j].text == "-m":
            by_module = _launchers.by_module(words[j + 1].text)
            if by_module is not None:
                _launch(step, by_module, words, i, j + 2)
                return
            step.module = words[j + 1]
            step.args = words[j + 2 :]
            return
        if j < len(words):
            step.program = words[j]
            step.args = words[j + 1 :]
        return
    if step.python == "uv" and first.endswith(".py"):
        step.program = words[i]
        step.args = words[i + 1 :]


def _launch(step: Step, kind: _launchers.Launcher, words: list[Word], at: int, start: int) -> None:
    """A launcher from the table: its options, then the program or module it starts."""
    options, flags, j = _launcher_options(words, start, kind.flags)
    for name in kind.config:
        if name in options and options[name].literal:
            _config_options(options, options[name])
    host = next((options[k] for k in kind.address if k in options), None)
    port = next((options[k] for k in kind.port if k in options), None)
    for key in kind.endpoint:
        endpoint = options.get(key)
        if endpoint is not None and ":" in endpoint.text:
            colon = endpoint.text.rfind(":")
            host = host or _piece(endpoint, 0, colon)
            port = _piece(endpoint, colon + 1, len(endpoint.text))
    step.launcher = Launcher(kind.name, options, flags, words[at].span, host, port)
    _target(step, words[j:], module_flag=any(f in flags for f in kind.module_flags))


def _piece(w: Word, start: int, end: int) -> Word:
    """Characters start..end of a word (an endpoint's host or port), placed where they were written
    when they came from a variable."""
    text = w.text[start:end].strip("\"'")
    if w.segs is None or not _LOCATE:
        return Word(text, w.span, w.literal and "$" not in text, w.raw, None, None, w.placed)
    segs = _values.cut(tuple(w.segs), start, end)
    where = _values.place(segs)
    span = _LOCATE[-1](*where) if where is not None else w.span
    return Word(_values.text(segs), span, _values.literal(segs), w.raw, None, segs, True)


# the folder of the script being read: a launcher's config file is looked for there
_BASE: list[Path | None] = []
_CONFIG_KEYS = ("num_machines", "num_processes", "machine_rank", "main_process_ip", "main_process_port")


def _config_options(options: dict[str, Word], named: Word) -> None:
    """`accelerate launch --config_file FILE`: the sizes and rendezvous the file holds, where the
    command line does not say them itself. Values point at the --config_file option."""
    base = _BASE[-1] if _BASE else None
    if base is None or named.text.startswith("~"):
        return
    path = base / named.text
    try:
        if not path.is_file() or path.stat().st_size > 1 << 20:
            return
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        key, value = key.strip(), value.split("#", 1)[0].strip().strip("'\"")
        if sep and key in _CONFIG_KEYS and key not in options and value and not line.startswith((" ", "\t")):
            options[key] = Word(value, named.span, True, f"{named.raw} ({key}: {value})")


def _target(step: Step, words: list[Word], *, module_flag: bool) -> None:
    if not words:
        return
    if module_flag:
        step.module = words[0]
    elif _PYTHON.match(os.path.basename(words[0].text)):
        # deepspeed/torchrun --no_python python train.py …
        sub = Step(
            step.span, step.text, None, (), None, None, False, None, None, [], {}, False, False, step.line
        )
        _program(sub, words)
        step.program, step.module, step.args = sub.program, sub.module, sub.args
        return
    else:
        step.program = words[0]
    step.args = words[1:]
