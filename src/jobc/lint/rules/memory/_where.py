"""Where the memory rules point: at the setting the user would change, or where the model comes from."""

from __future__ import annotations

from jobc.core.diagnostics import DataPath
from jobc.spec.context import Context


def model_source(ctx: Context) -> DataPath:
    """The model field that supplied the shape: the preset, the config, or the section itself."""
    for name in ("preset", "hf_config"):
        if ctx.given("model", name):
            return ("model", name)
    return ("model",)


def first_given(ctx: Context, *paths: DataPath) -> DataPath | None:
    for path in paths:
        if ctx.given(*path):
            return path
    return None
