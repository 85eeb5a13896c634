"""`{dotted.path}` values as lint sees them and the compiler renders them."""

from __future__ import annotations

from pathlib import Path

from jobc.spec.interpolate import interpolation_values, render
from tests.support.lint import codes, lint_text, only, where

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


# -- references that go round in a circle or multiply ------------------------------------------

CYCLE = """\
version: 1
name: job
resources: {nodes: 1, gpus_per_node: 8}
launch: {program: train.py}
storage:
  checkpoints: "LOGS"
  logs: "CKPT"
"""


def test_a_cycle_is_jc008_at_each_value_on_it(tmp_path: Path) -> None:
    text = CYCLE.replace("LOGS", "{storage.logs}" * 30).replace("CKPT", "{storage.checkpoints}" * 30)
    result = lint_text(text, tmp_path)
    found = sorted((f.span.line, f.span.col, f.message) for f in result.findings if f.code == "JC008")
    assert [(line, col) for line, col, _ in found] == [(6, 16), (7, 9)]
    assert (
        "refers back to itself: {storage.checkpoints} -> {storage.logs} -> {storage.checkpoints}"
        in (found[0][2])
    )


def test_a_value_that_refers_to_itself(tmp_path: Path) -> None:
    result = lint_text(CYCLE.replace("LOGS", "/a").replace("CKPT", "{storage.logs}/x"), tmp_path)
    finding = only(result, "JC008")
    assert (finding.span.line, finding.span.col) == (7, 9)
    assert "{storage.logs} -> {storage.logs}" in finding.message


def test_a_value_that_uses_a_cycle_says_so(tmp_path: Path) -> None:
    text = CYCLE.replace("LOGS", "{storage.logs}").replace("CKPT", "{storage.checkpoints}")
    text += 'env: {A: "{storage.logs}/a"}\n'
    result = lint_text(text, tmp_path)
    assert sorted(where(result, "JC008")) == [(6, 16), (7, 9), (8, 10)]
    assert "go round in a circle" in next(f for f in result.findings if f.span.line == 8).message


def chain(links: int, copies: int) -> str:
    """env values E0…En, each ``copies`` references to the one before: copies**links characters."""
    rows = ['  E0: "xxxxxxxxxxxxxxxx"']
    rows += [f'  E{i}: "' + f"{{env.E{i - 1}}}" * copies + '"' for i in range(1, links + 1)]
    return CYCLE.replace("LOGS", "/c").replace("CKPT", "/l") + "env:\n" + "\n".join(rows) + "\n"


def test_an_exponential_chain_is_reported_where_it_passes_the_bound(tmp_path: Path) -> None:
    result = lint_text(chain(60, 4), tmp_path)
    finding = only(result, "JC008")  # the values built on it are not reported again
    assert finding.path == ("env", "E6")  # 16 * 4**6 > 16 KiB
    assert "longer than 16,384 characters" in finding.message


def test_a_chain_within_the_bound_renders(tmp_path: Path) -> None:
    result = lint_text(chain(4, 4), tmp_path)
    assert "JC008" not in codes(result)
    assert result.context is not None
    assert len(interpolation_values(result.context)["env"]["E4"]) == 16 * 4**4


def test_values_together_are_bounded(tmp_path: Path) -> None:
    # each value alone is within bounds; 100 copies of 15 KiB are not
    big = "y" * 15_000
    rows = [f'  V{i}: "{{env.BIG}}"' for i in range(100)]
    plain = CYCLE.replace("LOGS", "/c").replace("CKPT", "/l")
    text = plain + f'env:\n  BIG: "{big}"\n' + "\n".join(rows) + "\n"
    result = lint_text(text, tmp_path)
    messages = {f.message for f in result.findings if f.code == "JC008"}
    assert messages == {"interpolation makes the spec's values longer than 1,048,576 characters in all"}


def test_compile_of_a_cycle_is_refused_at_lint(tmp_path: Path) -> None:
    import contextlib
    import io

    from jobc.cli import main

    spec = tmp_path / "spec.yaml"
    text = CYCLE.replace("LOGS", "{storage.logs}" * 30)
    spec.write_text(text.replace("CKPT", "{storage.checkpoints}" * 30))
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["compile", str(spec)])
    assert code == 1
    assert out.getvalue() == ""
    assert "refers back to itself" in err.getvalue()
