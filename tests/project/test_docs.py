"""docs/rules.md is generated from the rules, and every rule documents itself with examples."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from jobc.cli import main
from jobc.lint.pipeline import lint_file
from jobc.lint.rules import RULES
from jobc.reader.source import parse_text

ROOT = Path(__file__).resolve().parents[1]
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

    found = examples(code)
    for kind, fires in (("Bad", True), ("Good", False)):
        script = tmp_path / f"{kind.lower()}.sh"
        script.write_text("#!/bin/bash\n" + found[kind], encoding="utf-8")
        got = {f.code for f in lint_path(script).findings}
        assert (code in got) == fires, (kind, sorted(got))


def test_rules_md_is_what_jobc_rules_prints(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--format", "markdown"]) == 0
    assert capsys.readouterr().out == RULES_MD.read_text("utf-8"), (
        "docs/rules.md is stale: run `jobc rules --format markdown > docs/rules.md`"
    )


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


def _merge(base: dict[str, Any], top: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in top.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


@pytest.mark.parametrize("code", list(RULES))
def test_bad_example_is_yaml_that_lints_as_part_of_a_valid_spec(code: str, tmp_path: Path) -> None:
    if code.startswith("JC8"):
        return  # a script's examples are bash; the test above lints them as scripts
    bad = examples(code).get("Bad")
    assert bad is not None, f"{code}: no Bad: ```yaml example in its docstring"
    src = parse_text(bad, "bad.yaml")
    broken = {p.code for p in src.problems if p.code in ("JC001", "JC002")}
    if code in ("JC001", "JC002"):
        # the examples of the rules about unreadable YAML are unreadable on purpose
        assert broken == {code}
        return
    assert broken == set(), f"{code}: the Bad example is not valid YAML: {src.problems}"
    assert isinstance(src.data, dict), f"{code}: the Bad example is not a mapping of spec sections"
    spec = tmp_path / "spec.yaml"
    # JSON is YAML: every string stays quoted, so the dump adds no findings of its own
    spec.write_text(json.dumps(_merge(BASE, src.data), indent=2))
    result = lint_file(spec)
    assert not [f for f in result.findings if f.code in ("JC001", "JC002")]


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
