"""The environment a rank sees, as far as the spec decides it: `env` wins over `fabric.env`,
as in the compiled script, and each value keeps the data path it was written at."""

from __future__ import annotations

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath
from jobc.core.record import record
from jobc.spec.context import Context


@record
class Setting:
    name: str
    value: str | int | float
    path: DataPath
    # how the file names it: `env NCCL_DEBUG` in a spec, the variable itself in a script (the
    # finding's line shows its export)
    where: str = ""

    @property
    def text(self) -> str:
        return str(self.value)


def _setting(ctx: Context, name: str, value: str | int | float, path: DataPath) -> Setting:
    spec_name = ".".join(str(p) for p in path[:-1]) + f" {name}"
    return Setting(name, value, path, name if "derived" in ctx.facts else spec_name)


def settings(ctx: Context) -> Iterator[Setting]:
    """Every variable the spec writes, fabric.env first, then env."""
    for name, value in ctx.spec.fabric.env.items():
        yield _setting(ctx, name, value, ("fabric", "env", name))
    for name, value in ctx.spec.env.items():
        yield _setting(ctx, name, value, ("env", name))


def lookup(ctx: Context, name: str) -> Setting | None:
    """The setting of ``name`` that reaches the program (env wins over fabric.env), if any."""
    if name in ctx.spec.env:
        return _setting(ctx, name, ctx.spec.env[name], ("env", name))
    if name in ctx.spec.fabric.env:
        return _setting(ctx, name, ctx.spec.fabric.env[name], ("fabric", "env", name))
    return None


def truthy(value: str | int | float) -> bool:
    return str(value).strip().lower() in ("1", "true", "yes", "on")
