"""What the import alone infers from a script, beyond the lint view (`jobc.script.spec`).

The import's view of a script (`derive(facts, for_lint=False)`) infers what a spec must say
where the script leaves it to Slurm or to the job's own words: the launch mode from a wrapper
or a console script, the GPUs a node uses from the processes it starts, the program behind an
unknown directory, a step's alternatives. A lint reads none of it (it keeps what the script
wrote, pitfalls included), so this is a module of its own that `jobc.script.spec` imports only
in the import's branches.
"""

from __future__ import annotations

import re

from jobc.core.diagnostics import DataPath, Span
from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int, shown
from jobc.script.allocation import (
    UNKNOWN_TASKS,
    implied_nodes,
    launcher_tasks,
    spread_by_slurm,
    tasks_per_node,
)
from jobc.script.allocation import slurm_int as _int
from jobc.script.derived import Derived
from jobc.script.facts import PER_RANK, Directive, ScriptFacts, Step, Word, alternatives
from jobc.tables import launchers

_UNKNOWN_PROGRAM = (
    "the program this runs is not written in the script (a value computed when the job runs, "
    "a wrapper, or no step at all): write launch.program (or launch.module) and launch.args"
)


def _pushed_down_header(facts: ScriptFacts) -> list[Directive]:
    """Directives that are the script's whole header pushed below a first command (`set -e`,
    `module load` above them): sbatch reads none of them, so the job runs on Slurm's defaults,
    but what the script asks for is plain. A late directive beside honoured ones (a lone
    `#SBATCH` among the commands) is not such a header and stays ignored, as sbatch ignores it."""
    if not facts.directives or any(d.honoured for d in facts.directives):
        return []
    return list(facts.directives)


_SPACED = lazy(r"^#[ \t]+SBATCH[ \t]+(?=-)")


def _spaced_header(facts: ScriptFacts) -> list[Directive]:
    """A header written `# SBATCH --nodes=2` throughout, with no `#SBATCH` line sbatch reads (nor
    one below the first command): sbatch reads none of it, but what the script asks for is plain.
    Where some lines are `#SBATCH`, a `# SBATCH` among them is switched off on purpose and stays
    off (the caller reads these only when the script has no directive at all)."""
    from jobc.script.directives import PREFIX, parse_line

    end = facts.first_command.line if facts.first_command is not None else len(facts.lines) + 1
    out: list[Directive] = []
    for number, line in enumerate(facts.lines[: end - 1], start=1):
        m = _SPACED.match(line)
        if m is not None:
            out.extend(parse_line(PREFIX + " " + line[m.end() :], number, True))
    return out


def _step_runs_on(step: Step | None) -> tuple[int, Word] | None:
    """Nodes the training step's srun runs on whatever the allocation: `-N n`, or one task
    (`--ntasks=1`), which runs on one node."""
    if step is None or step.srun is None:
        return None
    nodes, total = step.srun.get("nodes"), step.srun.get("ntasks")
    if nodes is not None:
        count = _int(nodes.text, 1) if nodes.literal else None
        return (count, nodes) if count is not None and count >= 1 else None
    if total is not None and total.literal and _int(total.text, 1) == 1:
        return 1, total
    return None


def _shell_runs_on_one(facts: ScriptFacts, step: Step | None) -> tuple[Span, str] | None:
    """The training step is torchrun the batch shell runs itself, with no other node's (no
    `--nnodes`, whose default is 1, or `--nnodes=1`): it runs on the job's first node, whatever
    else the allocation holds; where it is written and how. None for any other step (under srun,
    a launcher that reaches other nodes itself, one a file jobc cannot read may start under srun)
    or when another step runs under srun."""
    if step is None or step.srun is not None or step.launcher is None or step.launcher.name != "torchrun":
        return None
    if step.sourced_from is not None or step.started_by is not None:
        return None
    if any(s.srun is not None for s in facts.steps):
        return None
    given = step.launcher.options.get("nnodes")
    if given is None:
        return step.launcher.span, "torchrun without --nnodes"
    if given.literal and given.text == "1":
        return given.span, f"torchrun {given.raw}"
    return None


def _cut_nodes(out: Derived, sized: Directive) -> None:
    """The count sbatch reads in a directive cut at its `#` is not the one the script meant
    (JC816): the nodes are not known, and no default either."""
    out.unknown.append(
        f"resources.nodes: line {sized.span.line} sizes the job with #SBATCH "
        f"{shown(sized.text, keep=40)}, which sbatch reads only up to its '#' (JC816): the nodes "
        "the script meant are not known; write them"
    )


def _gpus_unread(facts: ScriptFacts) -> Directive | None:
    """A GPU directive whose count is not read (`--gres=gpu:v100:x`, `--gpus-per-node=N`)."""
    honoured = facts.honoured()
    for key in ("gpus-per-node", "gres", "gpus", "gpus-per-task"):
        d = honoured.get(key)
        if d is None or not d.value:
            continue
        parts = [p.strip().split("(")[0] for p in d.value.split(",")] if key == "gres" else [d.value]
        for part in parts:
            bits = part.split(":")
            if key == "gres" and (bits[0] != "gpu" or len(bits) < 3):
                continue  # `gpu`, `gpu:4`, `gpu:a100`: read (or no GPUs at all)
            if _int(bits[-1]) is None:
                return d
    return None


def _batch_shell_step(facts: ScriptFacts, out: Derived, step: Step, mode: str, nodes: int) -> None:
    """A program (or launcher) the batch shell starts itself runs once, on the first node, however
    many tasks the directives ask for: srun mode with one task per node keeps the one process
    (its own threads or spawned workers drive the GPUs); on more nodes than one the compiled job
    starts it on each, which is said. mpirun is no such program: it starts its ranks on every
    node itself, one a task, as the spec's srun does one a GPU (a count that differs is said)."""
    launcher = step.launcher
    kind = launchers.entry(launcher.name) if launcher is not None else None
    if launcher is not None and kind is not None and kind.reaches_always:
        ranks = launcher_tasks(facts, step, nodes)
        gpus = out.data["resources"].get("gpus_per_node")
        if ranks is not None and gpus and ranks[0] != (gpus if mode == "srun" else 1):
            out.skip(
                ranks[1].span,
                f"#SBATCH {ranks[1].text}",
                f"{launcher.name} starts {ranks[0]} rank(s) per node, one a task, on {gpus} GPUs "
                f"per node: the spec's srun starts one a GPU ({gpus})",
            )
        return
    if mode == "srun" and (step.program is not None or step.module is not None or step.code is not None):
        out.put(("resources", "tasks_per_node"), 1, step.span, "the batch shell runs it once")
        out.sources[("resources", "tasks_per_node")] = f"line {step.span.line}: the batch shell runs it once"
    if nodes > 1:
        out.skip(
            step.span,
            step.text,
            f"the batch shell starts this once, on the first of {nodes} nodes (no srun): the spec "
            "starts it on every node",
        )


def _capped(facts: ScriptFacts, out: Derived, step: Step, nodes: int, *, derived: int, mode: str) -> None:
    """`#SBATCH --ntasks` with `--ntasks-per-node`: --ntasks wins and --ntasks-per-node only caps
    a node's tasks, so unless the two agree (N nodes × the cap) the step starts --ntasks tasks in
    all, not the cap on each node; the spec's step starts its own count per node: said."""
    if step.srun is None or any(k in step.srun for k in ("ntasks", "ntasks-per-node", "nodes")):
        return
    honoured = facts.honoured()
    total, per = honoured.get("ntasks"), honoured.get("ntasks-per-node")
    if total is None or per is None:
        return
    t, p = _int(total.value, 1), _int(per.value, 1)
    if t is None or p is None or t == nodes * p:
        return
    out.skip(
        total.span,
        f"#SBATCH {total.text}",
        f"--ntasks takes precedence over --ntasks-per-node={p} (a cap on each node's tasks): the step "
        f"starts {t} task(s) in all on {nodes} node(s), not {p} tasks per node; jobc starts {derived} "
        f"per node for launch.mode {mode}",
    )


def _per_node_wrapper(facts: ScriptFacts, out: Derived, step: Step, gpus: int | None, nodes: int) -> None:
    """`srun ./scripts/train.sh` with one task asked for on each node of 8 GPUs (or the batch shell
    running `"$SCRIPT_TO_RUN"` under `--ntasks-per-node=1`): what the wrapper starts is not in the
    script, but one task on a node of several GPUs is how a per-node launcher (torchrun,
    accelerate, deepspeed) is started, and one process per GPU it is not. The import
    takes launch.mode torchrun from that shape and says it is inferred, to be checked: a program
    that drives every GPU of its node from one process would want srun with one task."""
    if gpus is None or not _runs_a_script(step):
        return
    if step.srun is None and step.started_by is None:
        # the batch shell runs the script once, on the first node, whatever the tasks asked for
        # (a computed command in front of a program it names, `$LAUNCHER train.py`, may be an
        # interpreter or a launcher: that stays unknown)
        if gpus < 2:
            _infer_one_process(out, step, gpus)
            return
        _infer_torchrun(
            out,
            f"inferred from line {step.span.line}: one process from the batch shell on {gpus} GPUs",
            f"line {step.span.line} runs, once from the batch shell, a script that uses the {gpus} "
            "GPUs of its node, as a per-node launcher does; what it runs is not in the script",
        )
        return
    if gpus < 2:
        return
    tasks, span, text = tasks_per_node(facts, step, nodes)
    if text == UNKNOWN_TASKS or (tasks != 1 and span is not None):
        return
    if span is None and step.srun is None:
        return  # a computed command that may or may not be srun: no default of srun's to read
    if span is None:
        # no line asks: srun starts sbatch's one task a node (`srun ./run.sh &` then `wait`), the
        # same one process on a node of several GPUs as the batch shell running the script
        _infer_torchrun(
            out,
            f"inferred from line {step.span.line}: srun's default of one task per node of {gpus} GPUs",
            f"line {step.span.line} starts srun's default of one task per node (no line asks for "
            f"more) on nodes of {gpus} GPUs, the way a per-node launcher is started, and what it "
            "runs is not in the script",
        )
        return
    _infer_torchrun(
        out,
        f"inferred from line {span.line}: one task per node of {gpus} GPUs",
        f"line {span.line} asks one task per node on nodes of {gpus} GPUs, the way a per-node "
        f"launcher is started, and what line {step.span.line} runs is not in the script",
    )


def _per_rank_wrapper(facts: ScriptFacts, out: Derived, step: Step, gpus: int | None, nodes: int) -> None:
    """`mpirun -np 2 apptainer exec IMG bash deploy.sh` on 2 nodes of 4 GPUs: each rank runs a
    script that is not in the batch script. One rank a GPU is srun's shape whatever each runs; one
    rank on a node of several GPUs is how a per-node launcher is started (the import takes
    launch.mode torchrun and says it is inferred, to be checked); any other count leaves the mode
    not known."""
    assert step.launcher is not None
    assert step.program is not None
    name = step.launcher.name
    ranks = launcher_tasks(facts, step, nodes)
    what = " ".join(w.raw for w in (step.program, *step.args[:1]))
    if ranks is not None and gpus and ranks[0] == gpus:
        out.mode, out.mode_known = "srun", True
        out.sources[("launch", "mode")] = (
            f"line {step.span.line}: {name} starts one rank a GPU (#SBATCH {ranks[1].text}), "
            f"whatever {what} runs"
        )
    elif ranks is not None and ranks[0] == 1 and gpus is not None and gpus > 1:
        _infer_torchrun(
            out,
            f"inferred from line {step.span.line}: {name}'s one rank per node of {gpus} GPUs",
            f"{name} on line {step.span.line} starts one rank per node (#SBATCH {ranks[1].text}) on "
            f"nodes of {gpus} GPUs, the way a per-node launcher is started, and what each rank runs "
            f"({what}) is not in the script",
        )
    else:
        out.unknown.append(
            f"launch.mode: each rank {name} starts on line {step.span.line} runs {what}, a script "
            "that is not in the batch script: one process, or a per-node launcher's workers, is not "
            "known; write launch.mode"
        )


def _infer_one_process(out: Derived, step: Step, gpus: int) -> None:
    """A script run once from the batch shell on a node of one GPU (or none): one process, which is
    what launch.mode srun starts with one task; said inferred, since what it runs is not read."""
    out.mode, out.mode_known = "srun", True
    out.sources[("launch", "mode")] = f"inferred from line {step.span.line}: one process on {gpus} GPU(s)"
    out.notes.append(
        f"launch.mode srun is inferred, not read: line {step.span.line} runs, once from the batch "
        f"shell, a script whose program is not in the script, on a node of {gpus} GPU(s): one "
        "process; check it"
    )


# a word that starts processes on other nodes or GPUs: where a script's text holds none, whatever it
# runs is one process started by the batch shell (comments are left out before the search)
_LAUNCHER_WORD = lazy(
    r"(?<![\w.-])(?:srun|salloc|torchrun\w*|accelerate|deepspeed|torch\.distributed\.(?:run|launch)|"
    r"mpirun|mpiexec|horovodrun|jsrun|aprun|pdsh|composer|idr_\w+|parallel-ssh|clush|eval|"
    r"ray[ \t]+(?:start|submit|job))(?![\w-])"
)


# a command whose name is computed when the job runs (`"$RUN" &`, `$CMD train.py`): it may be a launcher
_COMPUTED_COMMAND = lazy(r"[\"']?(?:\$|`)")


def _starts_no_launcher(facts: ScriptFacts) -> bool:
    """The script starts no step jobc reads, and nothing in it could start processes elsewhere: no
    launcher or srun word outside comments, no line read only in part, no sourced file unread."""
    if facts.problems or facts.unread_sources or not facts.readable:
        return False
    if any(_COMPUTED_COMMAND.match(c.words[0] if c.words else c.name) for c in facts.commands):
        return False
    return not any(
        _LAUNCHER_WORD.search(line.split(" #", 1)[0])
        for line in facts.lines
        if not line.lstrip().startswith("#")
    )


def _infer_no_launcher(out: Derived, facts: ScriptFacts) -> None:
    """A script whose work (a console program, a function, or nothing jobc reads) runs in the batch
    shell with no launcher anywhere: one process on the first node, which is what launch.mode srun
    starts with one task; said inferred, since the program itself is not read."""
    out.mode, out.mode_known = "srun", True
    where = f"line {facts.first_command.line}" if facts.first_command is not None else "the script"
    out.sources[("launch", "mode")] = "inferred: the script names no launcher and no srun"
    out.notes.append(
        f"launch.mode srun is inferred, not read: the script (from {where}) runs its commands in the "
        "batch shell and names no launcher and no srun, so what it runs is one process; check it"
    )


def _infer_torchrun(out: Derived, source: str, why: str) -> None:
    """launch.mode torchrun taken from a shape or a name rather than read: the source says so, and
    a note asks for it to be checked."""
    out.mode, out.mode_known = "torchrun", True
    out.sources[("launch", "mode")] = source
    out.notes.append(f"launch.mode torchrun is inferred, not read: {why}; check it")


def _launcher_by_name(out: Derived, step: Step, word: Word) -> None:
    """`$accelerate_cmd train.py`, `$TORCHRUN_CMD train.py`: the command is computed when the job
    runs (by a helper script, from the job's arguments), but the variable that holds it is named
    for a launcher that runs once per node. The import takes launch.mode torchrun from that name
    and says it is inferred, to be checked; a name that names no launcher (`$CMD`, `$LAUNCHER`)
    leaves the mode not known."""
    found = re.fullmatch(r'"?\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?"?', word.raw)
    if found is None:
        return
    name = found.group(1)
    parts = set(re.split(r"_+", name.lower()))
    entry = next((e for e in launchers.ALL if e.per_node and e.name in parts), None)
    if entry is None:
        return
    _infer_torchrun(
        out,
        f"inferred from the name ${name} on line {word.span.line}",
        f"line {word.span.line} starts the program with ${name}, a command computed when the job "
        f"runs whose name says {entry.name} (a launcher that runs once per node)",
    )


def _cli_launcher(step: Step) -> tuple[launchers.CliLauncher, Word, Word] | None:
    """`jobc.script.clilaunch.cli_launcher`: asked by the import alone (a lint reads no console
    script's launcher), which imports the module."""
    from jobc.script.clilaunch import cli_launcher

    return cli_launcher(step)


def _cli_torchrun(
    facts: ScriptFacts, out: Derived, step: Step, cli: tuple[launchers.CliLauncher, Word, Word], nodes: int
) -> None:
    """`llamafactory-cli train CONFIG`: a console script that starts torchrun on its node when the
    script forces it or the process sees more than one GPU; then the spec's torchrun runs the
    module it runs (never the console script, which would start torchrun again in every worker).
    When the script does not say whether it does, the mode is not known."""
    entry, program, command = cli
    tasks: int | None = None
    if step.srun is not None:
        count, _, text = tasks_per_node(facts, step, nodes)
        tasks = -1 if text == UNKNOWN_TASKS else (count or 1)
    gpus = out.data["resources"].get("gpus_per_node")
    from jobc.script.clilaunch import starts_torchrun

    runs, why = starts_torchrun(step, entry, gpus, tasks)
    said = (
        f"line {program.span.line} runs `{program.raw} {command.raw}`, {entry.said}, which starts "
        "torchrun on its node"
    )
    if runs is None:
        out.mode_known = False
        out.unknown.append(
            f"launch.mode: {said} when it sees more than one GPU or is forced to, and {why}; write "
            f"launch.mode (torchrun with launch.module {entry.module}, or srun)"
        )
        return
    if not runs:
        return
    out.mode, out.mode_known = "torchrun", True
    out.sources[("launch", "mode")] = (
        f"line {program.span.line}: {program.raw} {command.raw} starts torchrun ({why})"
    )
    out.notes.append(
        f"launch.mode torchrun: {said} ({why}); the spec's torchrun runs what it runs, the module "
        f"{entry.module}"
    )


def _runs_a_script(step: Step) -> bool:
    """The step runs a script the batch script does not hold (`./scripts/train.sh`, `bash
    launch.sh`, `"$LAUNCHER"`, a `bash -c` string computed when the job runs), not a tool by name
    (`srun enroot import …`, `srun docker pull …`), which starts no program of the job's."""
    command = step.command.strip("\"'")
    return command in ("bash", "sh") or command.startswith("$") or command.endswith(".sh") or "/" in command


def _processes_per_node(facts: ScriptFacts, step: Step, nodes: int) -> tuple[int | None, Span, str] | None:
    """The processes the training step starts on each node, as (count or None when the text does
    not give it, where, as written); None when the script says nothing of the kind."""
    launcher = step.launcher
    entry = launchers.entry(launcher.name) if launcher is not None else None
    if launcher is not None and entry is not None:
        procs = next((launcher.options[o] for o in entry.procs_per_node if o in launcher.options), None)
        if procs is not None:
            said = f"{launcher.name} --{procs_name(procs)} {procs.text}"
            return (_int(procs.text, 1) if procs.literal else None), procs.span, said
        total = next((launcher.options[o] for o in entry.procs_total if o in launcher.options), None)
        machines = next((launcher.options[o] for o in entry.nodes if o in launcher.options), None)
        if total is not None:
            said = f"{launcher.name} --{procs_name(total)} {total.text}" + (
                f" over --{procs_name(machines)} {machines.text}" if machines is not None else ""
            )
            return _per_machine(facts, total, machines), total.span, said
        return None
    if step.srun is None:
        return None
    tasks, span, text = tasks_per_node(facts, step, nodes)
    if text == UNKNOWN_TASKS:
        return None
    if tasks is not None and tasks >= 2 and span is not None:
        if spread_by_slurm(facts, step, nodes) is not None:
            # what the script means, said as such: Slurm need not place them evenly (listed)
            return tasks, span, f"srun's {tasks} tasks per node if Slurm places its total evenly ({text})"
        return tasks, span, f"srun's {tasks} tasks per node ({text})"
    return None


def procs_name(word: Word) -> str:
    """The option a launcher's word was given by (`--nproc_per_node 8` → nproc_per_node)."""
    return word.raw.lstrip("-").split("=")[0].split()[0] if word.raw.startswith("-") else "?"


def _per_machine(facts: ScriptFacts, total: Word, machines: Word | None) -> int | None:
    """`--num_processes 16 --num_machines 2`: 8 per machine; `$((M * G))` over `$M`: G, when G
    is a number or a variable the script sets to one number (the product's other factor is what
    each of the machines the launcher is given starts)."""
    if total.literal:
        count = _int(total.text, 1)
        if machines is None:
            return count
        m = _int(machines.text, 1) if machines.literal else None
        return count // m if count is not None and m and count % m == 0 else None
    if machines is None:
        return None
    product = re.fullmatch(r"\$\(\(\s*(\S+?)\s*\*\s*(\S+?)\s*\)\)", total.text)
    if product is None:
        return None
    name = re.fullmatch(r"\$\{?(\w+)\}?", machines.text)
    if name is None:
        return None
    left, right = (p.lstrip("$").strip("{}") for p in product.groups())
    other = right if left == name.group(1) else left if right == name.group(1) else None
    if other is None:
        return None
    return _int(facts.final.get(other) if re.fullmatch(r"[A-Za-z_]\w*", other) else other, 1)


def _container_value(
    out: Derived, facts: ScriptFacts, name: str, word: Word, variables: dict[str, str]
) -> str:
    """A pyxis option's value that the batch shell computes (`--container-image $IMAGE`): the
    value when it reads only variables the script set, else `{unknown.NAME}` in its place, which
    fails lint (JC008) until it is written: never the variable's name as if it were the value."""
    # the word is the option and its value (`--container-image=$IMAGE`, `--container-image $IMAGE`)
    raw = re.sub(r"\A--[A-Za-z-]+(?:=|\s+)", "", word.raw) if word.raw.startswith("--") else word.raw
    text = _resolve(raw, variables)
    if text is not None:
        return text
    placeholder = _placeholder(raw, variables, _allocation_refs(facts, out))
    key = name.removeprefix("container-")
    if key == "mounts":
        out.templated.update(("container", "mounts", i) for i in range(len(placeholder.split(","))))
    else:
        out.templated.add(("container", key))
    out.unknown.append(
        f"container.{key}: line {word.span.line} passes {raw}, a value computed when the job runs, "
        f"kept as {placeholder}: write its value"
    )
    return placeholder


def _step_mode(step: Step) -> str:
    entry = launchers.entry(step.launcher.name) if step.launcher is not None else None
    return "torchrun" if entry is not None and entry.per_node else "srun"


def _step_target(step: Step) -> str | None:
    target = step.module or step.program
    if target is None or not target.literal:
        return None
    return ("-m " if step.module is not None else "") + target.text


def _alternatives(facts: ScriptFacts, out: Derived, step: Step) -> None:
    """The training step sits in an arm of an `if`/`case` whose choice is not known before the job
    runs, and another arm runs another launch: the mode (and the program) that differ between
    them are not known, and said with both lines; never one arm picked silently."""
    launch = out.data["launch"]
    mine, target = _step_mode(step), _step_target(step)
    for arm, other in alternatives(facts.steps, step):
        own = next(a for a in step.arms if a.at == arm.at)
        said = (
            f"the `{arm.kind}` on line {arm.line} ({shown(own.why, keep=60)}) runs line "
            f"{step.span.line} or line {other.span.line} as the job decides"
        )
        theirs = _step_mode(other)
        if theirs != mine and "mode" in launch:
            out.mode_known = False
            del launch["mode"]
            out.spans.pop(("launch", "mode"), None)
            out.unknown.append(
                f"launch.mode: {said}: {mine} (line {step.span.line}) or {theirs} (line "
                f"{other.span.line}); write launch.mode"
            )
        other_target = _step_target(other)
        if other_target != target and ("program" in launch or "module" in launch):
            for key in ("program", "module"):
                launch.pop(key, None)
                out.spans.pop(("launch", key), None)
            out.unknown.append(
                f"launch.program: {said}: {target or 'a program not known'} (line {step.span.line}) or "
                f"{other_target or 'a program not known'} (line {other.span.line}); write launch.program"
            )


def _unread_step(facts: ScriptFacts, out: Derived, step: Step) -> None:
    """The training step starts after the first of lines jobc's bash grammar read around (bash
    accepts them): lost before the step's line, the grammar may have read its words as another
    command's or a part of one (`bash -c f` read as `c f`), so what the step runs is not known;
    never a program taken from such words. (A step on the line where the grammar lost its way
    was read from its start: some of its later words may be missing, which is listed.)"""
    if facts.unread is None:
        return
    first, last = facts.unread
    if not first < step.span.line <= last:
        return
    launch = out.data["launch"]
    if not any(key in launch for key in ("program", "module")):
        return
    for key in ("program", "module", "args", "python"):
        launch.pop(key, None)
        out.spans.pop(("launch", key), None)
    out.unknown.append(
        f"launch.program: the training step, line {step.span.line}, is in lines {first}–{last}, which "
        "jobc's bash grammar cannot read (bash runs them): what it runs is not known; write it"
    )


def _cli_module(out: Derived, step: Step, cli: tuple[launchers.CliLauncher, Word, Word]) -> None:
    """The module a console script's torchrun runs (`llamafactory.launcher`) as the spec's
    program, under python; the console script and its command listed as not carried."""
    entry, program, command = cli
    out.put(("launch", "python"), "python", step.span)
    out.sources[("launch", "python")] = f"line {step.span.line}: {entry.module} runs under python"
    out.put(("launch", "module"), entry.module, program.span, f"{program.raw} {command.raw}")
    out.skip(
        program.span,
        f"{program.raw} {command.raw}",
        f"{entry.said} starts torchrun, which runs the module {entry.module}: the spec runs it under "
        "its own torchrun",
    )


def _launcher_program(step: Step) -> str | None:
    """What the step's Python program is, when its file is a launcher of its own (`deepy.py`)."""
    if step.launcher is not None or step.program is None:
        return None
    # the file's own name, even in a directory computed when the job runs (`$NEOX/deepy.py`)
    name = (step.program.text if step.program.literal else step.program.raw).strip("\"'").rsplit("/", 1)[-1]
    return launchers.PROGRAM_LAUNCHERS.get(name)


def _launcher_program_unknown(out: Derived, step: Step, program: Word, named: str) -> None:
    """`python ./deepy.py train.py configs/x.yml`: the mode is a per-node launcher's; the program
    and arguments are the ones the launcher builds, which the script does not show."""
    out.skip(
        program.span,
        step.text,
        f"{program.raw} is {named}: jobc cannot carry the program and arguments it builds; "
        "write launch.program and launch.args",
    )
    out.unknown.append(
        f"launch.program: line {program.span.line} runs {program.raw}, {named}; write the program "
        "it starts and its arguments"
    )
    out.notes.append(
        f"launch.mode torchrun: line {program.span.line} runs {program.raw}, which starts a launcher "
        "on each node"
    )


def _dash_program(out: Derived, step: Step, target: Word) -> None:
    """The step's program is a word that starts with `-` (after a launcher's `--`): a spec's
    program is passed where the launcher reads options, so it is left out, and said why."""
    out.skip(
        target.span,
        step.text,
        f"the program {target.raw} starts with `-`: the compiled launch would pass it to the "
        "launcher as an option; not carried",
    )
    out.unknown.append(
        f"launch.program: line {target.span.line} runs {target.raw}, a name that starts with `-`; "
        "write the program"
    )


def _unknown_program(out: Derived, step: Step, target: Word | None) -> None:
    """The step's program is not known before the job runs: left out, and said why."""
    # never a guessed program: the spec says nothing, and linting it says what is missing
    where = target.span if target is not None else step.span
    out.skip(where, step.text, _UNKNOWN_PROGRAM)
    if step.recipe is not None:
        out.unknown.append(
            f"launch.program: line {step.recipe.span.line} runs the torchtune recipe "
            f"{step.recipe.raw} by name, a file of the installed torchtune: write its path"
        )
    elif step.code is not None:
        out.unknown.append(
            f"launch.program: line {step.code.span.line} runs Python code given with `python -c`, "
            "which no spec field holds: put it in a file and write launch.program"
        )
    else:
        out.unknown.append(
            f"launch.program: line {where.line} runs a program jobc cannot read before the job runs; write it"
        )


def _first_line(facts: ScriptFacts) -> Span:
    return facts.first_command or Span.point(1, 1)


_SCRIPT_ARGS = lazy(r"\$(?:[@*0-9]|\{[@*0-9]+\})")


_VARIABLE = lazy(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)")


_FILE_NAME = lazy(r"[A-Za-z0-9_.+-]+\.py")


def _program_in_unknown_directory(facts: ScriptFacts, out: Derived, target: Word) -> str | None:
    """`deepspeed ${WORK}/scripts/run_clm.py`: a program file the script names, in a directory
    computed when the job runs. Kept as `{unknown.WORK}/scripts/run_clm.py`, which fails lint
    (JC008) until the directory is written, and said; None when the file name itself is not
    written (`$DIR/$SCRIPT` with no value for SCRIPT, `$(…)`)."""
    from jobc.spec.interpolate import escape

    raw = target.raw.strip()
    raw = raw.replace('"', "") if "\\" not in raw and "'" not in raw else raw
    where, _, name = raw.rpartition("/")
    if not where or not _FILE_NAME.fullmatch(name):
        return None
    directory = _placeholder(where, {}, _allocation_refs(facts, out))
    if "{unknown." not in directory:
        return None
    placeholder = f"{directory}/{escape(name)}"
    out.unknown.append(
        f"launch.program: line {target.span.line} runs {target.raw.strip()}, in a directory computed "
        f"when the job runs, kept as {placeholder}: write the directory"
    )
    return placeholder


def _allocation_refs(facts: ScriptFacts, out: Derived) -> dict[str, str]:
    """Slurm's variables for the allocation that the spec holds as values: `$SLURM_NNODES` in an
    argument is `{resources.nodes}` when the script asked for a fixed number of nodes."""
    refs: dict[str, str] = {}
    resources = out.data.get("resources", {})
    nodes = facts.honoured().get("nodes")
    fixed = nodes is not None and ascii_int(nodes.value or "") is not None
    if "nodes" in resources and (fixed or (nodes is None and implied_nodes(facts.honoured()) is not None)):
        refs.update(SLURM_NNODES="{resources.nodes}", SLURM_JOB_NUM_NODES="{resources.nodes}")
    if resources.get("gpus_per_node"):
        refs.update(SLURM_GPUS_ON_NODE="{resources.gpus_per_node}")
    if "cpus_per_task" in resources:
        refs.update(SLURM_CPUS_PER_TASK="{resources.cpus_per_task}")
    if ("name",) in out.spans and "job-name" in facts.honoured():
        refs.update(SLURM_JOB_NAME="{name}")
    return refs


def _unknown_arg(out: Derived, facts: ScriptFacts, word: Word, variables: dict[str, str], index: int) -> str:
    """An argument whose value the script computes when the job runs. Slurm's allocation
    variables become the spec values they equal (`{resources.nodes}`); any other keeps its place
    in launch.args as `{unknown.NAME}`, which fails lint (JC008) until it is written: an argument
    is never dropped."""
    per_rank = sorted(name for name in PER_RANK if name in word.raw)
    placeholder = _placeholder(word.raw, variables, {} if per_rank else _allocation_refs(facts, out))
    path: DataPath = ("launch", "args", index)
    out.spans[path] = word.span
    out.templated.add(path)
    if "{unknown." not in placeholder:
        return placeholder
    if _SCRIPT_ARGS.search(word.raw):
        why = f"the script's own arguments (`sbatch job.sh ARGS`), kept as {placeholder}: write them"
    elif per_rank:
        why = (
            f"a per-rank value ({', '.join(per_rank)}), kept as {placeholder}: arguments are "
            "passed literally, so read it in the program (jobc.runtime.init()) or write its value"
        )
    else:
        why = f"a value computed when the job runs, kept as {placeholder}: write its value"
    out.unknown.append(f"launch.args: line {word.span.line} passes {word.raw}, {why}")
    return placeholder


def _placeholder(raw: str, variables: dict[str, str], refs: dict[str, str]) -> str:
    """``raw`` as a template: its literal text escaped, each variable the script set to a literal
    value written out, each other one `{unknown.NAME}`; a word with any other expansion (`$(…)`,
    `$1`, `${X%…}`) is `{unknown.value}` as a whole."""
    from jobc.spec.interpolate import UNKNOWN, escape

    # double quotes only group the word (`"$DIR"/x`): what they hold is the word's text
    text = raw.replace('"', "") if "\\" not in raw and "'" not in raw else raw
    pieces: list[str] = []
    rest: list[str] = []
    at = 0
    for m in _VARIABLE.finditer(text):
        rest.append(text[at : m.start()])
        pieces.append(escape(text[at : m.start()]))
        name = m.group(1) or m.group(2)
        value = variables.get(name)
        if value is not None:
            pieces.append(escape(value))
        else:
            pieces.append(refs.get(name, f"{{{UNKNOWN}.{name}}}"))
        at = m.end()
    rest.append(text[at:])
    pieces.append(escape(text[at:]))
    if _SCRIPT_ARGS.search(raw):
        return f"{{{UNKNOWN}.args}}"
    if any(ch in "".join(rest) for ch in "$`\\'\"*?") or at == 0:
        return f"{{{UNKNOWN}.value}}"
    return "".join(pieces)


def _resolve(raw: str, variables: dict[str, str]) -> str | None:
    """A word's value when it only reads variables the script set to literal values."""
    if raw[:1] == "'":
        return None
    text = raw[1:-1] if raw[:1] == '"' and raw[-1:] == '"' else raw

    def sub(m: re.Match[str]) -> str:
        name = m.group(1) or m.group(2)
        value = variables.get(name)
        if value is None:
            raise KeyError(name)
        return value

    try:
        value = re.sub(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}|\$([A-Za-z_][A-Za-z0-9_]*)", sub, text)
    except KeyError:
        return None
    return None if any(ch in value for ch in "$`\\*?") else value
