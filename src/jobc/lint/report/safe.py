"""Spec-derived text made safe to print (`jobc.core.text`, where every stage finds it)."""

from __future__ import annotations

from jobc.core.text import visible

__all__ = ["visible"]
