"""Script facts → spec data: the same shape a YAML spec gives, with where each value came from.

Two views of one script. The *lint* view keeps what the script wrote even where it is a pitfall
(a hand-set task count, a fixed MASTER_PORT, every batch-shell command as a setup line), so the
spec rules find the same mistakes in it. The *import* view is the spec jobc would run instead:
values jobc derives itself are left out, each with the reason, in `unmapped`.
"""

from __future__ import annotations

import bisect
import os
import re

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int, shown
from jobc.core.record import replace
from jobc.script.allocation import (
    UNKNOWN_TASKS,
    capped_by_total,
    fewer_tasks_than_nodes,
    gpus_over_nodes,
    gpus_per_node,
    gres_gpus,
    implied_nodes,
    launcher_tasks,
    spread_by_slurm,
    step_option,
    tasks_per_node,
)
from jobc.script.allocation import slurm_int as _int
from jobc.script.derived import Derived
from jobc.script.facts import (
    Directive,
    ScriptFacts,
    Step,
    Word,
    other_component,
    service,
)
from jobc.tables import launchers
from jobc.tables.slurm_options import CLI_ONLY, SBATCH_OPTIONS, SPEC_FIELD, SPEC_PATH, is_pyxis

__all__ = ["Derived", "derive", "gpus_per_node", "step_nodes", "step_option"]

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

SIGNALS = ("SIGTERM", "SIGUSR1", "SIGUSR2", "SIGINT")
_NAME_OK = lazy(r"^[A-Za-z0-9._-]+$")
_NAME_MAX = 200  # the schema's longest name
_ENV_NAME = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")
# what the setup rules look for: a step started by srun in a setup line, and `uv` in a step's
# line (both JC504)
_SRUN = lazy(r"srun")
_UV = lazy(r"\buv\b")
_SIMPLE = (
    "cpus-per-task",
    "mem",
    "mem-per-gpu",
    "time",
    "partition",
    "account",
    "qos",
    "constraint",
    "reservation",
    "array",
    "dependency",
    "mail-user",
)


def derive(facts: ScriptFacts, *, for_lint: bool, has_profile: bool = False) -> Derived:
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    cut = [] if for_lint else [d for d in facts.directives if d.honoured and d.cut]
    if cut:
        # sbatch reads such a directive only up to its `#` (JC816): the job gets that value, but
        # the script meant another, so the import takes neither
        facts = replace(facts, directives=[d for d in facts.directives if not (d.honoured and d.cut)])
    pushed = [] if for_lint else inferred._pushed_down_header(facts)
    if pushed:
        facts = replace(facts, directives=[replace(d, honoured=True) for d in facts.directives])
    spaced = [] if for_lint or facts.directives else inferred._spaced_header(facts)
    if spaced:
        facts = replace(facts, directives=spaced)
    name = _job_name(facts)
    out = Derived({"version": 1, "name": name, "resources": {}, "launch": {}})
    if pushed or spaced:
        out.header_read = list(facts.directives)
    if spaced:
        first, last = spaced[0].span.line, spaced[-1].span.line
        lines = f"line {first}" if first == last else f"lines {first}-{last}"
        out.notes.append(
            f"the script's header ({lines}) is written `# SBATCH`, which sbatch reads as comments "
            "(JC813): the job as written runs with Slurm's defaults; the import reads them as the "
            "job's request, as `jobc lint --fix` writes them `#SBATCH`"
        )
    if pushed:
        first, last = pushed[0].span.line, pushed[-1].span.line
        lines = f"line {first}" if first == last else f"lines {first}-{last}"
        out.notes.append(
            f"the script's #SBATCH lines ({lines}) are below its first command, where sbatch "
            "ignores them (JC801): the job as written runs with Slurm's defaults; the import reads "
            "them as the job's request, as `jobc lint --fix` moves them up"
        )
    for c in cut:
        out.skip(
            c.span,
            f"#SBATCH {c.text}",
            "sbatch ends the line at the unquoted '#' in this word and reads only what is before "
            "it (JC816); what the script meant is not known",
        )
    if not for_lint and (separators := facts.separators()):
        out.notes.append(
            f"the script is a heterogeneous job of {len(separators) + 1} components (#SBATCH hetjob "
            f"on line {', '.join(map(str, separators))}): the spec asks for the first component "
            "alone, and the other components' lines are listed as not carried"
        )
    if (d := facts.honoured().get("job-name")) is not None:
        out.spans[("name",)] = d.span
        if for_lint and d.value is not None:
            out.data["name"] = d.value if _NAME_OK.match(d.value) else name
        elif not for_lint and d.value is not None and d.value != name:
            out.skip(
                d.span,
                f"#SBATCH {shown(d.text, keep=40)}",
                f"a spec's name is letters, digits, '.', '_' and '-', at most {_NAME_MAX} of them: "
                "the spec is named after the file",
            )
    step = facts.main_step
    _allocation(facts, out, step, for_lint=for_lint, has_profile=has_profile, cut=cut)
    _launch(facts, out, step, for_lint=for_lint)
    if step is not None and not for_lint:
        inferred._alternatives(facts, out, step)
        inferred._unread_step(facts, out, step)
    if for_lint:
        _environment(facts, out)
        _setup_lines(facts, out)
    else:
        # what the import carries (the environment, the setup lines, the directory): a lint reads
        # none of it, and the module is a tenth of the script reader's bytecode
        from jobc.script.carry import carry

        carry(facts, out, step)
    return out


def _job_name(facts: ScriptFacts) -> str:
    d = facts.honoured().get("job-name")
    if d is not None and d.value and _NAME_OK.match(d.value) and len(d.value) <= _NAME_MAX:
        return d.value
    stem = os.path.splitext(os.path.basename(facts.file))[0]
    cleaned = re.sub(r"[^A-Za-z0-9._-]+", "-", stem).strip("-")[:_NAME_MAX].strip("-")
    return cleaned or "job"


def _step_gpus(step: Step | None, nodes: int) -> tuple[int, Word] | None:
    """GPUs per node the step's own srun asks for (--gpus-per-node, --gres=gpu:N, --gpus=N over
    the nodes, --gpus-per-task=N times the tasks per node)."""
    if step is None or step.srun is None:
        return None
    srun = step.srun
    for key in ("gpus-per-node", "gres", "gpus", "gpus-per-task"):
        word = srun.get(key)
        if word is None or not word.literal:
            continue
        if key == "gres":
            found = gres_gpus(word.text)
            if found is None:
                continue
            return found[0], word
        n = _int(word.text.rpartition(":")[2])
        if n is not None and key == "gpus":
            n = gpus_over_nodes(n, nodes)
        if n is None:
            continue
        if key == "gpus-per-task":
            per = step.srun.get("ntasks-per-node")
            tasks = _int(per.text, 1) if per is not None and per.literal else None
            if tasks is None:
                continue
            n *= tasks
        return n, word
    return None


def _default_nodes(facts: ScriptFacts, out: Derived, step: Step | None) -> None:
    """No `--nodes`: the nodes sbatch gives all the same — one, unless `--ntasks` asks for more
    tasks than `--ntasks-per-node` puts on one (then as many as they fill); with `--ntasks` alone
    Slurm spreads the tasks over as many nodes as it needs, which no spec value says — unless the
    training step's own srun runs on a known count of them (`srun --ntasks=1`, `srun -N 1`)."""
    from jobc.script import inferred  # what only the import infers

    honoured = facts.honoured()
    total = honoured.get("ntasks")
    tasks = _int(total.value, 1) if total is not None else None
    if total is None or tasks == 1:
        out.put(("resources", "nodes"), 1, None)
        why = "--ntasks=1" if total is not None else "no --nodes or --ntasks"
        out.sources[("resources", "nodes")] = f"sbatch's default: one node ({why})"
    elif _implied_nodes(facts, out):
        pass
    elif total is not None and (on := inferred._step_runs_on(step)) is not None:
        count, word = on
        out.put(("resources", "nodes"), count, word.span, f"srun {word.raw}")
        out.sources[("resources", "nodes")] = (
            f"the training step's srun {word.raw} (#SBATCH {total.text} without --nodes leaves the "
            "job's own nodes to Slurm)"
        )
    elif total is not None and (one := inferred._shell_runs_on_one(facts, step)) is not None:
        at, said = one
        out.put(("resources", "nodes"), 1, at, said)
        out.sources[("resources", "nodes")] = (
            f"the training step's {said} runs in the batch shell, on the job's first node only "
            f"(#SBATCH {total.text} without --nodes leaves any other node to Slurm)"
        )
    elif total is not None:
        out.unknown.append(
            f"resources.nodes: line {total.span.line} asks for {total.text} without --nodes: Slurm "
            "spreads the tasks over as many nodes as it needs; write the nodes (the spec asks 1)"
        )


def _implied_nodes(facts: ScriptFacts, out: Derived) -> bool:
    """`--ntasks` over `--ntasks-per-node` without `--nodes` (`implied_nodes`): the nodes the tasks
    fill, read alike by lint and import; False when the directives do not say it."""
    implied = implied_nodes(facts.honoured())
    if implied is None:
        return False
    count, total, per = implied
    out.put(("resources", "nodes"), count, total.span, f"#SBATCH {total.text}")
    out.sources[("resources", "nodes")] = f"#SBATCH {total.text} over #SBATCH {per.text}"
    return True


def step_nodes(facts: ScriptFacts, step: Step) -> int | None:
    """Nodes a step runs on when its srun says so (-N, or --ntasks with --ntasks-per-node)."""
    if step.srun is None:
        return None
    nodes = step.srun.get("nodes")
    if nodes is not None:
        return _int(nodes.text)
    total, per = step.srun.get("ntasks"), step.srun.get("ntasks-per-node")
    if total is not None and per is not None:
        t, p = _int(total.text), _int(per.text)
        if t is not None and p:
            return -(-t // p)
    return None


def _catalogue_key(kind: str | None) -> str | None:
    if not kind:
        return None
    from jobc.spec.catalog import gpus

    name = kind.lower()
    if name in gpus():
        return name
    # a model name is the key's first part (`h200` of `h200-141gb`), never a prefix of another
    # model's: `l4` is NVIDIA's L4 (24 GB), not the L40S the catalogue holds
    keys = [k for k in gpus() if k.split("-")[0] == name]
    return keys[0] if len(keys) == 1 else None


def _nodes(
    facts: ScriptFacts, out: Derived, step: Step | None, cut: list[Directive], *, for_lint: bool
) -> int | None:
    """resources.nodes: `--nodes`, else sbatch's default, else not known (a directive that sizes
    the job cut at its `#`, JC816)."""
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    nodes_d = facts.honoured().get("nodes")
    nodes = _int(nodes_d.value, 1) if nodes_d is not None else None
    sized = next((d for d in cut if d.name in ("nodes", "ntasks", "ntasks-per-node")), None)
    fewer = fewer_tasks_than_nodes(facts.honoured())
    if nodes_d is not None and nodes is not None and fewer is not None:
        nodes, total = fewer
        out.put(("resources", "nodes"), nodes, total.span, f"#SBATCH {total.text}")
        out.sources[("resources", "nodes")] = (
            f"line {total.span.line}: #SBATCH {total.text} with #SBATCH {nodes_d.text} (line "
            f"{nodes_d.span.line}): sbatch cannot run fewer tasks than nodes and sets the nodes to {nodes}"
        )
    elif nodes_d is not None and nodes is not None:
        out.put(("resources", "nodes"), nodes, nodes_d.span, f"#SBATCH {nodes_d.text}")
    elif nodes_d is None and sized is not None and not for_lint:
        inferred._cut_nodes(out, sized)
    elif nodes_d is None and not for_lint:
        _default_nodes(facts, out, step)
        nodes = out.data["resources"].get("nodes")
    elif nodes_d is None and sized is None and _implied_nodes(facts, out):
        # lint reads the nodes the tasks fill as the import does: a two-node job is one (JC108,
        # JC804) whether `--nodes` or `--ntasks` over `--ntasks-per-node` says it
        nodes = out.data["resources"].get("nodes")
    return nodes


def _gpus(
    facts: ScriptFacts, out: Derived, step: Step | None, nodes: int, *, for_lint: bool, has_profile: bool
) -> tuple[int | None, Directive | None]:
    """resources.gpus_per_node (and the GPU's kind) from a directive, the training step's srun, or
    what the script says without asking (see `_no_gpus`); the directive's count and the directive."""
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    gpus, kind, gpu_d = gpus_per_node(facts)
    if gpus is not None and gpu_d is not None:
        out.put(("resources", "gpus_per_node"), gpus, gpu_d.span, f"#SBATCH {gpu_d.text}")
        key = _catalogue_key(kind)
        if key is not None:
            out.put(("resources", "gpu"), key, gpu_d.span, f"#SBATCH {gpu_d.text}")
    elif (found := _step_gpus(step, nodes)) is not None:
        # no GPU directive, but the training step asks srun for them (whole nodes whose GPUs
        # each step requests): the GPUs the job uses on each node
        count, word = found
        out.put(("resources", "gpus_per_node"), count, word.span, f"srun {word.raw}")
    elif not for_lint and (asked := inferred._gpus_unread(facts)) is not None:
        # `--gres=gpu:v100:x` (a template's placeholder): the job asks for GPUs, how many is not
        # written; never the 0 of a job that asks for none
        out.unknown.append(
            f"resources.gpus_per_node: line {asked.span.line} asks for GPUs with #SBATCH "
            f"{shown(asked.text, keep=40)}, a count that is no number (sbatch refuses it, JC809): "
            "write the GPUs per node"
        )
    elif (uneven := uneven_gpus(facts, nodes)) is not None:
        # `--gpus=1` on 4 nodes: GPUs for the whole job, which Slurm places unevenly; the script
        # asks for GPUs, so never the 0 of one that asks for none, and no count per node is read
        if not for_lint:
            out.unknown.append(
                f"resources.gpus_per_node: line {uneven.span.line} asks for GPUs for the whole job "
                f"(#SBATCH {shown(uneven.text, keep=40)}), which do not part evenly over its {nodes} "
                "node(s): Slurm places them unevenly; write the GPUs per node"
            )
    elif not has_profile:
        _no_gpus(facts, out, step, nodes, for_lint=for_lint)
    return gpus, gpu_d


def uneven_gpus(facts: ScriptFacts, nodes: int) -> Directive | None:
    """`#SBATCH --gpus=N` (`-G`), GPUs for the whole job, when N does not part evenly over the
    job's nodes (`gpus_over_nodes` reads no count per node from it)."""
    d = facts.honoured().get("gpus")
    if d is None or d.value is None or "gpus-per-node" in facts.honoured():
        return None
    n = _int(d.value.rpartition(":")[2])
    return d if n is not None and n > 0 and gpus_over_nodes(n, nodes) is None else None


def _mode_known(facts: ScriptFacts, out: Derived, step: Step | None, nodes: int, *, for_lint: bool) -> bool:
    """Whether the text shows how the training step starts its processes."""
    # the mode is known when the text shows what the step starts — a launcher, an interpreter —
    # even when the program it runs is not; or when srun starts one task per GPU, whatever each
    # task runs (`srun --ntasks-per-node=8 bash "$1"` on 8 GPUs)
    known = step is not None and (
        step.launcher is not None
        or step.python is not None
        or step.program is not None
        or step.module is not None
        or step.code is not None
        or step.recipe is not None
        or _task_per_gpu(facts, step, out.data["resources"].get("gpus_per_node"), nodes)
        # for the import: srun starts a service's processes itself (a Ray cluster's head and
        # workers, one task a node), which the driver's work runs on: srun's mode, whatever the
        # driver is (lint holds no rank rule to such a step: a worker drives all its node's GPUs)
        or (not for_lint and step.srun is not None and service(step))
    )
    if step is not None and _ranks_run_a_script(step):
        # `mpirun -np 2 apptainer exec IMG bash deploy.sh`: each rank runs a script jobc cannot
        # read, which may start a per-node launcher itself (one rank a node) or be the program
        return False
    if for_lint and step is not None and other_component(step):
        # the step runs in another component of a heterogeneous job: the rules that compare the
        # step with the request (the first component's) have nothing to compare it with
        return False
    return known


def _allocation(
    facts: ScriptFacts,
    out: Derived,
    step: Step | None,
    *,
    for_lint: bool,
    has_profile: bool,
    cut: list[Directive] | None = None,
) -> None:
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    nodes = _nodes(facts, out, step, cut or [], for_lint=for_lint) or 1
    gpus, gpu_d = _gpus(facts, out, step, nodes, for_lint=for_lint, has_profile=has_profile)
    entry = launchers.entry(step.launcher.name) if step is not None and step.launcher is not None else None
    # a launcher that runs once per node and starts its workers keeps that behaviour as torchrun;
    # one process per task (plain python, mpirun) as srun
    mode = "torchrun" if entry is not None and entry.per_node else "srun"
    out.mode = mode
    out.mode_known = _mode_known(facts, out, step, nodes, for_lint=for_lint)
    if step is not None and step.own_launcher is not None:
        # the program starts its processes through a launcher of its own the script does not
        # show (a Hydra multirun's plugin): one process or one per GPU, the text does not say
        out.mode_known = False
        target = step.program or step.module
        out.unknown.append(
            f"launch.mode: line {step.own_launcher.span.line} runs "
            f"{target.raw if target is not None else 'the program'} in a Hydra multirun whose launcher "
            f"plugin ({step.own_launcher.raw}) jobc does not read: one process, or the workers of "
            "a launcher, is not known; write launch.mode"
        )
    if step is not None and step.started_by is not None and step.launcher is None:
        _started_by(facts, out, step, step.started_by, nodes, for_lint=for_lint)
    if not for_lint and step is not None and not out.mode_known and step.own_launcher is None:
        inferred._per_node_wrapper(facts, out, step, out.data["resources"].get("gpus_per_node"), nodes)
        mode = out.mode
    if not for_lint and step is not None and not out.mode_known and _ranks_run_a_script(step):
        inferred._per_rank_wrapper(facts, out, step, out.data["resources"].get("gpus_per_node"), nodes)
        mode = out.mode
    if not for_lint and step is None and inferred._starts_no_launcher(facts):
        inferred._infer_no_launcher(out, facts)
        mode = out.mode
    if not for_lint and step is not None and inferred._launcher_program(step) is not None:
        out.mode, out.mode_known = "torchrun", True
        mode = out.mode
    if not for_lint and step is not None and (cli := inferred._cli_launcher(step)) is not None:
        inferred._cli_torchrun(facts, out, step, cli, nodes)
        mode = out.mode
    tasks, tasks_span, tasks_text = tasks_per_node(facts, step, nodes)
    if step is not None and step.sourced_from is not None and not out.mode_known:
        if not for_lint:
            name, at = step.sourced_from
            by = step.started_by.raw if step.started_by is not None else "a command"
            out.unknown.append(
                f"launch.mode: line {step.span.line} starts the program with {by}, a value the script "
                f"does not write: {name}, sourced on line {at.line} and not readable to jobc, may set "
                "it (srun, or nothing); write launch.mode"
            )
    elif not for_lint and step is not None and step.srun is None:
        inferred._batch_shell_step(facts, out, step, mode, nodes)
    elif for_lint and (ranks := launcher_tasks(facts, step, nodes)) is not None:
        # mpirun starts the tasks the directives ask for on each node, one rank a task
        out.put(("resources", "tasks_per_node"), ranks[0], ranks[1].span, f"#SBATCH {ranks[1].text}")
    elif tasks_text == UNKNOWN_TASKS:
        pass  # the step's own task count is computed when the job runs: nothing to compare
    elif for_lint and step is not None and step.srun is not None:
        if tasks is None:
            # srun starts one task per node unless something asks for more
            tasks, tasks_span, tasks_text = 1, step.span, "srun (one task per node by default)"
        elif (fewer := capped_by_total(facts, step, nodes, tasks)) is not None:
            tasks, tasks_span, tasks_text = fewer
        out.put(("resources", "tasks_per_node"), tasks, tasks_span, tasks_text)
    elif not for_lint and step is not None and step.srun is not None:
        default = tasks is None or tasks_span is None
        if default:
            # srun starts one task per node unless something asks for more
            tasks, tasks_span, tasks_text = 1, step.span, step.text
        derived = max(gpus or 0, 1) if mode == "srun" else 1
        inferred._capped(facts, out, step, nodes, derived=derived, mode=mode)
        spread = spread_by_slurm(facts, step, nodes)
        if spread is not None:
            # never an even split the text does not give: Slurm fills nodes by their free CPUs
            started = max(out.data["resources"].get("gpus_per_node") or 0, 1) if mode == "srun" else 1
            out.skip(
                tasks_span or step.span,
                tasks_text or "",
                f"{spread} tasks over the nodes, placed by Slurm by their free CPUs (not always "
                f"evenly): jobc starts {started} per node for launch.mode {mode}",
            )
        elif mode == "srun" and not gpus and tasks != derived:
            out.put(("resources", "tasks_per_node"), tasks, tasks_span)
        elif tasks != derived:
            said = "srun's default of 1 task per node" if default else f"{tasks} tasks per node"
            out.skip(
                tasks_span or step.span,
                tasks_text or "",
                f"{said}: jobc starts {derived} per node for launch.mode {mode}",
            )
    _directives(facts, out, gpu_d, for_lint=for_lint)


def _started_by(
    facts: ScriptFacts, out: Derived, step: Step, by: Word, nodes: int, *, for_lint: bool
) -> None:
    """`$LAUNCH_CMD train.py`: one process or a launcher's workers, the text does not say; srun's
    one task per GPU says it whatever each task runs, and so may the variable's name."""
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    out.mode_known = _task_per_gpu(facts, step, out.data["resources"].get("gpus_per_node"), nodes)
    if not for_lint and not out.mode_known:
        inferred._launcher_by_name(out, step, by)
    if not for_lint and not out.mode_known and any(n.kind == "python-by-name" for n in step.inner):
        # `"$PY" -m pkg.train`: an interpreter, which starts one process a task
        out.mode, out.mode_known = "srun", True
        out.sources[("launch", "mode")] = (
            f"line {step.span.line}: {by.raw} -m, an interpreter: one process a task"
        )


def _directives(facts: ScriptFacts, out: Derived, gpu_d: Directive | None, *, for_lint: bool) -> None:
    """The directives that set one spec field as they are written (and what else they map to)."""
    simple = {name: SPEC_PATH[name] for name in _SIMPLE}
    for name, d in facts.honoured().items():
        if name in simple and d.value is not None:
            path = simple[name]
            value: Any = d.value
            if name == "cpus-per-task":
                value = _int(d.value, 1)
                if value is None:
                    continue
            out.put(path, value, d.span, f"#SBATCH {d.text}")
        elif name == "mail-type" and d.value:
            out.put(
                ("slurm", "mail", "type"), [t for t in d.value.split(",") if t], d.span, f"#SBATCH {d.text}"
            )
        elif name == "exclusive":
            if d.value in (None, ""):
                out.put(("slurm", "exclusive"), True, d.span, f"#SBATCH {d.text}")
            elif for_lint or d.value in ("user", "mcs"):
                out.put(("slurm", "extra", "exclusive"), d.value, d.span, f"#SBATCH {d.text}")
        elif name == "signal" and d.value:
            _signal(out, d)
        elif name == "requeue":
            out.put(("resilience", "requeue"), True, d.span, f"#SBATCH {d.text}")
        elif name in ("output", "error") and d.value:
            if for_lint:
                out.put(("slurm", "extra", name), d.value, d.span, f"#SBATCH {d.text}")
                logs = os.path.dirname(d.value)
                if name == "output" and logs.startswith("/") and "$" not in logs:
                    # where the job's log goes, for the storage rules (JC701: a node's own /tmp);
                    # a `%j` directory is a directory all the same
                    out.put(("storage", "logs"), logs, d.span, f"#SBATCH {d.text}")
            else:
                logs = os.path.dirname(d.value)
                if name == "output" and logs.startswith("/") and "%" not in logs and "$" not in logs:
                    out.put(("storage", "logs"), logs, d.span)
                    out.skip(d.span, f"#SBATCH {d.text}", "jobc names the log files in storage.logs itself")
                else:
                    out.skip(d.span, f"#SBATCH {d.text}", "jobc names the log files itself (storage.logs)")
        elif name in ("nodes", "ntasks", "ntasks-per-node", "gres", "gpus", "gpus-per-node", "job-name"):
            continue
        elif name == "gpus-per-task" and gpu_d is d:
            continue  # read as GPUs per node
        elif name == "chdir" and d.value:
            out.put(("launch", "workdir"), d.value, d.span, f"#SBATCH {d.text}")
        else:
            _extra(out, d, for_lint=for_lint)


def _task_per_gpu(facts: ScriptFacts, step: Step, gpus: int | None, nodes: int) -> bool:
    """An srun step that starts one task per GPU: several on a node, or the one task a line asks
    for on a node with one GPU (`--ntasks-per-node=1 --gpus-per-task=1`; srun's default of one
    task says nothing of the kind)."""
    if step.srun is None or not gpus:
        return False
    tasks, span, text = tasks_per_node(facts, step, nodes)
    if gpus == 1 and span is None:
        return False
    return text != UNKNOWN_TASKS and tasks == gpus


def _ranks_run_a_script(step: Step) -> bool:
    """mpirun (or another launcher that starts every rank itself) whose ranks each run a script the
    batch script does not hold: `bash deploy.sh`, `./run.sh`, a command computed when the job runs.
    What the script starts, one process or a per-node launcher's workers, is not in the text."""
    launcher, program = step.launcher, step.program
    if launcher is None or program is None or step.srun is not None:
        return False
    kind = launchers.entry(launcher.name)
    if kind is None or not kind.reaches_always or kind.per_node:
        return False
    if not program.literal:
        return program.raw.lstrip('"').startswith("$")
    name = os.path.basename(program.text)
    if name in ("bash", "sh"):
        return bool(step.args) and not step.args[0].text.startswith("-")
    return name.endswith(".sh")


def _no_gpus(facts: ScriptFacts, out: Derived, step: Step | None, nodes: int, *, for_lint: bool) -> None:
    """No GPU request in the script. On nodes whose GPUs Slurm hands out whole, without a request
    (`--exclusive` nodes of AWS or NGC), the script says how many GPUs a node uses by the
    processes it starts on each, one per GPU: its launcher's processes per node, or srun's tasks
    per node (more than one) running the training step. That count, read from its line, is the
    GPUs per node, and the import says that the compiled job asks Slurm for them; a count the
    text does not give stays unknown on whole nodes (`--exclusive`) and is the 0 the script asks
    for on shared ones (said); a script that says nothing of the kind uses 0, and so does
    one whose own words show it runs on CPUs (a gloo backend, `--device cpu`, a partition named
    for CPUs: `cpu_sign`), whatever its process count."""
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    if not for_lint and step is not None:
        found = inferred._processes_per_node(facts, step, nodes)
        from jobc.script.cpu import cpu_sign

        sign = cpu_sign(facts, step) if found is not None else None
        if sign is not None:
            # the script says it runs on CPUs: its process count is no count of GPUs
            span, said = sign
            out.put(("resources", "gpus_per_node"), 0, span)
            out.sources[("resources", "gpus_per_node")] = (
                f"line {span.line}: {said}; the job runs on CPUs (the script asks Slurm for no GPUs)"
            )
            return
        if found is not None:
            count, span, said = found
            if count is None and "exclusive" not in facts.honoured():
                # not the whole node either: the job gets the GPUs it asks for, none, however many
                # processes the program counts when it runs; said, for a cluster that hands out
                # GPUs without a request
                out.put(("resources", "gpus_per_node"), 0, None)
                out.sources[("resources", "gpus_per_node")] = (
                    "the script asks for no GPUs (no --gres=gpu, --gpus, --gpus-per-node or --gpus-per-task)"
                )
                out.notes.append(
                    f"resources.gpus_per_node 0: the script asks Slurm for no GPUs, and line {span.line} "
                    f"starts one process per GPU it finds ({said}); on a cluster that gives GPUs without "
                    "a request, write the GPUs per node"
                )
                return
            if count is None:
                out.unknown.append(
                    f"resources.gpus_per_node: the script asks Slurm for no GPUs, and line {span.line} "
                    f"starts processes on each node one per GPU ({said}), a count jobc cannot read; "
                    "write the GPUs per node (0 for a CPU-only job)"
                )
                return
            out.put(("resources", "gpus_per_node"), count, span)
            out.added.append(
                f"resources.gpus_per_node: the script asks Slurm for no GPUs; line {span.line} starts "
                f"{count} processes per node, one per GPU, so the compiled job asks for {count} GPUs per "
                "node (write 0 for a CPU-only job)"
            )
            out.sources[("resources", "gpus_per_node")] = (
                f"line {span.line}: {said}, one process per GPU (the script asks Slurm for no GPUs)"
            )
            return
    out.data["resources"]["gpus_per_node"] = 0
    out.sources[("resources", "gpus_per_node")] = (
        "the script asks for no GPUs (no --gres=gpu, --gpus, --gpus-per-node or --gpus-per-task)"
    )


def _signal(out: Derived, d: Directive) -> None:
    value = d.value or ""
    spec = value.removeprefix("R:").removeprefix("B:").removeprefix("R:")
    name, _, grace = spec.partition("@")
    signal = name.upper()
    if ascii_int(signal) is not None:
        signal = {"10": "SIGUSR1", "12": "SIGUSR2", "15": "SIGTERM", "2": "SIGINT"}.get(signal, signal)
    elif not signal.startswith("SIG"):
        signal = f"SIG{signal}"
    if signal in SIGNALS:
        out.put(("resilience", "signal"), signal, d.span, f"#SBATCH {d.text}")
    if grace and (seconds := _int(grace, 1)) is not None:
        out.put(("resilience", "grace_s"), seconds, d.span, f"#SBATCH {d.text}")
    elif signal in SIGNALS:
        out.put(("resilience", "grace_s"), 60, d.span, f"#SBATCH {d.text}")  # sbatch's default


def _sbatch_export(out: Derived, d: Directive) -> None:
    """`#SBATCH --export=ALL,A=1,…` in the import: each A=1 is the job's environment, carried in
    `env` (`carry.environment`); what is left (NONE, names) stays an sbatch option, and `ALL`
    alone is sbatch's default, which the compiled job keeps."""
    items = [p for p in (d.value or "").split(",") if p]
    rest = [p for p in items if not ("=" in p and _ENV_NAME.match(p.partition("=")[0]))]
    if rest and rest not in (["ALL"], ["all"]):
        out.put(("slurm", "extra", "export"), ",".join(rest), d.span, f"#SBATCH {d.text}")
    elif len(rest) < len(items):
        out.skip(
            d.span,
            f"#SBATCH {d.text}",
            "the variables it sets are the job's environment (env); the rest is sbatch's default",
        )


def _extra(out: Derived, d: Directive, *, for_lint: bool) -> None:
    if not for_lint:  # what the import alone infers (a lint never imports it)
        pass

    if d.name == "export" and not for_lint:
        _sbatch_export(out, d)
        return
    if is_pyxis(d.name):
        if for_lint:
            out.put(
                ("slurm", "extra", d.name),
                d.value if d.value is not None else True,
                d.span,
                f"#SBATCH {d.text}",
            )
        elif not _container_option(out, d.name, d.value, d.span):
            out.skip(d.span, f"#SBATCH {d.text}", "a pyxis option the container section does not hold")
        return
    if d.name in SBATCH_OPTIONS and d.name not in SPEC_FIELD and d.name not in CLI_ONLY:
        out.put(
            ("slurm", "extra", d.name), d.value if d.value is not None else True, d.span, f"#SBATCH {d.text}"
        )
    elif not for_lint:
        out.skip(d.span, f"#SBATCH {d.text}", "jobc writes this option itself or does not know it")


def _container_option(out: Derived, name: str, value: str | None, span: Span) -> bool:
    """Put one pyxis option into the container section; False when the spec has no place for it."""
    negative = name.startswith("no-")
    key = name.removeprefix("no-").removeprefix("container-")
    if key == "image" and value:
        out.put(("container", "image"), value, span)
    elif key == "mounts" and value:
        out.put(("container", "mounts"), [m for m in value.split(",") if m], span)
    elif key == "workdir" and value:
        out.put(("container", "workdir"), value, span)
    elif key in ("mount-home", "remap-root"):
        out.put(("container", key.replace("-", "_")), not negative, span)
    elif key == "env" and value:
        out.put(("container", "env"), [v for v in value.split(",") if _ENV_NAME.match(v)], span)
    else:
        return False
    return True


def _no_step(facts: ScriptFacts, out: Derived, *, for_lint: bool) -> None:
    """A script with no step jobc can read: the rules get a stand-in program; the import says why
    the program is not known, never that there is none where it may be hidden."""
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    launch = out.data["launch"]
    if for_lint:
        # the rules need a spec; no rule reads the program of a script that runs none
        launch["program"] = "train.py"
    else:
        out.skip(inferred._first_line(facts), "the launch", inferred._UNKNOWN_PROGRAM)
        if facts.problems:
            # a step may be in what the grammar could not read: never say there is none
            line = facts.problems[0].span.line
            out.unknown.append(
                f"launch.program: jobc read line {line} only in part (JC800) and found no step it "
                "can read; write it"
            )
        elif facts.unread_sources:
            # a function or a command the sourced file defines may start it: never say none
            name, at = facts.unread_sources[0]
            out.unknown.append(
                f"launch.program: the script starts no step jobc can read, and it sources {name} "
                f"(line {at.line}), which jobc cannot read: a function or a value it sets may "
                "start the training; write it"
            )
        else:
            out.unknown.append("launch.program: the script starts no step jobc can read; write it")


def _target(
    out: Derived, facts: ScriptFacts, step: Step, launch: dict[str, Any], for_lint: bool
) -> tuple[tuple[launchers.CliLauncher, Word, Word] | None, str | None]:
    """The step's program or module as the spec's (or why it is not known): a console script's
    torchrun module, a launcher of its own, a script the ranks run, a name like an option."""
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    target = step.module or step.program
    named = None if for_lint else inferred._launcher_program(step)
    cli = None if for_lint or out.mode != "torchrun" or not out.mode_known else inferred._cli_launcher(step)
    if cli is not None:
        inferred._cli_module(out, step, cli)
    elif named is not None and step.program is not None:
        inferred._launcher_program_unknown(out, step, step.program, named)
    elif not for_lint and _ranks_run_a_script(step):
        # `mpirun … bash deploy.sh`: the program is in a script the batch script does not hold
        inferred._unknown_program(out, step, step.program)
        named = "a script"
    elif (
        not for_lint
        and target is not None
        and target.literal
        and target.text.startswith("-")
        and " " not in target.text
    ):
        # `torchrun … -- --account=x`: a program named like an option, which the compiled
        # launch would hand its launcher as one (argparse takes a word with a blank for a
        # positional one, the program, as the script's launcher did)
        inferred._dash_program(out, step, target)
    elif target is not None and (target.literal or for_lint):
        key = "module" if step.module is not None else "program"
        out.put(("launch", key), target.text, target.span, target.raw)
    elif for_lint:
        launch["program"] = "train.py"  # for the rules only; the import never writes it
    elif (
        target is not None
        and (kept := inferred._program_in_unknown_directory(facts, out, target)) is not None
    ):
        key = "module" if step.module is not None else "program"
        out.put(("launch", key), kept, target.span, target.raw)
        out.templated.add(("launch", key))
    else:
        inferred._unknown_program(out, step, target)
    return cli, named


def _launch(facts: ScriptFacts, out: Derived, step: Step | None, *, for_lint: bool) -> None:
    if not for_lint:  # what the import alone infers (a lint never imports it)
        from jobc.script import inferred

    launch = out.data["launch"]
    if for_lint or out.mode_known:
        launch["mode"] = out.mode
    if step is None:
        _no_step(facts, out, for_lint=for_lint)
        return
    python = step.python or "python"
    out.put(("launch", "python"), python if python != "uv" else "uv", None)
    out.put(("launch", "uv_sync"), "two-phase" if python == "uv" else "none", None)
    if not for_lint:
        # no value without the line it came from
        where = step.launcher.span if step.launcher is not None else step.span
        if "mode" in launch:
            out.spans[("launch", "mode")] = where
        out.spans[("launch", "python")] = step.span
        if step.python is None:
            out.sources[("launch", "python")] = (
                f"line {step.span.line} runs no interpreter by name: `python` on PATH"
            )
        out.sources[("launch", "uv_sync")] = (
            f"line {step.span.line}: uv run" if python == "uv" else "the script runs no `uv sync`"
        )
    cli, named = _target(out, facts, step, launch, for_lint)
    # what the value follower left unknown stays unknown: a variable's last assignment in the
    # text is not its value (`case … in 1) Z=2 ;; *) Z=3 ;; esac` is either)
    variables: dict[str, str] = {}
    args: list[str] = []
    for i, word in enumerate(step.args[1:] if cli is not None else step.args if named is None else ()):
        text = word.text if word.literal else None
        if text is None:
            if not for_lint:
                args.append(inferred._unknown_arg(out, facts, word, variables, len(args)))
            continue
        out.spans[("launch", "args", len(args))] = word.span
        args.append(text)
        del i
    launch["args"] = args
    if for_lint:
        _checkpoint_arg(out, step)
        _sharding(out, step)
    if step.container:
        for name, word in step.container.items():
            value = None if name in step.srun_flags else word.text
            if value is not None and not word.literal and not for_lint:
                value = inferred._container_value(out, facts, name, word, variables)
            _container_option(out, name, value, word.span)
        if "container" in out.data and "image" not in out.data["container"]:
            # pyxis options without an image (`--container-mounts` alone): no container section
            # holds them, and a section without an image is no spec at all
            del out.data["container"]
            for word in step.container.values():
                out.skip(word.span, word.raw, "a pyxis option without --container-image: not carried")
    launcher = step.launcher
    own = step.port
    if for_lint and own is not None and (number := _int(own.text)) is not None and 1024 <= number <= 65535:
        # the program's own rendezvous option, which it reads as its MASTER_PORT
        out.put(("launch", "master_port"), number, own.span, own.raw)
    if launcher is not None:
        port = launcher.port
        number = _int(port.text) if port is not None else None
        if for_lint and port is not None and number is not None and 1024 <= number <= 65535:
            out.put(("launch", "master_port"), number, port.span, port.raw)
        backend = launcher.options.get("rdzv_backend")
        if backend is not None and backend.text == "static":
            out.put(("launch", "torchrun", "rdzv"), "static", backend.span)
        elif backend is None and launcher.name == "torchrun" and "standalone" not in launcher.flags:
            # torchrun without --rdzv_backend rendezvous statically, by --node_rank
            out.put(("launch", "torchrun", "rdzv"), "static", launcher.span)
        restarts = launcher.options.get("max_restarts")
        if restarts is not None and (count := _int(restarts.text)) is not None:
            out.put(("launch", "torchrun", "max_restarts"), count, restarts.span)


# arguments that name where a training program writes its checkpoints and outputs
_SAVE_FLAGS = frozenset(
    {
        "output_dir",
        "output_path",
        "save",
        "save_dir",
        "save_path",
        "checkpoint_dir",
        "checkpoint_path",
        "ckpt_dir",
        "ckpt_path",
        "default_root_dir",
        "checkpoints_dir",
        "out_dir",
        "snapshot_dir",
    }
)
# a value that starts with the job's node-local scratch directory, which Slurm or the site sets
# for each job on each node (`--snapshot_dir $SLURM_TMPDIR`): node-local, whatever it holds
_NODE_SCRATCH = lazy(r"\$(?:\{(?:SLURM_)?TMPDIR\}|(?:SLURM_)?TMPDIR\b)(?:/|$)")


def _checkpoint_arg(out: Derived, step: Step) -> None:
    """`--output-dir /tmp/run`: where the program writes its checkpoints, for the storage rules."""
    args = step.args
    for i, word in enumerate(args):
        name, eq, value = word.text.partition("=")
        if not word.literal or not name.startswith("--"):
            continue
        key = name.lstrip("-").replace("-", "_").lower()
        if key not in _SAVE_FLAGS:
            continue
        target = word if eq else (args[i + 1] if i + 1 < len(args) else None)
        text = value if eq else (target.text if target is not None else "")
        if target is not None and (
            (target.literal and text.startswith("/")) or _NODE_SCRATCH.match(text.strip("\"'"))
        ):
            out.put(("storage", "checkpoints"), text.strip("\"'"), target.span, f"{name} {text}")
            return


# arguments and launcher flags that shard the model with FSDP: (pattern, parallelism.sharding)
_FSDP = (
    (lazy(r"^--use[-_]megatron[-_]fsdp$"), "megatron-fsdp"),
    (
        lazy(
            r"^--(?:fsdp|use[-_]fsdp|use[-_]torch[-_]fsdp2?|fsdp[-_]sharding[-_]strategy|fsdp[-_]config)(?:=.*)?$"
        ),
        "fsdp2",
    ),
    (lazy(r"^(?:--strategy[= ]|(?:\w+\.)*strategy=)['\"]?fsdp", re.I), "fsdp2"),
)


def _sharding(out: Derived, step: Step) -> None:
    """FSDP named on the launch line (`--fsdp full_shard`, accelerate's --use_fsdp, Lightning's
    `--strategy fsdp`): the layout the CUDA environment rules reason about."""
    words = list(step.args)
    if step.launcher is not None:
        words += [w for k, w in step.launcher.options.items() if k.startswith("fsdp")]
        if "use_fsdp" in step.launcher.flags:
            out.put(("parallelism", "sharding"), "fsdp2", step.launcher.span, "--use_fsdp")
            return
    for i, word in enumerate(words):
        text = word.text
        if text in ("--strategy",) and i + 1 < len(words):
            text = f"--strategy={words[i + 1].text}"
        for pattern, sharding in _FSDP:
            if word.literal and pattern.match(text):
                out.put(("parallelism", "sharding"), sharding, word.span, word.raw)
                return


def _environment(facts: ScriptFacts, out: Derived) -> None:
    """The lint view: every literal export as written (the import's view is `carry.environment`)."""
    exported = {e.name for e in facts.exports if e.exported}
    for e in facts.exports:
        if e.name not in exported or e.value is None or not _ENV_NAME.match(e.name):
            continue  # bash refuses a bad name (JC809 says so)
        out.put(("env", e.name), e.value, e.value_span, e.written)
    step = facts.main_step
    for a in step.env if step is not None else []:
        # what the training step's command gives its program (`NCCL_DEBUG=INFO srun …`, `srun
        # --export=ALL,NCCL_DEBUG=INFO …`) reaches it over the batch shell's export
        if a.value is not None and _ENV_NAME.match(a.name):
            out.put(("env", a.name), a.value, a.span, a.raw)


# commands that only show a value: a per-rank variable in a log line is a diagnostic, not a pitfall
_DIAGNOSTIC = frozenset({"echo", "printf", "logger", ":", "true"})


def _setup_lines(facts: ScriptFacts, out: Derived) -> None:
    """The batch shell's commands, as setup lines: where the spec rules look for shell.

    Only commands a setup rule can have something to say about: a step (srun, uv) or a per-rank
    variable; the echo and mkdir lines of a long script are left out, so they cost nothing. (JC702
    reads a script's every line itself.)
    """
    batch = sorted((x.span for x in facts.expansions if x.shell == "batch"), key=lambda sp: (sp.line, sp.col))
    starts = [(sp.line, sp.col) for sp in batch]
    batch_lines = sorted({sp.line for sp in batch})
    items: list[tuple[Span, str]] = [
        (c.span, c.text)
        for c in facts.commands
        if (_any_line(batch_lines, c.span.line, c.span.line) and c.name not in _DIAGNOSTIC)
        or _SRUN.search(c.text)
    ]
    # a step's program and arguments are launch.program and launch.args already; its line is
    # needed only for what the setup rules find in it (uv under srun, a per-rank variable)
    items += [
        (s.span, s.text)
        for s in facts.steps
        if _any_line(batch_lines, s.span.line, s.span.end_line) or _UV.search(s.text)
    ]
    # an unquoted heredoc srun's tasks read: the batch shell expanded it once, before they did
    items += [
        s.heredoc
        for s in facts.steps
        if s.heredoc is not None and _any_line(batch_lines, s.heredoc[0].line, s.heredoc[0].end_line)
    ]
    items += [(e.span, f"{e.name}={e.raw}") for e in facts.exports if e.value is None]
    # `srun bash -c "uv sync && …"`: the sync every task runs, as the srun line JC504 reads
    items += [
        (s.syncs, " ".join(["srun", *(w.raw for w in (s.srun or {}).values()), "uv sync"]))
        for s in facts.steps
        if s.syncs is not None and s.srun is not None
    ]
    items.sort(key=lambda item: (item[0].line, item[0].col))
    lines = []
    for i, (span, text) in enumerate(items):
        lines.append(text)
        out.spans[("launch", "setup", i)] = span
        inside = _first_within(batch, starts, span)
        if inside is not None:
            out.expansions[("launch", "setup", i)] = inside
    out.data["launch"]["setup"] = lines


def _any_line(lines: list[int], first: int, last: int) -> bool:
    """Whether the sorted ``lines`` hold one from ``first`` to ``last`` (a search, not a scan:
    a script of thousands of such lines would cost their square)."""
    i = bisect.bisect_left(lines, first)
    return i < len(lines) and lines[i] <= last


def _first_within(spans: list[Span], starts: list[tuple[int, int]], outer: Span) -> Span | None:
    """The first of ``spans`` (sorted by start) that lies within ``outer``."""
    end = (outer.end_line, outer.end_col)
    for i in range(bisect.bisect_left(starts, (outer.line, outer.col)), len(spans)):
        if starts[i] > end:
            return None
        if _within(spans[i], outer):
            return spans[i]
    return None


def _within(inner: Span, outer: Span) -> bool:
    return (inner.line, inner.col) >= (outer.line, outer.col) and (inner.end_line, inner.end_col) <= (
        outer.end_line,
        outer.end_col,
    )
