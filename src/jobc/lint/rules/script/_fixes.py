"""Repairs, in the script's own text, of what spec rules find in a script.

A spec rule reports a data path (`resources.tasks_per_node`); the script emitter has placed it at
the script words it came from. Its repair is an edit of those words, so it is made here, from the
script's facts, for the codes in `FIXERS`. Every repair is the smallest edit that keeps the rest
of the line (its quoting, spacing and comments) as the user wrote it, and none is offered when the
words are not in a shape it can edit with certainty.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection

from jobc.core.diagnostics import Edit, Fix, Span
from jobc.core.lazyre import lazy
from jobc.script.facts import PER_RANK, Expansion, ScriptFacts, Step, Trap, quick
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


def held(facts: ScriptFacts, trap_line: int, *, after_main: bool = False) -> list[Step]:
    """The steps after a trap (on `trap_line`) that hold it back: in the foreground, running work.
    ``after_main``: also the steps that run work after the training step, which a fix that
    takes the signal away from the steps must keep reaching: Slurm signalled whichever step ran
    when the warning came, not only the training step."""
    main = facts.main_step
    out = []
    for step in facts.steps:
        if step.line <= trap_line or step.background or step.exec_:
            continue
        if step is not main and (
            quick(step) or (not after_main and main is not None and step.line > main.line)
        ):
            # a helper step (`srun uv sync`, `srun mkdir …`, a preflight check) ends by itself and
            # the trap runs after it, and a clean-up after the training step (`srun pkill`) runs
            # once the work is done; the steps that must not hold it back run the work. A step
            # whose command jobc cannot read (`srun "${ARGS[@]}" python …`, `srun bash run.sh`)
            # may run as long as the work: it is no helper
            continue
        out.append(step)
    return out


def background(
    step: Step, lines: list[str], *, then_exit: bool = False, jobs: Collection[int] = ()
) -> tuple[Edit, ...] | None:
    """`srun …` alone on its lines → `srun … &` and the waiting lines, at its indentation; None
    when the step is part of a larger statement (`if srun …`, `srun … || exit`, `srun … | tee`),
    or when a line after it reads `$!` before a step in the background (on one of the lines
    ``jobs``) has started: the step in the background would change what `$!` says there.
    ``then_exit``: the last line is `exit` with the step's status, so that no line after the
    step runs (as after `exec`), rather than `(exit …)`, which only sets `$?`."""
    span = step.span
    if span.end_line > len(lines):
        return None
    if not then_exit and _reads_last_job(lines, span.end_line, jobs):
        return None
    first, last = lines[span.line - 1], lines[span.end_line - 1]
    indent = first[: span.col - 1]
    if indent.strip() or not re.fullmatch(r"[ \t]*(#.*)?", last[span.end_col - 1 :]) or "<<" in step.text:
        return None
    if span.end_col - 1 > len(last):
        return None  # the step runs past the line as read: a \r bash keeps in the last word
    end = len(last) + 1
    wait = (*_WAIT[:-1], 'exit "$jobc_status"') if then_exit else _WAIT
    waiting = "".join(f"\n{indent}{line}" for line in wait)
    return (
        Edit(Span(span.end_line, span.end_col, span.end_line, span.end_col), " &"),
        Edit(Span(span.end_line, end, span.end_line, end), waiting),
    )


_LAST_JOB = lazy(r"\$!|\$\{!\}")


def _reads_last_job(lines: list[str], after: int, jobs: Collection[int]) -> bool:
    """Whether a line after line ``after`` reads `$!` (the last job started in the background)
    before one of the lines ``jobs`` starts one; any `$!` counts, in a comment or quotes too."""
    for number in range(after + 1, len(lines) + 1):
        if number in jobs:
            return False
        if _LAST_JOB.search(lines[number - 1]):
            return True
    return False


# --- a trap that hands the signal on to the step -------------------------------------------------

# `kill [-SIG] TARGET` (not `kill -0`, which only asks whether it lives, nor to the batch shell
# itself, `$$`), or `scancel --signal=SIG` without `--batch`, which signals the job's steps
_COMMAND_START = r"(?:^|[;&|{(\n]|\bthen\b|\bdo\b|\belse\b)[ \t]*"
_KILL = lazy(_COMMAND_START + r"kill\b(?![ \t]+-0\b)(?=[ \t]+[^;&|\n]*[^\s;&|])(?![^;&|\n]*\$\$)")
_SCANCEL = lazy(
    _COMMAND_START + r"scancel\b(?=[^;&|\n]*(?:--signal[= ]|-s[ \t]*)\w)(?![^;&|\n]*(?:--batch|[ \t]-b\b))"
)


def forwards(facts: ScriptFacts, trap: Trap) -> bool:
    """Whether the trap's action — its own text, or the body of a function it calls — signals the
    job's steps itself (`kill -USR1 "$pid"`, `scancel --signal=USR1 …`): then the user chose what
    the step gets when the warning comes. A trap that only logs, sets a flag or requeues does not,
    and with `B:` the step would no longer get any signal at all."""
    whole = "\n".join(facts.lines)
    for body in _action_texts(facts, trap.action):
        for text in body.split("\n"):
            if _SCANCEL.search(text):
                return True
            kill = _KILL.search(text)
            if kill is not None and _kills_something(text[kill.end() :], whole):
                return True
    return False


def hands_on(facts: ScriptFacts, trap: Trap, signal: str) -> bool:
    """Whether the trap's action passes ``signal`` itself on to the job's steps (`kill -USR1
    "$pid"`, `kill -s USR1 …`, `kill -10 …`, `scancel --signal=USR1 …`); a trap that sends
    another signal (`scancel --signal=SIGINT`, a bare `kill`, which is SIGTERM) does not."""
    short = signal.removeprefix("SIG")
    number = {"USR1": "10", "USR2": "12", "TERM": "15", "INT": "2"}.get(short)
    named = re.compile(rf"(?<![A-Za-z0-9])(?:SIG)?{short}\b" + (rf"|[ \t]-{number}\b" if number else ""))
    whole = "\n".join(facts.lines)
    for body in _action_texts(facts, trap.action):
        for text in body.split("\n"):
            kill = _KILL.search(text)
            sends = _SCANCEL.search(text) or (
                kill is not None and _kills_something(text[kill.end() :], whole)
            )
            if sends and named.search(text):
                return True
    return False


_UNTIL_END = lazy(r"[^;&|\n]*")
_PLAIN_VAR = lazy(r"\"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?\"?")


def _kills_something(rest: str, script: str) -> bool:
    """Whether `kill`'s targets (the words after its options) may name a process: not when each is
    a variable the script never sets (`kill -USR1 "$step"` with no `step=` anywhere kills nothing)."""
    words = _UNTIL_END.match(rest).group().split()  # type: ignore[union-attr]
    targets = [w for w in words if not (w.startswith("-") and not w.startswith("-$")) and w != "--"]
    if len(words) >= 2 and words[0] in ("-s", "-n") and targets and targets[0] == words[1]:
        targets = targets[1:]  # `kill -s USR1 PID`: the signal's name is no target
    for target in targets:
        var = _PLAIN_VAR.fullmatch(target)
        if var is None or re.search(rf"(?<![\w$]){var.group(1)}\+?=|\bread\b.*\b{var.group(1)}\b", script):
            return True
    return False


_TRAP = lazy(r"trap[ \t]+")


def hand_on(facts: ScriptFacts, trap: Trap, signal: str) -> tuple[Edit, ...] | None:
    """Edits that make ``trap`` send ``signal`` on to the job's steps as Slurm would have
    (`scancel --signal=SIG $SLURM_JOB_ID`, which signals every step and not the batch shell),
    before its own action: () when it signals the steps itself, None when its action is not
    written so that a command can be put before it (or it traps other signals too)."""
    if forwards(facts, trap):
        return ()
    if set(trap.signals) != {signal} or trap.action.startswith("-"):
        # (an action that starts with `-` is an option to trap, which refuses it and sets no
        # trap at all; a command put before it would make trap take it)
        return None
    span = trap.span
    if span.line > len(facts.lines):
        return None
    line = facts.lines[span.line - 1]
    m = _TRAP.match(line, span.col - 1)
    if m is None:
        return None
    at = m.end()
    first = f"scancel --signal={signal.removeprefix('SIG')} $SLURM_JOB_ID; "
    if line[at : at + 1] in ("'", '"'):
        return (Edit(Span(span.line, at + 2, span.line, at + 2), first),)
    word = re.match(r"[A-Za-z_][A-Za-z0-9_]*(?=[ \t])", line[at:])
    if word is None:
        return None
    end = at + word.end()
    return (Edit(Span(span.line, at + 1, span.line, end + 1), f"'{first}{word.group()}'"),)


def _action_texts(facts: ScriptFacts, action: str) -> list[str]:
    """A trap's action and the bodies of the script's functions it names."""
    texts = [action]
    for name in facts.functions:
        if re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", action):
            body = _function_body(facts.lines, name)
            if body is not None:
                texts.append(body)
    return texts


def _function_body(lines: list[str], name: str) -> str | None:
    """The text of `name() { … }` (or `function name { … }`) from its first line to the first
    line that closes it; None when the script does not define it so plainly."""
    head = re.compile(rf"\s*(?:function\s+)?{re.escape(name)}\s*(?:\(\s*\))?\s*(?:\{{|$)")
    for i, line in enumerate(lines):
        if head.match(line):
            body = []
            for text in lines[i : i + 200]:
                body.append(text)
                if text.strip().startswith("}") or (text is line and text.rstrip().endswith("}")):
                    return "\n".join(body)
            return None
    return None


# --- JC106: a per-rank variable the batch shell expands ------------------------------------------

# `bash -c "`, `sh -lc "`, `/bin/bash -c "`: the double quote opens the command a shell in the step
_SHELL_C = lazy(r"(?:^|[\s/])(?:ba|da|z|k)?sh(?:\s+-[A-Za-z]+)*\s+-[A-Za-z]*c\s+$")


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
    if expansion is None:
        return None
    if step is None:
        reader = next((s for s in facts.steps if s.heredoc is not None and _inside(span, s.heredoc[0])), None)
        if reader is not None:
            return _in_heredoc(span, expansion, facts, reader)
        return _exported(span, expansion, facts)
    text = _step_text(facts, step)
    at = _offset(text, step.span, span)
    if not text[at:].startswith("$"):
        return None
    state, opened = _quoting(text, at)
    if state == "double" and _SHELL_C.search(text[:opened]):
        inner = _inner_quoting(text[opened + 1 : at])
        if inner in ("none", "double"):
            return Fix.make(
                f"escape ${expansion.name} so that the step's shell expands it on each node",
                Edit(Span(span.line, span.col, span.line, span.col), "\\"),
            )
        if inner == "single" and span.line == span.end_line:
            # inside the step shell's single quotes an escaped `$` stays text: close them around it
            return Fix.make(
                f"let the step's shell expand ${expansion.name} on each node (out of its single quotes)",
                Edit(Span(span.line, span.col, span.line, span.col), "'\\\"\\"),
                Edit(Span(span.line, span.end_col, span.line, span.end_col), "\\\"'"),
            )
        return None
    launcher = step.launcher
    if state != "none" or launcher is None or launcher.span.line != step.span.line or step.assigned:
        # (srun runs a `NAME=value` word as a command, a shell reads it as an assignment)
        return None
    # `srun torchrun --node_rank=$SLURM_NODEID …`: quote the launch for a shell in the step, when
    # nothing else in it would mean something else there
    start = launcher.span.col - step.span.col
    rest = text[start:]
    if not _same_in_the_step(rest, facts, step):
        return None
    return Fix.make(
        f"run the launch under `bash -c '…'` so that ${expansion.name} expands on each node",
        Edit(
            Span(launcher.span.line, launcher.span.col, step.span.end_line, step.span.end_col),
            f"bash -c '{rest}'",
        ),
        safe=False,
    )


def _in_heredoc(span: Span, expansion: Expansion, facts: ScriptFacts, step: Step) -> Fix | None:
    """`srun bash <<EOF … $SLURM_NODEID … EOF`: escaped, the `$` reaches each task's shell, which
    expands it on its own node; inside that shell's single quotes, they are closed around it. Only
    for a shell reading the heredoc (python would read `\\$` as text of its own)."""
    if step.command not in ("bash", "sh") or step.heredoc is None or span.line != span.end_line:
        return None
    # a heredoc's body starts at the first column of the line after its `<<WORD`
    lines = facts.lines[step.heredoc[0].line - 1 : span.line]
    if not lines or not lines[-1][span.col - 1 :].startswith("$"):
        return None
    lines[-1] = lines[-1][: span.col - 1]
    inner = _inner_quoting("\n".join(lines), heredoc=True)
    at = Span(span.line, span.col, span.line, span.col)
    if inner in ("none", "double"):
        return Fix.make(
            f"escape ${expansion.name} in the heredoc so that each task's shell expands it on its own node",
            Edit(at, "\\"),
        )
    if inner == "single":
        return Fix.make(
            f"let each task's shell expand ${expansion.name} of the heredoc on its own node (out of its "
            "single quotes)",
            Edit(at, "'\"\\"),
            Edit(Span(span.line, span.end_col, span.line, span.end_col), "\"'"),
        )
    return None


def _inner_quoting(batch: str, *, heredoc: bool = False) -> str | None:
    """How the step's shell reads the end of ``batch``, the text of a double-quoted `bash -c "…"`
    up to an expansion: "none", "single" or "double" (its own quotes); None when the text holds a
    substitution whose output jobc cannot know."""
    if "$(" in batch or "`" in batch:
        return None
    seen, i = [], 0
    # what the batch shell's double quotes (or an unquoted heredoc, where `"` is text) hand on
    escaped = "$`\\\n" if heredoc else '$`"\\\n'
    while i < len(batch):
        if batch[i] == "\\" and i + 1 < len(batch) and batch[i + 1] in escaped:
            seen.append(batch[i + 1])
            i += 2
            continue
        seen.append(batch[i])
        i += 1
    state, j = "none", 0
    while j < len(seen):
        ch = seen[j]
        if state == "single":
            state = "none" if ch == "'" else state
        elif ch == "\\":
            j += 1
        elif state == "double":
            state = "none" if ch == '"' else state
        elif ch == "'":
            state = "single"
        elif ch == '"':
            state = "double"
        j += 1
    return state


_EXPANSION = lazy(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))")
# what every task's environment holds as the batch shell's does (srun passes the environment on);
# not HOSTNAME, which bash sets from the node it runs on
_ENVIRONMENT = frozenset({"HOME", "USER", "LOGNAME", "PATH", "PWD"})
# Slurm's variables that are the same in a step as in the batch shell: the job's own (a step's
# counts, SLURM_NTASKS, SLURM_NNODES, …, are the step's)
_JOB_WIDE = lazy(
    r"SLURM_(?:JOB_\w+|JOBID|ARRAY_\w+|SUBMIT_\w+|CLUSTER_NAME|CONF|CPUS_PER_TASK|GPUS_PER_NODE)"
)
# srun options after which the step runs on fewer nodes or with another environment
_STEP_SHAPE = frozenset({"nodes", "nodelist", "exclude", "relative", "export"})


def _same_in_the_step(rest: str, facts: ScriptFacts, step: Step) -> bool:
    """Whether a shell in the step reads `rest` as the batch shell does, per-rank variables aside:
    no single quote (it would end the quoting), no substitution (it would run on every node), no
    list, pipe or redirection, and only variables every task has as the batch shell does: the
    job's own Slurm variables (SLURM_NNODES and SLURM_NODELIST when the step spans the whole
    allocation), the per-rank ones, the ones the script exports (a plain shell variable is not
    passed to the step), HOME, USER, PATH."""
    exported = {e.name for e in facts.exports if e.exported}
    whole = not (set(step.srun or {}) & _STEP_SHAPE)
    for match in _EXPANSION.finditer(rest):
        name = match.group(1) or match.group(2)
        slurm = _JOB_WIDE.fullmatch(name) or (whole and name in ("SLURM_NNODES", "SLURM_NODELIST"))
        passed = name in exported and "export" not in (step.srun or {})
        if not (slurm or name in PER_RANK or passed or name in _ENVIRONMENT):
            return False
    plain = _EXPANSION.sub("", rest)
    return not re.search(r"['`$;&|<>(){}]", plain)


_SHELL_C_OPEN = lazy(r"(?:^|[\s/])(?:ba|da|z|k)?sh(?:\s+-[A-Za-z]+)*\s+-[A-Za-z]*c\s+(['\"])")
_EXPORT_LINE = lazy(r"[ \t]*export[ \t]+(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>\S+)[ \t]*")


def _exported(span: Span, expansion: Expansion, facts: ScriptFacts) -> Fix | None:
    """`export MACHINE_RANK=$SLURM_PROCID`, then `srun bash -c '… $MACHINE_RANK …'`: the export
    moves into each later step's shell, where the per-rank variable has each task's value. Only
    when the line is that export alone, its value is the expansion alone, every step after it is
    an srun of `bash -c '…'` that passes the environment on, and no other line reads the name."""
    line = facts.lines[span.line - 1] if span.line <= len(facts.lines) else ""
    m = _EXPORT_LINE.fullmatch(line)
    if m is None or m.group("value").strip('"') not in (f"${expansion.name}", f"${{{expansion.name}}}"):
        return None
    name = m.group("name")
    later = [s for s in facts.steps if s.line > span.line]
    reads = re.compile(rf"\$\{{?{name}(?![A-Za-z0-9_])")
    if not later or any(s.srun is None or "export" in s.srun for s in later):
        return None
    edits = [Edit(Span(span.line, 1, span.line + 1, 1), "")]
    in_steps: set[int] = set()
    for step in later:
        text = _step_text(facts, step)
        opened = _SHELL_C_OPEN.search(text)
        if not text or opened is None or step.span.line != step.span.end_line:
            return None
        quote = opened.group(1)
        value = f"${expansion.name}" if quote == "'" else f"\\${expansion.name}"
        col = step.span.col + opened.end()
        edits.append(Edit(Span(step.span.line, col, step.span.line, col), f"export {name}={value}; "))
        in_steps.add(step.span.line)
    for number, text in enumerate(facts.lines, 1):
        if number not in in_steps and number != span.line and reads.search(text):
            return None  # the batch shell reads it too: it would lose its value there
    return Fix.make(
        f"set {name} from ${expansion.name} in each step's shell, where it has each task's value",
        *edits,
        safe=False,
    )


# --- JC102: one task per node for torchrun --------------------------------------------------------

# (`--tasks-per-node`: sbatch's other name for it)
_TASKS = lazy(r"^(--n?tasks-per-node[= ]\s*)(\d+)$")
_NTASKS = lazy(r"^(?:--ntasks[= ]\s*|-n\s*=?)(\d+)$")
# what Slurm derives from the tasks of the allocation: each changes with one task per node
_COUNTS = lazy(
    r"(?<![A-Za-z0-9_])(SLURM_NTASKS_PER_NODE|SLURM_TASKS_PER_NODE|SLURM_NTASKS|SLURM_NPROCS"
    r"|SLURM_STEP_NUM_TASKS|SLURM_STEP_TASKS_PER_NODE|SLURM_JOB_CPUS_PER_NODE|SLURM_CPUS_ON_NODE)"
    r"(?![A-Za-z0-9_])"
)


def _jc102(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    """`--ntasks-per-node=8` → 1, or `--ntasks=16` → `--ntasks-per-node=1`. The script's reads of
    the task counts would change with it: a launcher's processes per node written as
    `$SLURM_NTASKS_PER_NODE` get the count it had; any other read leaves no fix."""
    text = text_at(facts, span) or ""
    per_node, total = _TASKS.match(text), _NTASKS.match(text)
    if per_node is not None:
        edits = [Edit(Span(span.line, span.col + per_node.end(1), span.line, span.end_col), "1")]
        count: str | None = per_node.group(2)
    elif (
        total is not None
        and "ntasks-per-node" not in facts.honoured()
        and _spans_its_nodes(span, facts, text)
    ):
        edits = [Edit(span, "--ntasks-per-node=1")]
        count = None  # SLURM_NTASKS_PER_NODE was not set: a read of it changes
    else:
        return None
    kept = _counts_kept(facts, count)
    if kept is None:
        return None
    edits += kept
    # the allocation's tasks are every step's: other sruns in the script lose their tasks too; a
    # launcher the batch shell starts itself (JC805) loses the CPUs of the tasks, and is still
    # started on one node only
    others = [s for s in facts.steps if s.srun is not None and s.launcher is None]
    main = facts.main_step
    alone = main is not None and main.srun is None
    if _other_srun(facts, main):
        # a step jobc does not read as one (`ip=$(srun -N1 hostname -i)`) would run one task a
        # node too, and what its tasks print, captured, is handed on: no fix can say what changes
        return None
    return Fix.make(
        "ask for one task per node (torchrun starts the workers)", *edits, safe=not others and not alone
    )


_SRUN_WORD = lazy(r"(?<![\w./-])srun(?![\w.-])")


def _other_srun(facts: ScriptFacts, main: Step | None) -> bool:
    """Whether a line outside the steps jobc reads names srun (`ip=$(srun -N1 hostname -i)`, a
    string run later): a step there takes the allocation's task count too, which the fix changes."""
    read = {n for st in facts.steps for n in range(st.span.line, st.span.end_line + 1)}
    skip = read | (set(range(main.span.line, main.span.end_line + 1)) if main is not None else set())
    for number, line in enumerate(facts.lines, 1):
        if number in skip or "srun" not in line or line.lstrip().startswith("#"):
            continue
        if _SRUN_WORD.search(line.split(" #", 1)[0]):
            return True
    return False


def _spans_its_nodes(span: Span, facts: ScriptFacts, text: str) -> bool:
    """Whether a total task count (`--ntasks=N`) may become one task per node: the allocation's
    (an #SBATCH line), or a step's that names its own nodes, written as one word. A step's count
    alone may keep the step on fewer nodes than the allocation has (`srun --ntasks=2` in four
    nodes, a step sized on purpose), where one task per node would start it on every node."""
    for step in facts.steps:
        if step.srun is not None and step.span.line <= span.line <= step.span.end_line:
            return "nodes" in step.srun and not any(c in text for c in " \t")
    return True


def _counts_kept(facts: ScriptFacts, count: str | None) -> list[Edit] | None:
    """Edits that keep what the script reads of the task counts, or None when one cannot be kept."""
    from jobc.tables.launchers import entry

    step = facts.main_step
    launcher = step.launcher if step is not None else None
    kind = entry(launcher.name) if launcher is not None else None
    words = (
        [launcher.options[k] for k in kind.procs_per_node if k in launcher.options]
        if kind and launcher
        else []
    )
    edits = []
    for number, line in enumerate(facts.lines, 1):
        if "SLURM_" not in line:
            continue
        for m in _COUNTS.finditer(line):
            if line[m.start() - 1 : m.start()] == "$":
                where = Span(number, m.start(), number, m.end() + 1)
            elif line[m.start() - 2 : m.start()] == "${" and line[m.end() : m.end() + 1] == "}":
                where = Span(number, m.start() - 1, number, m.end() + 2)
            else:
                return None  # in arithmetic, or `${NAME:-…}`: not a value this fix can write
            if (
                count is None
                or m.group(1) != "SLURM_NTASKS_PER_NODE"
                or not any(_inside(where, w.span) for w in words)
            ):
                return None
            edits.append(Edit(where, count))
    return edits


def _inside(inner: Span, outer: Span) -> bool:
    return (outer.line, outer.col) <= (inner.line, inner.col) and (inner.end_line, inner.end_col) <= (
        outer.end_line,
        outer.end_col,
    )


# --- JC104: a fixed rendezvous port ---------------------------------------------------------------


def _jc104(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    from jobc.compile.rendezvous import PORT_BASE, PORT_SPAN

    text = text_at(facts, span)
    port = ctx.spec.launch.master_port or ctx.spec.env.get("MASTER_PORT")
    if port is None:  # a launcher's own name for it (SLURM_MASTER_PORT): the one such number
        port = next(
            (v for k, v in ctx.spec.env.items() if k.endswith("_MASTER_PORT") and str(v).isdigit()), None
        )
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
    honoured = [d for d in facts.directives if d.honoured and facts.component(d) == 0]
    if not honoured:
        return None
    after = max(d.span.line for d in honoured)
    return Fix.make(
        f"ask for the partition's default time limit, {default}",
        Edit(Span(after + 1, 1, after + 1, 1), f"#SBATCH --time={default}\n"),
        safe=False,
    )


# --- JC107: a shell variable in an #SBATCH file name ------------------------------------------------

_FILE_OPTION = lazy(r"(?:--(?:output|error|input)[= ]|-[oei]\s*)")


def _jc107(span: Span, facts: ScriptFacts, ctx: Context) -> Fix | None:
    from jobc.lint.rules.topology.jc107_shell_var_in_directive import substitute
    from jobc.script.directives import refused

    text = text_at(facts, span)
    option = _FILE_OPTION.match(text or "")
    if text is None or option is None:
        return None
    if 1 <= span.line <= len(facts.lines) and refused(facts.lines[span.line - 1]):
        return None  # sbatch refuses the script for this line (an unmatched quote): nothing to mend
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
