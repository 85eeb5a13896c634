"""Hardware catalogue shipped as package data."""

from __future__ import annotations

from functools import cache

from jobc.core.record import record


@record
class Gpu:
    key: str
    title: str
    memory_bytes: int
    generation: str  # ampere | ada | hopper | blackwell
    gpus_per_node: int

    @property
    def memory_gb(self) -> float:
        return self.memory_bytes / 1e9


@cache
def gpus() -> dict[str, Gpu]:
    from jobc.data.literals import GPUS as raw  # gpus.json, as literals: no json to import

    return {
        key: Gpu(key, v["title"], int(v["memory_bytes"]), v["generation"], int(v["gpus_per_node"]))
        for key, v in raw.items()
        if not key.startswith("_")
    }
