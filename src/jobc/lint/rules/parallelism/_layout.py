"""Arithmetic and wording shared by the JC2 rules: world descriptions and suggested values."""

from __future__ import annotations

from collections.abc import Iterable
from math import isqrt

from jobc.spec.context import Context

# Suggestions need the divisors of sizes like the world or a layer count; beyond this no real
# job reaches, and a spec with absurd numbers simply gets no suggestion (rather than a long wait).
_DIVISOR_LIMIT = 10**10


def world_text(ctx: Context) -> str:
    """``16 (2 nodes × 8 GPUs)``."""
    nodes = f"{ctx.nodes} node{'s' if ctx.nodes != 1 else ''}"
    gpus = f"{ctx.gpus_per_node} GPU{'s' if ctx.gpus_per_node != 1 else ''}"
    return f"{ctx.world} ({nodes} × {gpus})"


def divisors(n: int) -> list[int]:
    """The divisors of ``n`` in ascending order; none for n < 1 or absurdly large n."""
    if n < 1 or n > _DIVISOR_LIMIT:
        return []
    small = [d for d in range(1, isqrt(n) + 1) if n % d == 0]
    return sorted({*small, *(n // d for d in small)})


def nearest(candidates: Iterable[int], current: int, count: int = 2) -> list[int]:
    """The ``count`` candidates closest to ``current`` (ties: the smaller), in ascending order."""
    ranked = sorted(set(candidates) - {current}, key=lambda c: (abs(c - current), c))
    return sorted(ranked[:count])


def multiples_around(value: int, unit: int) -> list[int]:
    """The multiples of ``unit`` just below and just above ``value`` (only positive ones)."""
    below = value // unit * unit
    return [m for m in (below, below + unit) if m > 0] if below else [unit, 2 * unit]


def suggest(name: str, values: list[int]) -> str:
    """``; use tp 2 or 4``, or nothing when there is no value to suggest."""
    return f"; use {name} {alternatives(values)}" if values else ""


def alternatives(values: list[int]) -> str:
    """``4``, ``4 or 8``, ``2, 4 or 8``."""
    text = [str(v) for v in values]
    return text[0] if len(text) == 1 else f"{', '.join(text[:-1])} or {text[-1]}"
