"""Repairs, in the script's own text, of what spec rules find in a script.

A spec rule reports a data path (`resources.tasks_per_node`); the script emitter has placed it at
the script words it came from. Its repair is an edit of those words, so it is made here, from the
script's facts, for the codes in `FIXERS`. Every repair is the smallest edit that keeps the rest
of the line (its quoting, spacing and comments) as the user wrote it, and none is offered when the
words are not in a shape it can edit with certainty.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from jobc.core.diagnostics import Edit, Fix, Span
from jobc.script.facts import PER_RANK, Expansion, ScriptFacts, Step
from jobc.spec.context import Context

Fixer = Callable[[Span, ScriptFacts, Context], Fix | None]


def script_fix(code: str, span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    """The repair of the finding `code` placed at `span` of the script, if one is certain."""
    fixer = FIXERS.get(code)
    return fixer(span, facts, ctx) if fixer is not None else None


def text_at(facts: ScriptFacts, span: Span) -> str | None:
    """The script's text inside a one-line span."""
    if span.line != span.end_line or not 1 <= span.line <= len(facts.lines):
        return None
    line = facts.lines[span.line - 1]
    if span.end_col - 1 > len(line):
        return None
    return line[span.col - 1 : span.end_col - 1]


def _step_text(facts: ScriptFacts, step: Step) -> str:
    """The step's text as written; "" when its span runs past the script's last line (a step
    read up to an unclosed `$(` ends at the end of the file), so that no fix rewrites it from
    a text shorter than what it replaces."""
    span = step.span
    lines = facts.lines[span.line - 1 : span.end_line]
    if not lines or span.end_line > len(facts.lines):
        return ""
    lines[-1] = lines[-1][: span.end_col - 1]
    lines[0] = lines[0][span.col - 1 :]
    return "\n".join(lines)


def _containing(facts: ScriptFacts, span: Span) -> Step | None:
    for step in facts.steps:
        s = step.span
        if (s.line, s.col) <= (span.line, span.col) and (span.end_line, span.end_col) <= (
            s.end_line,
            s.end_col,
        ):
            return step
    return None


def _offset(text: str, first: Span, span: Span) -> int:
    """Where `span` starts inside `text`, the text of the span `first`."""
    lines = text.split("\n")
    row = span.line - first.line
    before = sum(len(line) + 1 for line in lines[:row])
    return before + (span.col - first.col if row == 0 else span.col - 1)


# --- a step in the background, waited for (JC802, and the fixes that would otherwise leave it) -----

# A trapped signal ends `wait` early (with 128 + the signal); the step still runs, so it is
# waited for again, and the line ends with the step's status as the foreground step's would.
# `|| …` keeps `set -e` from ending the script at the early return.
_WAIT = (
    "jobc_step=$!",
    "jobc_status=0",
    'wait "$jobc_step" || jobc_status=$?',
    'while kill -0 "$jobc_step" 2>/dev/null; do jobc_status=0; wait "$jobc_step" || jobc_status=$?; done',
    '(exit "$jobc_status")',
)


def held(facts: ScriptFacts, trap_line: int) -> list[Step]:
    """The steps after a trap (on `trap_line`) that hold it back: in the foreground, running work."""
    main = facts.main_step
    out = []
    for step in facts.steps:
        if step.line <= trap_line or step.background or step.exec_:
            continue
        if step is not main and step.launcher is None and step.program is None and step.module is None:
            # a helper step before the main one (`srun uv sync`, `srun mkdir …`) ends by itself and
            # the trap runs after it; the steps that must not hold the trap back run the work
            continue
        out.append(step)
    return out


def background(step: Step, lines: list[str]) -> tuple[Edit, ...] | None:
    """`srun …` alone on its lines → `srun … &` and the waiting lines, at its indentation; None
    when the step is part of a larger statement (`if srun …`, `srun … || exit`, `srun … | tee`)."""
    span = step.span
    if span.end_line > len(lines):
        return None
    first, last = lines[span.line - 1], lines[span.end_line - 1]
    indent = first[: span.col - 1]
    if indent.strip() or not re.fullmatch(r"[ \t]*(#.*)?", last[span.end_col - 1 :]) or "<<" in step.text:
        return None
    if span.end_col - 1 > len(last):
        return None  # the step runs past the line as read: a \r bash keeps in the last word
    end = len(last) + 1
    waiting = "".join(f"\n{indent}{line}" for line in _WAIT)
    return (
        Edit(Span(span.end_line, span.end_col, span.end_line, span.end_col), " &"),
        Edit(Span(span.end_line, end, span.end_line, end), waiting),
    )


# --- JC106: a per-rank variable the batch shell expands ------------------------------------------

# `bash -c "`, `sh -lc "`, `/bin/bash -c "`: the double quote opens the command a shell in the step
_SHELL_C = re.compile(r"(?:^|[\s/])(?:ba|da|z|k)?sh(?:\s+-[A-Za-z]+)*\s+-[A-Za-z]*c\s+$")


def _quoting(text: str, at: int) -> tuple[str, int]:
    """The batch shell's quoting at `text[at]`: ("double", where the quote opened), ("single", …)
    or ("none", -1)."""
    state, opened, i = "none", -1, 0
    while i < at:
        ch = text[i]
        if state == "single":
            if ch == "'":
                state = "none"
        elif ch == "\\":
            i += 1
        elif state == "double":
            if ch == '"':
                state = "none"
        elif ch == "'":
            state, opened = "single", i
        elif ch == '"':
            state, opened = "double", i
        elif ch == "#" and (i == 0 or text[i - 1] in " \t\n"):
            return "comment", i
        i += 1
    return state, opened


# the batch-shell expansions of the last script fixed, by span: looking each finding's up in the
# list made thousands of lines that use $SLURM_PROCID cost the square of their number
_BATCH: list[tuple[ScriptFacts, dict[Span, Expansion]]] = []


def _batch_expansion(facts: ScriptFacts, span: Span) -> Expansion | None:
    if not _BATCH or _BATCH[0][0] is not facts:
        index: dict[Span, Expansion] = {}
        for e in facts.expansions:
            if e.shell == "batch":
                index.setdefault(e.span, e)
        _BATCH[:] = [(facts, index)]
    return _BATCH[0][1].get(span)


def _jc106(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    expansion = _batch_expansion(facts, span)
    step = _containing(facts, span)
    if expansion is None or step is None:
        return None
    text = _step_text(facts, step)
    at = _offset(text, step.span, span)
    if not text[at:].startswith("$"):
        return None
    state, opened = _quoting(text, at)
    if state == "double" and _SHELL_C.search(text[:opened]):
        return Fix.make(
            f"escape ${expansion.name} so that the step's shell expands it on each node",
            Edit(Span(span.line, span.col, span.line, span.col), "\\"),
        )
    launcher = step.launcher
    if state != "none" or launcher is None or launcher.span.line != step.span.line:
        return None
    # `srun torchrun --node_rank=$SLURM_NODEID …`: quote the launch for a shell in the step, when
    # nothing else in it would mean something else there
    start = launcher.span.col - step.span.col
    rest = text[start:]
    if not _same_in_the_step(rest, facts):
        return None
    return Fix.make(
        f"run the launch under `bash -c '…'` so that ${expansion.name} expands on each node",
        Edit(
            Span(launcher.span.line, launcher.span.col, step.span.end_line, step.span.end_col),
            f"bash -c '{rest}'",
        ),
        safe=False,
    )


_EXPANSION = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
# what every task's environment holds as the batch shell's does (srun passes the environment on)
_ENVIRONMENT = frozenset({"HOME", "USER", "LOGNAME", "PATH", "PWD", "HOSTNAME"})


def _same_in_the_step(rest: str, facts: ScriptFacts) -> bool:
    """Whether a shell in the step reads `rest` as the batch shell does, per-rank variables aside:
    no single quote (it would end the quoting), no substitution (it would run on every node), no
    list, pipe or redirection, and only variables every task has: Slurm's, the per-rank ones, the
    ones the script exports (a plain shell variable is not passed to the step)."""
    exported = {e.name for e in facts.exports if e.exported}
    for match in _EXPANSION.finditer(rest):
        name = match.group(1) or match.group(2)
        if not (name.startswith("SLURM") or name in PER_RANK or name in exported or name in _ENVIRONMENT):
            return False
    plain = _EXPANSION.sub("", rest)
    return not re.search(r"['`$;&|<>(){}]", plain)


# --- JC102: one task per node for torchrun --------------------------------------------------------

_TASKS = re.compile(r"^(--ntasks-per-node[= ]\s*)(\d+)$")


def _jc102(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    text = text_at(facts, span)
    match = _TASKS.match(text or "")
    if match is None:
        return None
    # the allocation's tasks are every step's: other sruns in the script lose their tasks too
    others = [s for s in facts.steps if s.srun is not None and s.launcher is None]
    return Fix.make(
        "ask for one task per node (torchrun starts the workers)",
        Edit(Span(span.line, span.col + match.end(1), span.line, span.end_col), "1"),
        safe=not others,
    )


# --- JC104: a fixed rendezvous port ---------------------------------------------------------------


def _jc104(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    from jobc.compile.rendezvous import PORT_BASE, PORT_SPAN

    text = text_at(facts, span)
    port = ctx.spec.launch.master_port or ctx.spec.env.get("MASTER_PORT")
    if text is None or port is None or "'" in text:
        return None
    found = [m for m in re.finditer(r"(?<![\w$])(\d+)(?!\w)", text) if m.group(1) == str(port)]
    if len(found) != 1:
        return None
    m = found[0]
    return Fix.make(
        "derive the port from the job id, as jobc's compiled scripts do",
        Edit(
            Span(span.line, span.col + m.start(), span.line, span.col + m.end()),
            f"$(({PORT_BASE} + SLURM_JOB_ID % {PORT_SPAN}))",
        ),
        safe=False,
    )


# --- JC404: NCCL_DEBUG=INFO -----------------------------------------------------------------------


def _jc404(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    text = text_at(facts, span)
    if text is None:
        return None
    found = list(re.finditer(r"(?<![\w$])(INFO|TRACE)(?!\w)", text, re.IGNORECASE))
    if len(found) != 1:
        return None
    m = found[0]
    return Fix.make(
        "set NCCL_DEBUG to WARN",
        Edit(Span(span.line, span.col + m.start(), span.line, span.col + m.end()), "WARN"),
        safe=False,
    )


# --- JC108: no time limit on a multi-node job -----------------------------------------------------


def _jc108(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    if ctx.spec.slurm.time is not None or "time" in facts.honoured():
        return None
    part = ctx.partition_limits
    default = getattr(part, "default_time", None) if part is not None else None
    if not default:
        return None  # jobc does not know the partition's default: the limit is the user's to choose
    honoured = [d for d in facts.directives if d.honoured]
    if not honoured:
        return None
    after = max(d.span.line for d in honoured)
    return Fix.make(
        f"ask for the partition's default time limit, {default}",
        Edit(Span(after + 1, 1, after + 1, 1), f"#SBATCH --time={default}\n"),
        safe=False,
    )


# --- JC107: a shell variable in an #SBATCH file name ------------------------------------------------

_FILE_OPTION = re.compile(r"(?:--(?:output|error|input)[= ]|-[oei]\s*)")


def _jc107(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    from jobc.lint.rules.topology.jc107_shell_var_in_directive import substitute

    text = text_at(facts, span)
    option = _FILE_OPTION.match(text or "")
    if text is None or option is None:
        return None
    new = substitute(text[option.end() :])
    if new is None:
        return None
    start = span.col + option.end()
    return Fix.make(
        "use Slurm's filename patterns", Edit(Span(span.line, start, span.line, span.end_col), new)
    )


FIXERS: dict[str, Fixer] = {
    "JC107": _jc107,
    "JC102": _jc102,
    "JC104": _jc104,
    "JC106": _jc106,
    "JC404": _jc404,
    "JC108": _jc108,
}
