"""Which arm of an `if` or a `case` runs, when its condition reads only values the script fixes.

`if [ "$SLURM_GPUS_ON_NODE" -gt 1 ]; then torchrun …; else python …; fi` chooses the launcher
when the job runs; but when the script's own directives fix the value it tests (`--gres=gpu:1`:
Slurm sets SLURM_GPUS_ON_NODE to 1), the choice is made already, and the arm that runs is the
script's launch. A condition on anything else (the environment, a file, the script's arguments,
a range of nodes) stays undecided: each arm is an alternative, never picked silently.

The values Slurm sets from the directives (`ALLOCATION`), and a variable the script set to a
literal value, are the only values read; the tests are the ones scripts write for this: `[ … ]`,
`[[ … ]]` and `test` with one integer (`-gt`, `-eq`, …) or string (`=`, `==`, `!=`) comparison
or `-z`/`-n`, `(( A > B ))` over names and numbers, and a `case` whose patterns are literal or
simple globs.
"""

from __future__ import annotations

import fnmatch

from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int
from jobc.core.record import record
from jobc.script import values as _values
from jobc.script.allocation import gpus_per_node, implied_nodes
from jobc.script.facts import ScriptFacts
from jobc.script.variables import UNSET

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# `$NAME`, `${NAME}`, `${NAME:-default}`: an unknown segment that only reads one variable
# files a job sources to set its shell up (a shell's start-up file, a virtual environment's or
# conda's activation): they set PATH and the like, never a job's own variables such as MASTER_PORT
_SHELL_SETUP = lazy(
    r"(?:^|/)(?:\.?bashrc|\.bash_profile|\.?profile|activate|conda\.sh|mamba\.sh|setup-env\.sh)[\"']?$"
)
_READS = lazy(r"^\$\{?([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-=])[^}]*)?\}?$")
_INT_OPS = {
    "-gt": lambda a, b: a > b,
    "-ge": lambda a, b: a >= b,
    "-lt": lambda a, b: a < b,
    "-le": lambda a, b: a <= b,
    "-eq": lambda a, b: a == b,
    "-ne": lambda a, b: a != b,
}
# a condition that compares counts, or reads Slurm's counts: it sizes the launch
_SIZING = lazy(
    r"-(?:gt|ge|lt|le|eq|ne)\b|\(\(|\bSLURM_(?:NNODES|JOB_NUM_NODES|GPUS\w*|NTASKS\w*|NPROCS|CPUS\w*|JOB_CPUS\w*)\b"
)
_VAR = lazy(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
_ARITH_OPS = {">": "-gt", ">=": "-ge", "<": "-lt", "<=": "-le", "==": "-eq", "!=": "-ne"}
_STR_OPS = {"=": True, "==": True, "!=": False}


@record
class Known:
    """A value a condition reads, and in words where it came from."""

    text: str
    why: str


def allocation(facts: ScriptFacts) -> dict[str, Known]:
    """The variables Slurm sets for the batch shell whose values the script's directives fix."""
    honoured = facts.honoured()
    out: dict[str, Known] = {}

    def count(name: str) -> int | None:
        d = honoured.get(name)
        return ascii_int(d.value) if d is not None and d.value else None

    nodes = count("nodes")
    if nodes is None and (implied := implied_nodes(honoured)) is not None:
        nodes = implied[0]  # `--ntasks=2 --ntasks-per-node=1`: the two nodes the tasks fill
    if nodes is not None:
        words = _plural(nodes, "node")
        out["SLURM_NNODES"] = out["SLURM_JOB_NUM_NODES"] = Known(str(nodes), words)
    gpus, _, d = gpus_per_node(facts)
    if gpus is not None and d is not None:
        out["SLURM_GPUS_ON_NODE"] = Known(str(gpus), f"{_plural(gpus, 'GPU')} per node")
        if d.name == "gpus-per-node" and ascii_int(d.value or "") is not None:
            out["SLURM_GPUS_PER_NODE"] = out["SLURM_GPUS_ON_NODE"]
    per = count("ntasks-per-node")
    if per is not None:
        out["SLURM_NTASKS_PER_NODE"] = Known(str(per), f"{_plural(per, 'task')} per node")
    total = count("ntasks")
    if total is None and per is not None and nodes is not None:
        total = per * nodes
    if total is not None:
        out["SLURM_NTASKS"] = out["SLURM_NPROCS"] = Known(str(total), _plural(total, "task"))
    cpus = count("cpus-per-task")
    if cpus is not None:
        out["SLURM_CPUS_PER_TASK"] = Known(str(cpus), f"{_plural(cpus, 'CPU')} per task")
    return out


def _plural(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


class Decider:
    """Evaluates conditions; ``fields`` expands a node as the walk stands, ``lookup`` reads a
    variable's value (for names in `(( … ))`), ``text`` gives a node's text."""

    def __init__(
        self,
        facts: ScriptFacts,
        fields: Callable[[Any], list[_values.Field]],
        lookup: Callable[[str], Any],
        text: Callable[[Any], str],
        reads: dict[str, str],
    ) -> None:
        self._facts = facts
        self.reads = reads
        self._alloc: dict[str, Known] | None = None
        self.fields = fields
        self.lookup = lookup
        self.text = text
        # the text of the commands the condition guards, when it is a test that may give a
        # variable its default (`_defaulted`)
        self.guarded = ""

    @property
    def alloc(self) -> dict[str, Known]:
        if self._alloc is None:
            self._alloc = allocation(self._facts)
        return self._alloc

    def value(self, node: Any) -> Known | None:
        """What ``node`` expands to, when the script or its directives fix it."""
        got = self.fields(node)
        if len(got) != 1:
            return None
        return self._field(got[0], self.text(node))

    def _field(self, f: _values.Field, raw: str) -> Known | None:
        parts: list[str] = []
        whys: list[str] = []
        for seg in f:
            if seg[3]:
                parts.append(seg[0])
                continue
            m = _READS.match(seg[0])
            if m is not None and m.group(1) in self.reads:
                # a variable the script set to Slurm's (`NGPU=${SLURM_GPUS_ON_NODE:-1}`)
                m = _READS.match(self.reads[m.group(1)])
            known = self.alloc.get(m.group(1)) if m is not None else None
            if known is None:
                return None
            parts.append(known.text)
            whys.append(known.why)
        text = "".join(parts)
        if not whys and raw.strip("\"'") != text:
            whys.append(f"`{raw.strip(chr(34))}` is {text or 'empty'}")
        return Known(text, ", ".join(whys))

    def _defaulted(self, node: Any) -> Known | None:
        """`[ -z "$X" ]` guarding the commands that set X (`then X=29500`, `|| X=29500`): the
        script's own default, as `${X:=29500}` is. X is empty when nothing before sets it (no
        assignment, no `read`, no file sourced that jobc cannot read) and it is not Slurm's, the
        site's or the environment's; a test on a variable the guarded commands leave alone
        chooses between jobs (`[ -n "$RESUME" ]`) and stays undecided."""
        m = _READS.match(self.text(node).strip("\"'"))
        if m is None or m.group(2) or not self.guarded:
            return None
        name = m.group(1)
        unread = [n for n, _ in self._facts.unread_sources if not _SHELL_SETUP.search(n)]
        if unread or _values.environment_name(name) or name in self.reads:
            return None
        if self.lookup(name) is not UNSET or not _sets(self.guarded, name):
            return None
        return Known("", f"${name} is set nowhere before")

    def name(self, name: str) -> Known | None:
        """A bare name in `(( … ))`: the script's literal value, or Slurm's fixed one."""
        value = self.lookup(name)
        if isinstance(value, tuple) and len(value) == 1:
            return self._field(value[0], f"${name}")
        if value is None and name in self.reads:
            return self._field((("$" + name, -1, -1, False),), f"${name}")
        if name in self.alloc and not isinstance(value, tuple) and value is not None:
            return self.alloc[name]  # UNSET in the script: the environment's, which Slurm fixes
        return None

    def condition(self, nodes: list[Any]) -> tuple[bool | None, str]:
        """Whether a clause's condition holds, and why (the values read, or the text as written)."""
        written = "; ".join(self.text(n) for n in nodes)
        if len(nodes) != 1:
            return None, written
        node = nodes[0]
        kind = node.type
        inner = [c for c in node.named_children if c.type != "comment"]
        got: tuple[bool, str] | None = None
        if kind == "test_command" and len(inner) == 1:
            got = self._test(inner[0])
        elif kind == "compound_statement" and len(inner) == 1 and self.text(node).startswith("(("):
            got = self._arith(inner[0])
        elif kind == "command" and self.text(node).split(None, 1)[:1] == ["test"]:
            # (`if ; then`: the grammar's empty command, which bash refuses, has no word)
            got = self._test_words(node.named_children[1:])
        if got is None:
            return None, written
        return got

    def _test(self, node: Any) -> tuple[bool, str] | None:
        if node.type == "binary_expression" and len(node.children) == 3:
            a, op, b = node.children
            return self._compare(self.value(a), self.text(op), self.value(b))
        if node.type == "unary_expression" and len(node.children) == 2:
            op, a = node.children
            v = self.value(a) or self._defaulted(a)
            if v is None or self.text(op) not in ("-z", "-n"):
                return None
            empty = v.text == ""
            return (empty if self.text(op) == "-z" else not empty), v.why
        if node.type == "parenthesized_expression" and len(node.named_children) == 1:
            return self._test(node.named_children[0])
        return None

    def _test_words(self, words: list[Any]) -> tuple[bool, str] | None:
        if len(words) != 3:
            return None
        return self._compare(self.value(words[0]), self.text(words[1]), self.value(words[2]))

    def _arith(self, node: Any) -> tuple[bool, str] | None:
        if node.type != "binary_expression" or len(node.children) != 3:
            return None
        a, op, b = node.children
        int_op = _ARITH_OPS.get(self.text(op))
        if int_op is None:
            return None
        return self._compare(self._operand(a), int_op, self._operand(b))

    def _operand(self, node: Any) -> Known | None:
        if node.type == "variable_name":
            return self.name(self.text(node))
        if node.type == "number":
            return Known(self.text(node), "")
        return self.value(node)

    def _compare(self, a: Known | None, op: str, b: Known | None) -> tuple[bool, str] | None:
        if a is None or b is None:
            return None
        why = ", ".join(w for w in (a.why, b.why) if w)
        if op in _INT_OPS:
            x, y = _integer(a.text), _integer(b.text)
            if x is None or y is None:
                return None
            return bool(_INT_OPS[op](x, y)), why
        if op in _STR_OPS:
            if any(ch in b.text for ch in "*?[") or op == "=~":
                return None  # a pattern in `[[ … ]]`: not read
            return (a.text == b.text) == _STR_OPS[op], why
        return None

    def sizing(self, text: str) -> bool:
        """Whether a condition as written compares counts (or reads a variable that holds one)."""
        more = " ".join(self.reads[m.group(1)] for m in _VAR.finditer(text) if m.group(1) in self.reads)
        return bool(_SIZING.search(text + " " + more))

    def arms_of_if(self, conditions: list[list[Any]], has_else: bool) -> list[tuple[bool | None, str]]:
        """For each arm of an `if … elif … else`, whether it runs and why."""
        out: list[tuple[bool | None, str]] = []
        before: bool | None = False  # whether an earlier clause held
        reasons: list[str] = []
        held = ""  # why the clause that held held
        for nodes in conditions:
            holds, why = self.condition(nodes)
            reasons.append(why)
            if before is True:
                out.append((False, held))
                continue
            if holds is True:
                held = why
            if before is None:
                out.append((None if holds is not False else False, why))
                before = None if holds is not True else True
                continue
            out.append((holds, why))
            before = holds
        if has_else:
            runs = None if before is None else not before
            out.append((runs, held if before is True else ", ".join(dict.fromkeys(r for r in reasons if r))))
        return out

    def arms_of_case(self, value: Any, patterns: list[list[str]]) -> list[tuple[bool | None, str]]:
        """For each arm of a `case`, whether it runs and why."""
        known = self.value(value) if value is not None else None
        shown = self.text(value) if value is not None else ""
        if known is None or any("$" in p or "`" in p for pats in patterns for p in pats):
            return [(None, shown)] * len(patterns)
        out: list[tuple[bool | None, str]] = []
        matched = False
        for pats in patterns:
            if matched:
                out.append((False, known.why))
                continue
            hit = any(fnmatch.fnmatchcase(known.text, p.strip("\"'")) for p in pats)
            matched = hit
            out.append((hit, known.why or f"`{shown.strip(chr(34))}` is {known.text or 'empty'}"))
        return out


def _sets(text: str, name: str) -> bool:
    """Whether ``text`` assigns ``name`` (`X=1`, `export X=1`, `${X:=1}`)."""
    return (
        any(
            (i == 0 or not (text[i - 1].isalnum() or text[i - 1] in "_$"))
            for i in _find_all(text, name + "=")
        )
        or ("${" + name + ":=") in text
    )


def _find_all(text: str, what: str) -> list[int]:
    out: list[int] = []
    i = text.find(what)
    while i >= 0 and len(out) < 64:
        out.append(i)
        i = text.find(what, i + 1)
    return out


def _integer(text: str) -> int | None:
    text = text.strip()
    neg = text.startswith("-")
    n = ascii_int(text[1:] if neg else text)
    return None if n is None else (-n if neg else n)
