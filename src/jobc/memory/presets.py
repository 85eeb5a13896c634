"""The bundled model presets (`jobc/data/models.json`, read as `jobc.data.literals`), on first use only."""

from __future__ import annotations

from functools import cache

from jobc.core.record import record
from jobc.memory.shape import ModelShape

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any


@record
class Preset:
    key: str
    title: str
    hf_id: str
    config: dict[str, Any]


@cache
def catalogue() -> dict[str, Preset]:
    from jobc.data.literals import MODELS as raw  # models.json, as literals: no json to import

    return {
        key: Preset(key, entry["title"], entry["hf_id"], entry["config"])
        for key, entry in raw.items()
        if not key.startswith("_")
    }


@cache
def shape(key: str) -> ModelShape:
    from jobc.memory.hf import shape_from_config

    return shape_from_config(catalogue()[key].config, f"preset {key}")


def lookup(name: str) -> ModelShape | str:
    """The preset's shape, or a message saying it is unknown (with the closest name)."""
    presets = catalogue()
    if name in presets:
        return shape(name)
    by_alias = {p.hf_id.lower(): p.key for p in presets.values()}
    by_alias.update({p.key.lower(): p.key for p in presets.values()})
    by_alias.update({p.key.replace("-", "").replace(".", ""): p.key for p in presets.values()})
    folded = name.strip().lower()
    guess = by_alias.get(folded) or by_alias.get(folded.replace("-", "").replace(".", ""))
    if guess is None:
        import difflib  # only for a preset name that is wrong

        close = difflib.get_close_matches(folded, list(presets), n=1, cutoff=0.6)
        guess = close[0] if close else None
    hint = f"; did you mean {guess!r}?" if guess else f"; presets: {', '.join(presets)}"
    return f"model.preset {name!r} is not a bundled preset{hint}"
