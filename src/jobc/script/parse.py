"""A batch script → facts, from a real bash parse tree (tree-sitter-bash) that keeps positions.

tree-sitter recovers from syntax errors: a script with an unterminated quote or another shell's
syntax still gives a tree with ERROR nodes around the parts it could not read, so a damaged
script yields the facts of its readable parts and a problem that says where reading failed.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jobc.core.diagnostics import Span
from jobc.script import bashcheck
from jobc.script import directives as _directives
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

# Shells whose syntax tree-sitter-bash reads; any other interpreter's body is not read.
BASH_LIKE = frozenset({"bash", "sh", "dash", "ksh", "ash"})
# Commands that run the rest of their words as a command
_WRAPPERS = frozenset(
    {"nohup", "time", "command", "builtin", "setsid", "stdbuf", "taskset", "numactl", "nice"}
)
# srun options that never take a value (long names, and the short letters of such flags)
_SRUN_FLAGS = frozenset(
    {
        "label",
        "unbuffered",
        "no-kill",
        "overlap",
        "exclusive",
        "kill-on-bad-exit",
        "quiet",
        "verbose",
        "wait",
        "pty",
        "overcommit",
        "oversubscribe",
        "disable-status",
        "no-allocate",
        "container-mount-home",
        "no-container-mount-home",
        "container-remap-root",
        "no-container-remap-root",
        "container-writable",
        "container-readonly",
        "no-container-entrypoint",
        "container-entrypoint",
        "container-save",
        "whole",
        "exact",
        "test-only",
        "multi-prog",
        "spread-job",
        "use-min-nodes",
        "contiguous",
        "preserve-env",
        "hint",
    }
)
_SRUN_SHORT_FLAGS = {
    "l": "label",
    "u": "unbuffered",
    "K": "kill-on-bad-exit",
    "Q": "quiet",
    "v": "verbose",
    "X": "disable-status",
    "Z": "no-allocate",
    "E": "preserve-env",
    "O": "overcommit",
    "s": "oversubscribe",
    "k": "no-kill",
    "H": "hold",
    "I": "immediate",
}
_SRUN_SHORT = {**_directives.SHORT, "r": "relative", "T": "threads", "W": "wait"}
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
_MAY_LAUNCH = re.compile(
    rb"(?:^|/)(?:srun|exec|env|trap|torchrun|deepspeed|accelerate|uv|python[0-9.]*|bash|sh|"
    rb"nohup|time|command|builtin|setsid|stdbuf|taskset|numactl|nice)$"
)
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
    return read_bytes(path.read_bytes(), display or str(path))


def read_bytes(data: bytes, file: str) -> ScriptFacts:
    text = data.decode("utf-8", "surrogateescape")
    lines = text.splitlines()
    facts = ScriptFacts(file=file, lines=lines, shell="bash", readable=False)
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
    facts.shell = shell_of(lines[0] if lines else "")
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
    raw = text.encode("utf-8", "surrogateescape")
    tree = parser().parse(raw)
    reader = _Reader(facts, raw)
    reader.run(tree.root_node)
    return facts


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


class _Reader:
    """One walk over the tree of one script."""

    def __init__(self, facts: ScriptFacts, raw: bytes) -> None:
        self.facts = facts
        self.raw = raw
        self.line_bytes = raw.split(b"\n")
        self.first_row: int | None = None
        self.ascii = raw.isascii()
        self.bodies: dict[str, Any] = {}  # function name → its definition

    # positions: tree-sitter counts bytes, findings count characters
    def col(self, row: int, byte: int) -> int:
        if self.ascii or row >= len(self.line_bytes):
            return byte + 1
        return len(self.line_bytes[row][:byte].decode("utf-8", "surrogateescape")) + 1

    def span(self, node: Any) -> Span:
        (r0, c0), (r1, c1) = node.start_point, node.end_point
        if self.ascii:
            return Span(r0 + 1, c0 + 1, r1 + 1, c1 + 1)
        return Span(r0 + 1, self.col(r0, c0), r1 + 1, self.col(r1, c1))

    def text(self, node: Any) -> str:
        return bytes(node.text).decode("utf-8", "surrogateescape")

    def run(self, root: Any) -> None:
        for child in root.named_children:
            if child.type != "comment":
                self.first_row = child.start_point[0]
                self.facts.first_command = self.span(child)
                break
        self._comments(root)
        for child, background in _statements(root):
            self.statement(child, background=background)
        self._errors(root)

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
                if bashcheck.accepts("\n".join(self.facts.lines) + "\n"):
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

    # statements -------------------------------------------------------------------------------

    def statement(self, node: Any, *, background: bool = False) -> None:
        """Read one statement and every statement nested in it, in script order.

        An explicit stack, not recursion: bash nests without limit (a thousand `if`s, a long
        `a && b && …` chain is a left-deep tree), and Python's stack does not."""
        stack = [(node, background)]
        while stack:
            node, background = stack.pop()
            kind = node.type
            if kind == "command":
                self.command(node, background)
            elif kind == "declaration_command":
                self.declaration(node)
            elif kind == "variable_assignment":
                self.assignment(node, exported=False)
            elif kind == "function_definition":
                self.function(node)
            elif kind == "comment":
                continue
            elif kind == "redirected_statement":
                body = node.child_by_field_name("body") or (
                    node.named_children[0] if node.named_children else None
                )
                if body is not None:
                    stack.append((body, background))
            else:
                nested = [
                    (child, background or in_background)
                    for child, in_background in _statements(node)
                    if child.type not in ("command_substitution", "heredoc_body", "heredoc_start")
                ]
                stack.extend(reversed(nested))

    def function(self, node: Any) -> None:
        name = node.child_by_field_name("name")
        if name is not None:
            self.facts.functions.append(self.text(name))
            self.bodies[self.text(name)] = node
            # the body runs where the function is called: inside a step (export -f, then
            # srun bash -c NAME), so its per-rank variables are not the batch shell's
            self.facts.expansions.extend(self.expansions(node, "step"))
            if b"trap" in bytes(node.text):
                self.function_traps(node, self.text(name))

    def declaration(self, node: Any) -> None:
        keyword = node.children[0].type if node.children else ""
        exported = keyword == "export" or any(
            self.text(c) in ("-x", "-gx", "-xg") for c in node.children if c.type == "word"
        )
        for child in node.named_children:
            if child.type == "variable_assignment":
                self.assignment(child, exported=exported)
            elif child.type == "variable_name" and exported:
                name = self.text(child)
                for i, old in enumerate(self.facts.exports):
                    if old.name == name and not old.exported:
                        self.facts.exports[i] = Export(
                            old.name, old.value, old.raw, old.span, old.value_span, True
                        )
        self.batch_expansions(node)

    def assignment(self, node: Any, *, exported: bool) -> None:
        name_node = node.child_by_field_name("name")
        value_node = node.child_by_field_name("value")
        if name_node is None:
            return
        name = self.text(name_node)
        if value_node is None:
            value: str | None = ""
            raw = ""
            value_span = Span.point(node.end_point[0] + 1, self.col(*node.end_point))
        else:
            word = self.word(value_node)
            value = word.text if word.literal else None
            raw = word.raw
            value_span = word.span
        self.facts.exports.append(Export(name, value, raw, self.span(node), value_span, exported))
        self.batch_expansions(node)

    def batch_expansions(self, node: Any) -> None:
        if _MAY_EXPAND.search(bytes(node.text)):
            self.facts.expansions.extend(self.expansions(node, "batch"))

    def expansions(self, node: Any, shell: str, inner: _Reader | None = None) -> Iterator[Expansion]:
        """Per-rank variables that ``node`` expands (raw strings and escapes expand nothing)."""
        reader = inner or self
        stack = [node]
        while stack:
            cur = stack.pop()
            if cur.type in ("simple_expansion", "expansion"):
                for child in cur.named_children:
                    if child.type == "variable_name":
                        name = reader.text(child)
                        if name in PER_RANK:
                            yield Expansion(name, reader.span(cur), shell)
                        break
            elif cur.type in ("arithmetic_expansion",):
                for sub in _descendants(cur):
                    if sub.type == "variable_name" and reader.text(sub) in PER_RANK:
                        yield Expansion(reader.text(sub), reader.span(cur), shell)
                continue
            stack.extend(reversed(cur.children))

    # commands ---------------------------------------------------------------------------------

    def command(self, node: Any, background: bool) -> None:
        self.batch_expansions(node)
        arguments = _argument_nodes(node)
        if arguments and not _MAY_LAUNCH.search(bytes(arguments[0].text)):
            # most lines of a long script (echo, cd, module, mkdir …) start no step: their
            # words are not needed beyond the name
            name = self.text(arguments[0])
            words_text = tuple(self.text(c) for c in arguments[:2]) if name == "cd" else (name,)
            self.facts.commands.append(Command(name, self.text(node), self.span(node), words_text))
            return
        words = [self.word(c) for c in arguments]
        if not words:
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.assignment(child, exported=False)
            return
        text = self.text(node)
        name = words[0].text
        if name == "trap":
            self.trap(words, self.span(node))
            return
        if name in {"export", "declare"}:
            return
        step = self.step(words, text, self.span(node), background)
        if step is not None:
            # `bash -c '…'` and friends: the string is a script the step runs
            self.facts.steps.append(step)
            return
        self.facts.commands.append(Command(name, text, self.span(node), tuple(w.text for w in words)))

    def trap(self, words: list[Word], span: Span, function: str | None = None) -> None:
        if len(words) < 3 or words[1].text in ("-l", "-p"):
            return
        action = words[1].text
        if action == "-":
            return  # resets: nothing is trapped any more
        signals = tuple(normalise(w.text) for w in words[2:])
        self.facts.traps.append(Trap(action, signals, span, function))

    def function_traps(self, node: Any, function: str) -> None:
        """Traps a function sets: they trap in whichever shell calls the function."""
        for cmd in _descendants(node):
            if cmd.type != "command":
                continue
            arguments = _argument_nodes(cmd)
            if arguments and self.text(arguments[0]) == "trap":
                self.trap([self.word(c) for c in arguments], self.span(cmd), function)

    def step(self, words: list[Word], text: str, span: Span, background: bool) -> Step | None:
        i, exec_ = 0, False
        i, exec_ = _skip_wrappers(words, i)
        srun: dict[str, Word] | None = None
        srun_flags: tuple[str, ...] = ()
        container: dict[str, Word] = {}
        if i < len(words) and os.path.basename(words[i].text) == "srun":
            srun, srun_flags, i = _srun_options(words, i + 1)
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
        )
        if rest and rest[0].text in ("bash", "sh") and len(rest) >= 3 and rest[1].text in ("-c", "-lc"):
            self.inner_script(step, rest[2])
        else:
            _program(step, rest)
        if srun is None and step.launcher is None and step.program is None and step.module is None:
            return None
        return step

    def inner_script(self, step: Step, word: Word) -> None:
        """`bash -c '…'`: the string is parsed as a script the step runs, positions kept."""
        node = word.node
        if word.literal and word.text in self.bodies:
            # `srun bash -c train_fn` after `export -f train_fn`: the step runs the function
            self.commands_of(step, self.bodies[word.text], self)
            return
        if node is None or node.type not in ("raw_string", "string"):
            return
        start = node.start_byte + 1
        body = self.raw[start : max(node.end_byte - 1, start)]
        tree = parser().parse(body)
        inner = _Inner(self, start)
        if node.type == "raw_string":
            # single quotes: nothing in the string is expanded before the step starts it
            self.facts.expansions.extend(self.expansions(tree.root_node, "step", inner))
        self.commands_of(step, tree.root_node, inner)

    def commands_of(self, step: Step, root: Any, reader: _Reader) -> None:
        """The first command under ``root`` that runs a launcher or a program fills the step."""
        for cmd in _descendants(root):
            if cmd.type != "command":
                continue
            words = [reader.word(c) for c in _argument_nodes(cmd)]
            i, _ = _skip_wrappers(words, 0)
            _program(step, words[i:])
            if step.launcher is not None or step.program is not None or step.module is not None:
                break

    def word(self, node: Any) -> Word:
        raw = self.text(node)
        if node.type == "word" and not _SPECIAL_WORD.search(raw):
            # the common case (options, file names, numbers): the text is the word
            return Word(raw, self.span(node), True, raw, node)
        literal = _is_literal(node)
        return Word(_unquote(node, raw) if literal else raw, self.span(node), literal, raw, node)


class _Inner(_Reader):
    """A `bash -c` string: its own tree, positions counted from where the string starts."""

    def __init__(self, outer: _Reader, offset: int) -> None:
        self.outer, self.offset = outer, offset
        self.facts = outer.facts
        self.raw = outer.raw

    def span(self, node: Any) -> Span:
        a, b = self.offset + node.start_byte, self.offset + node.end_byte
        (r0, c0), (r1, c1) = self._point(a), self._point(b)
        return Span(r0 + 1, self.outer.col(r0, c0), r1 + 1, self.outer.col(r1, c1))

    def _point(self, offset: int) -> tuple[int, int]:
        row = self.raw.count(b"\n", 0, offset)
        start = self.raw.rfind(b"\n", 0, offset) + 1
        return row, offset - start


def _statements(node: Any) -> Iterator[tuple[Any, bool]]:
    """The named children of ``node``, each with whether an `&` follows it (runs in the background).

    From one list of the children: a node's `next_sibling` walks its parent's children from the
    first, which made a script of thousands of lines cost the square of its length."""
    children = node.children
    last = len(children) - 1
    for i, child in enumerate(children):
        if child.is_named:
            yield child, i < last and children[i + 1].type == "&"


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
        else:
            break
    return i, exec_


def _srun_options(words: list[Word], i: int) -> tuple[dict[str, Word], tuple[str, ...], int]:
    options: dict[str, Word] = {}
    flags: list[str] = []
    while i < len(words):
        w = words[i]
        text = w.text
        if text == "--":
            return options, tuple(flags), i + 1
        if text.startswith("--") and len(text) > 2:
            name, eq, value = text[2:].partition("=")
            if eq:
                options[name] = Word(value, w.span, w.literal, w.raw)
            elif name in _SRUN_FLAGS or i + 1 >= len(words):
                flags.append(name)
            else:
                options[name] = _joined(w, words[i + 1])
                i += 1
        elif text.startswith("-") and len(text) > 1:
            letter = text[1]
            if letter in _SRUN_SHORT_FLAGS:
                flags.append(_SRUN_SHORT_FLAGS[letter])
            elif len(text) > 2:
                options[_SRUN_SHORT.get(letter, letter)] = Word(text[2:], w.span, w.literal, w.raw)
            elif i + 1 < len(words):
                options[_SRUN_SHORT.get(letter, letter)] = _joined(w, words[i + 1])
                i += 1
        else:
            return options, tuple(flags), i
        i += 1
    return options, tuple(flags), i


def _norm(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


def _launcher_options(words: list[Word], i: int) -> tuple[dict[str, Word], tuple[str, ...], int]:
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
            options[key] = Word(value, w.span, w.literal, w.raw)
        elif key in _LAUNCHER_FLAGS or i + 1 >= len(words) or words[i + 1].text.startswith("--"):
            flags.append(key)
        else:
            options[key] = _joined(w, words[i + 1])
            i += 1
        i += 1
    return options, tuple(flags), i


def _joined(option: Word, value: Word) -> Word:
    """`--name value` as one word: the value's text, the span and the spelling of both."""
    span = Span(option.span.line, option.span.col, value.span.end_line, value.span.end_col)
    return Word(value.text, span, value.literal, f"{option.raw} {value.raw}")


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
    if base in ("torchrun", "deepspeed") or (
        base == "accelerate" and i + 1 < len(words) and words[i + 1].text == "launch"
    ):
        name = "accelerate" if base == "accelerate" else base
        start = i + (2 if name == "accelerate" else 1)
        options, flags, j = _launcher_options(words, start)
        step.launcher = Launcher(name, options, flags, words[i].span)
        _target(step, words[j:], module_flag="module" in flags or "m" in flags)
        return
    if _PYTHON.match(base):
        if step.python is None:
            step.python = first
        j = i + 1
        while j < len(words) and words[j].text.startswith("-") and words[j].text != "-m":
            j += 2 if words[j].text in ("-X", "-W") else 1
        if j + 1 < len(words) and words[j].text == "-m":
            module = words[j + 1].text
            if module in ("torch.distributed.run", "torch.distributed.launch"):
                options, flags, k = _launcher_options(words, j + 2)
                step.launcher = Launcher("torchrun", options, flags, words[i].span)
                _target(step, words[k:], module_flag="module" in flags or "m" in flags)
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
