"""The launch in one line, and the defaults the spec left, in words: the compiled script's header
and `jobc plan` say them, so what will run is read before the job waits in the queue.

"2 nodes × 8 GPUs under torchrun, an agent per node with 8 workers each: uv sync once, then uv
run --no-sync python train.py --lr 3e-4"
"""

from __future__ import annotations

import shlex
from typing import TYPE_CHECKING

from jobc.compile.plan import Plan, make_plan
from jobc.core.text import visible
from jobc.spec.reference import defaults_left

if TYPE_CHECKING:
    from jobc.spec.context import Context

# The program and its arguments are shown up to this many characters.
_PROGRAM_CHARS = 80


def _program(plan: Plan) -> str:
    text = " ".join(shlex.quote(word) for word in plan.program)
    return text if len(text) <= _PROGRAM_CHARS else text[: _PROGRAM_CHARS - 1].rstrip() + "…"


def _interpreter(plan: Plan) -> str:
    """How the interpreter is reached, and the sync before it."""
    launch = plan.spec.launch
    if plan.uv:
        once = "uv sync once, then " if launch.uv_sync == "two-phase" else ""
        return f"{once}uv run --no-sync python"
    if launch.python == "none":
        return "no interpreter (the program runs as it is)"
    if launch.python is not None:
        return shlex.quote(launch.python)
    if plan.spec.container is not None:
        return "the container's python"
    sync = "uv sync once, then " if launch.uv_sync == "two-phase" else ""
    return f"(uv.lock in the workdir: {sync}uv run --no-sync python; else: python on PATH)"


def launch_line(plan: Plan) -> str:
    """The effective launch: where, under what, and which interpreter runs what."""
    nodes = f"{plan.nodes} node{'s' if plan.nodes != 1 else ''}"
    gpus = plan.ctx.gpus_per_node
    size = f"{nodes} × {gpus} GPU{'s' if gpus != 1 else ''}" if gpus else nodes
    if plan.mode == "torchrun":
        parts = [f"under torchrun, an agent per node with {plan.ranks_per_node} workers each"]
    else:
        tasks = plan.nodes * plan.tasks_per_node
        parts = [f"under srun, {tasks} task{'s' if tasks != 1 else ''} with {plan.tasks_per_node} per node"]
    if plan.spec.container is not None:
        parts.append(f"in container {plan.spec.container.image}")
    setup = len(plan.spec.launch.setup)
    if setup:
        parts.append(f"after {setup} launch.setup line{'s' if setup != 1 else ''}")
    return f"{size} {', '.join(parts)}: {_interpreter(plan)} {_program(plan)}"


def defaults_words(ctx: Context) -> list[str]:
    """`field value` for every default the spec left that reaches the script."""
    return [f"{path} {value}" for path, value in defaults_left(ctx)]


def header_lines(plan: Plan) -> list[str]:
    """The header comments: the launch line, then the defaults, wrapped at 100 characters. Spec
    values are shown with every control character escaped: a line break in a program's name must
    not end the comment and become a command."""
    lines = [f"# launch: {visible(launch_line(plan))}"]
    words = [visible(w) for w in defaults_words(plan.ctx)]
    if words:
        lines.append("# defaults (not written in the spec; write them to change them):")
        current = "#  "
        for i, item in enumerate(words):
            piece = f" {item}" + (";" if i + 1 < len(words) else "")
            if len(current) + len(piece) > 100 and current != "#  ":
                lines.append(current)
                current = "#  "
            current += piece
        lines.append(current)
    return lines


def for_plan(ctx: Context) -> dict[str, object]:
    """What `jobc plan` shows of the launch: the line and the defaults (None when the spec
    cannot be compiled, e.g. a launch without a program)."""
    from jobc.compile.errors import CompileError

    try:
        plan = make_plan(ctx)
    except CompileError:
        return {"launch": None, "defaults": dict(defaults_left(ctx))}
    return {"launch": launch_line(plan), "defaults": dict(defaults_left(ctx))}
