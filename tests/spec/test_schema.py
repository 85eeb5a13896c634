"""The JSON Schema editors use: committed, fresh, valid, described, and true to the examples."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from jobc.cli import main
from jobc.lint.pipeline import lint_file
from jobc.reader.source import read
from tests.support import ROOT
from tests.support.lint import lint_text

SCHEMA_PATH = ROOT / "schema" / "jobc.schema.json"
EXAMPLES = sorted((ROOT / "specs").rglob("*.yaml"))
MODELINE = re.compile(r"^# yaml-language-server: \$schema=(?P<path>\S+)$")


@pytest.fixture(scope="module")
def schema() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(SCHEMA_PATH.read_text("utf-8"))
    return data


def test_committed_schema_is_what_jobc_schema_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = capsys.readouterr().out
    assert printed == SCHEMA_PATH.read_text("utf-8"), (
        "schema/jobc.schema.json is stale: run `uv run python tools/regen.py` and commit the result"
    )


def test_schema_is_valid_draft_2020_12(schema: dict[str, Any]) -> None:
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    Draft202012Validator.check_schema(schema)
    assert schema["$id"].startswith("https://")


def _properties(schema: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [
        (model, name, prop)
        for model, definition in schema["$defs"].items()
        for name, prop in definition.get("properties", {}).items()
    ]


def test_every_field_has_a_description(schema: dict[str, Any]) -> None:
    """Editors show it on hover; a field that refers to a section may take the section's."""
    missing = []
    for model, name, prop in _properties(schema):
        ref = prop.get("$ref", "")
        target = schema["$defs"].get(ref.rsplit("/", 1)[-1], {}) if ref else {}
        if not (prop.get("description") or target.get("description")):
            missing.append(f"{model}.{name}")
    assert missing == []


def test_examples_exist() -> None:
    names = {p.relative_to(ROOT / "specs").as_posix() for p in EXAMPLES}
    assert len([n for n in names if not n.startswith("clusters/")]) >= 8
    assert len([n for n in names if n.startswith("clusters/")]) >= 2


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.relative_to(ROOT / "specs").as_posix())
def test_example_validates_against_the_schema(path: Path, schema: dict[str, Any]) -> None:
    src = read(path)
    assert src.problems == [] or all(p.code == "JC004" for p in src.problems), src.problems
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(src.data)]
    assert errors == []


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.relative_to(ROOT / "specs").as_posix())
def test_example_modeline_points_at_the_schema(path: Path) -> None:
    first = path.read_text("utf-8").splitlines()[0]
    match = MODELINE.match(first)
    assert match, f"{path.name} must start with the yaml-language-server modeline"
    assert (path.parent / match["path"]).resolve() == SCHEMA_PATH


def test_profiles_and_specs_take_different_branches(schema: dict[str, Any]) -> None:
    validator = Draft202012Validator(schema)
    assert list(validator.iter_errors({"profile": "p", "cluster": {"gpus_per_node": 8}})) == []
    # a spec needs its required sections; a profile needs none
    missing = {e.message for e in validator.iter_errors({"version": 1, "name": "x"})}
    assert missing == {"'resources' is a required property", "'launch' is a required property"}
    # unknown keys are refused in both shapes
    assert list(validator.iter_errors({"profile": "p", "clustre": {}}))
    spec = {"version": 1, "name": "x", "resources": {"nodes": 1}, "launch": {"program": "t.py"}}
    assert list(validator.iter_errors(spec)) == []
    assert list(validator.iter_errors({**spec, "resources": {"node": 1}}))


PROFILE_WITH_DEFAULTS = """\
profile: site
version: 1
cluster: {gpus_per_node: 8}
slurm: {time: "01:00:00"}
resources: {nodes: 2}
launch: {mode: torchrun, program: train.py}
"""


def test_a_spec_may_leave_what_its_profile_holds(tmp_path: Path, schema: dict[str, Any]) -> None:
    """jobc checks the merged spec, so the schema editors see must accept the file alone."""
    (tmp_path / "site.yaml").write_text(PROFILE_WITH_DEFAULTS, encoding="utf-8")
    spec = tmp_path / "job.yaml"
    spec.write_text("name: inherits\nextends: site.yaml\n", encoding="utf-8")
    assert lint_file(spec).findings == []
    validator = Draft202012Validator(schema)
    for path in (spec, tmp_path / "site.yaml"):
        assert [e.message for e in validator.iter_errors(read(path).data)] == [], path.name
    # what the file itself says is still checked, and without a profile nothing is inherited
    assert list(validator.iter_errors({"name": "x", "extends": "site.yaml", "resources": {"node": 1}}))
    alone = {e.message for e in validator.iter_errors({"name": "x", "extends": None})}
    assert alone == {f"{key!r} is a required property" for key in ("version", "resources", "launch")}
    # and jobc agrees that a spec with no profile must say them
    spec.write_text("name: inherits\n", encoding="utf-8")
    needs = sorted(f.message for f in lint_file(spec).findings if f.code == "JC003")
    assert needs == [f"the spec needs {key!r}" for key in ("launch", "resources", "version")]


SPEC = """\
version: 1
name: t
resources: {resources}
launch: {{program: train.py}}
"""
RESOURCES = "{nodes: 1, gpus_per_node: 8}"


@pytest.mark.parametrize(
    ("resources", "extra", "at", "message"),
    [
        (RESOURCES, "parallelism: {tp: '2'}", (5, 19), "parallelism.tp is the string '2', expected a whole"),
        (RESOURCES, "parallelism: {sharding: fsdp}", (5, 25), "did you mean 'fsdp2'?"),
        (RESOURCES, "resilience: {signal: sigterm}", (5, 22), "did you mean 'SIGTERM'?"),
        (RESOURCES, "container: {image: 3}", (5, 20), "container.image is the number 3, expected a string"),
        (RESOURCES, "env: {A: [1]}", (5, 10), "env.A is a list, expected a string or a number"),
        (RESOURCES, "secrets: [hf-token]", (5, 11), "secrets[0] is the string 'hf-token', which is not a"),
        (RESOURCES, "model: {moe: {experts: 8}}", (5, 9), "model.moe needs 'top_k'"),
        (
            "{nodez: 2, gpus_per_node: 8}",
            "",
            (3, 13),
            "unknown key 'nodez' in resources; did you mean 'nodes'?",
        ),
        ("{gpus_per_node: 8, gpu: h100}", "", (3, 36), "did you mean 'h100-80gb' or 'h100-94gb'?"),
    ],
)
def test_schema_errors_name_the_fix(
    tmp_path: Path, resources: str, extra: str, at: tuple[int, int], message: str
) -> None:
    text = SPEC.format(resources=resources) + (extra + "\n" if extra else "")
    result = lint_text(text, tmp_path)
    assert [(f.code, f.span.line, f.span.col) for f in result.findings] == [("JC003", *at)]
    assert message in result.findings[0].message


@pytest.mark.parametrize(
    ("written", "code"), [("'1'", "JC003"), ("1.0", "JC003"), ("true", "JC003"), ("2", "JC005")]
)
def test_version_written_wrongly_or_unsupported(tmp_path: Path, written: str, code: str) -> None:
    text = SPEC.format(resources=RESOURCES).replace("version: 1", f"version: {written}")
    result = lint_text(text, tmp_path)
    assert [(f.code, f.span.line, f.span.col) for f in result.findings] == [(code, 1, 10)]
