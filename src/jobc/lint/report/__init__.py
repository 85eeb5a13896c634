"""Output formats for findings."""

from __future__ import annotations

from jobc.core.diagnostics import Finding

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import TextIO

    Reporter = Callable[[Sequence[Finding], dict[str, list[str]], TextIO, bool], None]


def reporter(name: str) -> Reporter:
    """The writer for a format; each takes findings, source lines by file, a stream and a tty flag."""
    if name == "text":
        from jobc.lint.report.text import write
    elif name == "json":
        from jobc.lint.report.json_ import write
    elif name == "sarif":
        from jobc.lint.report.sarif import write
    elif name == "github":
        from jobc.lint.report.github import write
    else:
        raise ValueError(name)
    return write


FORMATS = ("text", "json", "sarif", "github")
