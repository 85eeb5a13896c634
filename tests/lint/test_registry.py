"""The rule registry: generated from the rule modules, and what lint skips by it changes nothing.

Lint reads `jobc/lint/rules/registry.py` instead of importing every rule; a rule module is found
by its file name (`rules/<group>/jcNNN_<name>.py`). A spec check whose module says `READS` is
not run (nor imported) for a spec that writes none of those fields, a script check whose module
says `FACTS` not for a script that has none of those facts, and a `LIVE` rule only runs with
`--live`: all only when the check would have said nothing anyway, which the examples of every
rule, the bundled specs and the script corpus show here, linted with the registry's skips and
without them.
"""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest

from jobc.lint import rules
from jobc.lint.pipeline import lint_file
from jobc.lint.rules import RULES, meta
from jobc.lint.rules.registry import ROWS
from jobc.spec import fastcheck
from jobc.spec.context import Context
from jobc.spec.plain import JobSpec
from tests.support import ROOT
from tools import rule_registry

GATED = [row[0] for row in ROWS if row[8]]
FACT_GATED = [row[0] for row in ROWS if row[10]]


def test_the_registry_is_current_and_lists_every_rule_module() -> None:
    on_disk = sorted(rule_registry.modules())
    assert sorted(row[5] for row in ROWS) == on_disk
    assert len(on_disk) == len({row[0] for row in ROWS}) >= 70
    assert rule_registry.text() == rule_registry.REGISTRY.read_text("utf-8"), (
        "the rule registry is stale: run `uv run python tools/regen.py`"
    )


def test_a_new_rule_module_is_found_by_its_file_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    group = tmp_path / "storage"
    group.mkdir()
    (group / "__init__.py").write_text('"""JC7"""\n')
    for name in ("jc799_new_rule.py", "_helpers.py", "jc7_not_a_rule.py", "notes.txt"):
        (group / name).write_text("")
    monkeypatch.setattr(rule_registry, "RULES_DIR", tmp_path)
    assert rule_registry.modules() == ["storage.jc799_new_rule"]


@pytest.mark.parametrize("code", list(RULES))
def test_each_row_says_what_its_module_says(code: str) -> None:
    rule = RULES[code]
    assert meta(code) == rule.meta
    row = next(r for r in ROWS if r[0] == code)
    assert ("spec" in row[6]) == (rule.check is not None)
    assert ("script" in row[6]) == (rule.script_check is not None)


def test_reads_must_name_fields_of_the_spec() -> None:
    assert rule_registry._in_schema(("resilience", "checkpoint", "size_gb"))
    assert rule_registry._in_schema(("model",))
    assert not rule_registry._in_schema(("resilience", "checkpoint", "size"))
    assert not rule_registry._in_schema(("modle",))


def test_live_rules_and_gated_rules_exist() -> None:
    # the partition rules (JC120-JC122) read a profile's facts too; only accounting's is live alone
    assert {row[0] for row in ROWS if row[7]} == {"JC123"}
    assert {"JC301", "JC302", "JC502", "JC604"} <= set(GATED)


def _contexts(tmp_path: Path) -> list[Context]:
    """Contexts of the bundled specs and of every spec rule's Bad and Good example."""
    from tests.project.test_docs import _lint_example, examples

    found = []
    for spec in sorted((ROOT / "specs").glob("*.yaml")):
        ctx = lint_file(spec).context
        assert ctx is not None
        found.append(ctx)
    captured: list[Context] = []
    real = rules.checks

    def keep(ctx: Context, kind: str, live: bool):  # type: ignore[no-untyped-def]
        captured.append(ctx)
        return real(ctx, kind, live)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(rules, "checks", keep)
        for code in RULES:
            if code.startswith("JC8"):
                continue
            for kind, text in examples(code).items():
                _lint_example(code, text, tmp_path / f"{code}-{kind}", kind)
    found += captured
    assert len(found) > 100
    return found


def _without(data: dict[str, object], path: tuple[str, ...]) -> None:
    node: object = data
    for part in path[:-1]:
        if not isinstance(node, dict) or part not in node:
            return
        node = node[part]
    if isinstance(node, dict):
        node.pop(path[-1], None)


def test_a_gated_check_says_nothing_without_the_fields_it_reads(tmp_path: Path) -> None:
    tried = 0
    for ctx in _contexts(tmp_path):
        for code in GATED:
            reads = next(r[8] for r in ROWS if r[0] == code)
            data = copy.deepcopy(ctx.data)
            for path in reads:
                _without(data, path)
            if not fastcheck.valid(data, "JobSpec"):
                continue
            bare = Context(spec=JobSpec.build(data), data=data, spec_dir=ctx.spec_dir, own=ctx.own)
            check = RULES[code].check
            assert check is not None
            assert list(check(bare)) == [], (code, ctx.spec.name)
            tried += 1
    assert tried > 1000


def test_linting_with_the_registry_skips_finds_what_running_every_check_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    specs = sorted((ROOT / "specs").glob("*.yaml"))
    skipped = [lint_file(spec).findings for spec in specs]
    every = {kind: tuple((c, (), False, ()) for c, *_ in rows) for kind, rows in rules._CHECKED.items()}
    monkeypatch.setattr(rules, "_CHECKED", every)
    assert [lint_file(spec).findings for spec in specs] == skipped


def test_rule_modules_are_imported_when_a_file_needs_them() -> None:
    import subprocess
    import sys

    probe = (
        "import sys; from pathlib import Path; from jobc.lint.pipeline import lint_file; "
        "lint_file(Path('specs/ddp-two-node.yaml')); "
        "print(' '.join(m for m in sys.modules if m.startswith('jobc.lint.rules.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    loaded = {m.rsplit(".", 1)[1][:5].upper() for m in out if re.search(r"\.jc[0-9]{3}_", m)}
    assert "JC201" in loaded  # a check every spec meets
    # its profile lists partitions (JC121, JC122 read them), not all of them (JC120), and no
    # accounts (JC123 is --live alone)
    assert not {c for c in loaded if c.startswith(("JC0", "JC8", "JC120", "JC123"))}, sorted(loaded)
    assert "JC302" not in loaded  # ddp-two-node has no model


def _scripts() -> list[Path]:
    corpus = ROOT / "tests" / "script" / "corpus"
    return sorted(p for p in corpus.rglob("*") if p.suffix in (".sh", ".sbatch", ".slurm"))


def test_linting_scripts_with_the_registry_skips_finds_what_running_every_check_finds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from jobc.lint.scripts import lint_path

    scripts = _scripts()
    assert len(scripts) > 100
    gated = {code for code, reads, _, _ in rules._CHECKED["script"] if reads}
    assert gated >= {"JC109", "JC110", "JC501", "JC601", "JC604"}
    # a check of a script's own facts is never gated by the spec fields its spec check reads
    assert not gated & {"JC101", "JC102", "JC505"}
    skipped = [lint_path(script).findings for script in scripts]
    every = {kind: tuple((c, (), False, ()) for c, *_ in rows) for kind, rows in rules._CHECKED.items()}
    monkeypatch.setattr(rules, "_CHECKED", every)
    assert [lint_path(script).findings for script in scripts] == skipped


def test_a_script_that_writes_none_of_a_rules_fields_does_not_load_it(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = tmp_path / "job.sh"
    script.write_text("#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=01:00:00\nsrun python t.py\n")
    probe = (
        "import sys; from pathlib import Path; from jobc.lint.scripts import lint_path; "
        f"lint_path(Path({str(script)!r})); "
        "print(' '.join(m for m in sys.modules if m.startswith('jobc.lint.rules.')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    loaded = {m.rsplit(".", 1)[1][:5].upper() for m in out if re.search(r"\.jc[0-9]{3}_", m)}
    assert {"JC813", "JC104"} <= loaded  # checks every script meets
    assert not loaded & {"JC109", "JC110", "JC120", "JC121", "JC122", "JC501", "JC601", "JC604"}, sorted(
        loaded
    )
    # nor a script check whose facts it does not have: no trap, no exec, no late directive, …
    assert not loaded & set(FACT_GATED), sorted(loaded)


def test_facts_must_name_members_of_the_script_facts() -> None:
    assert rule_registry._in_facts("traps")  # a field
    assert rule_registry._in_facts("crlf")
    assert rule_registry._in_facts("execs")  # a property
    assert not rule_registry._in_facts("honoured")  # a method: always true
    assert not rule_registry._in_facts("trap")
    assert {"JC801", "JC803", "JC810", "JC811", "JC812", "JC814"} <= set(FACT_GATED)
    # a check of the script's text that any script may hold is never gated
    assert not {"JC806", "JC809", "JC813"} & set(FACT_GATED)


def _script_contexts(tmp_path: Path) -> list[Context]:
    """The contexts of every corpus script and of every script rule's Bad and Good example."""
    from jobc.lint.scripts import lint_path
    from tests.project.test_docs import examples

    paths = _scripts()
    for code in RULES:
        if code.startswith("JC8"):
            for kind, text in examples(code).items():
                path = tmp_path / f"{code}-{kind}.sh"
                path.write_text(text, encoding="utf-8")
                paths.append(path)
    found = []
    for path in paths:
        ctx = lint_path(path).context
        if ctx is not None and ctx.facts.get("script") is not None:
            found.append(ctx)
    assert len(found) > 100
    return found


def test_a_fact_gated_check_says_nothing_without_the_facts_it_needs(tmp_path: Path) -> None:
    tried = 0
    for ctx in _script_contexts(tmp_path):
        script = ctx.facts["script"]
        for code in FACT_GATED:
            needs = next(r[10] for r in ROWS if r[0] == code)
            if any(getattr(script, member) for member in needs):
                continue
            check = RULES[code].script_check
            assert check is not None
            assert list(check(ctx)) == [], (code, script.file)
            tried += 1
    assert tried > 500


def test_each_fact_gate_is_met_by_a_script_the_rule_speaks_of(tmp_path: Path) -> None:
    # not vacuous: for each gated rule some script has its facts and a finding of it
    spoke = set()
    for ctx in _script_contexts(tmp_path):
        for code in FACT_GATED:
            check = RULES[code].script_check
            assert check is not None
            if list(check(ctx)):
                spoke.add(code)
    assert spoke == set(FACT_GATED)
