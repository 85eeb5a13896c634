"""The command line: exit codes, output formats, rule selection, configuration, errors."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path
from typing import Any

import pytest

from jobc.cli import main
from jobc.lint.rules import RULES
from jobc.spec.model import json_schema

CLEAN = """\
version: 1
name: clean
slurm:
  time: "01:00:00"
resources:
  nodes: 1
  gpus_per_node: 8
launch:
  program: train.py
"""

# One warning only: an unquoted time is a number to YAML 1.1 tools (JC004, line 4).
WARNING = CLEAN.replace('"01:00:00"', "01:00:00")

# One error: eight GPUs but four tasks in srun mode (JC101 at 8:19).
ERROR = CLEAN.replace("  gpus_per_node: 8\n", "  gpus_per_node: 8\n  tasks_per_node: 4\n")

TEXT_LINE = re.compile(
    r"^(?P<path>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<code>JC\d{3}) \[(error|warning|info)\] .+$"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty directory to run in, marked as a repository root so config lookup stops here."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def write(root: Path, rel: str, text: str) -> str:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return rel


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- exit codes -------------------------------------------------------------------------------


def test_clean_spec_exits_0_and_prints_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", CLEAN)
    assert run(capsys, "lint", "spec.yaml") == (0, "", "")


def test_warnings_alone_exit_0(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", WARNING)
    code, out, _ = run(capsys, "lint", "spec.yaml")
    assert code == 0
    assert out.startswith("spec.yaml:4:9: JC004 [warning] ")


def test_strict_makes_warnings_fail(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", WARNING)
    assert run(capsys, "lint", "--strict", "spec.yaml")[0] == 1


def test_errors_exit_1(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", ERROR)
    code, out, err = run(capsys, "lint", "spec.yaml")
    assert code == 1
    assert err == ""
    assert out.startswith("spec.yaml:8:19: JC101 [error] ")


def test_a_directory_is_walked_for_yaml_and_yml(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "specs/a.yaml", CLEAN)
    write(project, "specs/sub/b.yml", ERROR)
    write(project, "specs/.hidden/c.yaml", ERROR)  # hidden directories are not specs
    write(project, "specs/notes.txt", "not yaml")
    code, out, _ = run(capsys, "lint", "specs")
    assert code == 1
    assert [line.split(":")[0] for line in out.splitlines()] == ["specs/sub/b.yml"]


def test_a_profile_shared_by_two_specs_reports_its_findings_once(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, "specs/clusters/p.yaml", "profile: p\nslurm:\n  partition: batch\n  time: 01:00:00\n")
    base = CLEAN.replace('slurm:\n  time: "01:00:00"\n', "extends: clusters/p.yaml\n")
    write(project, "specs/a.yaml", base)
    write(project, "specs/b.yaml", base.replace("name: clean", "name: other"))
    code, out, _ = run(capsys, "lint", "specs")
    assert code == 0
    assert out.splitlines() == [
        "specs/clusters/p.yaml:4:9: JC004 [warning] unquoted '01:00:00' is read as the number 3600 by "
        'YAML 1.1 tools (PyYAML); quote it: "01:00:00"'
    ]


# --- usage errors: one line on stderr, exit 2 ---------------------------------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["lint", "missing.yaml"], "jobc lint: missing.yaml: no such file or directory"),
        (["lint", "--format", "xml", "spec.yaml"], "invalid choice: 'xml'"),
        (["lint", "--select", "JC999", "spec.yaml"], "'JC999' matches no rule"),
        (["lint", "--ignore", "XX", "spec.yaml"], "'XX' matches no rule"),
        (["lint", "--set", "resources.nodes", "spec.yaml"], "expected KEY=VALUE"),
        (["lint", "--set", "resources..nodes=2", "spec.yaml"], "empty part"),
        (["lint", "--config", "nope.toml", "spec.yaml"], "--config nope.toml: no such file"),
        (["lint"], "the following arguments are required: PATH"),
        (["lint", "--bogus", "spec.yaml"], "unrecognized arguments: --bogus"),
        (["frobnicate"], "'frobnicate' is not a command (commands: init, lint,"),
        (["rule", "JC999"], "no rule 'JC999'"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    write(project, "spec.yaml", CLEAN)
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert err.endswith("\n")
    assert err.count("\n") == 1, err
    assert message in err


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys)
    assert code == 2
    assert out == ""
    assert "usage: jobc" in err


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "--version")
    assert code == 0
    assert re.fullmatch(r"jobc \d+\.\d+\.\d+\S*\n", out)


def test_a_path_that_is_not_a_regular_file_exits_2(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import os

    os.mkfifo(project / "pipe.yaml")
    code, _, err = run(capsys, "lint", "pipe.yaml")
    assert code == 2
    assert err == "jobc lint: pipe.yaml: not a regular file\n"


# --- output formats ---------------------------------------------------------------------------


def test_text_format_lines(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", ERROR.replace('"01:00:00"', "01:00:00"))
    code, out, _ = run(capsys, "lint", "--format", "text", "spec.yaml")
    assert code == 1
    lines = out.splitlines()
    assert [TEXT_LINE.match(line)["code"] for line in lines] == ["JC004", "JC101"]
    assert "\033[" not in out  # no colour and no caret line when stdout is not a terminal


def test_json_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", ERROR)
    code, out, _ = run(capsys, "lint", "--format", "json", "spec.yaml")
    assert code == 1
    (item,) = json.loads(out)
    assert {
        k: item[k] for k in ("path", "line", "col", "end_line", "end_col", "code", "name", "severity")
    } == {
        "path": "spec.yaml",
        "line": 8,
        "col": 19,
        "end_line": 8,
        "end_col": 20,
        "code": "JC101",
        "name": "srun-tasks-per-gpu",
        "severity": "error",
    }
    assert "tasks_per_node is 4" in item["message"]


def test_json_format_clean_is_an_empty_list(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", CLEAN)
    code, out, _ = run(capsys, "lint", "--format", "json", "spec.yaml")
    assert (code, json.loads(out)) == (0, [])


def _check_sarif(doc: dict[str, Any]) -> None:
    """The parts of SARIF 2.1.0 that consumers (code scanning, viewers) rely on."""
    assert doc["version"] == "2.1.0"
    assert doc["$schema"].endswith("sarif-2.1.0.json")
    (run_,) = doc["runs"]
    driver = run_["tool"]["driver"]
    assert driver["name"] == "jobc"
    assert isinstance(driver["version"], str)
    ids = [rule["id"] for rule in driver["rules"]]
    assert ids == list(RULES)
    for rule in driver["rules"]:
        assert rule["shortDescription"]["text"]
        assert rule["defaultConfiguration"]["level"] in ("error", "warning", "note")
        assert rule["helpUri"].startswith("https://")
    for result in run_["results"]:
        assert result["ruleId"] in ids
        assert ids[result["ruleIndex"]] == result["ruleId"]
        assert result["level"] in ("error", "warning", "note")
        assert result["message"]["text"]
        (location,) = result["locations"]
        physical = location["physicalLocation"]
        assert re.fullmatch(r"[A-Za-z0-9._~/%-]+", physical["artifactLocation"]["uri"])
        region = physical["region"]
        assert 1 <= region["startLine"] <= region["endLine"]
        assert region["startColumn"] >= 1
        assert region["endColumn"] >= 1


def test_sarif_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "my specs/spec.yaml", ERROR.replace('"01:00:00"', "01:00:00"))
    code, out, _ = run(capsys, "lint", "--format", "sarif", "my specs/spec.yaml")
    assert code == 1
    doc = json.loads(out)
    _check_sarif(doc)
    results = doc["runs"][0]["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [("JC004", "warning"), ("JC101", "error")]
    location = results[1]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "my%20specs/spec.yaml"
    assert location["region"] == {"startLine": 8, "startColumn": 19, "endLine": 8, "endColumn": 20}


def test_sarif_for_a_command_line_finding_is_still_valid(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, "spec.yaml", CLEAN)
    code, out, _ = run(
        capsys, "lint", "--format", "sarif", "--set", "resources.tasks_per_node=2", "spec.yaml"
    )
    assert code == 1
    _check_sarif(json.loads(out))


def test_sarif_clean(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", CLEAN)
    code, out, _ = run(capsys, "lint", "--format", "sarif", "spec.yaml")
    doc = json.loads(out)
    _check_sarif(doc)
    assert (code, doc["runs"][0]["results"]) == (0, [])


def test_github_format(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", ERROR.replace('"01:00:00"', "01:00:00"))
    code, out, _ = run(capsys, "lint", "--format", "github", "spec.yaml")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("::warning file=spec.yaml,line=4,endLine=4,col=9,endColumn=17,")
    assert lines[0].split("::")[1].endswith("title=JC004 ambiguous-scalar")
    # the message's own colon is kept as text; commas and colons in properties are escaped
    assert lines[1].startswith("::error file=spec.yaml,line=8,endLine=8,col=19,endColumn=20,title=JC101 ")
    assert "tasks_per_node is 4" in lines[1]
    # then the same findings as plain lines, which the log keeps in full
    assert [TEXT_LINE.match(line)["code"] for line in lines[2:]] == ["JC004", "JC101"]


def test_github_format_escapes_properties_and_newlines() -> None:
    from io import StringIO

    from jobc.core.diagnostics import Finding, Severity, Span
    from jobc.lint.report import reporter

    finding = Finding("JC003", "schema", Severity.ERROR, "50% done\nnext", "a,b:c.yaml", Span(1, 2, 1, 3))
    out = StringIO()
    reporter("github")([finding], {}, out, False)
    first = out.getvalue().splitlines()[0]
    assert first == (
        "::error file=a%2Cb%3Ac.yaml,line=1,endLine=1,col=2,endColumn=3,title=JC003 schema::50%25 done%0Anext"
    )


# --- selection, strictness, configuration ---------------------------------------------------------


def test_select_and_ignore(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", ERROR.replace('"01:00:00"', "01:00:00"))
    assert [line[:20] for line in run(capsys, "lint", "--select", "JC0", "spec.yaml")[1].splitlines()] == [
        "spec.yaml:4:9: JC004"
    ]
    assert run(capsys, "lint", "--ignore", "JC101", "spec.yaml")[0] == 0
    assert run(capsys, "lint", "--ignore", "JC1,JC004", "spec.yaml") == (0, "", "")
    # the most specific selector wins: select the group, ignore one rule in it
    assert run(capsys, "lint", "--select", "JC1", "--ignore", "JC101", "spec.yaml") == (0, "", "")
    assert run(capsys, "lint", "--select", "jc101", "spec.yaml")[0] == 1


def test_pyproject_tool_jobc_is_found_from_a_subdirectory(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(project, "pyproject.toml", '[project]\nname = "x"\n\n[tool.jobc]\nignore = ["JC101"]\n')
    write(project, "jobs/spec.yaml", ERROR)
    monkeypatch.chdir(project / "jobs")
    assert run(capsys, "lint", "spec.yaml") == (0, "", "")


def test_pyproject_without_a_jobc_table_is_passed_over(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project, "pyproject.toml", '[tool.jobc]\nignore = ["JC101"]\n')
    write(project, "jobs/pyproject.toml", '[project]\nname = "inner"\n')
    write(project, "jobs/spec.yaml", ERROR)
    assert run(capsys, "lint", "jobs/spec.yaml")[0] == 0


def test_dot_jobc_toml_and_its_settings(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, ".jobc.toml", 'strict = true\nseverity = {JC0 = "error", JC004 = "info"}\n')
    write(project, "spec.yaml", WARNING)
    # the most specific severity wins: JC004 is info, so even strict passes
    code, out, _ = run(capsys, "lint", "spec.yaml")
    assert (code, out.split()[1:3]) == (0, ["JC004", "[info]"])


def test_severity_by_prefix(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, ".jobc.toml", 'severity = {JC0 = "error"}\n')
    write(project, "spec.yaml", WARNING)
    code, out, _ = run(capsys, "lint", "spec.yaml")
    assert (code, out.split()[1:3]) == (1, ["JC004", "[error]"])


def test_strict_from_config(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, ".jobc.toml", "strict = true\n")
    write(project, "spec.yaml", WARNING)
    assert run(capsys, "lint", "spec.yaml")[0] == 1


def test_explicit_config_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "ci/jobc.toml", 'select = ["JC0"]\n')
    write(project, "spec.yaml", ERROR)
    assert run(capsys, "lint", "--config", "ci/jobc.toml", "spec.yaml") == (0, "", "")
    # the explicit file replaces discovery
    write(project, ".jobc.toml", 'select = ["JC1"]\n')
    assert run(capsys, "lint", "--config", "ci/jobc.toml", "spec.yaml")[0] == 0
    assert run(capsys, "lint", "spec.yaml")[0] == 1


def test_discovery_stops_at_the_repository_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path, ".jobc.toml", 'ignore = ["JC101"]\n')
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    write(repo, "spec.yaml", ERROR)
    monkeypatch.chdir(repo)
    assert run(capsys, "lint", "spec.yaml")[0] == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("select = 3\n", "select must be a list of rule codes"),
        ('bogus = ["x"]\n', "unknown setting 'bogus'"),
        ('severity = {JC101 = "fatal"}\n', "unknown severity 'fatal'"),
        ('severity = {JC9 = "error"}\n', "'JC9' matches no rule"),
        ("strict = 'yes'\n", "strict must be true or false"),
        ("select = [\n", "cannot read"),
    ],
)
def test_bad_config_is_one_line_and_exit_2(
    project: Path, capsys: pytest.CaptureFixture[str], content: str, message: str
) -> None:
    write(project, ".jobc.toml", content)
    write(project, "spec.yaml", CLEAN)
    code, out, err = run(capsys, "lint", "spec.yaml")
    assert (code, out) == (2, "")
    assert err.count("\n") == 1, err
    assert message in err
    assert ".jobc.toml" in err


# --- rule, rules, schema ----------------------------------------------------------------------


def test_rule_explains_one_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rule", "JC001")
    assert code == 0
    assert out.startswith("JC001 yaml-syntax [error]\n")
    assert "Bad:" in out
    assert "Good:" in out
    assert "Fix: " in out


def test_rule_by_name_and_lower_case(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "rule", "duplicate-key")[1].startswith("JC002 duplicate-key")
    assert run(capsys, "rule", "jc002")[1].startswith("JC002 duplicate-key")


def test_rules_table_lists_every_rule(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    assert [line.split()[0] for line in out.splitlines()] == list(RULES)


def test_rules_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--format", "json")
    items = json.loads(out)
    assert code == 0
    assert [item["code"] for item in items] == list(RULES)
    assert set(items[0]) >= {"code", "name", "severity", "summary", "remediation", "doc"}


def test_schema_prints_the_json_schema(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schema")
    assert code == 0
    assert json.loads(out) == json_schema()


def test_text_on_a_terminal_shows_the_line_and_a_caret_under_the_span() -> None:
    from io import StringIO

    from jobc.core.diagnostics import Finding, Severity, Span
    from jobc.lint.report import reporter

    lines = ["resources:", "  tasks_per_node: 4"]
    finding = Finding("JC101", "srun-tasks-per-gpu", Severity.ERROR, "bad", "spec.yaml", Span(2, 19, 2, 20))
    warning = Finding("JC004", "ambiguous-scalar", Severity.WARNING, "hm", "spec.yaml", Span(1, 1, 1, 10))
    out = StringIO()
    reporter("text")([warning, finding], {"spec.yaml": lines}, out, True)
    plain = re.sub(r"\033\[[0-9;]*m", "", out.getvalue()).splitlines()
    assert plain[3] == "spec.yaml:2:19: JC101 [error] bad (srun-tasks-per-gpu)"
    assert plain[4] == "   2 |   tasks_per_node: 4"
    assert plain[5] == " " * len("   2 | ") + " " * 18 + "^"
    assert plain[2] == " " * len("   1 | ") + "^" * 9
    assert plain[-1] == "Found 1 error, 1 warning."


def test_text_on_a_terminal_masks_a_literal_secret_in_the_source_line() -> None:
    from io import StringIO

    from jobc.core.diagnostics import Finding, Severity, Span
    from jobc.lint.report import reporter

    lines = ["env:", '  HF_TOKEN: "hf_abcdefghijklmnop"']
    finding = Finding("JC702", "literal-secret", Severity.ERROR, "no", "spec.yaml", Span(2, 13, 2, 34))
    out = StringIO()
    reporter("text")([finding], {"spec.yaml": lines}, out, True)
    assert "abcdefghijklmnop" not in out.getvalue()
    assert '  HF_TOKEN: "hf_' + "*" * 16 + '"' in out.getvalue()


def test_select_and_ignore_may_be_repeated(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write(project, "spec.yaml", ERROR.replace('"01:00:00"', "01:00:00"))
    assert run(capsys, "lint", "--ignore", "JC101", "--ignore", "JC004", "spec.yaml") == (0, "", "")
    code, out, _ = run(capsys, "lint", "--select", "JC004", "--select", "JC101", "spec.yaml")
    assert (code, len(out.splitlines())) == (1, 2)


def test_no_error_line_prints_a_control_character_of_a_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an OSC sequence in a directory name retitles the terminal wherever a message forgets to
    # escape it: every line jobc writes to stderr is escaped, whichever command wrote it
    odd = tmp_path / "a\x1b]0;PWN\x07b"
    odd.mkdir()
    spec = odd / "s.yaml"
    spec.write_text("version: 1\nname: x\n", encoding="utf-8")
    commands = [
        ["compile", str(spec), "-o", str(odd / "no" / "x.sh")],
        ["status", "--ledger", str(odd)],
        ["plan", str(odd / "none.yaml")],
        ["import", str(odd / "none.sh")],
        ["lint", str(odd / "none.yaml")],
    ]
    for argv in commands:
        assert main(argv) in (0, 1, 2)
        err = capsys.readouterr().err
        assert "\x1b" not in err, (argv, err)
        assert "\x07" not in err, (argv, err)
        assert "a\\e]0;PWN\\x07b" in err, (argv, err)


def test_profile_output_is_replaced_whole_or_not_at_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import os

    from jobc.jobs import cluster
    from jobc.spec.slurmfacts import build

    facts = build("PartitionName=gpu Default=YES MaxTime=1-00:00:00 Nodes=n1 State=UP\n", "NodeName=n1\n", "")
    monkeypatch.setattr(cluster, "read", lambda **_: facts)
    out = tmp_path / "site.yaml"
    out.write_text("profile: old\n", encoding="utf-8")

    def full(fd: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    assert main(["profile", "-o", str(out)]) == 2
    assert capsys.readouterr().err == f"jobc profile: cannot write {out}: No space left on device\n"
    assert out.read_text(encoding="utf-8") == "profile: old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["site.yaml"]


def test_a_fifo_or_a_directory_given_as_the_file_is_named_for_what_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import os

    fifo = tmp_path / "spec.yaml"
    os.mkfifo(fifo)  # never opened: reading it would wait for a writer
    for verb in ("compile", "plan", "import"):
        assert main([verb, str(fifo)]) == 2
        assert capsys.readouterr().err == f"jobc {verb}: {fifo}: not a regular file\n"
    assert main(["import", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"jobc import: {tmp_path}: is a directory\n"
