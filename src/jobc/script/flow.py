"""Control flow: the walk over a script's statements in the order bash runs them, with one
explicit stack (nesting costs no recursion), through branches, loops, lists, subshells, function
calls, `eval`, `bash -c` in the batch shell and sourced files."""

from __future__ import annotations

import os

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy, lazy_bytes
from jobc.core.numbers import ascii_int
from jobc.script import unevaluated
from jobc.script import values as _values
from jobc.script.expand import Expander
from jobc.script.facts import Arm, Assign, Command, Inner, Step, Trap, Word, tool_module
from jobc.script.signals import normalise
from jobc.script.steps import (
    NO_INTERPRETER,
    Steps,
    env_assigns,
    env_changes,
    may_run_as_is,
    skip_wrappers,
    step_words,
    tools_around,
    trains_by_name,
)
from jobc.script.tree import (
    Positions,
    argument_nodes,
    dash_c,
    descendants,
    field,
    runs,
    statements,
    within,
)
from jobc.script.tree import parse as parse_tree
from jobc.script.variables import CWD, UNSET, Branches, Frame, Variables

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from jobc.core.paths import PathArg
    from jobc.script.decide import Decider

# `${X:=8}` and `${X=8}` assign X as they expand (`: "${X:=8}"` is how scripts give defaults)
_ASSIGNS_DEFAULT = lazy_bytes(rb"\$\{[A-Za-z_][A-Za-z0-9_]*:?=")
# names a command that may start a step or set a trap; any other command is only recorded
_MAY_LAUNCH = lazy_bytes(
    rb"(?:^|/)(?:srun|exec|env|trap|[\w.+-]*torchrun[\w.+-]*|deepspeed|accelerate|uv|python[0-9.]*|bash|sh|"
    rb"nohup|time|command|builtin|setsid|stdbuf|taskset|numactl|nice|eval|source|\.|shift|"
    rb"set|mpirun|mpiexec|horovodrun|lightning|composer|apptainer|singularity|shifter|enroot|docker|podman|"
    rb"podman-hpc|nsys|conda|mamba|oumi|parallel|xargs|perun|memray|coverage|scalene|kernprof|viztracer|"
    rb"micromamba|pixi|poetry|pdm|Rscript|julia|[\w.+-]*\.py|[\w.+-]*\.sh)$"
)
# a tilde-prefix bash expands: `~` or `~user` at a word's start, unquoted, up to a `/` or the end
_TILDE = lazy(r"~[A-Za-z0-9._-]*(?=/|$)")
# the builtins that set the variables they are given by name (`jobc.script.unevaluated`)
_SETS_BY_NAME = frozenset({"read", "mapfile", "readarray", "printf", "wait", "getopts", "let"})
# statements an arithmetic expression is looked for in, up to the statements they hold
_ARITHMETIC_HOLDERS = frozenset(
    {"command", "variable_assignment", "declaration_command", "compound_statement"}
)
_OWN_STATEMENTS = frozenset({"command_substitution", "process_substitution", "subshell"})
_MAX_CALLS = 16  # functions followed inside one another
_MAX_SOURCED = 8  # files followed through `source`
_MAX_INSIDE = 8  # `bash -c` strings followed inside one another in a step's own shell
_NAME = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")
# commands that set up the environment the program runs in: an import may carry them to
# launch.setup (source, eval and conda are followed by name on the other path)
_SETUP = frozenset({"module", "ml", "spack", "conda", "mamba", "micromamba"})


class _Inside:
    """A step whose own shell is being walked: whether its program was found yet, the directory
    the shell started in, and what it exported before the program."""

    __slots__ = ("cwd", "exports", "filled", "step", "undo")

    def __init__(self, step: Step, cwd: Any) -> None:
        self.step = step
        self.cwd = cwd
        self.filled = step.launcher is not None or step.program is not None or step.module is not None
        self.exports: list[Assign] = []
        # an executable taken as the program, to be given up for a launcher or a Python program
        # later in the same shell: what the step held before it, and the command's text and place
        self.undo: tuple[int, int, str, Span] | None = None


class Flow:
    """Walks one script's statements, handing assignments to the expander and commands to the
    step reader."""

    def __init__(
        self, pos: Positions, state: Variables, expand: Expander, steps: Steps, base: PathArg | None
    ) -> None:
        self.pos = pos
        self.state = state
        self.expand = expand
        self.steps = steps
        self.facts = pos.facts
        self.base = base
        self.sourced: set[Path] = set()
        # the steps whose own shell (`srun bash -c '…'`) is being walked, innermost last
        self.inside: list[_Inside] = []
        self.subshells = 0  # subshells and pipelines the walk is inside of
        # why the batch shell surely ends before the rest of the script: an `exec` step or an
        # `exit` it surely runs (exec replaces the shell, or, failing, ends it)
        self.ended: str | None = None
        self.top_line = 0  # the line of the top-level command the walk is in (the main file's)
        self.children = 0  # shells of their own the walk is inside of (`bash -c '…'` in the batch shell)
        self.loops: list[int] = []  # the lines of the loops the walk is inside of, innermost last
        self.arm_starts: list[int] = []  # where the steps of each arm being walked start
        self.replaying: list[int] = []  # where the journal stood before a command read once per arm
        steps.walk_inside = self.walk_inside

    def branch(self, mark: int, complete: bool) -> Branches:
        self.state.depth += 1
        state = Branches(mark, complete)
        state.reads = dict(self.state.reads)
        return state

    def walk(self, src: _values.Src, items: list[tuple[Any, bool]]) -> None:
        stack: list[tuple[Any, ...]] = [("s", src, n, bg) for n, bg in reversed(items)]
        while stack:
            item = stack.pop()
            kind = item[0]
            if kind == "s":
                self.state.budget -= 1
                if item[1] is src and item[2].parent is not None and item[2].parent.type == "program":
                    self.top_line = item[2].start_point[0] + 1  # (a call's line, for the steps it runs)
                self.statement(stack, item[1], item[2], item[3])
            elif kind == "snapshot":
                item[1].mark = len(self.state.journal)
            elif kind == "branch_end":
                item[1].results.append(self.state.undo(item[1].mark))
            elif kind == "merge":
                self.state.merge(item[1])
            elif kind == "restore":
                self.state.undo(item[1])
                self.subshells -= 1
            elif kind == "frame_end":
                self.state.frames.pop()
            elif kind == "deeper":
                self.state.depth += 1
            elif kind == "child":
                self.children += item[1]
            elif kind == "loop_end":
                self.loops.pop()
            elif kind == "pipe_end":
                self.piped(*item[1:])
            elif kind == "arm_start":
                self.arm_starts.append(len(self.facts.steps))
            elif kind == "arm_end":
                self.arm_end(item[1])
            elif kind == "alt_start":
                self.replaying.append(len(self.state.journal))
                self.state.setvar(item[1], item[2])
            elif kind == "alt_end":
                self.state.undo(self.replaying.pop())
                self.state.alts[item[1]] = item[2]
            elif kind == "replay":
                self.command(stack, *item[1:])

    def statement(self, stack: list[tuple[Any, ...]], src: _values.Src, node: Any, bg: bool) -> None:
        kind = node.type
        if (
            kind in _ARITHMETIC_HOLDERS
            and b"((" in bytes(node.text)
            and (kind != "compound_statement" or node.children[0].type == "((")
        ):
            self.arithmetic(src, node)
        if kind == "command":
            if node.start_point[0] != node.end_point[0] and src is self.pos.src:
                self.misread(node)
            self.command(stack, src, node, bg)
        elif kind == "declaration_command":
            self.expand.declaration(src, node)
            self.declared(src, node)
            if self.inside:
                self.inner_exports(src, node)
            keyword = node.children[0].type if node.children else ""
            args = [self.pos.text(c, src) for c in node.named_children]
            refused = keyword == "local" and len(self.state.frames) == 1
            if functions_exported(keyword, args) or computed_export(keyword, node) or refused:
                # a function handed to the steps' shells through their environment, a variable
                # whose name the batch shell computes, or a `local` outside a function (which sets
                # nothing): the import says so
                self.record(
                    Command(keyword, self.pos.text(node, src), self.pos.where(node, src), (keyword, *args))
                )
        elif kind == "variable_assignment":
            self.expand.assignment(src, node, exported=False)
        elif kind == "unset_command":
            self.unset(src, node)
        elif kind == "function_definition":
            self.function(src, node)
        elif kind == "comment":
            return
        elif kind == "redirected_statement":
            body = node.child_by_field_name("body") or (
                node.named_children[0] if node.named_children else None
            )
            if body is not None and body.type == "command" and self.expand.read_heredoc(src, body, node):
                return
            if body is not None and body.type == "command":
                self.expand.write_heredoc(src, body, node)
            if body is not None and body.type == "command":
                redirects = [c for c in node.named_children if c is not body and c.type.endswith("redirect")]
                self.steps.stdin = self.expand.stdin_heredoc(src, node)
                started = len(self.facts.steps)
                try:
                    self.command(stack, src, body, bg, [(self.pos.text(r, src), r) for r in redirects])
                finally:
                    self.steps.stdin = None
                step = self.facts.steps[-1] if len(self.facts.steps) > started else None
                if step is not None and step.srun is not None and not self.expand.in_step:
                    # `srun bash <<EOF`: every task reads the text the batch shell expanded once
                    step.heredoc = self.expand.heredoc_expansions(src, node) or step.heredoc
            elif body is not None:
                stack.append(("s", src, body, bg))
        elif kind in ("if_statement", "case_statement"):
            self.branches(stack, src, node, bg)
        elif kind in ("for_statement", "while_statement", "c_style_for_statement", "until_statement"):
            # a loop body may run any number of times, none included: what it sets is unknown after
            variable = node.child_by_field_name("variable") if kind == "for_statement" else None
            if variable is not None:
                # `for B in …` (and `select B in …`) sets B to each word in turn: not followed
                self.not_evaluated([self.pos.text(variable, src)], src, node)
            state = self.branch(len(self.state.journal), complete=False)
            stack.append(("loop_end",))
            self.loops.append(self.pos.where(node, src).line)
            stack.append(("merge", state))
            stack.append(("branch_end", state))
            stack.extend(("s", src, c, bg or b) for c, b in reversed(list(statements(node))) if runs(c))
        elif kind == "list":
            # `a && b || c`: the first runs; what the others set may or may not be set after
            children = [(c, b) for c, b in statements(node) if runs(c)]
            if not children:
                return
            state = Branches(len(self.state.journal), complete=False)
            self.decided_list(src, node, children, state)
            stack.append(("merge", state))
            stack.append(("branch_end", state))
            stack.extend(("s", src, c, bg or b) for c, b in reversed(children[1:]))
            # what the first sets holds after it whatever follows: the branch starts after it
            stack.append(("snapshot", state))
            stack.append(("deeper",))
            stack.append(("s", src, children[0][0], bg or children[0][1]))
        elif kind in ("subshell", "pipeline"):
            # a subshell's (and a pipeline's) assignments do not reach the batch shell
            stack.append(("restore", len(self.state.journal)))
            self.subshells += 1
            if kind == "pipeline":
                # a step's output piped on (`| tee train.log`): said where the step is known
                filled = bool(self.inside) and self.inside[-1].filled
                stack.append(("pipe_end", src, node, len(self.facts.steps), filled))
            stack.extend(("s", src, c, bg or b) for c, b in reversed(list(statements(node))) if runs(c))
        else:
            stack.extend(("s", src, c, bg or b) for c, b in reversed(list(statements(node))) if runs(c))

    def branches(self, stack: list[tuple[Any, ...]], src: _values.Src, node: Any, bg: bool) -> None:
        """`if`/`case`: conditions run, then one of the branches; variables merge after. An arm the
        script's own values decide (`decide`) is marked on the steps it holds, and an arm that
        never runs sets nothing."""
        conditions: list[Any] = []
        arms: list[list[tuple[Any, bool]]] = []
        complete = False
        if node.type == "if_statement":
            clauses: list[list[Any]] = []
            for clause in (
                node,
                *[c for c in node.named_children if c.type in ("elif_clause", "else_clause")],
            ):
                body = clause.type == "else_clause"
                arm: list[tuple[Any, bool]] | None = [] if body else None
                own: list[Any] = []
                children = clause.children
                last = len(children) - 1
                for i, child in enumerate(children):
                    if child.type == "then":
                        body, arm = True, []
                        continue
                    if not child.is_named or child.type in ("elif_clause", "else_clause") or not runs(child):
                        continue
                    bg = i < last and children[i + 1].type == "&"
                    if body and arm is not None:
                        arm.append((child, bg))
                    else:
                        conditions.append((child, bg))
                        own.append(child)
                if arm is not None:
                    arms.append(arm)
                if clause.type != "else_clause":
                    clauses.append(own)
                complete = complete or clause.type == "else_clause"
            decider = self.decider(src)
            if len(clauses) == 1:
                # `if [ -z "$X" ]; then X=…; fi`: the arms may give a variable its default
                decider.guarded = "\n".join(self.pos.text(c, src) for arm in arms for c, _ in arm)
            verdicts = decider.arms_of_if(clauses, complete)
        else:
            patterns: list[list[str]] = []
            for child, b in statements(node):
                if child.type == "case_item":
                    items = list(statements(child))
                    pattern = child.named_children[0] if child.named_children else None
                    if pattern is not None and self.pos.text(pattern, src) == "*":
                        complete = True
                    body_start = items[1][0].start_byte if len(items) > 1 else child.end_byte
                    patterns.append(
                        [
                            self.pos.text(c, src)
                            for c in child.named_children
                            if c.end_byte <= body_start and c.type != "comment"
                        ]
                    )
                    arms.append([(c, cb) for c, cb in items[1:] if runs(c)])
                elif runs(child):
                    conditions.append((child, b))
            verdicts = self.decider(src).arms_of_case(node.child_by_field_name("value"), patterns)
        state = self.branch(len(self.state.journal), complete)
        line = self.pos.where(node, src).line
        decider = self.decider(src)
        if node.type == "if_statement":
            sizing = decider.sizing(" ".join(self.pos.text(c, src) for c, _ in conditions))
        else:
            value = node.child_by_field_name("value")
            sizing = value is not None and decider.sizing(self.pos.text(value, src))
        marks = [
            Arm(node.start_byte, line, i, "if" if node.type == "if_statement" else "case", runs_, why, sizing)
            for i, (runs_, why) in enumerate(verdicts)
        ]
        if any(m.runs is True for m in marks):
            state.complete = True  # one arm surely runs
        if src is self.pos.src and not self.inside and not self.subshells and not self.loops:
            state.arms = marks
        state.never = {m.index for m in marks if m.runs is False}
        stack.append(("merge", state))
        for i in reversed(range(len(arms))):
            stack.append(("branch_end", state))
            mark = marks[i] if i < len(marks) and src is self.pos.src and not self.inside else None
            if mark is not None:
                stack.append(("arm_end", mark))
            stack.extend(("s", src, c, bg or cb) for c, cb in reversed(arms[i]) if runs(c))
            if mark is not None:
                stack.append(("arm_start",))
        # the conditions run first, then one branch, each from the variables as they were then
        stack.append(("snapshot", state))
        stack.extend(("s", src, c, bg or cb) for c, cb in reversed(conditions) if runs(c))

    def decided_list(
        self, src: _values.Src, node: Any, children: list[tuple[Any, bool]], state: Branches
    ) -> None:
        """`[ -z "$X" ] && X=1`, `[ -n "$X" ] || X=1`: a test the script's own values decide
        (`decide`) says whether the command after it runs, as an `if` of one arm would."""
        ops = [c.type for c in node.children if not c.is_named]
        if len(children) != 2 or ops not in (["&&"], ["||"]):
            return
        decider = self.decider(src)
        decider.guarded = self.pos.text(children[1][0], src)
        holds, _ = decider.condition([children[0][0]])
        if holds is None:
            return
        if holds == (ops == ["&&"]):
            state.complete = True
        else:
            state.never = {0}

    def decider(self, src: _values.Src) -> Decider:
        """Conditions read as the walk stands (in the batch shell's variables). The module is
        imported by the first condition the walk meets: a script with no `if`, `case`, `&&` or
        `||` to decide does not load it."""
        from jobc.script.decide import Decider

        return Decider(
            self.facts,
            lambda n: self.expand.fields(src, n, quoted=True),
            lambda name: self.state.lookup(name, None),
            lambda n: self.pos.text(n, src),
            self.state.reads,
        )

    def arm_end(self, mark: Arm) -> None:
        """The steps read since the arm started sit in it (an outer arm is put first)."""
        start = self.arm_starts.pop()
        for step in self.facts.steps[start:]:
            step.arms = (mark, *step.arms)

    def function(self, src: _values.Src, node: Any) -> None:
        name_node = node.child_by_field_name("name")
        if name_node is None:
            return
        name = self.pos.text(name_node, src)
        if name not in self.facts.functions:
            self.facts.functions.append(name)
        self.state.bodies[name] = (src, node)
        # the body runs where the function is called: inside a step (export -f, then
        # srun bash -c NAME), so its per-rank variables are not the batch shell's
        self.facts.expansions.extend(self.pos.expansions(node, "step", src))
        if b"trap" in bytes(node.text):
            self.function_traps(src, node, name)

    def command(
        self,
        stack: list[tuple[Any, ...]],
        src: _values.Src,
        node: Any,
        background: bool,
        redirects: list[tuple[str, Any]] | None = None,
    ) -> None:
        if self._plain_run(src, node):
            return
        arguments = argument_nodes(node) + _after_destination(redirects)
        first = arguments[0] if arguments else None
        if first is not None and self.per_arm(stack, src, node, background, redirects):
            return
        if (
            first is not None
            and first.type == "word"
            and not _MAY_LAUNCH.search(bytes(first.text))
            and self.pos.text(first, src) not in self.state.bodies
            and not (src.pieces is not None and b"JOBCUNKNOWN" in bytes(first.text))
            and not (self.inside and not self.inside[-1].filled and may_run_as_is(self.pos.text(first, src)))
            and not trains_by_name(self.pos.text(node, src)[:200])
        ):
            # most lines of a long script (echo, cd, module, mkdir …) start no step: their
            # words are not needed beyond the name
            self.simple(src, node, arguments, self.pos.text(first, src))
            return
        self.expand.batch_expansions(src, node)
        words = self.expand.words(src, arguments)
        if not words:
            for child in node.named_children:
                if child.type == "variable_assignment":
                    self.expand.assignment(src, child, exported=False)
            return
        text = self.pos.text(node, src)
        span = self.pos.where(node, src)
        if _evals_unknown(words):
            # `eval $CMD` of a value computed when the job runs: the command it runs, as `$CMD` is
            words = words[1:]
        if self.builtin(stack, words, text, span):
            return
        i, _ = skip_wrappers(words, 0)
        rest = words[i:]
        if (
            rest
            and os.path.basename(rest[0].text) in ("bash", "sh")
            and len(rest) >= 3
            and dash_c(rest[1].text)
            and self.state.budget > 0
            and rest[2].text not in self.state.bodies
        ):
            # `bash -c "$CMD"` in the batch shell: its commands run on the first node (an srun
            # among them starts a step); in a step's own shell, the step runs them
            self.record(Command(os.path.basename(rest[0].text), text, span, tuple(w.text for w in words)))
            self.run_text(stack, field(rest[2]), span, child=True)
            return
        written = self.steps.written(rest, words[:i]) if not self.inside and self.state.budget > 0 else None
        if written is not None:
            # `bash run.sh` in the batch shell, of a file the script wrote: its commands run here
            self.record(Command(os.path.basename(rest[0].text), text, span, tuple(w.text for w in words)))
            self.run_text(stack, written, span, child=True)
            return
        prefix = self.prefix(src, node, words)
        if self.inside:
            self.fill(src, node, words, text=text, prefix=prefix, redirects=redirects or [])
            return
        step = self.steps.step(words, text, span, background, src, prefix=prefix)
        if step is not None:
            # `bash -c '…'` and friends: the string is a script the step runs
            self.facts.steps.append(step)
            self.steps.program_port(step)
            step.ended = self.ended
            step.reached = self.top_line
            step.after = len(self.facts.commands)
            step.loop = self.loops[-1] if self.loops else None
            if step.exec_ and not background and self.ends_here():
                self.ended = f"the `exec` on line {span.line} replaces the batch shell before it"
            step.inner += self.redirected(step, src, redirects or [])
            for w in step_words(step, words):
                if not within(w.span, span):
                    self.facts.origins.append((w.span, span))
            return
        self.facts.commands.append(self.said(words[0].text, text, span, words))

    def per_arm(
        self,
        stack: list[tuple[Any, ...]],
        src: _values.Src,
        node: Any,
        background: bool,
        redirects: list[tuple[str, Any]] | None,
    ) -> bool:
        """`if …; then header="srun torchrun …"; else header="torchrun …"; fi; ${header} "$@"`: a
        command run by a variable each arm of an `if`/`case` set to a command of its own is read
        once for each arm's value, its steps marked with that arm as if it stood there; what the
        arms agree on (the launcher, the program) is then known, what they do not is said."""
        if not self.state.alts or self.inside:
            return False
        words = argument_nodes(node)
        found = _ONE_VARIABLE.fullmatch(self.pos.text(words[0], src)) if words else None
        name = found.group(1) if found is not None else None
        alts = self.state.alts.get(name) if name is not None else None
        if name is None or alts is None:
            return False
        for arm, value in reversed(alts):
            stack.append(("alt_end", name, alts))
            stack.append(("arm_end", arm))
            stack.append(("replay", src, node, background, redirects))
            stack.append(("arm_start",))
            stack.append(("alt_start", name, value))
        return True

    def redirected(self, step: Step, src: _values.Src, redirects: list[tuple[str, Any]]) -> list[Inner]:
        """The step's redirections, as not carried: its output sent elsewhere, or its input read
        from a file or a heredoc. A heredoc a shell reads its commands from is no such thing:
        those commands are what the walk read as the step."""
        out = []
        for text, node in redirects:
            if not text.lstrip("0123456789").startswith("<"):
                out.append(Inner(text, self.pos.span(node, src), "redirect"))
            elif not (
                self.steps.stdin is not None and text.startswith("<<") and step.command in ("bash", "sh")
            ):
                out.append(Inner(text.split("\n", 1)[0], self.pos.span(node, src), "stdin"))
        return out

    def said(self, name: str, text: str, span: Span, words: list[Word]) -> Command:
        known = all(w.literal for w in words)
        return Command(
            name, text, span, tuple(w.text for w in words), known, self.sure(), _tildes(words, self.pos.raw)
        )

    def _plain_run(self, src: _values.Src, node: Any) -> bool:
        """A run of plain lines, read as one: the command of its first line, spanning them all."""
        row = node.start_point[0]
        if src is not self.pos.src or row not in self.pos.runs:
            return False
        last, line = self.pos.runs[row], self.facts.lines[row]
        name = line.split()[0] if line.split() else ":"
        span = Span(row + 1, 1, last + 1, len(self.facts.lines[last]) + 1)
        self.facts.commands.append(Command(name, line.strip(), span, (name,)))
        return True

    def simple(self, src: _values.Src, node: Any, arguments: list[Any], name: str) -> None:
        """A command that starts no step (echo, cd, module, mkdir …): recorded, and `cd` and
        `unset` followed."""
        self.expand.batch_expansions(src, node)
        if _ASSIGNS_DEFAULT.search(bytes(node.text)):
            self.expand.words(src, arguments)  # `: "${X:=8}"` sets X: its words are expanded for that
        words_text: tuple[str, ...] = (name,)
        known = False
        tildes: tuple[int, ...] = ()
        if name in ("cd", "pushd", "popd"):
            words = self.expand.words(src, arguments[1:])
            words_text = (name, *(w.text for w in words[:1]))
            self.state.setvar(CWD, self.expand.directory(words) if name == "cd" else None)
        elif name in _SETS_BY_NAME:
            names = unevaluated.sets(name, [self.pos.text(a, src) for a in arguments[1:]])
            self.not_evaluated(names, src, node)
        elif name in _SETUP:
            # what an import may carry to launch.setup: the words as they run
            words = self.expand.words(src, arguments)
            words_text, known = tuple(w.text for w in words), all(w.literal for w in words)
            tildes = _tildes(words, self.pos.raw)
        where = self.pos.where(node, src)
        self.record(Command(name, self.pos.text(node, src), where, words_text, known, self.sure(), tildes))

    def misread(self, node: Any) -> None:
        """A command the grammar reads on past the end of its line: after a word it takes for an
        assignment that is none (`--nodes=1`, no name bash accepts), it goes on over the next lines,
        comments and all, to a command name (`KEN=x --nodes=1` then, lines below, `export A=b`).
        bash ends the command at its line (it runs `--nodes=1`): the lines below are read around."""
        for child in node.named_children:
            if child.type != "variable_assignment":
                continue
            name = child.child_by_field_name("name")
            if name is not None and not _NAME.match(self.pos.text(name)):
                first, last = child.start_point[0] + 1, node.end_point[0] + 1
                if last > first and self.facts.unread is None:
                    self.facts.unread = (first, last)
                return

    def not_evaluated(self, names: list[str], src: _values.Src, node: Any) -> None:
        """Variables ``node`` sets by a form the walk does not evaluate (`read B`, `for B in …`,
        `((B++))`): unknown from here on, never the value they had before; the batch shell's are
        kept with the command that set them, for the import to say why it cannot read them."""
        for name in names:
            self.state.setvar(name, None)
            if not self.inside and not self.expand.in_step:
                text = self.pos.text(node, src).split("\n", 1)[0]
                self.facts.unevaluated.append((name, self.pos.where(node, src).line, text))

    def arithmetic(self, src: _values.Src, node: Any) -> None:
        """`((B=3))`, `$((B++))`: the variables an arithmetic expression in ``node`` assigns."""
        names: list[str] = []
        stack = [node]
        while stack:
            cur = stack.pop()
            if cur.type == "arithmetic_expansion" or (
                cur.type == "compound_statement" and cur.children and cur.children[0].type == "(("
            ):
                names += unevaluated.arithmetic(self.pos.text(cur, src))
            elif cur is node or cur.type not in _OWN_STATEMENTS:
                stack.extend(cur.children)
        if names:
            self.not_evaluated(list(dict.fromkeys(names)), src, node)

    def declared(self, src: _values.Src, node: Any) -> None:
        """`declare -i B=2+3` (arithmetic) and `declare -n B=C` (another variable's name): values
        the walk does not evaluate, but for an integer written in digits."""
        options = unevaluated.leading_options([self.pos.text(c, src) for c in node.children[1:]])
        why = unevaluated.declared(options)
        if why is None:
            return
        names = []
        for child in node.named_children:
            name_node = child.child_by_field_name("name") if child.type == "variable_assignment" else None
            value = child.child_by_field_name("value") if name_node is not None else None
            nameref = "`-n`" in why
            if name_node is not None and (
                nameref or value is None or not self.pos.text(value, src).isdecimal()
            ):
                names.append(self.pos.text(name_node, src))
        self.not_evaluated(names, src, node)

    def unset(self, src: _values.Src, node: Any) -> None:
        """`unset NAME …` (`-v` variables, the default; `-f` functions): no value from here on."""
        words = [self.pos.text(c, src) for c in node.named_children]
        functions = "-f" in words
        for name in words:
            if name.startswith("-"):
                continue
            if functions:
                self.state.bodies.pop(name, None)
            else:
                self.state.unset(name)
        self.record(Command("unset", self.pos.text(node, src), self.pos.where(node, src), ("unset", *words)))

    def ends_here(self) -> bool:
        """Whether an `exec` or `exit` being read surely ends the batch shell: one it surely runs,
        not in a shell of its own (`bash -c`) nor in a function (whose `return`, on some path
        before it, the walk does not follow), and the first such."""
        return self.sure() and not self.children and len(self.state.frames) == 1 and self.ended is None

    def sure(self) -> bool:
        """Whether the batch shell surely runs the command being read (no branch, loop, list tail
        or subshell around it)."""
        return self.state.depth == 0 and self.subshells == 0

    def record(self, command: Command) -> None:
        """A command of the batch shell, or one more thing a step's own shell runs."""
        if self.inside:
            if command.name not in ("cd", "bash", "sh"):
                self.inside[-1].step.inner.append(Inner(command.text, command.span, "command"))
            return
        if command.name == "exit" and self.ends_here():
            self.ended = f"the `exit` on line {command.span.line} ends the batch shell before it"
        self.facts.commands.append(command)

    def builtin(self, stack: list[tuple[Any, ...]], words: list[Word], text: str, span: Span) -> bool:
        """Builtins the walk follows (trap, functions, set -a, shift, eval, source); True when
        ``words`` was one of them."""
        name = words[0].text
        if name == "trap":
            if not self.inside:
                self.trap(words, span)
            return True
        if name in {"export", "declare"}:
            return True
        if name in self.state.bodies and self.state.budget > 0 and len(self.state.frames) < _MAX_CALLS:
            self.call(stack, name, words[1:])
            return True
        if name == "set" and any(w.text in ("-a", "allexport") for w in words[1:]):
            self.state.export_all()
        if name == "shift":
            frame = self.state.frames[-1]
            if frame.args is not None:
                n = (ascii_int(words[1].text) if len(words) > 1 else None) or 1
                frame.args = frame.args[n:]
            return True
        if name == "eval" and len(words) > 1 and self.state.budget > 0:
            self.record(self.said(name, text, span, words))
            self.run_text(stack, _values.join([field(w) for w in words[1:]]), span)
            return True
        if name in ("source", ".") and len(words) > 1:
            self.record(self.said(name, text, span, words))
            self.source(stack, words[1], span)
            return True
        return False

    def prefix(self, src: _values.Src, node: Any, words: list[Word]) -> list[Assign]:
        """The variables a command sets for itself: `A=1 B=2 srun …` (`env A=1 …` is read with
        the step's words)."""
        out: list[Assign] = []
        for child in node.named_children:
            if child.type != "variable_assignment":
                continue
            name_node = child.child_by_field_name("name")
            value_node = child.child_by_field_name("value")
            got: list[_values.Field] = (
                self.expand.fields(src, value_node, assigned=True) if value_node is not None else []
            )
            joined = _values.join(got, " ")  # `A="${B[@]}" cmd`: blanks between the elements
            name = self.pos.text(name_node, src) if name_node is not None else ""
            text = _values.text(joined) if _values.literal(joined) else None
            out.append(Assign(name, text, self.pos.text(child, src), self.pos.span(child, src)))
        return out

    # a step's own shell ----------------------------------------------------------------------------

    def walk_inside(
        self,
        step: Step,
        src: _values.Src,
        items: list[tuple[Any, bool]],
        args: list[_values.Field] | None = None,
    ) -> None:
        """Walk the script a step runs in its own shell (`srun bash -c '…'`, an exported function):
        `cd` and `export` before the program are the step's, the first program fills it, and every
        other command is one more thing the step does. The shell is a new one: it sees the
        exported variables only; its arguments are ``args`` when the command line gives them
        (`bash -c '…' _ A B`), else not followed."""
        if len(self.inside) >= _MAX_INSIDE:
            return
        saved = self.state.step_shell()
        self.state.frames[-1].args = args
        self.inside.append(_Inside(step, self.state.vars.get(CWD, UNSET)))
        self.expand.in_step += 1
        try:
            self.walk(src, items)
        finally:
            self.expand.in_step -= 1
            self.inside.pop()
            self.state.leave(saved)

    def fill(
        self,
        src: _values.Src,
        node: Any,
        words: list[Word],
        *,
        text: str,
        prefix: list[Assign],
        redirects: list[tuple[str, Any]],
    ) -> None:
        """A command in a step's own shell: the program the step runs when it is the first one."""
        inside = self.inside[-1]
        step = inside.step
        span = self.pos.span(node, src) if src.pieces is not None else self.pos.where(node, src)
        i, _ = skip_wrappers(words, 0)
        rest = words[i:]
        if len(rest) >= 2 and rest[0].text == "uv" and rest[1].text in ("sync", "pip") and step.syncs is None:
            # each task of the step syncs the environment before the program starts
            step.syncs = self.pos.where(node, src) if src.pieces is None else self.pos.span(node, src)
            return
        if inside.filled and not self.outranks(inside, rest):
            step.inner.append(Inner(text, span, "command"))
            return
        if inside.filled and inside.undo is not None:
            # `fi_info -p efa | head; … torchrun … train.py`: an executable run as it is, then a
            # launcher or a Python program in the same shell (after it, or in another arm of an
            # `if`): the launcher is the step's, as it outranks an executable among steps
            inner, env, was, at = inside.undo
            step.inner = [*step.inner[:inner], Inner(was, at, "command")]
            del step.env[env:]
            step.launcher = step.program = step.module = step.code = step.python = None
            step.args = []
        before = (len(step.inner), len(step.env))
        self.steps.program(step, rest)
        if step.launcher is None and step.module is not None and tool_module(step.module.text):
            # `python3 -m pip install …` before the program in the same shell: an install, not
            # the program (the step's program is the one after it)
            del step.inner[before[0] :]
            del step.env[before[1] :]
            step.launcher = step.program = step.module = step.code = step.python = None
            step.args = []
        if step.launcher is None and step.program is None and step.module is None and step.code is None:
            step.inner.append(Inner(text, span, "command"))
            return
        inside.filled = True
        ran_as_is = step.launcher is None and step.python == NO_INTERPRETER
        inside.undo = (*before, text, span) if ran_as_is else None
        if step.uv_sync and step.syncs is None:
            step.syncs = self.pos.span(node, src)
        step.env += inside.exports + prefix + env_assigns(words)
        step.inner += env_changes(words[:i]) + tools_around(words[:i])
        cwd = self.state.vars.get(CWD, UNSET)
        if cwd is not inside.cwd:
            # a `cd` in the step's own shell, before the program
            self.steps.set_cwd(step, cwd, span)
        self.steps.relative(step)
        step.inner += self.redirected(step, src, redirects)

    def inner_exports(self, src: _values.Src, node: Any) -> None:
        """`export A=1` in a step's own shell, before its program: the program's environment."""
        inside = self.inside[-1]
        if inside.filled or not node.children or node.children[0].type != "export":
            return
        for child in node.named_children:
            if child.type != "variable_assignment":
                continue
            name_node = child.child_by_field_name("name")
            name = self.pos.text(name_node, src) if name_node is not None else ""
            value = self.state.vars.get(name)
            known = value is not None and len(value) == 1 and _values.literal(value[0])
            text = _values.text(value[0]) if known and value is not None else None
            span = self.pos.span(child, src)
            inside.exports.append(Assign(name, text, f"export {self.pos.text(child, src)}", span))

    def outranks(self, inside: _Inside, rest: list[Word]) -> bool:
        """Whether ``rest`` starts a launcher where the step's shell took an executable run as it
        is for its program, or a Python program whose name says it trains where the executable's
        does not (as they rank among steps)."""
        if inside.undo is None or not rest:
            return False
        probe = Step(inside.step.span, "", None, (), None, None, False, None, None, [], {}, False, False, 0)
        self.steps.program(probe, rest)
        if probe.launcher is not None:
            return True
        target = probe.program or probe.module
        return (
            target is not None
            and probe.python != NO_INTERPRETER
            and trains_by_name(os.path.basename(target.text))
            and not trains_by_name(inside.undo[2])
        )

    def piped(self, src: _values.Src, node: Any, before: int, filled: bool) -> None:
        """After a pipeline: a step in it sends its output on (`srun … | tee log`)."""
        text = self.pos.text(node, src)
        span = self.pos.span(node, src) if src.pieces is not None else self.pos.where(node, src)
        if self.inside:
            if self.inside[-1].filled and not filled:
                self.inside[-1].step.inner.append(Inner(text, span, "pipe"))
            return
        for step in self.facts.steps[before:]:
            step.inner.append(Inner(text, span, "pipe"))

    def call(self, stack: list[tuple[Any, ...]], name: str, args: list[Word]) -> None:
        """A call of a function defined in the script: its body, with the call's arguments."""
        src, node = self.state.bodies[name]
        body = node.child_by_field_name("body")
        if body is None:
            return
        self.state.frames.append(Frame([field(w) for w in args]))
        stack.append(("frame_end",))
        stack.extend(("s", src, c, b) for c, b in reversed(list(statements(body))) if runs(c))

    def run_text(
        self, stack: list[tuple[Any, ...]], f: _values.Field, span: Span, *, child: bool = False
    ) -> None:
        """Commands held in a value (`eval "$CMD"`, `bash -c "$CMD"`), parsed and followed;
        ``child``: a shell of their own runs them (`bash -c`), which an `exit` or `exec` ends, not
        the batch shell."""
        if not any(seg[3] and seg[0].strip() for seg in f):
            return  # nothing of it is known (`eval "$(conda shell.bash hook)"`)
        src = _values.assemble(f)
        src.fallback = span
        tree = parse_tree(src.raw)
        if child:
            stack.append(("child", -1))
        stack.extend(("s", src, c, b) for c, b in reversed(list(statements(tree.root_node))) if runs(c))
        if child:
            stack.append(("child", 1))

    def source(self, stack: list[tuple[Any, ...]], word: Word, span: Span) -> None:
        """`source FILE` of a file beside the script: its variables and functions are the script's."""
        if self.base is None or not word.literal or not word.text or word.text.startswith(("/", "~")):
            self.facts.unread_sources.append((word.raw, span))
            return
        from pathlib import Path  # here: a script that sources no file does not import it

        path = (Path(self.base) / word.text).resolve()
        if path in self.sourced or len(self.sourced) >= _MAX_SOURCED:
            return
        try:
            if not path.is_file() or path.stat().st_size > _values.MAX_VALUE:
                self.facts.unread_sources.append((word.raw, span))
                return
            data = path.read_bytes()
        except OSError:
            self.facts.unread_sources.append((word.raw, span))
            return
        self.sourced.add(path)
        # the file's text is written nowhere in this script: what it sets points at the source line
        src = _values.Src(data, [(0, (data.decode("utf-8", "surrogateescape"), -1, -1, True))])
        src.fallback = span
        tree = parse_tree(data)
        stack.extend(("s", src, c, b) for c, b in reversed(list(statements(tree.root_node))) if runs(c))

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
        for cmd in descendants(node):
            if cmd.type != "command":
                continue
            arguments = argument_nodes(cmd)
            if arguments and self.pos.text(arguments[0], src) == "trap":
                self.trap(self.expand.words(src, arguments), self.pos.span(cmd, src), function)


def _after_destination(redirects: list[tuple[str, Any]] | None) -> list[Any]:
    """The words the grammar reads into a redirection after its file (`cmd a >f b c`): bash
    writes to `f` and gives the command `b` and `c` as arguments after its own."""
    out: list[Any] = []
    for _, r in redirects or ():
        if r.type == "file_redirect":
            destinations = [c for c in r.named_children if c.type != "file_descriptor"]
            out += [c for c in destinations[1:] if c.type != "comment"]
        elif r.type == "heredoc_redirect":
            out += _after_heredoc_start(r)
    return out


# what ends a command's words after a heredoc's operator (`cmd <<EOF a | cat`, `… && next`)
_HEREDOC_LINE_ENDS = frozenset({"heredoc_body", "heredoc_end", "pipeline", "command", "list"})
_HEREDOC_OPERATORS = frozenset({"|", "|&", "&&", "||", ";", "&"})


def _after_heredoc_start(redirect: Any) -> list[Any]:
    """The words after a heredoc's delimiter (`cmd <<EOF a b`, or on the next line after a backslash):
    bash reads the command's line to its end before the heredoc's text, so they are its arguments;
    the grammar keeps them in the redirection. A redirection among them keeps its file and gives
    the words after that file, as it does anywhere else."""
    out: list[Any] = []
    started = False
    for child in redirect.children:
        if child.type == "heredoc_start":
            started = True
        elif not started or child.type == "comment":
            continue
        elif child.type in _HEREDOC_LINE_ENDS or child.type in _HEREDOC_OPERATORS:
            break
        elif child.type == "file_redirect":
            out += _after_destination([("", child)])
        elif child.is_named and not child.type.endswith("redirect"):
            out.append(child)
    return out


_PLAIN_DECLARED = frozenset({"variable_assignment", "variable_name"})


def computed_export(keyword: str, node: Any) -> bool:
    """Whether an `export` (or `declare -x`) names a variable the batch shell computes: a word
    with an expansion or quotes (`export NCCL_SOCKET$IFNAME=ib0`, `export "A=1"`), which the
    grammar reads as a name and more words where bash reads one word, exporting what it expands to."""
    children = [c for c in node.children[1:] if c.type != "comment"]
    flags = "".join(
        bytes(c.text).decode("utf-8", "replace")[1:]
        for c in children
        if c.type == "word" and bytes(c.text).startswith(b"-")
    )
    if keyword != "export" and not (keyword in ("declare", "typeset") and "x" in flags):
        return False
    for i, child in enumerate(children):
        before = children[i - 1] if i else None
        if child.type == "word" and bytes(child.text).startswith(b"-"):
            continue
        if child.type not in _PLAIN_DECLARED:
            return True
        if before is not None and before.end_byte == child.start_byte:
            return True  # glued to the word before it: one word to bash
    return False


def functions_exported(name: str, args: list[str]) -> list[str]:
    """The functions `export -f NAME…` (or `declare -fx NAME…`) hands to the commands it starts
    through their environment; none for any other export."""
    leading = unevaluated.leading_options(args)
    options = "".join(a[1:] for a in leading if a.startswith("-") and not a.startswith("--"))
    if "f" not in options or "n" in options or (name == "declare" and "x" not in options):
        return []
    return [a for a in args if not a.startswith("-")]


# a word that is one variable's value, quoted or not (`$CMD`, `"${cmd}"`)
_ONE_VARIABLE = lazy(r'"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?')


def _evals_unknown(words: list[Word]) -> bool:
    """`eval $CMD`, `eval "${cmd}"`: eval given variables whose values are all computed when the job
    runs (the environment's, a file's line): a command the job computes, as `$CMD` alone runs one.
    What eval is given by a substitution (`eval "$(conda shell.bash hook)"`) sets the shell up."""
    if len(words) < 2 or words[0].text != "eval":
        return False
    return all(
        not w.literal
        and _ONE_VARIABLE.fullmatch(w.raw)
        and not any(seg[3] and seg[0].strip() for seg in field(w))
        for w in words[1:]
    )


def _tildes(words: list[Word], raw: bytes) -> tuple[int, ...]:
    """The words whose `~` bash expands, kept in their text: written unquoted at the word's start
    (`~/x`, `~user/x`), or at the start of a variable's value assigned unquoted (`D=~/x`, then
    `$D/y`), which bash expands as it assigns."""
    out = []
    for i, w in enumerate(words):
        written = bytes(w.node.text).decode("utf-8", "surrogateescape") if w.node is not None else w.raw
        m = _TILDE.match(w.text)
        if m is None:
            continue
        if written.startswith(m.group()):
            out.append(i)
        elif written.startswith("$") and w.segs:
            start = w.segs[0][1]
            if (
                0 < start < len(raw)
                and raw[start : start + 1] == b"~"
                and raw[start - 1 : start] in (b"=", b":")
            ):
                out.append(i)
    return tuple(out)
