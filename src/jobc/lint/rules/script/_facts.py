"""How a script rule finds the script's facts and names a place in the script."""

from __future__ import annotations

from jobc.core.diagnostics import Hit, Span
from jobc.spec.context import Context

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.script.facts import ScriptFacts
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
