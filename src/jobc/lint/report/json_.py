"""A JSON list of finding objects with 1-based positions."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TextIO

from jobc.core.diagnostics import Finding


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
    }


def write(findings: Sequence[Finding], sources: dict[str, list[str]], out: TextIO, tty: bool) -> None:
    json.dump([as_dict(f) for f in findings], out, indent=2)
    out.write("\n")
