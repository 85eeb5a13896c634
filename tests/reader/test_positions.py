"""The locator: data paths to 1-based spans, in one file and across profile layers and --set."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from jobc.lint.pipeline import COMMAND_LINE
from jobc.reader.locate import Located, locate
from jobc.reader.source import parse_text
from tests.support.lint import lint_text, only

DOC = """\
# yaml-language-server: $schema=../schema/jobc.schema.json
version: 1
name: "quoted-name"
resources:
  nodes: 2
  gpu: 'h100-80gb'   # a comment
launch:
  args: [--tp, "{parallelism.tp}", plain]
  setup:
    - module load cuda
    - {k: v, other: "x,y"}
  program: train.py
env: {A: "1", B: two words}
container:
  mounts:
    - /lustre:/lustre
  workdir:
storage:
  caches:
    hf_home: /lustre/cache/hf
"""


def at(text: str, path: tuple[str | int, ...], *, at_value: bool = True) -> tuple[Located, str]:
    """Where the path lands, and the text the span covers on its line."""
    src = parse_text(textwrap.dedent(text), "x.yaml")
    assert src.tree is not None, src.problems
    found = locate(src.tree, src.lines, path, at_value=at_value)
    span = found.span
    assert span.line == span.end_line
    return found, src.lines[span.line - 1][span.col - 1 : span.end_col - 1]


@pytest.mark.parametrize(
    ("path", "line", "col", "covered"),
    [
        # plain, double- and single-quoted scalars: the whole token, quotes included
        (("version",), 2, 10, "1"),
        (("name",), 3, 7, '"quoted-name"'),
        (("resources", "nodes"), 5, 10, "2"),
        (("resources", "gpu"), 6, 8, "'h100-80gb'"),
        # flow sequence items, quoted and plain
        (("launch", "args", 0), 8, 10, "--tp"),
        (("launch", "args", 1), 8, 16, '"{parallelism.tp}"'),
        (("launch", "args", 2), 8, 36, "plain"),
        # block sequence items, and a flow map inside one
        (("launch", "setup", 0), 10, 7, "module load cuda"),
        (("launch", "setup", 1, "k"), 11, 11, "v"),
        (("launch", "setup", 1, "other"), 11, 21, '"x,y"'),
        # flow map values; a plain scalar with spaces ends at the flow indicator
        (("env", "A"), 13, 10, '"1"'),
        (("env", "B"), 13, 18, "two words"),
        (("container", "mounts", 0), 16, 7, "/lustre:/lustre"),
        # nested three deep
        (("storage", "caches", "hf_home"), 20, 14, "/lustre/cache/hf"),
    ],
)
def test_scalar_values(path: tuple[str | int, ...], line: int, col: int, covered: str) -> None:
    found, text = at(DOC, path)
    assert found.exact
    assert (found.span.line, found.span.col) == (line, col)
    assert text == covered


def test_comment_after_value_is_not_part_of_it() -> None:
    _, text = at(DOC, ("resources", "gpu"))
    assert text == "'h100-80gb'"


@pytest.mark.parametrize(
    ("path", "line", "col", "covered"),
    [
        (("resources",), 4, 1, "resources"),
        (("resources", "nodes"), 5, 3, "nodes"),
        (("launch", "args"), 8, 3, "args"),
        (("env", "B"), 13, 15, "B"),
    ],
)
def test_keys(path: tuple[str | int, ...], line: int, col: int, covered: str) -> None:
    found, text = at(DOC, path, at_value=False)
    assert found.exact
    assert (found.span.line, found.span.col, text) == (line, col, covered)


def test_quoted_key_covers_its_quotes() -> None:
    found, text = at('a:\n  "b c": 1\n', ("a", "b c"), at_value=False)
    assert (found.span.line, found.span.col, text) == (2, 3, '"b c"')


def test_a_block_section_is_reported_at_its_key_and_a_flow_one_at_its_value() -> None:
    block, block_text = at(DOC, ("storage", "caches"))
    assert (block.span.line, block.span.col, block_text) == (19, 3, "caches")
    flow, flow_text = at(DOC, ("launch", "args"))
    assert (flow.span.line, flow.span.col) == (8, 9)
    assert flow_text == '[--tp, "{parallelism.tp}", plain]'
    env, env_text = at(DOC, ("env",))
    assert env_text == '{A: "1", B: two words}'
    assert env.span.col == 6


def test_empty_value_points_at_its_key_not_at_the_next_line() -> None:
    found, text = at(DOC, ("container", "workdir"))
    assert found.exact
    assert (found.span.line, found.span.col, text) == (17, 3, "workdir")


@pytest.mark.parametrize("spelt", ["~", "null", "Null"])
def test_explicit_null_is_a_value(spelt: str) -> None:
    found, text = at(f"a:\n  b: {spelt}  # none\n  c: 1\n", ("a", "b"))
    assert (found.span.line, found.span.col, text) == (2, 6, spelt)


def test_empty_value_in_a_flow_map() -> None:
    found, text = at("a: {b: , c: 1}\n", ("a", "b"))
    assert (found.span.line, text) == (1, "b")


@pytest.mark.parametrize(
    ("path", "line", "col", "covered"),
    [
        # a missing key: the deepest ancestor that exists, at its key
        (("resources", "tasks_per_node"), 4, 1, "resources"),
        (("storage", "caches", "uv_cache_dir"), 19, 3, "caches"),
        # an index past the end of a list
        (("launch", "setup", 7), 9, 3, "setup"),
        # below a scalar
        (("resources", "nodes", "x"), 5, 3, "nodes"),
        # a whole section that is not there: the first line of the document
        (("parallelism", "tp"), 2, 1, "v"),
    ],
)
def test_missing_paths_fall_back_to_the_deepest_ancestor(
    path: tuple[str | int, ...], line: int, col: int, covered: str
) -> None:
    found, text = at(DOC, path)
    assert not found.exact
    assert (found.span.line, found.span.col) == (line, col)
    assert text == covered


def test_empty_path_is_the_document() -> None:
    found, _ = at(DOC, ())
    assert found.exact
    assert (found.span.line, found.span.col) == (2, 1)


def test_block_scalar_points_at_its_indicator() -> None:
    found, text = at("a:\n  b: |\n    echo hi\n", ("a", "b"))
    assert (found.span.line, found.span.col, text) == (2, 6, "|")


def test_quoted_value_with_escaped_quote_and_hash() -> None:
    _, text = at('a: "say \\"hi\\" # not a comment"  # comment\n', ("a",))
    assert text == '"say \\"hi\\" # not a comment"'
    _, text = at("a: 'it''s # text'  # comment\n", ("a",))
    assert text == "'it''s # text'"


def test_alias_points_at_the_anchored_value() -> None:
    found, _ = at("a: &x {b: 1}\nc: *x\n", ("c", "b"))
    assert (found.span.line, found.span.col) == (1, 11)


def test_top_level_sequence_items() -> None:
    found, text = at("- one\n- two\n", (1,))
    assert (found.span.line, found.span.col, text) == (2, 3, "two")


# --- through lint: which file a finding lands in ----------------------------------------------

SPEC = """\
version: 1
name: t
resources:
  nodes: 1
  gpus_per_node: 8
launch:
  mode: srun
  program: train.py
"""


def with_tasks(tasks: int) -> str:
    return SPEC.replace("  gpus_per_node: 8\n", f"  gpus_per_node: 8\n  tasks_per_node: {tasks}\n")


def test_finding_about_a_spec_value_points_into_the_spec(tmp_path: Path) -> None:
    result = lint_text(with_tasks(4), tmp_path)
    finding = only(result, "JC101")
    assert (finding.file, finding.span.line, finding.span.col) == ("spec.yaml", 6, 19)


def test_finding_about_a_profile_value_points_into_the_profile(tmp_path: Path) -> None:
    profile = """\
    profile: p
    resources:
      tasks_per_node: 4
    """
    result = lint_text("extends: clusters/p.yaml\n" + SPEC, tmp_path, files={"clusters/p.yaml": profile})
    finding = only(result, "JC101")
    assert (finding.file, finding.span.line, finding.span.col) == ("clusters/p.yaml", 3, 19)


def test_the_spec_wins_over_the_profile_and_so_does_its_position(tmp_path: Path) -> None:
    profile = "profile: p\nresources:\n  tasks_per_node: 8\n"
    spec = "extends: p.yaml\n" + with_tasks(2)
    result = lint_text(spec, tmp_path, files={"p.yaml": profile})
    finding = only(result, "JC101")
    assert (finding.file, finding.span.line) == ("spec.yaml", 7)
    assert "tasks_per_node is 2" in finding.message


def test_the_nearest_profile_of_a_chain_that_holds_the_value(tmp_path: Path) -> None:
    files = {
        "clusters/base.yaml": "profile: base\nresources:\n  tasks_per_node: 3\n",
        "clusters/site.yaml": "profile: site\nextends: base.yaml\nresources:\n  tasks_per_node: 5\n",
    }
    result = lint_text("extends: clusters/site.yaml\n" + SPEC, tmp_path, files=files)
    finding = only(result, "JC101")
    assert (finding.file, finding.span.line, finding.span.col) == ("clusters/site.yaml", 4, 19)


def test_override_findings_point_at_the_command_line(tmp_path: Path) -> None:
    result = lint_text(SPEC, tmp_path, sets=["resources.tasks_per_node=2"])
    finding = only(result, "JC101")
    assert finding.file == COMMAND_LINE
    assert (finding.span.line, finding.span.col) == (1, 1)
    # the span covers "--set resources.tasks_per_node=2"
    assert finding.span.end_col - finding.span.col == len("--set resources.tasks_per_node=2")
    assert finding.message.endswith("(from --set resources.tasks_per_node=2)")


def test_override_of_a_value_written_in_the_file_still_points_at_the_command_line(tmp_path: Path) -> None:
    result = lint_text(with_tasks(8), tmp_path, sets=["resources.tasks_per_node=2"])
    assert only(result, "JC101").file == COMMAND_LINE


def test_schema_error_from_an_override_points_at_the_command_line(tmp_path: Path) -> None:
    result = lint_text(SPEC, tmp_path, sets=["resources.nodez=3"])
    finding = only(result, "JC003")
    assert finding.file == COMMAND_LINE
    assert "did you mean 'nodes'?" in finding.message


def test_override_that_creates_a_wrong_shape_points_at_the_command_line(tmp_path: Path) -> None:
    # launch.args does not exist in the file; --set makes it a mapping {"3": "x"}
    result = lint_text(SPEC, tmp_path, sets=["launch.args.3=x"])
    finding = only(result, "JC003")
    assert finding.file == COMMAND_LINE
    assert "launch.args is a mapping, expected a list" in finding.message


def test_override_below_a_value_is_refused_at_the_command_line(tmp_path: Path) -> None:
    result = lint_text(SPEC, tmp_path, sets=["resources.nodes.x=1"])
    finding = only(result, "JC003")
    assert finding.file == COMMAND_LINE
    assert finding.message.startswith("cannot set resources.nodes.x: resources.nodes is a value")
    assert finding.message.count("--set") == 1


def test_override_does_not_change_the_files_data(tmp_path: Path) -> None:
    spec = SPEC.replace("  program: train.py\n", "  program: train.py\n  args: [a]\n")
    result = lint_text(spec, tmp_path, sets=["launch.args.0=b"])
    assert result.sources[0].data["launch"]["args"] == ["a"]
    assert result.context is not None
    assert result.context.data["launch"]["args"] == ["b"]


def test_source_problems_in_a_profile_point_into_the_profile(tmp_path: Path) -> None:
    profile = "profile: p\nslurm:\n  time: 12:00:00\n"
    result = lint_text("extends: p.yaml\n" + SPEC, tmp_path, files={"p.yaml": profile})
    finding = only(result, "JC004")
    assert (finding.file, finding.span.line, finding.span.col) == ("p.yaml", 3, 9)
