"""A finding's related locations in every output format: `also:` in text, `relatedLocations` in
SARIF, `related` in JSON, and an `also:` line after the GitHub annotations' plain lines."""

from __future__ import annotations

import io
import json

from jobc.core.diagnostics import Finding, Related, Severity, Span
from jobc.lint.report import github, json_, sarif, text

FINDING = Finding(
    "JC804",
    "launcher-size-mismatch",
    Severity.ERROR,
    "--nproc_per_node=8 but each node has 4 GPUs allocated",
    "job.sh",
    Span(5, 16, 5, 34),
    (),
    (Related(Span(9, 1, 9, 60), "the command is run here"),),
)


def _out(module: object, tty: bool = False) -> str:
    buf = io.StringIO()
    module.write([FINDING], {"job.sh": ["x"] * 10}, buf, tty)  # type: ignore[attr-defined]
    return buf.getvalue()


def test_text_names_the_run_line_after_the_finding() -> None:
    lines = _out(text).splitlines()
    assert lines[0].startswith("job.sh:5:16: JC804 [error]")
    assert lines[1] == "  also: job.sh:9:1: the command is run here"
    assert "also: job.sh:9:1: the command is run here" in _out(text, tty=True)


def test_json_carries_the_related_location() -> None:
    (item,) = json.loads(_out(json_))
    assert item["line"] == 5
    assert item["related"] == [
        {
            "path": "job.sh",
            "line": 9,
            "col": 1,
            "end_line": 9,
            "end_col": 60,
            "message": "the command is run here",
        }
    ]


def test_sarif_related_locations() -> None:
    (result,) = json.loads(_out(sarif))["runs"][0]["results"]
    (related,) = result["relatedLocations"]
    assert related["message"] == {"text": "the command is run here"}
    assert related["physicalLocation"]["region"]["startLine"] == 9
    assert result["locations"][0]["physicalLocation"]["region"]["startLine"] == 5


def test_github_plain_lines_keep_the_related_location() -> None:
    assert "  also: job.sh:9:1: the command is run here" in _out(github).splitlines()


def test_a_finding_without_related_locations_is_written_as_before() -> None:
    plain = Finding("JC108", "n", Severity.WARNING, "m", "a.sh", Span.point(2, 1))
    buf = io.StringIO()
    text.write([plain], {}, buf, False)
    assert buf.getvalue() == "a.sh:2:1: JC108 [warning] m\n"
    (result,) = sarif.document([plain])["runs"][0]["results"]
    assert "relatedLocations" not in result
