"""GitHub Actions workflow commands, one annotation per finding.

GitHub shows at most 10 error and 10 warning annotations per step, so every finding is also
printed as a plain line that the log keeps in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TextIO

from jobc.core.diagnostics import Finding, Severity
from jobc.lint.report.safe import visible
from jobc.lint.report.text import also, line

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}


def _data(text: str) -> str:
    # GitHub's own escapes for line breaks (a raw one would start a new workflow command), then
    # backslash escapes for what remains unprintable
    return visible(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def write(findings: Sequence[Finding], sources: dict[str, list[str]], out: TextIO, tty: bool) -> None:
    for f in findings:
        out.write(
            f"::{_LEVEL[f.severity]} file={_prop(f.file)},line={f.span.line},"
            f"endLine={f.span.end_line},col={f.span.col},endColumn={f.span.end_col},"
            f"title={_prop(f.code + ' ' + f.name)}::{_data(f.message)}\n"
        )
    for f in findings:
        out.write("".join(text + "\n" for text in (line(f), *also(f))))
