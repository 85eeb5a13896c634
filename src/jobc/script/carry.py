"""What the import carries besides the allocation and the launch line: the environment the step
sees, the directory it runs in, the setup lines before it, the resilience its traps meant, and a
list of everything it could not carry, each line once, with why.

The import's promise, held by the round-trip test (`tests/script/roundtrip.py`): the job compiled
from the spec runs the same program with the same arguments, environment and directory as the
script, or the spec lists what it could not carry.
"""

from __future__ import annotations

import os
import re

from jobc.core.diagnostics import DataPath, Span
from jobc.core.lazyre import lazy
from jobc.core.numbers import SLURM_MAX, ascii_int
from jobc.core.numbers import shown as _shown
from jobc.script import signals
from jobc.script import values as _values
from jobc.script.derived import Derived
from jobc.script.facts import (
    PER_RANK,
    Command,
    Export,
    Launcher,
    ScriptFacts,
    Step,
    Word,
    alternatives,
    choose,
    helper,
)
from jobc.script.facts import runs as step_runs
from jobc.script.flow import functions_exported
from jobc.script.steps import PYTHON, uv_refuses
from jobc.tables import launchers, slurm_env
from jobc.tables.paths import node_local
from jobc.tables.slurm_options import is_pyxis, srun_refuses

_ENV_NAME = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")
# Variables jobc computes for every rank (rendezvous, world, ranks): a script's own are not carried.
COMPUTED = frozenset(
    {
        "MASTER_ADDR",
        "MASTER_PORT",
        "WORLD_SIZE",
        "RANK",
        "LOCAL_RANK",
        "NODE_RANK",
        "LOCAL_WORLD_SIZE",
        "NNODES",
        "NPROC_PER_NODE",
        "GPUS_PER_NODE",
    }
)
CACHES = {
    "HF_HOME": "hf_home",
    "UV_CACHE_DIR": "uv_cache_dir",
    "TORCH_HOME": "torch_home",
    "TRITON_CACHE_DIR": "triton_cache_dir",
    "NEMO_HOME": "nemo_home",
    "PIP_CACHE_DIR": "pip_cache_dir",
}

# the reasons of lines that need nothing from the user unless the job needs them (the terminal's
# summary shows a few of these and counts the rest: a script of thousands of such lines would
# bury the lines that matter)
HELPER = "a helper command; not needed by the spec"
NOT_A_LAUNCH = "not a launch; put it in launch.setup if the job needs it"


def _int(text: str | None, minimum: int = 0) -> int | None:
    if text is None:
        return None
    value = ascii_int(text.split("-")[0].split(",")[0])
    return value if value is not None and minimum <= value <= SLURM_MAX else None


def carry(facts: ScriptFacts, out: Derived, step: Step | None) -> None:
    """The import's view of everything around the launch line."""
    if step is not None:
        _choice(facts, out, step)
    environment(facts, out, step)
    if step is not None:
        _step_environment(out, step)
        _workdir(out, step, facts)
        _setup(facts, out, step)
        _inner(out, step)
        _srun_options(out, step)
    _resilience(facts, out)
    _storage(out)
    _leftovers(facts, out, step)
    out.unmapped.sort(key=lambda u: u.line)


def env_unknown(out: Derived, e: Export, unread: tuple[int, str] | None = None) -> None:
    """An export whose value the step may not see (set in an `if`, differently on two paths, or
    changed later): the variable keeps its place in env as `{unknown.NAME}`, which fails lint
    (JC008) until it is written, never a value of one path as if it were every path's.
    ``unread``: the line and command that last set it in a form jobc does not evaluate."""
    from jobc.spec.interpolate import UNKNOWN

    path: DataPath = ("env", e.name)
    out.skip(e.span, e.written, "not the value the step sees on every path")
    if path in out.templated:
        return
    out.put(path, f"{{{UNKNOWN}.{e.name}}}", e.value_span)
    out.templated.add(path)
    if unread is not None:
        line, text = unread
        out.unknown.append(
            f"env.{e.name}: line {line} sets it with `{_shown(text, keep=60)}`, which jobc does not "
            f"evaluate: the value the training step sees is not known, kept as {{{UNKNOWN}.{e.name}}}: "
            "write its value"
        )
        return
    out.unknown.append(
        f"env.{e.name}: line {e.span.line} sets it on some paths only, or differently on others "
        f"(an `if`, a `case`, a loop), kept as {{{UNKNOWN}.{e.name}}}: write its value"
    )


def import_env(out: Derived, e: Export, said: str | None = None) -> None:
    name, value = e.name, e.value or ""
    where = said or e.written
    if not value.isascii() and not _utf8(value):
        # a spec is UTF-8 text: the variable is listed, not carried, and the rest is imported
        out.skip(
            e.span,
            where,
            f"{name}'s value holds bytes that are not UTF-8, which a spec cannot hold: not carried, "
            "so the step runs without it; write it in env as text",
        )
        return
    if name in COMPUTED:
        out.skip(e.span, where, "jobc computes this for every rank")
    elif name == "NCCL_SOCKET_IFNAME" and re.match(r"^[A-Za-z0-9_.-]+$", value):
        out.put(("fabric", "interface"), value, e.value_span, where)
    elif name == "NCCL_IB_DISABLE" and value in ("0", "1"):
        out.put(("fabric", "ib"), value == "0", e.value_span, where)
    elif name == "NCCL_DEBUG" and value.upper() in ("VERSION", "WARN", "INFO", "TRACE"):
        out.put(("fabric", "debug"), value.upper(), e.value_span, where)
    elif name == "NCCL_NET_GDR_LEVEL" and (level := _int(value)) is not None:
        out.put(("fabric", "gdr_level"), level, e.value_span, where)
    elif name == "NCCL_IB_GID_INDEX" and (index := _int(value)) is not None:
        out.put(("fabric", "ib_gid_index"), index, e.value_span, where)
    elif name.startswith(("NCCL_", "TORCH_NCCL_")):
        out.put(("fabric", "env", name), value, e.value_span, where)
    elif name in CACHES and value.startswith("/"):
        out.put(("storage", "caches", CACHES[name]), value, e.value_span, where)
    else:
        out.put(("env", name), value, e.value_span, where)


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a byte the script holds that is not UTF-8, kept as a surrogate
        return False
    return True


def _storage(out: Derived) -> None:
    """Shared prefixes: the file systems the script's own absolute paths live on."""
    paths: list[tuple[str, DataPath]] = []
    storage = out.data.get("storage", {})
    if isinstance(storage.get("logs"), str):
        paths.append((storage["logs"], ("storage", "logs")))
    paths += [
        (v, ("storage", "caches", k)) for k, v in storage.get("caches", {}).items() if isinstance(v, str)
    ]
    workdir = out.data["launch"].get("workdir")
    if isinstance(workdir, str) and ("launch", "workdir") not in out.templated:
        paths.append((workdir, ("launch", "workdir")))
    prefixes: list[str] = []
    for path, came in paths:
        if not path.startswith("/") or node_local(path) is not None:
            continue
        parts = [p for p in path.split("/") if p][:1]
        prefix = "/" + "/".join(parts)
        if prefix != "/" and prefix not in prefixes:
            # no value without the line it came from: the line of the path it is the prefix of
            span = out.spans.get(came)
            if span is not None:
                out.spans[("storage", "shared", len(prefixes))] = span
            prefixes.append(prefix)
    if prefixes:
        out.data.setdefault("storage", {})["shared"] = prefixes


def _launcher_options(facts: ScriptFacts, out: Derived, launcher: Launcher, step: Step) -> None:
    """Each option of the step's launcher, listed as not carried, with what the script's step does
    with it (an option the launcher refuses, a value set nowhere or computed when the job runs)."""
    kind = launchers.entry(launcher.name)
    for key, word in launcher.options.items():
        why = "jobc starts torch.distributed.run with the allocation's sizes and its own rendezvous"
        if kind is not None and kind.reaches_always and out.mode == "srun":
            why = "jobc's srun starts one rank a GPU on every node of the allocation"
        if key in launcher.unknown:
            why = _refused(launcher.name, f"`{word.raw}` read as the option and its value", key)
            why += _blank_makes_program(launcher, word)
        nowhere = _set_nowhere(word.raw, facts)
        for said in nowhere:
            why += f"; {said}; empty, the launcher reads the next word as this option's value"
        if nowhere and step is not None:
            why += _shifted_onto(launcher, key, word, step)
        elif not nowhere:
            split = _may_split(launcher, word, facts)
            why += split
            onto = _shifted_onto(launcher, key, word, step) if split else ""
            if onto:
                # (a value computed when the job runs may as well be empty: bash drops the word)
                why += "; should it be empty, the launcher reads the next word as this option's value" + onto
        # an option as written (`--nnodes 2`) names its launcher; a Hydra override
        # (`hydra.launcher.nnodes=2`) names itself
        shown = f"{_written(launcher.name, step.text)} {word.raw}" if word.raw.startswith("-") else word.raw
        out.skip(word.span, shown, why)


def _launcher_flags(facts: ScriptFacts, out: Derived, launcher: Launcher, step: Step) -> None:
    """Each flag of the step's launcher, listed as not carried (jobc starts its launcher itself),
    a flag the launcher refuses with what it does then."""
    for flag in launcher.flags:
        why = "jobc starts torch.distributed.run itself"
        if flag in launcher.unknown:
            why = _refused(launcher.name, "read as an option without a value", flag)
            if flag in launcher.refused_flags:
                why += _blank_makes_program(launcher, _as_written(launcher.refused_flags[flag], facts))
        written = _written_flag(flag, step.text, facts.lines)
        if flag in launcher.refused_flags and written == f"--{flag}":
            # not found as the table spells it (a byte quoted with a backslash): the word itself
            word = launcher.refused_flags[flag]
            shown = _as_written(word, facts).raw
            # as written when that begins with the dash, else as bash reads it (`\-use_env` is
            # `-use_env`): the table's spelling, `--use_env`, is another option, which it has
            written = shown if shown.startswith("-") else word.text if word.text.startswith("-") else written
        out.skip(launcher.span, f"{launcher.name} {written}", why)


def _directives_not_read(facts: ScriptFacts, out: Derived) -> None:
    """The `#SBATCH` lines the spec does not ask for: after the first command, or of a
    heterogeneous job's other components."""
    separators = facts.separators()
    for d in facts.directives:
        if not d.honoured:
            out.skip(d.span, f"#SBATCH {d.text}", "after the first command: sbatch ignores it")
        elif (n := facts.component(d)) > 0:
            out.skip(
                d.span,
                f"#SBATCH {d.text}",
                f"component {n} of the heterogeneous job (after #SBATCH hetjob on line "
                f"{separators[n - 1]}): the spec is the first component alone",
            )


def _leftovers(facts: ScriptFacts, out: Derived, step: Step | None) -> None:
    _directives_not_read(facts, out)
    carried = set(out.carried)
    for n, cmd in enumerate(facts.commands):
        if cmd.span in carried:
            continue
        why = _why(cmd, step is not None and n < step.after)
        more = cmd.span.end_line - cmd.span.line
        if more and "\n" not in cmd.text:
            # a run of plain lines read as one (jobc.script.parse): say it once for all of them
            why = f"{why} (as are the {more} plain lines after it, to line {cmd.span.end_line})"
        elif "\n" in cmd.text and ("$(" in cmd.text or "`" in cmd.text):
            # listed by its first line: what its `$(…)` runs on the lines below is said too
            why = f"{why}{_runs_below(cmd.text, cmd.span)}"
        out.skip(cmd.span, cmd.text, why)
    _unread(facts, out)
    exported = {e.name for e in facts.exports if e.exported}
    for e in facts.exports:
        # a plain variable computed by running a program (`nodes=( $(srun python x.py) )`): the
        # batch shell runs it, the compiled job does not (an exported one is listed with the env)
        if e.name not in exported and e.value is None and _RUNS_PROGRAM.search(e.raw):
            out.skip(
                e.span,
                f"{e.name}={e.raw}",
                f"{_computed(e)}: it runs a program the compiled job does not run",
            )
    _other_steps(facts, out, step)
    runs = _substitution_runs_program(step.text) if step is not None else None
    if step is not None and runs is not None:
        # the batch shell runs that program to compute a word of the step, the compiled job not
        ran = _blanks_joined(step.text[runs:])
        shown = ran if len(ran) <= _SHOWN else ran[: _SHOWN - 1] + "…"
        out.skip(
            step.span,
            step.text,
            f"a command substitution in it runs a program the compiled job does not run: {shown}",
        )
    if step is not None and _IMAGE_RUNNER.search(step.text):
        out.skip(
            step.span,
            step.text,
            "the program runs inside a Singularity, Apptainer, Shifter, enroot, Docker or Podman "
            "image: the spec runs it outside; container.image takes an image for pyxis (srun "
            "--container-image)",
        )
    if step is not None and _ENV_RUNNER.search(step.text):
        out.skip(
            step.span,
            step.text,
            "the program runs in the environment conda, mamba, pixi, poetry or pdm runs it in: the "
            "spec runs launch.python, so name that environment's interpreter there (or activate it "
            "in launch.setup)",
        )
    if step is not None and step.launcher is not None:
        launcher = step.launcher
        _launcher_notes(out, launcher)
        _launcher_options(facts, out, launcher, step)
        _launcher_flags(facts, out, launcher, step)
        _ambiguous_arguments(out, launcher, step)
        _interpreter_as_program(out, launcher, step)
    _traps(facts, out)
    for flag in step.srun_flags if step is not None else ():
        if flag.startswith("$"):
            why = (
                "srun options set nowhere in the script (the environment it is submitted from may hold them)"
                if not _assigned(flag.strip("${}"), facts)
                else "srun options the script adds on some paths only (set in an `if`)"
            )
            out.skip(
                step.span,  # type: ignore[union-attr]
                f"srun {flag}",
                f"{why}; not carried: put them in slurm.extra if the job needs them",
            )
    for x in facts.expansions:
        if x.shell == "batch":
            out.skip(x.span, f"${x.name}", "a per-rank variable; jobc computes it inside each rank")


def _unread(facts: ScriptFacts, out: Derived) -> None:
    """The lines jobc's bash grammar read around (bash accepts them): each that holds a command
    the import did not read is listed, as nothing of it is carried."""
    if facts.unread is None:
        return
    first, last = facts.unread
    for s in facts.steps:
        if s.span.line <= last and s.span.end_line >= first:
            # the step was read, but the grammar may have read around some of its words
            out.skip(
                s.span,
                s.text,
                f"in lines {first}–{last}, which jobc's bash grammar cannot read (bash runs them): "
                "words of this step may be missing from what the spec runs",
            )
    read = {e.span.line for e in facts.exports} | {c.span.line for c in facts.commands}
    read |= {s.span.line for s in facts.steps} | {d.span.line for d in facts.directives}
    for number in range(first, min(last, len(facts.lines)) + 1):
        text = facts.lines[number - 1].strip()
        if text and not text.startswith("#") and number not in read:
            out.skip(
                Span.point(number, 1),
                text,
                f"in lines {first}–{last}, which jobc's bash grammar cannot read (bash runs them): "
                "not carried",
            )


# a command substitution that runs Python or a launcher
_RUNS_PROGRAM = lazy(
    r"(?:\$\(|`)[^`]*?(?<![\w./-])(?:python[0-9.]*|torchrun|accelerate|deepspeed|uv[ \t]+run)(?![\w-])"
)


# a command that is Python or a launcher (srun's or not), at the start of a command substitution's
# text or after `;`, `|`, `&`, `(` or a line break in it: `$(which python)` runs `which`
_COMMAND_RUNS_PROGRAM = lazy(
    r"(?:^|[;|&\n(])[ \t]*(?:srun[ \t]+(?:-\S+[ \t]+)*)?"
    r"(?:python[0-9.]*|torchrun|accelerate|deepspeed|uv[ \t]+run)(?![\w-])"
)


def _substitution_runs_program(text: str) -> int | None:
    """Where the first command substitution (`$(…)` or backticks, outermost) that runs Python or a
    launcher starts in ``text``, or None. One pass over the text, then one search of each."""
    at = 0
    while True:
        start = min((i for i in (text.find("$(", at), text.find("`", at)) if i >= 0), default=-1)
        if start < 0:
            return None
        if text[start] == "`":
            end = text.find("`", start + 1)
            inner_start = start + 1
        else:
            inner_start, depth, end = start + 2, 1, -1
            for i in range(inner_start, len(text)):
                if text[i] == "(":
                    depth += 1
                elif text[i] == ")":
                    depth -= 1
                    if depth == 0:
                        end = i
                        break
        end = len(text) if end < 0 else end
        if _COMMAND_RUNS_PROGRAM.search(text[inner_start:end]) is not None:
            return start
        at = end + 1


def _traps(facts: ScriptFacts, out: Derived) -> None:
    missed = {m.trap.span: m for m in signals.missed(facts)}
    for t in signals.batch_traps(facts):
        m = missed.get(t.span)
        why = "jobc forwards the signal to every rank itself"
        if m is not None:
            # the trap never ran: its action is no behaviour of the script to carry over
            to = "to the job steps only" if m.sent is not None else "at all"
            why = f"left out, JC807: Slurm never sends {m.signal} to the batch shell ({to}), so it never ran"
        elif _REQUEUES.search(t.action):
            why = (
                "jobc forwards the signal to every rank, and requeues the job when the program "
                "exits with the requeue code after it (resilience.requeue)"
            )
        out.skip(t.span, f"trap {t.action!r} {' '.join(t.signals)}", why)


_REFERENCE = lazy(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
# `${NAME:-8}`, `${NAME-8}`, `${NAME:=8}`: a reference with a default that is not empty gives the
# default when NAME is unset, so it is never empty for want of an assignment (its default's own
# references are read all the same)
_DEFAULTED = lazy(r"\$\{([A-Za-z_][A-Za-z0-9_]*):?[-=][^}]")


# a reference as a whole, to see what a value holds beside its references
# (`${NAME:-}`, with an empty default, is as empty as `$NAME`)
_OPTION_VALUE = lazy(r"-[^=\s]*[=\s]+(.*)", re.S)  # `--name=value`, `--name value`: the value
_WHOLE_REFERENCE = lazy(r"\$\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=])?\}|\$[A-Za-z_][A-Za-z0-9_]*")


def _never_empty(raw: str) -> bool:
    """Whether an option's value (`--config_file $DIR/fsdp.yaml`) holds text of its own beside
    the variables it reads: empty variables leave that text, never an empty word."""
    option = _OPTION_VALUE.match(raw)
    value = option.group(1) if option is not None else raw
    return bool(_WHOLE_REFERENCE.sub("", value).strip("\"' \t"))


def _read_bare(text: str) -> list[str]:
    """The variables ``text`` reads that would leave it empty where unset: every reference but those
    guarded by a default that is not empty."""
    guarded = {m.start() for m in _DEFAULTED.finditer(text)}
    return [m.group(1) for m in _REFERENCE.finditer(text) if m.start() not in guarded]


_ENV_RUNNER = lazy(r"\b(?:conda|mamba|micromamba|pixi|poetry|pdm)\s+run\b")
_IMAGE_RUNNER = lazy(
    r"\b(?:singularity|apptainer)\s+(?:exec|run)\b|\bshifter\b|\benroot\s+start\b|"
    r"\b(?:docker|podman|podman-hpc)\s+run\b"
)


def _assigned(name: str, facts: ScriptFacts) -> bool:
    """Whether some line of the script gives ``name`` a value (`NAME=`, `NAME+=`, `read NAME`,
    `for NAME in`), exported or not."""
    pattern = re.compile(rf"(?<![\w$]){re.escape(name)}\+?=|\b(?:read|for)\b[^\n]*\b{re.escape(name)}\b")
    return any(pattern.search(line) for line in facts.lines)


def _set_nowhere(raw: str, facts: ScriptFacts) -> list[str]:
    """What an option's value reads that nothing sets, each said as a reason: a variable the
    script never sets and that Slurm, MPI or the site do not usually set either, or a `SLURM_`
    name Slurm does not set (a misspelling: `$SLURM_NN` for `$SLURM_NNODES`), read directly or
    through the script's own variables (`N=$SLURM_NN; P=$((N * 8)); --num_processes $P`). Empty,
    the launcher takes the next word for this option's value."""
    if _never_empty(raw):
        return []
    assigned = set(facts.final) | {e.name for e in facts.exports} | facts.own
    out: list[str] = []
    seen: set[str] = set()
    todo = [(n, "") for n in _read_bare(raw)]
    while todo and len(seen) < _FOLLOWED:
        name, via = todo.pop(0)
        if name in seen or name in PER_RANK:
            continue
        seen.add(name)
        through = f" (read through ${via})" if via else ""
        if slurm_env.unknown(name):
            near = slurm_env.closest(name)
            hint = f" (did you mean ${near}?)" if near else ""
            slurm = f"and Slurm sets no variable of that name{hint}"
            out.append(f"${name}{through} is set nowhere in the script, {slurm}")
        elif name in assigned:
            # (a value a command prints, `$(scontrol … "$SLURMX" | head -n 1)`, is what the command
            # prints, not empty for want of the variables its command line reads)
            todo += [
                (n, via or name)
                for text in _assignments(facts, name)
                if "$(" not in text.replace("$((", "") and "`" not in text
                for n in _read_bare(text)
            ]
        elif not _values.environment_name(name) and name not in _BASH_SETS:
            out.append(
                f"${name}{through} is set nowhere in the script: unless the environment sets it, it is empty"
            )
    return out


_FOLLOWED = 64  # variables followed from one option's value
# the variables bash sets itself (bash(1), "Shell Variables"): never empty for want of an assignment
_BASH_WRITTEN = (
    "RANDOM SRANDOM SECONDS LINENO BASHPID PPID UID EUID GROUPS HOSTTYPE OSTYPE MACHTYPE OPTIND "
    "OPTARG IFS OLDPWD EPOCHSECONDS EPOCHREALTIME BASH BASH_VERSION BASH_SOURCE BASH_LINENO "
    "BASH_COMMAND BASH_SUBSHELL BASH_ARGC BASH_ARGV BASH_ARGV0 BASH_REMATCH FUNCNAME PIPESTATUS "
    "SHLVL REPLY HISTCMD COLUMNS LINES"
)
_BASH_SETS = frozenset(_BASH_WRITTEN.split())


def _assignments(facts: ScriptFacts, name: str) -> list[str]:
    """The texts the script assigns to ``name`` (`NAME=…`, `export NAME=…`, `local NAME=…`)."""
    pattern = re.compile(
        rf"(?:^|[;&|(\s])(?:export\s+|local\s+|readonly\s+|declare(?:\s+-\w+)*\s+)?{name}\+?=(.*)"
    )
    return [m.group(1) for line in facts.lines if name in line for m in [pattern.search(line)] if m]


def _launcher_notes(out: Derived, launcher: Launcher) -> None:
    """For a launcher jobc runs differently: what was mapped, what could not be carried over."""
    entry = launchers.entry(launcher.name)
    if entry is None or launcher.name == "torchrun":
        return
    sizes = {*entry.nodes, *entry.procs_per_node, *entry.procs_total, *entry.node_rank}
    rendezvous = {*entry.address, *entry.port, *entry.endpoint}
    # (an option it does not have sets nothing: the listing says that it refuses it)
    rest = [f"--{k}" for k in launcher.options if k not in sizes | rendezvous | set(launcher.unknown)]
    rest += [f"--{f}" for f in launcher.flags if f not in launcher.unknown]
    mode = "launch.mode torchrun (one launcher per node)" if entry.per_node else f"launch.mode {out.mode}"
    out.notes.append(
        f"`{launcher.name}` is run as {mode}; its sizes come from resources and its rendezvous from jobc"
    )
    if rest:
        shown = ", ".join(rest[:8]) + (", …" if len(rest) > 8 else "")
        out.notes.append(
            f"not carried over from {launcher.name}: {shown}; what they set (precision, "
            "DeepSpeed/FSDP plugin, host file) must reach the program another way (its own "
            "arguments or config file, or env)"
        )


def _shifted_onto(launcher: Launcher, key: str, word: Word, step: Step) -> str:
    """What a launcher that refuses options it does not have (accelerate) does when the empty
    value of its last option before the program makes it read the program as that value: the
    program's arguments are then read as its own options, up to the first word that is none (the
    program it starts); the first it does not have, it refuses, and the step starts nothing
    (`--main_process_ip $EMPTY train.py --epochs 3`)."""
    entry = launchers.entry(launcher.name)
    target = step.program or step.module
    if entry is None or not entry.strict or target is None or list(launcher.options)[-1:] != [key]:
        return ""
    if '"' in word.raw or "'" in word.raw:
        return ""  # a quoted empty value is still a word: nothing shifts
    words = [w.text for w in step.args]
    i = 0
    while i < len(words) and words[i].startswith("-") and words[i] not in ("-", "--"):
        option, eq, _ = words[i].partition("=")
        name = option.lstrip("-").replace("-", "_")
        if not option.startswith("--") and len(option) > 2 and entry.knows(option[1]):
            i += 1  # a short option with its value in its word (`-t3`), as argparse reads it
        elif entry.knows(name):
            i += 2 if name in entry.valued and not eq else 1
        else:
            return (
                f"; then `{target.text}` is that value and `{option}` an option of {launcher.name}'s "
                f"own, which it does not have: {launcher.name} refuses it, so the script's step starts "
                "no program"
            )
    if i >= len(words):
        return (
            f"; then `{target.text}` is that value and no word is left for the program: "
            f"{launcher.name} refuses the line, so the script's step starts no program"
        )
    if words[i] in ("-", "--"):
        return ""
    # the step then starts the next word that is no option, one argument short of what it meant
    return (
        f"; then `{target.text}` is that value and the script's step starts `{words[i]}`, with the "
        "words after it for its arguments"
    )


def _written_flag(flag: str, text: str, lines: list[str]) -> str:
    """A launcher's flag as the step writes it (`--n-rdzrun`, which the launcher's table keeps as
    `n_rdzrun`), or as a line of the script writes it for the step (a value the step expands,
    `ARGS="-[rank0]: …"`): the listing names what the user finds in the script."""
    pattern = re.compile(
        r"(?<![^\s\"'])(-+" + "".join("[-_]" if ch == "_" else re.escape(ch) for ch in flag) + r")(?![\w-])"
    )
    m = pattern.search(text) or next((found for line in lines if (found := pattern.search(line))), None)
    return m.group(1) if m else f"--{flag}"


def _refused(name: str, read: str, key: str) -> str:
    """Why an option the launcher does not have is not carried: the script's step fails there, and
    what the spec runs instead is what the rest of its line names."""
    # (a key of one letter may have been written `-n`, which begins no long option)
    several = _several(name, f"--{key}") if len(key) > 1 else ""
    refusal = (
        f"the beginning of several options of {name} ({several}): {name} refuses it (`error: "
        "ambiguous option`)"
        if several
        else f"no option of {name} (of any version): {name} refuses it (`error: unrecognized arguments`)"
    )
    return (
        f"{refusal}, so the script's step starts no program; here {read}, the spec runs the program "
        "the rest of the line names, without it"
    )


def _may_split(launcher: Launcher, word: Word, facts: ScriptFacts) -> str:
    """An option's value that the batch shell computes and bash splits at blanks (unquoted:
    `--main_process_ip $head_node_ip`, with head_node_ip=$(…)): should what it holds when the job
    runs be several words, the launcher takes the first for the option's value and the next for
    its program, which the script's step then starts with the program it meant among its
    arguments. A count of Slurm's (`$SLURM_NNODES`) or arithmetic holds no blank."""
    if word.literal or '"' in word.raw or "'" in word.raw:
        return ""
    computed = "$(" in word.text or "`" in word.text
    computed = computed or any(
        name in facts.final and facts.final[name] is None and not name.startswith("SLURM_")
        for name in _read_bare(word.text.replace("$((", "(("))
    )
    if not computed:
        return ""
    return (
        f"; unquoted, bash splits the value the batch shell computes at blanks: should it be several "
        f"words, {launcher.name} takes the first for this option's value and the next for its program "
        "(or, beginning with `-`, for an option of its own, which it refuses if it has none such)"
    )


def _as_written(word: Word, facts: ScriptFacts) -> Word:
    """A word with its text as the script's line writes it (its quotes), when it is written on one
    line where its span says: the word a step expands keeps the value's own text."""
    span = word.span
    if span.line != span.end_line or not 0 < span.line <= len(facts.lines):
        return word
    text = facts.lines[span.line - 1][span.col - 1 : span.end_col - 1]
    return Word(word.text, span, word.literal, text) if text else word


def _blank_makes_program(launcher: Launcher, word: Word) -> str:
    """An option torchrun does not have whose value the batch shell computes inside quotes
    (`--rdzv_back_endpoint="$head:29400"`): argparse takes a word with a blank that names none of
    its options for its program, so with a blank in what the value holds when the job runs, the
    script's torchrun starts that word as its program instead of refusing it."""
    entry = launchers.entry(launcher.name)
    if entry is None or not entry.names or word.literal or '"' not in word.raw:
        return ""
    return (
        f"; but should the value hold a blank when the job runs, {launcher.name} takes the whole word "
        f"`{word.raw}` for its program (argparse reads a word with a blank as no option) and starts "
        "that instead"
    )


def _interpreter_as_program(out: Derived, launcher: Launcher, step: Step) -> None:
    """`torchrun python train.py` without --no-python: torchrun runs its own interpreter on the file
    `python` (torch/distributed/run.py), which the spec runs as the script does; said."""
    program = step.program
    if launcher.name == "torchrun" and program is not None and PYTHON.match(os.path.basename(program.text)):
        out.notes.append(
            f"launch.program: line {program.span.line} gives torchrun `{program.text}` as its program "
            "without --no-python: torchrun runs that file with its own interpreter (and it is no "
            "Python file, so the step fails), as the spec does; write the program torchrun should run"
        )


def _several(name: str, written: str) -> str:
    """The options of a launcher that reads abbreviations (torchrun) ``written`` begins, when it
    begins more than one (argparse refuses it as ambiguous); empty otherwise."""
    entry = launchers.entry(name)
    matches = entry.matches(written) if entry is not None and entry.names and len(written) > 2 else ()
    return ", ".join(matches) if len(matches) > 1 else ""


def _ambiguous_arguments(out: Derived, launcher: Launcher, step: Step) -> None:
    """torchrun's argparse reads every word of its line before a `--`, the program's arguments
    too, as its own option first: one that begins several of its options (`--log`: --log-dir,
    --logs-specs) makes it refuse the line (pytorch/pytorch issue #120601), the script's and the
    compiled job's alike, which passes the same arguments to the same parser. A launcher the spec
    runs as launch.mode torchrun (accelerate, which reads no abbreviation and hands the program
    every word after it) passes such a word on, where the compiled job's torchrun refuses it."""
    entry = launchers.entry(launcher.name)
    if launcher.name != "torchrun" and (entry is None or not entry.per_node):
        return
    program = step.program or step.module
    for word in step.args:
        if word.text == "--":
            return
        written = word.text.partition("=")[0]
        if not (word.literal and written.startswith("--") and (several := _several("torchrun", written))):
            continue
        if launcher.name == "torchrun":
            why = (
                f"an argument of the program that begins several options of torchrun ({several}): torchrun "
                "reads it as one of its own and refuses it (`error: ambiguous option`), so the script's step "
                "starts no program, and the compiled job's torchrun, given the same arguments, none either"
            )
        else:
            why = (
                f"an argument of the program that begins several options of torchrun ({several}): "
                f"{launcher.name} hands it to the program, but launch.mode torchrun's torchrun reads it as "
                "one of its own and refuses it (`error: ambiguous option`), so the compiled job starts no "
                f"program ({program.text if program is not None else 'the program'} does not run)"
            )
        out.skip(word.span, word.raw, f"{why}; write the program's option in full")


_ASSIGNED_NAME = lazy(r"(?<![^\s])([A-Za-z_][A-Za-z0-9_]*)=")


def _why(cmd: Command, before: bool) -> str:
    """Why a command of the batch shell is not carried; ``before``: the shell ran it before the
    training step."""
    name = cmd.name
    exported = functions_exported(name, list(cmd.words[1:])) if name in ("export", "declare") else []
    if exported:
        shown = ", ".join(f"BASH_FUNC_{f}%%" for f in exported[:4]) + (", …" if len(exported) > 4 else "")
        return (
            f"hands the function to the steps' shells through their environment ({shown}); the "
            "spec runs what the step runs itself, and its program's environment has no such variable"
        )
    if name == "local":
        return (
            "`local` outside a function: bash refuses it (`local: can only be used in a function`) "
            "and sets nothing, so what it names keeps the value it had (none, if set nowhere else)"
        )
    if name in ("export", "declare", "typeset"):
        # the names it assigns written out, which a long line's listing may cut off
        named = list(dict.fromkeys(m.group(1) for m in _ASSIGNED_NAME.finditer(cmd.text[:100_000])))
        said = f" (it assigns {', '.join(named[:8])})" if named else ""
        return (
            "exports a variable whose name or value the batch shell computes (a word with an "
            f"expansion or quotes, which bash expands before it exports): not carried{said}; write it in env"
        )
    if name in ("cd", "pushd", "popd"):
        if not before:
            return "a change of directory after the training step starts: not carried"
        return (
            "a change of directory the batch shell may not run (in a branch, a loop or a subshell) "
            "or that the training step does not run in: not carried"
        )
    if name in _SETUP_NAMES or _activates(cmd):
        if not before:
            return "after the training step starts: not carried"
        if not cmd.sure:
            return (
                "in a branch, a loop or a subshell: not carried (put it in launch.setup if the job needs it)"
            )
        return "uses a value the script computes when the job runs: not carried (write it in launch.setup)"
    if name in ("wait", "exit"):
        return "jobc waits for the step and passes its exit code on"
    if name == ":":
        return "sets defaults of variables: their values are written where the script uses them"
    if name in ("echo", "printf", "date", "hostname", "nvidia-smi", "set", "ulimit", "mkdir"):
        return HELPER
    return NOT_A_LAUNCH


# what sets up the environment the program runs in, carried to launch.setup in order
_SETUP_NAMES = frozenset({"module", "ml", "spack", "source", ".", "conda", "mamba", "micromamba"})
_REQUEUES = lazy(r"\bscontrol\s+requeue\b|\bsbatch\b")


def _activates(cmd: Command) -> bool:
    """`eval "$(conda shell.bash hook)"`: the shell hook conda activation needs."""
    return cmd.name == "eval" and bool(re.search(r"\b(?:conda|mamba|micromamba)\b", cmd.text))


def _setup(facts: ScriptFacts, out: Derived, step: Step) -> None:
    """Module loads, sourced files and environment activation the batch shell surely runs before
    the step: launch.setup, in order, so the program runs with the same interpreter (`python` on
    the PATH they set) and libraries. A line that reads a value the script computes is listed
    instead: the compiled job would not compute it."""
    lines: list[tuple[Span, str]] = []
    for cmd in facts.commands[: step.after]:
        if not (cmd.name in _SETUP_NAMES or _activates(cmd)):
            continue
        if not cmd.sure:
            continue
        if _activates(cmd) or _only_environment(cmd.text):
            # reads only what the job's environment holds: the line as written runs the same
            # when compiled (words joined again would quote a `~` that bash expands)
            text = cmd.text
        elif cmd.known and cmd.words and cmd.name != "eval":
            text = _joined(cmd)
        else:
            continue
        lines.append((cmd.span, text))
        out.carried.append(cmd.span)
    if not lines:
        return
    setup = out.data["launch"].setdefault("setup", [])
    for span, text in lines:
        out.spans[("launch", "setup", len(setup))] = span
        setup.append(text)
    if not _errexit(facts, lines[0][0].line):
        out.notes.append(
            "launch.setup runs under `set -euo pipefail` in the compiled job: a setup line that fails "
            "(an environment or module that is missing) stops the job there, where the script, "
            "without `set -e`, went on past it"
        )


def _joined(cmd: Command) -> str:
    """A command's words written again, each quoted as it needs, but a `~` bash expanded at a
    word's start left outside the quotes (`~/'my env'/activate`): quoted, it is a directory
    named `~`."""
    import shlex  # a script without a module load or sourced file does not need it

    out = []
    for i, word in enumerate(cmd.words):
        head = word.split("/", 1)[0] if i in cmd.tildes else ""
        rest = word[len(head) :]
        out.append(head + (shlex.quote(rest) if rest or not head else ""))
    return " ".join(out)


# what bash's `set` takes: a flag outside these, or an -o name outside those, and bash refuses the
# whole command (`set: -Z: invalid option`) and sets nothing
_SET_FLAGS = frozenset("abefhkmnptuvxBCEHPT")
_SET_NAMES = frozenset(
    {
        "allexport", "braceexpand", "emacs", "errexit", "errtrace", "functrace", "hashall",
        "histexpand", "history", "ignoreeof", "interactive-comments", "keyword", "monitor",
        "noclobber", "noexec", "noglob", "nolog", "notify", "nounset", "onecmd", "physical",
        "pipefail", "posix", "privileged", "verbose", "vi", "xtrace",
    }
)  # fmt: skip


def _sets_errexit(text: str) -> bool:
    """Whether a `set` command turns errexit on (`set -e`, `set -euo pipefail`, `set -o errexit`),
    as bash reads it: a flag or option name it does not have makes it refuse the command."""
    words = text.split()
    if not words or words[0] != "set":
        return False
    on = False
    k = 1
    while k < len(words):
        w = words[k]
        if w in ("-", "--") or w[:1] not in ("-", "+"):
            break
        letters = w[1:]
        if any(c not in _SET_FLAGS and c != "o" for c in letters):
            return False
        for _ in range(letters.count("o")):
            k += 1
            if k < len(words) and words[k] not in _SET_NAMES:
                return False
            if k < len(words) and words[k] == "errexit":
                on = w[0] == "-"
        if "e" in letters:
            on = w[0] == "-"
        k += 1
    return on


def _errexit(facts: ScriptFacts, before: int) -> bool:
    """Whether the batch shell stops at a failing command before line ``before`` (`set -e`, `set
    -o errexit`, or `bash -e` on the `#!` line)."""
    first = facts.lines[0] if facts.lines else ""
    if first.startswith("#!") and re.search(r"\s-[a-zA-Z]*e", first):
        return True
    return any(
        c.name == "set" and c.sure and c.span.line < before and _sets_errexit(c.text) for c in facts.commands
    )


_REF = lazy(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)|\$\(|`")


def _only_environment(text: str) -> bool:
    """Whether a line reads no value but the environment's (`$HOME`, `$USER`, `$SCRATCH`, …)."""
    refs = list(_REF.finditer(text))
    return all(m.group(1) is not None and _values.environment_name(m.group(1)) for m in refs)


def _other_steps(facts: ScriptFacts, out: Derived, step: Step | None) -> None:
    """Every step but the training step, listed with why: an arm that never runs, the other arm
    of a choice made when the job runs, a helper, another step."""
    others = {id(other): arm for arm, other in alternatives(facts.steps, step)} if step is not None else {}
    chosen_by = (
        {id(o): a for a, o in alternatives(facts.steps, step, sizing=False)} if step is not None else {}
    )
    for s in facts.steps:
        if s is not step:
            if s.ended is not None:
                out.skip(s.span, s.text, f"{s.ended}: it never runs")
                continue
            never = next((a for a in s.arms if a.runs is False), None)
            if never is not None:
                out.skip(
                    s.span,
                    s.text,
                    f"the `{never.kind}` on line {never.line} never takes this arm ({never.why}): "
                    "it never runs",
                )
                continue
            if id(s) in others:
                arm = others[id(s)]
                # the arms may run one launch and program, and differ only in what the spec carries
                # its own way (srun in front, the rendezvous): then nothing of it is not known
                said = f"the `{arm.kind}` on line {arm.line} "
                why = (
                    f"the other arm of the `{arm.kind}` on line {arm.line}, which the job chooses when it "
                    + (
                        "runs (see Not known)"
                        if any(said in u for u in out.unknown)
                        else "runs: the same launch and program as the training step's"
                    )
                )
            elif id(s) in chosen_by:
                arm = chosen_by[id(s)]
                why = (
                    f"another arm of the `{arm.kind}` on line {arm.line}, which chooses by "
                    f"{_shown(arm.why, keep=60)} when the job runs; the spec runs the training step's arm"
                )
            else:
                why = "a helper step (a check, a preparation, a clean-up)" if helper(s) else "another step"
                runs = s.module or s.program
                if not helper(s) and runs is not None and runs.literal:
                    # a program run by a variable's value (`bash -c "$CMD"`) is named: the line does not
                    why += f" (it runs {'-m ' if s.module is not None else ''}{_shown(runs.text, keep=60)})"
            # a step over several lines is listed by its first: what the lines below add is said too
            below = _runs_below(s.text, s.span) if "\n" in s.text.strip() else ""
            out.skip(s.span, s.text, f"{why}; jobc runs one launch, the training step{below}")


def _choice(facts: ScriptFacts, out: Derived, step: Step) -> None:
    """Which step trains, and why: said at the top of the spec and in the summary."""
    _, why = choose(facts.steps)
    out.choice = f"the training step is line {step.span.line}: {why}"
    if step_runs(step) is False:
        # no step the script runs is left to choose (an `exit` or a line bash cannot parse before
        # every one, each in an arm that never runs): the spec runs the one the script meant, which
        # the script itself never ran
        never = step.ended or "the arm of the `if`/`case` it is in never runs"
        out.choice += f"; it never runs in the script ({never}): the compiled job runs it all the same"
    if len(facts.steps) > 1:
        out.choice += f" ({len(facts.steps) - 1} other step(s) listed as not carried)"
    if step.loop is not None:
        out.skip(
            step.span,
            step.text,
            f"runs inside the loop on line {step.loop}: the script starts this step once each time "
            "round (several runs, or none), the spec runs it once; run the others as jobs of their "
            "own (a job array)",
        )
    if step.recursive is not None:
        out.skip(
            step.span,
            step.text,
            f"runs a function that starts itself again on line {step.recursive}: each task starts "
            "more tasks, without end until the job's limits stop them, where the spec runs the "
            "program once a rank; how many times the script runs it is not known",
        )
    for arm in step.arms:
        if arm.runs is True:
            out.choice += (
                f"; line {step.span.line}: the `{arm.kind}` on line {arm.line} takes this arm: {arm.why}"
            )
    others = sorted({o.span.line for _, o in alternatives(facts.steps, step, sizing=False)})
    if others:
        # a choice between jobs (a strategy, the script's argument) the job makes when it runs:
        # the spec runs one of them, and says which and what else may run
        arm = next(a for a in step.arms if a.runs is None and not a.sizing)
        out.choice += (
            f"; line {step.span.line} is one arm of the `{arm.kind}` on line {arm.line}, which chooses by "
            f"{_shown(arm.why, keep=60)} when the job runs: the other arm's step (line "
            f"{', '.join(map(str, others))}) is listed as not carried"
        )


def environment(facts: ScriptFacts, out: Derived, step: Step | None) -> None:
    """The exported variables as the training step sees them: each with the line that gave the
    value it has there; one exported after the step started, unset before it, or changed again
    before it is listed with why."""
    seen = step.exported if step is not None else None
    by_name: dict[str, list[Export]] = {}
    exported = {e.name for e in facts.exports if e.exported}
    for e in facts.exports:
        if e.name in exported and _ENV_NAME.match(e.name):
            by_name.setdefault(e.name, []).append(e)
    for name, exports in by_name.items():
        if seen is None or step is None:
            _last_value(facts, out, exports)
            continue
        if name not in seen:
            for e in exports:
                after = e.span.line > step.span.line
                why = (
                    "exported after the training step starts: the step never sees it"
                    if after
                    else (
                        "unset or no longer exported (`export -n`, `declare +x`) before the training "
                        "step starts: the step never sees it"
                    )
                )
                out.skip(e.span, e.written, why)
            continue
        value = seen[name]
        if value is None:
            if all(e.value is None for e in exports):
                for e in exports:
                    out.skip(e.span, e.written, _computed(e))
            else:
                unread = [(line, text) for n, line, text in facts.unevaluated if n == name]
                before = [u for u in unread if u[0] <= step.span.line] or unread
                for e in exports:
                    # the first one keeps the variable's place, as unknown
                    env_unknown(out, e, before[-1] if before else None)
            continue
        match = next(
            (e for e in reversed(exports) if e.value == value and e.span.line <= step.span.line), None
        )
        match = match or next((e for e in reversed(exports) if e.value == value), None)
        if match is None:
            continue  # given by a plain assignment and exported by name later: no line wrote it as is
        import_env(out, match)
        for e in exports:
            if e is not match:
                why = (
                    "exported after the training step starts: the step never sees it"
                    if (e.span.line > step.span.line)
                    else "a later line changes it before the training step starts"
                )
                out.skip(e.span, e.written, why)


def _computed(e: Export) -> str:
    """Why an export computed in the batch shell is not carried; for one written over several
    lines (a `$(…)` continued), what it runs, as the listing shows only its first line."""
    why = "a value computed in the batch shell (not carried)"
    if "\n" not in e.raw:
        return why
    return why + _runs_below(e.raw, e.span)


def _blanks_joined(text: str) -> str:
    """The words of ``text`` joined by one space, split at bash's blanks only: str.split() also
    breaks at \x1c-\x1f, which are bytes of a word to bash (`--rdz\x1e` is one word)."""
    return " ".join(w for w in re.split(r"[ \t\n]+", text) if w)


def _runs_below(text: str, span: Span) -> str:
    """What a text written over several lines runs, for a listing that shows its first line only
    (a `$(…)` continued over lines: `echo "$(hostname\nsrun python x.py)"` runs x.py)."""
    runs = _blanks_joined(text)
    shown = runs if len(runs) <= _SHOWN else runs[: _SHOWN - 1] + "…"
    return f"; over lines {span.line}–{span.end_line} it runs: {shown}"


_SHOWN = 240  # characters of a computed value's commands shown in its line of the listing


def _last_value(facts: ScriptFacts, out: Derived, exports: list[Export]) -> None:
    """Without a step (or with too many variables to keep at each step): each export's value as
    the script leaves it."""
    for e in exports:
        if e.value is None:
            out.skip(e.span, e.written, _computed(e))
            continue
        final = facts.final.get(e.name, e.value)
        if final != e.value and e.name not in COMPUTED:
            if final is None:
                env_unknown(out, e)
            else:
                out.skip(e.span, e.written, "a later line of the script changes it")
            continue
        import_env(out, e)


def _step_environment(out: Derived, step: Step) -> None:
    """What the step's own command line or shell gives the program (`A=1 srun …`, `srun
    --export=ALL,A=1`, `export A=1` in its `bash -c`): the program's environment too."""
    for a in step.env:
        e = Export(a.name, a.value, a.raw.partition("=")[2] if "=" in a.raw else a.raw, a.span, a.span, True)
        where = a.raw
        if not _ENV_NAME.match(a.name):
            out.skip(a.span, where, "not a name bash exports")
        elif a.value is None:
            per_rank = sorted(n for n in PER_RANK if n in a.raw)
            if a.name in COMPUTED:
                out.skip(a.span, where, "jobc computes this for every rank")
            elif per_rank:
                out.skip(
                    a.span,
                    where,
                    f"a per-rank value ({', '.join(per_rank)}): read it in the program (jobc.runtime.init())",
                )
            else:
                out.skip(a.span, where, "a value computed when the job runs (not carried)")
        else:
            import_env(out, e, where)


def _workdir(out: Derived, step: Step, facts: ScriptFacts) -> None:
    """The directory the step runs in, as a `cd` the batch shell surely runs, srun's --chdir or a
    `cd` in the step's own shell set it (relative to #SBATCH --chdir, when that is given)."""
    from jobc.spec.interpolate import UNKNOWN

    launch = out.data["launch"]
    cwd = step.cwd
    if cwd is not None and cwd.literal:
        text = cwd.text
        base = launch.get("workdir")
        if not text.startswith("/") and isinstance(base, str):
            text = f"{base.rstrip('/')}/{text}"
        out.put(("launch", "workdir"), text, cwd.span)
        # the `cd`s the batch shell surely ran before the step made that directory
        cds = [c for c in facts.commands[: step.after] if c.name == "cd" and c.sure]
        out.carried += [c.span for c in cds]
        _cd_runs_on(out, facts, cds)
        _step_cd_runs_on(out, facts, step, cwd)
        return
    if cwd is None and step.unknown_cwd is None:
        return
    where = step.unknown_cwd or step.span
    said = f"`cd {cwd.raw}`" if cwd is not None else "a `cd` in a branch, a loop or a subshell"
    out.put(("launch", "workdir"), f"{{{UNKNOWN}.workdir}}", where)
    out.templated.add(("launch", "workdir"))
    out.unknown.append(
        f"launch.workdir: the training step (line {step.span.line}) runs in a directory not known before "
        f"the job runs ({said}), kept as {{{UNKNOWN}.workdir}}: write it"
    )


def _cd_runs_on(out: Derived, facts: ScriptFacts, cds: list[Command]) -> None:
    """Say that the compiled job stops where the script runs on when its directory is missing:
    a `cd` that fails, without `set -e` or an `exit` after it, leaves the batch shell where it was,
    and the script runs its step there; the compiled job (`set -euo pipefail`) stops at its own."""
    following = {c.span.line: c for c in facts.commands if not c.sure and c.name in ("exit", "return")}
    loose = [c.span.line for c in cds if c.span.line not in following and not _errexit(facts, c.span.line)]
    if loose:
        lines = ("line " if len(loose) == 1 else "lines ") + ", ".join(str(n) for n in loose)
        out.notes.append(
            f"launch.workdir: the compiled job stops when it cannot enter the directory, where the script, "
            f"without `set -e`, runs on past its failed change of directory ({lines}) in the one it was in"
        )


def _step_cd_runs_on(out: Derived, facts: ScriptFacts, step: Step, cwd: Word) -> None:
    """As `_cd_runs_on`, for a `cd` in the step's own shell (`srun bash -c "cd dir/ …"`): without
    `set -e` there, and with nothing after it on its line that stops on its failure (`&&`,
    `|| exit`), the step's shell runs its program on in the directory it was in."""
    line = cwd.span.line
    inside = step.span.line <= line <= step.span.end_line and cwd.span != step.span
    errexit = any(i.kind == "command" and _sets_errexit(i.text) for i in step.inner)
    rest = facts.lines[line - 1][cwd.span.end_col - 1 :] if line <= len(facts.lines) else ""
    if not inside or errexit or "&&" in rest or "||" in rest:
        return
    out.notes.append(
        f"launch.workdir: the compiled job stops when it cannot enter the directory, where the script, "
        f"without `set -e`, runs on past its failed change of directory (line {line}) in the one it was in"
    )


_NOT_LOGGED = "not carried (jobc writes the job's log itself; storage.logs)"
_INNER_WHY = {
    "command": "the step's own shell runs this too: not carried (launch.setup runs in the batch shell)",
    "redirect": f"the step's output goes to this file: {_NOT_LOGGED}",
    "pipe": f"the step's output is piped on: {_NOT_LOGGED}",
    "stdin": "the step reads its standard input from this: not carried (the compiled step reads none)",
    "wrapper": "words computed when the job runs wrap the program (set on some paths): not carried",
    "recipe": "a torchtune recipe by name: `tune run` finds its file in the installed torchtune; "
    "write its path as launch.program",
    "named-wrapper": "a command that runs the launcher or interpreter after it (a profiler, a binder): "
    "not carried; the spec runs what it wraps",
    "srun-assignment": "srun runs this word as the command's name (srun is no shell and sets no "
    "variable): the step fails there (JC817); not carried, the spec runs the program after it without "
    "the variable (write it in env if the program needs it)",
    "site-wrapper": "a command jobc cannot read (a site's or the project's wrapper) runs the launcher "
    "or interpreter after it: not carried; the spec runs what it wraps, taken as the program with "
    "medium confidence (the wrapper may set up or change what runs)",
    "executable": "an executable Python file, run by its own `#!` line: the spec runs it with launch.python",
    "hydra-torchrun": "Hydra's torchrun launcher, which starts an agent per node that forks its workers: "
    "launch.mode torchrun does that, so the override and its hydra.launcher settings are not passed on "
    "(the program's multirun runs each job in the worker's process)",
    "started-by": "a command computed when the job runs (an interpreter, a launcher or a wrapper script) "
    "starts the program after it: not carried, and what it is, with it the launch mode, is not known",
    "python-by-name": "a command computed when the job runs, in a variable named for Python, given "
    "`-m` and a module: an interpreter, which jobc cannot name; the spec runs the module with "
    "launch.python (write the interpreter there)",
    "runscript": "the image's runscript, a shell given `-c`, runs the command string: the spec runs the "
    "program in it (the container's image is container.image)",
    "xargs-appends": "xargs runs the command with its input's words after the command's own: not carried "
    "(the program's arguments are the ones written; add what the input gives to launch.args)",
    "torchrun-code": "Python code given with `python -c` that starts torchrun with the command it "
    "builds: launch.mode torchrun starts torchrun itself, so the code is not carried (what it computes, "
    "it computes when the job runs: not known)",
    "own-launcher": "a launcher with options of its own that jobc does not read starts the program after it: "
    "not carried, and how it starts it, with it the launch mode, is not known",
    "py-runner": "a tool that runs the Python file in an interpreter of its own (a profiler, a memory or "
    "energy monitor): not carried; the spec runs the file with launch.python",
    "site-accelerate": "a site's command around accelerate (it builds accelerate's configuration from "
    "Slurm's variables on each node): launch.mode torchrun starts the same per-node workers with "
    "jobc's own rendezvous; what the site's command adds is not carried",
    "site-torchrun": "a site's command around torchrun, given torchrun's options: launch.mode torchrun "
    "starts torchrun itself (what the site's command adds to it, its environment or its rendezvous "
    "host, is not carried)",
    "env-option": "env runs the program without a variable, in an empty environment or in another "
    "directory: not carried (the spec's program sees the job's environment; unset the variable in "
    "launch.setup, or write launch.workdir)",
    "srun-option": "the tasks see only the variables it names: not carried (jobc's srun passes them all)",
}
# interpreter options with an environment variable that does the same for every Python process
_PYTHON_ENV = {
    "-u": "PYTHONUNBUFFERED=1",
    "-O": "PYTHONOPTIMIZE=1",
    "-OO": "PYTHONOPTIMIZE=2",
    "-B": "PYTHONDONTWRITEBYTECODE=1",
}


#: CPython's long options (Python/getopt.c): it refuses any other `--name` before its program
_PYTHON_LONG = frozenset({"--help", "--version", "--help-env", "--help-xoptions", "--help-all"})


def _unquoted(word: str) -> str:
    """A word as bash passes it when it holds no expansion: its backslashes and quotes removed."""
    return _values_unescape(word).replace('"', "").replace("'", "")


def _values_unescape(word: str) -> str:
    out, i = [], 0
    while i < len(word):
        if word[i] == "\\" and i + 1 < len(word):
            out.append(word[i + 1])
            i += 2
            continue
        out.append(word[i])
        i += 1
    return "".join(out)


def _python_refuses(words: list[str]) -> str | None:
    """The first interpreter option as written (`--nproc_per_node=8`, given to python where
    torchrun was meant) that CPython does not have; `-W`'s and `-X`'s values are no options."""
    i = 0
    while i < len(words):
        word = words[i]
        if word in ("-W", "-X", "--check-hash-based-pycs"):
            i += 2
            continue
        name = word.split("=", 1)[0]
        if (
            word.startswith("--")
            and word != "--"
            and name not in _PYTHON_LONG
            and name != "--check-hash-based-pycs"
        ):
            return word
        i += 1
    return None


def _uv_why(text: str) -> str:
    why = (
        "uv's options: with launch.python uv the job runs one `uv sync` and then `uv run --no-sync`, "
        "without them, so they are not carried"
    )
    refused = uv_refuses(text.split()[2:])
    if refused is not None:
        why += (
            f"; `{refused}` is no option of `uv run`: uv refuses it (`unexpected argument`), so the "
            "script's step starts no program; here the spec runs the program the rest of the line names"
        )
    return why


def _inner(out: Derived, step: Step) -> None:
    for item in step.inner:
        if item.kind == "python-option":
            hints = [_PYTHON_ENV[w] for w in item.text.split()[1:] if w in _PYTHON_ENV]
            if "-W" in item.text.split():
                hints.append("PYTHONWARNINGS for -W")
            why = "interpreter options: launch.python names the interpreter only, so they are not carried"
            if hints:
                why += f" (in env, {', '.join(hints)} does the same for every Python process)"
            # (as bash passes the words: `\--config` and `"--config"` are `--config` to python)
            refused = _python_refuses([_unquoted(w) for w in item.text.split()[1:]])
            if refused is not None:
                why += (
                    f"; `{refused}` is no option of python's: python refuses it (`unknown option`), so "
                    "the script's step starts no program; here the spec runs the program the rest of "
                    "the line names, without it"
                )
            out.skip(item.span, item.text, why)
        elif item.kind == "uv-option":
            out.skip(item.span, item.text, _uv_why(item.text))
        else:
            out.skip(item.span, item.text, _INNER_WHY.get(item.kind, "not carried"))
        if item.kind == "site-wrapper":
            out.notes.append(
                f"line {item.span.line} runs the program behind {_shown(item.text, keep=60)}, a wrapper "
                "jobc cannot read: the program after it is taken as the one that runs (medium "
                "confidence); check what the wrapper does"
            )
    if step.code is not None:
        out.skip(
            step.code.span,
            f"python -c {step.code.raw}",
            "code given with `python -c`: a spec runs a program file or a module",
        )


_SRUN_WHY = "an srun option of the training step: not carried (jobc's srun starts the step its own way)"
# srun options of the training step that jobc's own srun gives the same way, or the import reads
_SRUN_CARRIED = frozenset({"nodes", "ntasks", "ntasks-per-node", "label", "chdir", "export", "unbuffered"})
#: srun's size options, with the variables that hold the allocation's own value of each (srun given
#: them runs the step as the spec's step does)
_SIZES = {
    "nodes": frozenset(
        {"$SLURM_NNODES", "${SLURM_NNODES}", "$SLURM_JOB_NUM_NODES", "${SLURM_JOB_NUM_NODES}"}
    ),
    "ntasks": frozenset({"$SLURM_NTASKS", "${SLURM_NTASKS}", "$SLURM_NPROCS", "${SLURM_NPROCS}"}),
    "ntasks-per-node": frozenset({"$SLURM_NTASKS_PER_NODE", "${SLURM_NTASKS_PER_NODE}"}),
}


def _srun_options(out: Derived, step: Step) -> None:
    """Every srun option of the training step the compiled job does not give the same way."""
    if step.srun is None:
        return
    resources = out.data.get("resources", {})
    on = _step_nodes(step)
    nodes = resources.get("nodes")
    if on is not None and isinstance(nodes, int) and on < nodes:
        word = step.srun.get("nodes") or step.srun.get("ntasks") or step.srun.get("ntasks-per-node")
        where = word.span if word is not None else step.span
        out.skip(
            where,
            f"srun {word.raw}" if word is not None else step.text,
            f"the training step runs on {on} of the {nodes} nodes: the spec's step runs on every node "
            "(write resources.nodes to match the step, or keep the allocation and start the step yourself)",
        )
    for name, word in step.srun.items():
        if name in _SIZES and not word.literal and _size_value(word.raw) not in _SIZES[name]:
            # `srun --ntasks=$WORLD_SIZE`, `--ntasks-per-node=1?` (a glob bash keeps as written):
            # a count jobc cannot read, so what the step runs on is not known; the spec's step
            # runs with the allocation's sizes
            out.skip(
                word.span,
                f"srun {word.raw}",
                "a count jobc cannot read (a variable's value, a command's output, a glob pattern): the "
                "spec's step runs with the allocation's tasks and nodes, which may not be what srun gets "
                "here (write resources to match it)",
            )
            continue
        if name in _SRUN_CARRIED or is_pyxis(name):
            continue
        if name == "cpus-per-task" and word.literal and _int(word.text) == resources.get("cpus_per_task"):
            continue
        if (
            name in ("gpus-per-node", "gres", "gpus", "gpus-per-task")
            and out.spans.get(("resources", "gpus_per_node")) == word.span
        ):
            continue
        # (a refusal is judged of a long option as written: a short letter's name is the table's)
        long = word.raw.startswith("--")
        why = _srun_why(name, "an option and its value") if long else _SRUN_WHY
        out.skip(word.span, f"srun {word.raw}", why)
    for flag in step.srun_flags:
        if flag in _SRUN_CARRIED or flag.startswith("$") or is_pyxis(flag):
            continue
        out.skip(step.span, f"srun --{flag}", _srun_why(flag, "an option without a value"))


def _srun_why(name: str, read: str) -> str:
    """Why an srun option of the training step is not carried; one srun does not have, it refuses
    (its getopt: `unrecognized option`, or `ambiguous` for a prefix of several), and the step
    starts nothing."""
    refused = srun_refuses(name) if len(name) > 1 else None
    if refused is None:
        return _SRUN_WHY
    return (
        f"no option of srun: srun refuses it (`{refused} option`, exit 255), so the script's step "
        f"starts no program; here read as {read}, the spec runs the program the rest of the line names"
    )


def _size_value(raw: str) -> str:
    """The value of a size option as written (`--nodes=$SLURM_NNODES`, `-N "$SLURM_NNODES"`)."""
    value = raw.split("=", 1)[1] if raw.startswith("-") and "=" in raw else raw.rsplit(" ", maxsplit=1)[-1]
    return value.strip('"')


def _step_nodes(step: Step) -> int | None:
    """Nodes the step's srun says it runs on (-N, or --ntasks over --ntasks-per-node)."""
    srun = step.srun or {}
    nodes = srun.get("nodes")
    if nodes is not None:
        return _int(nodes.text, 1) if nodes.literal else None
    total, per = srun.get("ntasks"), srun.get("ntasks-per-node")
    if total is not None and per is not None and total.literal and per.literal:
        t, p = _int(total.text, 1), _int(per.text, 1)
        if t is not None and p:
            return -(-t // p)
    if total is not None and per is None and total.literal:
        # `srun --ntasks=1` in a bigger allocation: srun cannot run fewer tasks than nodes and runs
        # the step on as many nodes as tasks ("can't run 1 processes on 4 nodes, setting nnodes to
        # 1"); with as many tasks as nodes or more, on every node
        return _int(total.text, 1)
    return None


def _resilience(facts: ScriptFacts, out: Derived) -> None:
    """A batch-shell trap that requeues the job (`scontrol requeue`) means the job is to be
    requeued when it is warned: resilience.requeue, from the trap's line."""
    missed = {m.trap.span for m in signals.missed(facts)}
    for t in signals.batch_traps(facts):
        if t.span in missed or not _REQUEUES.search(t.action):
            continue
        if ("resilience", "requeue") not in out.spans:
            out.put(("resilience", "requeue"), True, t.span, f"trap {t.action!r}")


def _written(name: str, text: str) -> str:
    """The launcher's name as the step writes it: horovodrun is read as mpirun (it starts its ranks
    as mpirun does), but a line about its options names the command the script runs."""
    if name == "mpirun" and "horovodrun" in text.split(None, 8)[:8]:
        return "horovodrun"
    return name
