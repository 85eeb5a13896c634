"""docs/rules.md is generated from the rules, and every rule documents itself with examples."""

from __future__ import annotations

import copy
import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML
from ruamel.yaml.scalarstring import DoubleQuotedScalarString

from jobc.lint.live import using
from jobc.lint.pipeline import lint_file
from jobc.lint.rules import RULES
from jobc.reader.source import parse_text
from jobc.spec.slurmfacts import ClusterFacts, NodeFacts, PartitionFacts
from tests.support import ROOT

RULES_MD = ROOT / "docs" / "rules.md"

# "Bad:" or "Good:" (a remark may follow the word), then a fenced YAML block (a bash block for the
# rules about sbatch scripts, JC8).
EXAMPLE = re.compile(
    r"^(?P<kind>Bad|Good)\b[^\n]*:[ \t]*\n+```(?P<lang>yaml|bash)\n(?P<yaml>.*?)^```", re.S | re.M
)

# A small valid spec the examples are merged into, the way a user would paste them.
BASE: dict[str, Any] = {
    "version": 1,
    "name": "doc-example",
    "slurm": {"time": "01:00:00"},
    "resources": {"nodes": 1, "gpus_per_node": 8},
    "launch": {"program": "train.py"},
}


def examples(code: str) -> dict[str, str]:
    found: dict[str, str] = {}
    want = "bash" if code.startswith("JC8") else "yaml"
    for match in EXAMPLE.finditer(RULES[code].doc):
        if match["lang"] == want:
            found.setdefault(match["kind"], match["yaml"])
    return found


SCRIPT_CODES = [code for code in RULES if code.startswith("JC8")]


@pytest.mark.parametrize("code", SCRIPT_CODES)
def test_script_rule_examples_bad_fires_and_good_does_not(code: str, tmp_path: Path) -> None:
    from jobc.lint.scripts import lint_path
    from tests.support.lint import script_example

    found = examples(code)
    whole = found["Good"].startswith("#!")
    for kind, fires in (("Bad", True), ("Good", False)):
        script = tmp_path / f"{kind.lower()}.sh"
        script.write_bytes(script_example(found[kind], whole=whole).encode("utf-8"))
        got = {f.code for f in lint_path(script).findings}
        assert (code in got) == fires, (kind, sorted(got))


def test_rules_md_has_a_section_and_an_anchor_per_rule() -> None:
    text = RULES_MD.read_text("utf-8")
    for code, rule in RULES.items():
        assert f"\n## {code}\n" in text
        assert f"[{code}](#{code.lower()})" in text
        assert f"**{rule.meta.name}**" in text


@pytest.mark.parametrize("code", list(RULES))
def test_rule_metadata(code: str) -> None:
    meta = RULES[code].meta
    assert re.fullmatch(r"JC\d{3}", meta.code)
    assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", meta.name)
    assert meta.summary
    assert not meta.summary.endswith("."), "summaries are one line without a trailing period"
    assert meta.remediation.endswith("."), "a remediation is a sentence"


def test_codes_and_names_are_unique() -> None:
    names = [rule.meta.name for rule in RULES.values()]
    assert len(set(names)) == len(names)


@pytest.mark.parametrize("code", list(RULES))
def test_docstring_has_a_bad_and_a_good_yaml_example(code: str) -> None:
    doc = RULES[code].doc
    assert doc, f"{code} has no docstring"
    found = examples(code)
    assert set(found) == {"Bad", "Good"}, f"{code}: needs a Bad: and a Good: ```yaml block"
    assert doc.index("Bad") < doc.index("Good")
    for kind, text in found.items():
        assert text.strip(), f"{code}: empty {kind} example"


def test_base_spec_of_the_examples_is_clean(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(BASE))
    assert lint_file(spec).findings == []


@pytest.mark.parametrize("doc", ["README.md", "docs/testing.md"])
def test_docs_exist_and_link_targets_exist(doc: str) -> None:
    text = (ROOT / doc).read_text("utf-8")
    assert text.strip()
    for target in re.findall(r"\]\(((?!https?://|#)[^)#\s]+)", text):
        assert (ROOT / doc).parent.joinpath(target).exists(), f"{doc} links to missing {target}"


# What some examples take for granted around the spec: files beside it, and where they are.
EXAMPLE_FILES: dict[str, dict[str, str]] = {
    "JC006": {"clusters/h100-ib.yaml": "profile: h100-ib\n"},
    "JC508": {
        "Megatron-LM/pyproject.toml": (
            '[project]\nname = "megatron-core"\n'
            '[project.optional-dependencies]\ntraining = ["transformers"]\n'
        )
    },
}
EXAMPLE_PATHS = {"/lustre/me/Megatron-LM": "Megatron-LM"}  # relative to the spec: files above


def _example_cluster() -> ClusterFacts:
    """The live cluster the --live rules' examples (JC12x) describe in their comments: partitions
    batch (the default) and short (MaxTime 00:10:00, MaxNodes 2), two nodes in both, each with
    64 CPUs, gpu:a100:4 and the features a100 and ib; accounts root and ml-team, QOS normal and high."""
    node = NodeFacts("n1", 64, 512000, 4, ("a100",), ("a100", "ib"), ("batch", "short"))
    return ClusterFacts(
        "example",
        (
            PartitionFacts("batch", default=True, max_time="2-00:00:00", total_nodes=2),
            PartitionFacts("short", max_time="00:10:00", max_nodes=2, total_nodes=2),
        ),
        (node, NodeFacts("n2", *list(vars(node).values())[1:])),
        accounts=frozenset({"root", "ml-team"}),
        qos=frozenset({"normal", "high"}),
    )


def _with_base(data: Any, base: dict[str, Any]) -> None:
    """Add BASE's keys the example lacks, in place: the example's own values and comments stay."""
    for key, value in base.items():
        if key not in data:
            data[key] = _quoted(value)
        elif isinstance(value, dict) and isinstance(data[key], dict):
            _with_base(data[key], value)


def _quoted(value: Any) -> Any:
    """BASE's strings double-quoted, so the dump adds no finding (JC004) of its own."""
    if isinstance(value, dict):
        return {key: _quoted(item) for key, item in value.items()}
    return DoubleQuotedScalarString(value) if isinstance(value, str) else value


def _lint_example(code: str, text: str, tmp_path: Path, kind: str) -> set[str]:
    """Lint a spec rule's example the way a user would paste it into a small valid spec."""
    tmp_path.mkdir()
    for rel, content in EXAMPLE_FILES.get(code, {}).items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(content, encoding="utf-8")
    for written, here in EXAMPLE_PATHS.items():
        text = text.replace(written, here)
    spec = tmp_path / f"{kind.lower()}.yaml"
    if parse_text(text, spec.name).problems:
        spec.write_text(text, encoding="utf-8")  # unreadable on purpose (JC001, JC002)
    else:
        # ruamel's round trip keeps the example's comments (suppressions) and plain scalars
        yaml = YAML()
        yaml.preserve_quotes = True
        data = yaml.load(text)
        assert isinstance(data, dict), f"{code}: the {kind} example is not a mapping of spec sections"
        _with_base(data, copy.deepcopy(BASE))
        out = io.StringIO()
        yaml.dump(data, out)
        spec.write_text(out.getvalue(), encoding="utf-8")
    with using(_example_cluster() if code.startswith("JC12") else None):
        return {f.code for f in lint_file(spec).findings}


@pytest.mark.parametrize("code", [code for code in RULES if not code.startswith("JC8")])
def test_spec_rule_examples_bad_fires_and_good_does_not(code: str, tmp_path: Path) -> None:
    found = examples(code)
    for kind, fires in (("Bad", True), ("Good", False)):
        got = _lint_example(code, found[kind], tmp_path / kind, kind)
        assert (code in got) == fires, (kind, sorted(got))
