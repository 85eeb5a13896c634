"""Inline suppressions: `# jobc: ignore[CODES]` on the finding's line or alone on the line above."""

from __future__ import annotations

from pathlib import Path

from jobc.lint.config import Config
from jobc.lint.suppress import parse
from tests.support.lint import codes, lint_text, only, where

# tasks_per_node 4 with 8 GPUs in srun mode: JC101 at line 6.
SPEC = """\
version: 1
name: t
resources:
  nodes: 1
  gpus_per_node: 8
  tasks_per_node: 4{comment}
launch: {{mode: srun, program: train.py}}
"""


def spec(comment: str = "", above: str = "") -> str:
    text = SPEC.format(comment=comment)
    if above:
        text = text.replace("  tasks_per_node", f"{above}\n  tasks_per_node")
    return text


def test_without_a_suppression_the_finding_is_reported(tmp_path: Path) -> None:
    assert where(lint_text(spec(), tmp_path), "JC101") == [(6, 19)]


def test_same_line(tmp_path: Path) -> None:
    result = lint_text(spec("  # jobc: ignore[JC101]"), tmp_path)
    assert codes(result) == []


def test_line_above(tmp_path: Path) -> None:
    result = lint_text(spec(above="  # jobc: ignore[JC101] tasks are set by the wrapper"), tmp_path)
    assert codes(result) == []


def test_a_comment_two_content_lines_above_does_not_apply(tmp_path: Path) -> None:
    text = spec().replace("  gpus_per_node: 8", "  # jobc: ignore[JC101]\n  gpus_per_node: 8")
    result = lint_text(text, tmp_path)
    assert "JC101" in codes(result)
    assert where(result, "JC007") == [(5, 5)]


def test_several_codes(tmp_path: Path) -> None:
    # a leading zero is JC004 on the same line as JC101
    text = spec("  # jobc: ignore[JC101, JC004]").replace("tasks_per_node: 4", "tasks_per_node: 04")
    assert codes(lint_text(text, tmp_path)) == []


def test_several_codes_one_unused_is_reported_by_name(tmp_path: Path) -> None:
    result = lint_text(spec("  # jobc: ignore[JC101,JC201]"), tmp_path)
    finding = only(result, "JC007")
    assert "JC201" in finding.message
    assert "JC101" not in finding.message


def test_prefix_code(tmp_path: Path) -> None:
    assert codes(lint_text(spec("  # jobc: ignore[JC1]"), tmp_path)) == []


def test_codes_are_case_insensitive(tmp_path: Path) -> None:
    assert codes(lint_text(spec("  # jobc: ignore[jc101]"), tmp_path)) == []


def test_unused_suppression_is_jc007_at_the_marker(tmp_path: Path) -> None:
    text = spec().replace("  nodes: 1", "  nodes: 1  # jobc: ignore[JC101]")
    result = lint_text(text, tmp_path)
    assert "JC101" in codes(result)
    finding = only(result, "JC007")
    assert (finding.span.line, finding.span.col) == (4, 15)
    assert finding.span.end_col - finding.span.col == len("jobc: ignore[JC101]")
    assert finding.message == "unused suppression: nothing here is reported as JC101"


def test_unknown_code_is_an_unused_suppression(tmp_path: Path) -> None:
    result = lint_text(spec("  # jobc: ignore[JC101, JC999]"), tmp_path)
    assert "JC999" in only(result, "JC007").message


def test_empty_brackets(tmp_path: Path) -> None:
    result = lint_text(spec("  # jobc: ignore[]"), tmp_path)
    assert "JC101" in codes(result)
    assert "names no rule" in only(result, "JC007").message


def test_hash_inside_quotes_is_not_a_comment(tmp_path: Path) -> None:
    text = """\
    version: 1
    name: t
    resources: {nodes: 1, gpus_per_node: 8, tasks_per_node: 4, mem: "0 # jobc: ignore[JC101]"}
    launch: {mode: srun, program: train.py}
    """
    # not a suppression: JC101 stays, and no unused-suppression finding appears
    assert codes(lint_text(text, tmp_path)) == ["JC101"]


def test_marker_inside_a_double_quoted_value_on_the_finding_line(tmp_path: Path) -> None:
    text = """\
    version: 1
    name: t
    slurm: {time: 12:00:00, partition: "x # jobc: ignore[JC004]"}
    resources: {nodes: 1, gpus_per_node: 8}
    launch: {program: train.py}
    """
    assert codes(lint_text(text, tmp_path)) == ["JC004"]


def test_single_quoted_value_with_doubled_quote_and_marker() -> None:
    assert parse("a: 'it''s # jobc: ignore[JC101]'\n") == []


def test_marker_inside_a_block_scalar_is_text() -> None:
    text = "launch:\n  setup:\n    - |\n      echo hi  # jobc: ignore[JC106]\n"
    assert parse(text) == []


def test_marker_inside_a_multi_line_quoted_string_is_text() -> None:
    assert parse('a: "one\n  # jobc: ignore[JC101] two"\nb: 1\n') == []


def test_a_marker_after_a_quoted_value_is_a_comment() -> None:
    (sup,) = parse('a: "x # y"  # jobc: ignore[JC101]\n')
    assert (sup.line, sup.col, sup.codes, sup.targets) == (1, 15, ("JC101",), (1,))


def test_own_line_marker_targets_itself_and_the_next_content_line() -> None:
    (sup,) = parse("a: 1\n# jobc: ignore[JC2]\n\nb: 2\n")
    assert sup.targets == (2, 4)


def test_unparseable_text_still_finds_plain_markers() -> None:
    # the scanner refuses the text; the line-by-line fallback still respects quotes
    (sup,) = parse('a: [1\nb: "# jobc: ignore[JC1]"  # jobc: ignore[JC2]\n')
    assert sup.codes == ("JC2",)


def test_suppression_in_a_profile_applies_to_findings_in_the_profile(tmp_path: Path) -> None:
    profile = "profile: p\nresources:\n  tasks_per_node: 4  # jobc: ignore[JC101]\n"
    text = "version: 1\nname: t\nextends: p.yaml\nresources: {nodes: 1, gpus_per_node: 8}\n"
    text += "launch: {mode: srun, program: train.py}\n"
    assert codes(lint_text(text, tmp_path, files={"p.yaml": profile})) == []


def test_suppression_of_a_rule_that_is_not_selected_is_not_unused(tmp_path: Path) -> None:
    result = lint_text(spec("  # jobc: ignore[JC201]"), tmp_path, config=Config(select=["JC1"]))
    assert codes(result) == ["JC101"]


def test_jc007_can_itself_be_ignored(tmp_path: Path) -> None:
    text = spec().replace("  nodes: 1", "  nodes: 1  # jobc: ignore[JC101]")
    assert codes(lint_text(text, tmp_path, config=Config(ignore=["JC007"]))) == ["JC101"]


def test_no_jc007_when_the_rules_did_not_run(tmp_path: Path) -> None:
    # a schema error stops linting before the rules; nothing is known about unused markers
    text = spec("  # jobc: ignore[JC101]").replace("  nodes: 1", "  nodez: 1")
    assert codes(lint_text(text, tmp_path)) == ["JC003"]
