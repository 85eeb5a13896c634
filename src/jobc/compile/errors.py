"""The compiler's one error: a spec it cannot turn into a correct script."""

from __future__ import annotations


class CompileError(ValueError):
    """The spec cannot be compiled; the message says why (lint normally reports it first)."""
