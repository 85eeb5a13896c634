"""How a script rule finds the script's facts and names a place in the script."""

from __future__ import annotations

from jobc.core.diagnostics import Hit, Span
from jobc.spec.context import Context

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.script.facts import ScriptFacts, Step
    from jobc.script.spec import Derived


def facts(ctx: Context) -> ScriptFacts | None:
    """The facts of the script being linted; None when the file is a spec."""
    return ctx.facts.get("script")


def derived(ctx: Context) -> Derived | None:
    """The spec-shaped data the script was read into, with the script's words for each value."""
    return ctx.facts.get("derived")


def mode_known(ctx: Context) -> bool:
    """Whether the script shows what its main step runs (a launcher, a program, a module): behind
    `srun bash -c "$step"` or `srun ./run.sh` the launch mode is unknown, and a rule that reasons
    from it would only guess a finding."""
    d = derived(ctx)
    return d is not None and d.mode_known


def hit(span: Span, message: str, **more: Any) -> Hit:
    """A finding at a place in the script's text."""
    return Hit((), message, span=span, **more)


def nodes(f: ScriptFacts) -> int:
    """Nodes the allocation asks for: `--nodes`, or the nodes `--ntasks` over `--ntasks-per-node`
    fill (1 when the script does not say, as sbatch)."""
    from jobc.script.allocation import job_nodes

    return job_nodes(f) or 1


def started_on_first_node(f: ScriptFacts) -> Step | None:
    """The training step of a multi-node job that the batch shell starts itself, on the first node
    only, when it should run on every node (JC805): a launcher that does not reach the other nodes
    itself, or a program no srun starts; None otherwise (a Ray driver, a helper beside srun steps,
    a command a file jobc cannot read may set, one node's job by its own flag)."""
    from jobc.tables import launchers

    step = f.main_step
    if nodes(f) < 2 or step is None or step.srun is not None:
        return None
    if step.launcher is None and step.program is None and step.module is None:
        return None  # `bash "$SCRIPT"`: what it starts, and how, is in another file
    if step.sourced_from is not None:
        return None  # `$SRUN_LAUNCH python t.py` set by a file jobc cannot read: srun or not, not known
    if step.launcher is None and step.started_by is not None and _from_output(f, step.started_by.raw):
        # `cmd=$(./setup.sh)` then `$cmd train.py`: the command is what a program printed, srun or not
        return None
    if any(s.srun is not None for s in f.steps):
        # the job's steps run under srun; a program the batch shell runs as well is a helper
        return None
    launcher = step.launcher
    if launcher is None and any(c.name == "ray" for c in f.commands):
        return None  # a Ray cluster's driver: one process on the head node, by design
    kind = launchers.entry(launcher.name) if launcher is not None else None
    if launcher is not None and kind is not None:
        if kind.reaches_always or any(
            k in launcher.options or k in launcher.flags for k in kind.reaches_nodes
        ):
            return None  # it starts the other nodes' processes itself (ssh, pdsh, MPI)
        if any(k in launcher.flags for k in kind.single_node):
            return None  # one node's job by its own flag: JC806 speaks of that
    return step


def _from_output(f: ScriptFacts, raw: str) -> bool:
    """Whether the word is a variable (`$cmd`, `${cmd}`, `"$cmd"`) the script sets only from a
    command's output (`$(…)`, a backquote): what it holds is known when the job runs, not from the
    text."""
    word = raw.strip()
    if len(word) >= 2 and word[0] == word[-1] == '"':
        word = word[1:-1]
    name = word[1:] if word.startswith("$") else ""
    if name.startswith("{") and name.endswith("}"):
        name = name[1:-1]
    if not name.isidentifier() or not name.isascii():
        return False
    sets = [e for e in f.exports if e.name == name]
    return bool(sets) and all(e.value is None and ("$(" in e.raw or "`" in e.raw) for e in sets)
