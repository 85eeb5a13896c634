"""How a script rule finds the script's facts and names a place in the script."""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobc.core.diagnostics import DataPath, Span
from jobc.spec.context import Context

if TYPE_CHECKING:
    from jobc.script.facts import ScriptFacts

# The first part of a data path that names a place in a script rather than a spec value; the
# lint pipeline turns such a path back into the span it carries.
SCRIPT = "#script"


def facts(ctx: Context) -> ScriptFacts | None:
    """The facts of the script being linted; None when the file is a spec."""
    return ctx.facts.get("script")


def at(span: Span) -> DataPath:
    return (SCRIPT, span.line, span.col, span.end_line, span.end_col)


def span_of(path: DataPath) -> Span | None:
    if len(path) == 5 and path[0] == SCRIPT and all(isinstance(p, int) for p in path[1:]):
        line, col, end_line, end_col = (int(p) for p in path[1:])
        return Span(line, col, end_line, end_col)
    return None


def nodes(f: ScriptFacts) -> int:
    """Nodes the allocation asks for (1 when the script does not say, as sbatch)."""
    d = f.honoured().get("nodes")
    if d is None or d.value is None:
        return 1
    from jobc.core.numbers import ascii_int

    first = ascii_int(d.value.split("-")[0])
    return first if first else 1
