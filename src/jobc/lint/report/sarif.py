"""SARIF 2.1.0, with every rule's metadata, for code-scanning upload."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import Any, TextIO
from urllib.parse import quote

from jobc import __version__
from jobc.core.diagnostics import Finding, Severity, Span

_LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}
DOCS_URL = "https://jobc.dev/rules"


def _uri(path: str) -> str:
    # SARIF wants a URI reference: spaces, colons, non-ASCII and "<command line>" are percent-encoded
    # the name's own bytes: a file name that is not UTF-8 holds surrogates that cannot be encoded
    return quote(os.fsencode(path.replace("\\", "/")), safe="/")


def document(findings: Sequence[Finding]) -> dict[str, Any]:
    from jobc.lint.rules import RULES

    codes = list(RULES)
    rules = [
        {
            "id": rule.code,
            "name": rule.meta.name,
            "shortDescription": {"text": rule.meta.summary},
            "fullDescription": {"text": rule.meta.summary + ". " + rule.meta.remediation},
            "help": {"text": rule.doc, "markdown": rule.doc},
            "helpUri": f"{DOCS_URL}#{rule.code.lower()}",
            "defaultConfiguration": {"level": _LEVEL[rule.meta.severity]},
        }
        for rule in RULES.values()
    ]
    results = [_result(f, codes) for f in findings]
    return {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "jobc",
                        "version": __version__,
                        "informationUri": "https://jobc.dev",
                        "rules": rules,
                    }
                },
                "results": results,
            }
        ],
    }


def _location(file: str, span: Span) -> dict[str, Any]:
    return {
        "physicalLocation": {
            "artifactLocation": {"uri": _uri(file)},
            "region": {
                "startLine": span.line,
                "startColumn": span.col,
                "endLine": span.end_line,
                "endColumn": span.end_col,
            },
        }
    }


def _result(f: Finding, codes: list[str]) -> dict[str, Any]:
    result: dict[str, Any] = {
        "ruleId": f.code,
        "ruleIndex": codes.index(f.code),
        "level": _LEVEL[f.severity],
        "message": {"text": f.message},
        "locations": [_location(f.file, f.span)],
    }
    if f.related:
        result["relatedLocations"] = [
            {"id": i, **_location(r.file or f.file, r.span), "message": {"text": r.message}}
            for i, r in enumerate(f.related)
        ]
    return result | _fixes(f)


def _fixes(f: Finding) -> dict[str, Any]:
    """SARIF 2.1.0 `fixes` (§3.55): one artifact change of the finding's file, its edits as
    replacements of a deleted region (empty to insert) by inserted content."""
    if f.fix is None:
        return {}
    replacements = []
    for edit in f.fix.edits:
        span = edit.at
        assert isinstance(span, Span)  # a finding's fix holds spans, never data paths
        replacements.append(
            {
                "deletedRegion": {
                    "startLine": span.line,
                    "startColumn": span.col,
                    "endLine": span.end_line,
                    "endColumn": span.end_col,
                },
                "insertedContent": {"text": edit.text},
            }
        )
    fix = {
        "description": {"text": f.fix.description},
        "artifactChanges": [{"artifactLocation": {"uri": _uri(f.file)}, "replacements": replacements}],
        "properties": {"applicability": str(f.fix.applicability)},
    }
    return {"fixes": [fix]}


def write(findings: Sequence[Finding], sources: dict[str, list[str]], out: TextIO, tty: bool) -> None:
    json.dump(document(findings), out, indent=2)
    out.write("\n")
