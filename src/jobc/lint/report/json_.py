"""A JSON list of finding objects with 1-based positions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from jobc.core.diagnostics import Finding, Fix, Span


def as_dict(f: Finding) -> dict[str, object]:
    return {
        "path": f.file,
        "line": f.span.line,
        "col": f.span.col,
        "end_line": f.span.end_line,
        "end_col": f.span.end_col,
        "code": f.code,
        "name": f.name,
        "severity": str(f.severity),
        "message": f.message,
        "data_path": list(f.path),
        # other places the finding concerns: the line that runs a command assembled elsewhere
        "related": [
            {
                "path": r.file or f.file,
                "line": r.span.line,
                "col": r.span.col,
                "end_line": r.span.end_line,
                "end_col": r.span.end_col,
                "message": r.message,
            }
            for r in f.related
        ],
        "fix": None if f.fix is None else fix_dict(f.fix),
    }


def fix_dict(fix: Fix) -> dict[str, object]:
    """A fix as data: its edits replace the text from (line, col) up to (end_line, end_col)."""
    edits = []
    for edit in fix.edits:
        span = edit.at
        assert isinstance(span, Span)  # a finding's fix holds spans, never data paths
        edits.append(
            {
                "line": span.line,
                "col": span.col,
                "end_line": span.end_line,
                "end_col": span.end_col,
                "text": edit.text,
            }
        )
    return {"applicability": str(fix.applicability), "description": fix.description, "edits": edits}


def write(findings: Sequence[Finding], sources: dict[str, list[str]], out: TextIO, tty: bool) -> None:
    json.dump([as_dict(f) for f in findings], out, indent=2)
    out.write("\n")
