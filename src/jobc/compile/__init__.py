"""`jobc compile`: a validated spec to one sbatch script (or an attach script), as pure text.

Takes a checked spec (`jobc.spec.context.Context`) and gives a `Plan` (every value the script
needs, rendered and quoted) and then the script string; it reads no files, runs nothing and
knows no clock, so the same spec always gives the same bytes.

The names below load their modules on first use: lint imports `jobc.compile.sbatch` to check
`#SBATCH` values on every run, and should not pay for the whole compiler to do so.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.compile.errors import CompileError
    from jobc.compile.plan import spec_sha256
    from jobc.compile.script import compile_attach, compile_batch

__all__ = ["CompileError", "compile_attach", "compile_batch", "spec_sha256"]

_HOMES = {
    "CompileError": "jobc.compile.errors",
    "spec_sha256": "jobc.compile.plan",
    "compile_attach": "jobc.compile.script",
    "compile_batch": "jobc.compile.script",
}


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'jobc.compile' has no attribute {name!r}")
    from importlib import import_module

    return getattr(import_module(home), name)
