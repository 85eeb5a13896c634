"""`{dotted.path}` values as lint sees them and the compiler renders them."""

from __future__ import annotations

from pathlib import Path

from jobc.spec.interpolate import interpolation_values, render
from tests.helpers import codes, lint_text, only

SPEC = """\
version: 1
name: job
resources: {nodes: 1, gpus_per_node: 8}
parallelism: {tp: 2}
storage:
  checkpoints: /ckpt/{name}
  logs: "{storage.checkpoints}/logs"
launch:
  program: train.py
  args: [--save, "{storage.checkpoints}", --logs, "{storage.logs}", --tp, "{parallelism.tp}", "{{x}}"]
env:
  A: "{{literal}}"
  B: "{env.A}"
"""


def test_a_referenced_template_gives_its_rendered_text(tmp_path: Path) -> None:
    result = lint_text(SPEC, tmp_path)
    assert codes(result) == []
    assert result.context is not None
    values = interpolation_values(result.context)
    args = [render(str(a), values) for a in result.context.spec.launch.args]
    assert args == ["--save", "/ckpt/job", "--logs", "/ckpt/job/logs", "--tp", "2", "{x}"]


def test_literal_braces_are_unescaped_once(tmp_path: Path) -> None:
    result = lint_text(SPEC, tmp_path)
    assert result.context is not None
    values = interpolation_values(result.context)
    # A is "{literal}" once rendered; B refers to A and gets that text, not a second lookup
    assert values["env"] == {"A": "{literal}", "B": "{literal}"}


def test_derived_values_can_be_interpolated(tmp_path: Path) -> None:
    result = lint_text(SPEC.replace('"{{x}}"', '"{parallelism.dp}", "{world}"'), tmp_path)
    assert result.context is not None
    values = interpolation_values(result.context)
    assert [render(str(a), values) for a in result.context.spec.launch.args[-2:]] == ["4", "8"]


def test_unknown_reference_is_jc008_at_the_value(tmp_path: Path) -> None:
    result = lint_text(SPEC.replace("{parallelism.tp}", "{parallelism.tensor}"), tmp_path)
    finding = only(result, "JC008")
    assert (finding.span.line, finding.span.col) == (10, 75)
    assert "{parallelism.tensor} names no spec value" in finding.message


def test_a_section_is_not_a_value(tmp_path: Path) -> None:
    result = lint_text(SPEC.replace("{parallelism.tp}", "{parallelism}"), tmp_path)
    assert "is a section, not a value" in only(result, "JC008").message


def test_a_stray_brace_is_jc008(tmp_path: Path) -> None:
    result = lint_text(SPEC.replace('"{{x}}"', '"x}"'), tmp_path)
    assert "write {{ or }} for a literal brace" in only(result, "JC008").message


def test_shell_syntax_is_not_an_interpolation(tmp_path: Path) -> None:
    # ${HOME} is JC507's business (passed literally); it is no reference and no stray brace
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8}
        launch: {program: train.py, args: ["--out", "${HOME}/{name}"]}
        """,
        tmp_path,
    )
    assert "JC008" not in codes(result)
    assert "JC507" in codes(result)
    assert render("${HOME}/{name}", {"name": "t"}) == "${HOME}/t"
