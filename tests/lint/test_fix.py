"""`jobc lint --fix`: the edit engine, every rule's fix on its own Bad example, and the CLI."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.core.diagnostics import Edit, Fix, Severity, Span
from jobc.lint.config import Config
from jobc.lint.fix import MAX_PASSES, Unfixable, apply, diff, fix_path
from jobc.lint.rules import RULES
from jobc.lint.scripts import lint_path
from jobc.reader.source import parse_text

PROFILE = 'profile: site\ncluster:\n  partitions: {batch: {max_time: "48:00:00", default_time: "04:00:00"}}\n'
FIXED = [code for code, rule in RULES.items() if rule.repair is not None]
# Of the rules that repair scripts, those whose examples are specs show the script in a second
# example, "Bad in a script:".
SCRIPT_EXAMPLE = re.compile(r"^Bad in a script:\n+```bash\n(.*?)^```", re.S | re.M)
SPEC_EXAMPLE = re.compile(r"^Bad:\n+```yaml\n(.*?)^```", re.S | re.M)
BASE = (
    'version: 1\nname: fix-example\nslurm: {time: "01:00:00"}\nresources: {nodes: 1, gpus_per_node: 8}\n'
    "launch: {program: train.py}\n"
)


def _span(line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
    return Span(line, col, line if end_line is None else end_line, col if end_col is None else end_col)


# --- the engine -----------------------------------------------------------------------------------


def test_apply_takes_non_overlapping_fixes_and_leaves_a_conflicting_one() -> None:
    text = "alpha beta\ngamma\n"
    first = Fix.make("a", Edit(_span(1, 1, 1, 6), "ALPHA"))
    clash = Fix.make("b", Edit(_span(1, 3, 1, 8), "x"))
    other = Fix.make("c", Edit(_span(2, 1, 2, 6), "GAMMA"), Edit(_span(1, 11), "!"))
    out, taken = apply(text, [clash, first, other])
    assert taken == [first, other]  # by where they start; the clash waits for the next pass
    assert out == "ALPHA beta!\nGAMMA\n"


def test_apply_inserts_at_one_point_in_the_order_taken_and_keeps_crlf() -> None:
    text = "one\r\ntwo\r\n"
    a = Fix.make("a", Edit(_span(2, 1), "x\n"))
    b = Fix.make("b", Edit(_span(2, 1), "y\n"))
    out, taken = apply(text, [a, b])
    assert out == "one\r\nx\r\ny\r\ntwo\r\n"
    assert taken == [a, b]


def test_apply_makes_the_same_repair_once_and_refuses_spans_outside_the_text() -> None:
    text = "export NCCL_DEBUG=INFO\n"
    fix = Fix.make("w", Edit(_span(1, 19, 1, 23), "WARN"))
    assert apply(text, [fix, fix]) == ("export NCCL_DEBUG=WARN\n", [fix])
    with pytest.raises(Unfixable):
        apply(text, [Fix.make("far", Edit(_span(9, 1), "x"))])
    with pytest.raises(Unfixable):
        apply("a\x0bb\n", [fix])  # a line break the findings do not count


# --- every fix on its rule's Bad example ----------------------------------------------------------


def _examples() -> list[tuple[str, str]]:
    """(code, kind) of every Bad example a rule's fix repairs: "sh" for a script, "yaml" for a spec."""
    out = []
    for code in FIXED:
        repair = RULES[code].repair
        assert repair is not None
        if code.startswith("JC8") or SCRIPT_EXAMPLE.search(RULES[code].doc):
            out.append((code, "sh"))
        if repair.where.startswith("specs"):
            out.append((code, "yaml"))
        assert repair.where.startswith("specs") or (code, "sh") in out, f"{code}: no example it fixes"
    return out


def _example(code: str, kind: str) -> str:
    """The Bad example: a script, or a spec pasted over a small valid one."""
    doc = RULES[code].doc
    if kind == "sh" and code.startswith("JC8"):
        from tests.support.lint import script_example

        match = re.search(r"^Bad\b[^\n]*:\n+```bash\n(.*?)^```", doc, re.S | re.M)
        good = re.search(r"^Good:\n+```bash\n(.*?)^```", doc, re.S | re.M)
        assert match, code
        whole = good is not None and good.group(1).startswith("#!")
        return script_example(match.group(1), whole=whole)
    if kind == "sh":
        match = SCRIPT_EXAMPLE.search(doc)
        assert match, f"{code}: a rule that repairs scripts shows a script (Bad in a script:)"
        return match.group(1)
    match = SPEC_EXAMPLE.search(doc)
    assert match, code
    example = match.group(1)
    # pasted over a small valid spec, section by section, as a user would write it
    sections = dict.fromkeys(re.findall(r"^(\w+):", example, re.M))
    kept = [chunk for chunk in re.split(r"(?m)^(?=\w)", BASE) if chunk.split(":")[0] not in sections]
    return "".join(kept) + example


def _errors(result_findings: list) -> set[str]:  # type: ignore[type-arg]
    return {f.code for f in result_findings if f.severity >= Severity.ERROR}


@pytest.mark.parametrize(("code", "kind"), _examples())
def test_a_fix_repairs_its_rules_bad_example(code: str, kind: str, tmp_path: Path) -> None:
    text = _example(code, kind)
    path = tmp_path / f"bad.{kind}"
    path.write_text(text, encoding="utf-8")
    profile = tmp_path / "site.yaml"
    profile.write_text(PROFILE, encoding="utf-8")
    used = profile if kind == "sh" else None
    before = lint_path(path, profile=used)
    assert code in {f.code for f in before.findings}, "the Bad example fires"
    unsafe = str(RULES[code].repair.applicability) == "unsafe"  # type: ignore[union-attr]
    outcome = fix_path(path, config=Config(), unsafe=unsafe, profile=used)
    assert outcome.stopped is None
    assert outcome.changed
    assert code in {f.code for f in outcome.fixed}
    assert outcome.result is not None
    after = outcome.result.findings
    assert code not in {f.code for f in after}, [f.message for f in after if f.code == code]
    assert _errors(after) <= _errors(before.findings), "no new error"
    fixed = tmp_path / f"fixed.{kind}"
    fixed.write_text(outcome.after, encoding="utf-8")
    if kind == "sh":
        subprocess.run(["bash", "-n", str(fixed)], check=True)
    else:
        src = parse_text(outcome.after, "fixed.yaml")
        assert not [p for p in src.problems if p.code in ("JC001", "JC002")]
    again = fix_path(fixed, config=Config(), unsafe=unsafe, profile=used)
    assert not again.changed, diff(again)


def test_script_fixes_keep_the_users_formatting() -> None:
    from jobc.lint.rules.script.jc807_trap_without_batch_signal import batch_edit
    from jobc.script import signals
    from jobc.script.parse import read_bytes

    facts = read_bytes(b"#!/bin/bash\n#SBATCH   --signal=R:USR1@90  # warn\ntrap 'x' USR1\n", "s.sh")
    sent = signals.sent_by(facts)
    assert sent is not None
    edits = batch_edit(sent)
    assert edits is not None
    out, _ = apply("\n".join(facts.lines) + "\n", [Fix.make("b", *edits)])
    assert out.splitlines()[1] == "#SBATCH   --signal=RB:USR1@90  # warn"


# --- the command line -----------------------------------------------------------------------------

BROKEN = """\
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --signal=USR1@90   # checkpoint warning
module load cuda
#SBATCH --time=01:00:00
trap 'touch "$PWD/stop"' USR1
srun bash -c "python train.py --node-rank=$SLURM_NODEID"
"""


def test_fix_writes_the_file_and_reports_what_stays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(BROKEN, encoding="utf-8")
    script.chmod(0o750)
    assert main(["lint", str(script), "--fix"]) == 0
    text = script.read_text("utf-8")
    assert "#SBATCH --signal=B:USR1@90   # checkpoint warning" in text  # comment and spacing kept
    assert text.index("#SBATCH --time=01:00:00") < text.index("module load cuda")
    assert '--node-rank=\\$SLURM_NODEID"' in text
    assert 'wait "$jobc_step"' in text  # the second pass: the trap must run while the step runs
    assert script.stat().st_mode & 0o777 == 0o750
    subprocess.run(["bash", "-n", str(script)], check=True)
    err = capsys.readouterr().err
    assert re.search(r"fixed \d+ findings in 1 file", err)
    assert main(["lint", str(script), "--fix"]) == 0
    assert script.read_text("utf-8") == text


def test_diff_writes_nothing_and_exits_by_what_the_fixes_leave(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(BROKEN, encoding="utf-8")
    assert main(["lint", str(script), "--diff"]) == 0  # everything it finds is fixed
    out = capsys.readouterr().out
    assert out.startswith(f"--- {script}\n+++ {script}\n@@")
    assert "+#SBATCH --signal=B:USR1@90   # checkpoint warning" in out
    assert script.read_text("utf-8") == BROKEN
    spec = tmp_path / "spec.yaml"
    spec.write_text(BASE.replace("resources: {", "resources: {tasks_per_node: 8, ") + "  # end\n")
    spec.write_text(spec.read_text().replace("launch: {", "launch: {mode: torchrun, "))
    assert main(["lint", str(spec), "--diff"]) == 0
    assert "+resources: {tasks_per_node: 1, nodes: 1" in capsys.readouterr().out


def test_unsafe_fixes_need_the_flag(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    original = BASE.replace("resources: {nodes: 1", "resources: {node: 2") + "# keep this comment\n"
    spec.write_text(original)
    assert main(["lint", str(spec), "--fix"]) == 1  # the rename is unsafe: the finding stays
    assert spec.read_text() == original
    assert "JC003" in capsys.readouterr().out
    assert main(["lint", str(spec), "--fix", "--unsafe-fixes"]) == 0
    assert spec.read_text() == original.replace("{node: 2", "{nodes: 2")
    assert main(["lint", str(spec), "--unsafe-fixes"]) == 2  # a usage error without --fix/--diff
    assert main(["lint", str(spec), "--fix", "--set", "resources.nodes=2"]) == 2


def test_text_output_says_how_many_findings_fix_would_repair(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(BASE.replace("resources: {nodes: 1", "resources: {node: 2"))
    assert main(["lint", str(spec)]) == 1
    assert (
        capsys.readouterr().err
        == "jobc lint: 1 fixable with --fix --unsafe-fixes (--diff shows the changes first)\n"
    )
    script = tmp_path / "job.sh"
    script.write_text(BROKEN, encoding="utf-8")
    main(["lint", str(script)])
    assert re.fullmatch(
        r"jobc lint: \d+ fixable with --fix \(--diff shows the changes first\)\n", capsys.readouterr().err
    )
    main(["lint", str(script), "--format", "json"])  # the JSON carries each fix instead
    assert capsys.readouterr().err == ""
    clean = tmp_path / "clean.sh"
    clean.write_text("#!/bin/bash\n#SBATCH --nodes=1\nsrun hostname\n", encoding="utf-8")
    main(["lint", str(clean)])  # near miss: nothing to fix, nothing said
    assert capsys.readouterr().err == ""


def test_json_and_sarif_carry_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "job.sh"
    script.write_text(BROKEN, encoding="utf-8")
    main(["lint", str(script), "--format", "json"])
    items = {item["code"]: item for item in json.loads(capsys.readouterr().out)}
    fix = items["JC807"]["fix"]
    assert (fix["applicability"], fix["description"]) == ("safe", "send the signal to the batch shell (B:)")
    # B:, the trap handing the signal on to the step as Slurm did (with B: the step no longer gets
    # it), and the foreground step started with & (else the trap would wait for it, JC802)
    assert fix["edits"][:3] == [
        {"line": 3, "col": 18, "end_line": 3, "end_col": 18, "text": "B:"},
        {"line": 6, "col": 7, "end_line": 6, "end_col": 7, "text": "scancel --signal=USR1 $SLURM_JOB_ID; "},
        {"line": 7, "col": 57, "end_line": 7, "end_col": 57, "text": " &"},
    ]
    assert fix["edits"][3]["text"].startswith("\njobc_step=$!\n")
    main(["lint", str(script), "--format", "sarif"])
    results = json.loads(capsys.readouterr().out)["runs"][0]["results"]
    sarif = next(r for r in results if r["ruleId"] == "JC807")["fixes"][0]
    change = sarif["artifactChanges"][0]
    assert change["artifactLocation"]["uri"] == str(script)
    assert change["replacements"][0] == {
        "deletedRegion": {"startLine": 3, "startColumn": 18, "endLine": 3, "endColumn": 18},
        "insertedContent": {"text": "B:"},
    }
    assert len(change["replacements"]) == 4
    assert sarif["description"]["text"]


def test_passes_are_bounded() -> None:
    assert MAX_PASSES == 10


def test_fix_leaves_unreadable_and_odd_files_alone(tmp_path: Path) -> None:
    odd = tmp_path / "odd.sh"
    # a form feed: str.splitlines() breaks a line there, the script's parser does not
    data = b"#!/bin/bash\n#SBATCH --signal=USR1@90\ntrap 'x' USR1\x0c\nsrun python t.py\n"
    odd.write_bytes(data)
    outcome = fix_path(odd, config=Config(), unsafe=True)
    assert not outcome.changed
    assert outcome.stopped


def test_unused_suppressions_are_removed_and_used_codes_kept(tmp_path: Path) -> None:
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=01:00:00\n"
        "# jobc: ignore[JC104]\n"
        "module load cuda   # jobc: ignore[JC404]\n"
        "export MASTER_PORT=29500   # jobc: ignore[JC104, JC702]\n"
        "srun python train.py  # run it, jobc: ignore[JC101]\n",
        encoding="utf-8",
    )
    outcome = fix_path(script, config=Config(), unsafe=False)
    assert outcome.after.splitlines()[3:] == [
        "module load cuda",
        "export MASTER_PORT=29500   # jobc: ignore[JC104]",
        "srun python train.py  # run it",
    ]
    assert outcome.result is not None
    assert outcome.result.findings == []


def test_a_spec_file_option_gets_slurms_pattern_and_storage_logs_does_not(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        BASE.replace(
            'slurm: {time: "01:00:00"}', 'slurm: {time: "01:00:00", extra: {output: "/l/$USER/%j.out"}}'
        )
        + "storage: {logs: /scratch/$USER/logs}\n",
        encoding="utf-8",
    )
    outcome = fix_path(spec, config=Config(), unsafe=False)
    assert 'extra: {output: "/l/%u/%j.out"}' in outcome.after
    assert "logs: /scratch/$USER/logs" in outcome.after  # the script's shell reads it too


CORPUS = sorted(
    p
    for p in (Path(__file__).parents[1] / "script" / "corpus").rglob("*")
    if p.is_file() and p.suffix in (".sh", ".sbatch", ".slurm")
)


# A misspelled directive the fix writes right (`#SBATCh --nodes=2`, JC813) asks for the job its
# author meant, whose own faults lint then sees: held exactly, by the errors it shows then
# (2 nodes without a time limit, JC108; --gpus=10 over them with no tasks asked, JC101)
_REVEALS = {"pytorchmultigpu_sbatch_case_typo.sh": {"JC101", "JC108"}}


@pytest.mark.parametrize("script", CORPUS, ids=[p.name for p in CORPUS])
def test_fixes_on_the_real_world_corpus_keep_each_script_sound(script: Path, tmp_path: Path) -> None:
    """The corpus is excerpts of real scripts: whatever --fix does to one, it still parses when it
    did, gains no error, leaves no applicable fix behind and is not changed by a second --fix."""
    before = lint_path(script)
    was = subprocess.run(["bash", "-n", str(script)], capture_output=True, check=False).returncode
    for unsafe in (False, True):
        outcome = fix_path(script, config=Config(), unsafe=unsafe)
        if not outcome.changed:
            continue
        assert outcome.result is not None
        assert outcome.stopped is None
        gained = _errors(outcome.result.findings) - _errors(before.findings)
        assert gained == _REVEALS.get(script.name, set()), diff(outcome)
        left = [f.code for f in outcome.result.findings if f.fix is not None and (unsafe or f.fix.safe)]
        assert left == [], diff(outcome)
        fixed = tmp_path / script.name
        fixed.write_text(outcome.after, encoding="utf-8")
        now = subprocess.run(["bash", "-n", str(fixed)], capture_output=True, check=False).returncode
        assert now == 0 or was != 0, diff(outcome)
        assert not fix_path(fixed, config=Config(), unsafe=unsafe).changed


def test_a_torchrun_line_srun_starts_is_quoted_for_the_steps_shell(tmp_path: Path) -> None:
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --time=01:00:00\n#SBATCH --exclusive\n"
        'export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)\n'
        "LOCAL=x\n"
        "srun torchrun --nnodes=2 --nproc_per_node=8 --node_rank=$SLURM_NODEID \\\n"
        '  --master_addr="$MASTER_ADDR" --master_port=29500 train.py\n'
        "srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID --tag=$LOCAL train.py\n",
        encoding="utf-8",
    )
    assert fix_path(script, config=Config(), unsafe=False).after == script.read_text()  # unsafe only
    after = fix_path(script, config=Config(), unsafe=True).after.splitlines()
    assert after[6:8] == [
        "srun bash -c 'torchrun --nnodes=2 --nproc_per_node=8 --node_rank=$SLURM_NODEID \\",
        '  --master_addr="$MASTER_ADDR" --master_port=29500 train.py\'',
    ]
    # a shell variable the script does not export would be empty in the step: left as found
    assert after[8] == "srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID --tag=$LOCAL train.py"


def test_a_read_only_file_is_not_replaced(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "job.sh"
    script.write_text(BROKEN, encoding="utf-8")
    script.chmod(0o444)
    assert main(["lint", str(script), "--fix"]) == 2
    assert script.read_text(encoding="utf-8") == BROKEN
    assert "read-only" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("slurm", "written"),
    [
        (
            "slurm:\n  partition: batch   # the big one\n",
            'slurm:\n  time: "04:00:00"\n  partition: batch   # the big one\n',
        ),
        ("slurm: {partition: batch}\n", 'slurm: {time: "04:00:00", partition: batch}\n'),
        ("", 'launch: {program: train.py}\nslurm:\n  time: "04:00:00"\n'),
    ],
    ids=["block", "flow", "no-section"],
)
def test_a_specs_missing_time_gets_the_partitions_default_as_written(
    tmp_path: Path, slurm: str, written: str
) -> None:
    (tmp_path / "site.yaml").write_text(
        "profile: site\nslurm: {partition: batch}\n" + PROFILE.split("\n", 1)[1], encoding="utf-8"
    )
    spec = tmp_path / "spec.yaml"
    spec.write_text(
        f"version: 1\nname: x\nextends: site.yaml\n{slurm}resources: {{nodes: 2, gpus_per_node: 8}}\n"
        "launch: {program: train.py}\n",
        encoding="utf-8",
    )
    assert not fix_path(spec, config=Config(), unsafe=False).changed  # a value jobc chose: unsafe
    outcome = fix_path(spec, config=Config(), unsafe=True)
    assert written in outcome.after
    assert outcome.result is not None
    assert "JC108" not in {f.code for f in outcome.result.findings}


def test_an_entry_leaves_its_mapping_with_its_comma_or_its_line() -> None:
    from jobc.reader.locate import entry_removal
    from jobc.reader.source import parse_text

    text = 'a: {x: 1, y: 2}\nb: {y: 2, x: 1}\nc: {x: 1}\nd:\n  x: "1"   # gone\n  y: 2\ne:\n  x: 1\n'
    src = parse_text(text, "t.yaml")
    out, _ = apply(
        text,
        [Fix.make(k, Edit(span, "")) for k in "abcde" if (span := entry_removal(src.tree, text, (k, "x")))],
    )
    # the only entry of a block mapping stays: without it the mapping would be null
    assert out == "a: {y: 2}\nb: {y: 2}\nc: {}\nd:\n  y: 2\ne:\n  x: 1\n"


def test_a_crlf_script_is_converted_first_and_then_fixed(tmp_path: Path) -> None:
    script = tmp_path / "job.sh"
    script.write_bytes(BROKEN.replace("\n", "\r\n").encode())
    outcome = fix_path(script, config=Config(), unsafe=False)
    assert outcome.stopped is None
    assert "\r" not in outcome.after
    assert {"JC810", "JC801", "JC807", "JC106"} <= {f.code for f in outcome.fixed}
    assert outcome.after == fix_path(_lf(tmp_path), config=Config(), unsafe=False).after
    # with JC810 ignored the line breaks stay, and so does everything else
    kept = fix_path(script, config=Config(ignore=["JC810"]), unsafe=False)
    assert not kept.changed
    assert kept.stopped is not None


def _lf(tmp_path: Path) -> Path:
    path = tmp_path / "lf.sh"
    path.write_text(BROKEN, encoding="utf-8")
    return path


def test_bytes_that_are_not_utf8_are_written_back_as_they_were(tmp_path: Path) -> None:
    script = tmp_path / "job.sh"
    data = BROKEN.encode().replace(b"# checkpoint warning", b"# caf\xe9")
    script.write_bytes(data)
    assert main(["lint", str(script), "--fix"]) == 0
    assert b"#SBATCH --signal=B:USR1@90   # caf\xe9\n" in script.read_bytes()


def test_a_diff_of_bytes_that_are_not_utf8_shows_them_as_they_were(tmp_path: Path) -> None:
    import sys

    script = tmp_path / "job.sh"
    script.write_bytes(BROKEN.encode().replace(b"# checkpoint warning", b"# caf\xe9"))
    done = subprocess.run(
        [sys.executable, "-m", "jobc", "lint", "--diff", str(script)],
        capture_output=True,
        env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "PYTHONIOENCODING": "utf-8:strict"},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert b"+#SBATCH --signal=B:USR1@90   # caf\xe9\n" in done.stdout


def test_a_crlf_script_with_a_lone_carriage_return_is_left_as_it_was(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # JC810's fix converts CRLF; a lone \r among them made that fix refuse the text, uncaught
    script = tmp_path / "job.sh"
    data = b"#!/bin/bash\r\n#SBATCH --nodes=1\r#SBATCH -N 1\r\nsrun python train.py\r\n"
    script.write_bytes(data)
    assert main(["lint", "--fix", str(script)]) == 1
    err = capsys.readouterr().err
    assert "breaks lines with characters other than" in err
    assert "internal error" not in err
    assert script.read_bytes() == data


def test_a_directive_line_in_a_script_jobc_does_not_read_as_shell_is_not_moved(tmp_path: Path) -> None:
    # under python the line after the command is inside a string: moving it changed the string
    script = tmp_path / "job.py"
    text = '#!/usr/bin/env python3\nHELP = """usage:\n#SBATCH --time=1:00:00\n"""\nprint(HELP)\n'
    script.write_text(text, encoding="utf-8")
    outcome = fix_path(script, config=Config(), unsafe=True)
    assert outcome.result is not None
    assert "JC801" in {f.code for f in outcome.result.findings}
    assert outcome.after == text


def test_a_diff_quotes_a_file_name_with_control_characters_as_git_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a raw OSC sequence in the header retitled the terminal; patch reads the quoted form
    script = tmp_path / "d\x1b]0;PWN\x07.sh"
    script.write_text("#!/bin/bash\n#SBATCH -N 1\necho hi\n#SBATCH -t 10\nsrun x\n", encoding="utf-8")
    main(["lint", "--diff", str(script)])
    header = capsys.readouterr().out.splitlines()[:2]
    name = str(tmp_path).replace("\\", "\\\\") + "/d\\033]0;PWN\\a.sh"
    assert header == [f'--- "{name}"', f'+++ "{name}"']


def test_no_fix_rewrites_a_step_read_up_to_an_unclosed_substitution(tmp_path: Path) -> None:
    # found by the fix-script fuzz target: the step ran to the end of the file, and JC106's
    # `bash -c '…'` rewrite was built from a text shorter than what it replaced (a line was lost)
    script = tmp_path / "job.sh"
    text = (
        "#!/bin/bash\n#SBATCH --nodes=2\n"
        "srun torchrun --nnodes=2 --node_rank=$SLURM_NODEID \\\n"
        "  --master_addr=$(scontrol show hostnames train.py\n"
    )
    script.write_text(text, encoding="utf-8")
    assert main(["lint", "--fix", "--unsafe-fixes", str(script)]) == 1
    assert script.read_text(encoding="utf-8") == text


# --- writing the fixed file ----------------------------------------------------------------------


def test_fix_writes_into_the_file_itself_keeping_owner_mode_and_links(tmp_path: Path) -> None:
    import os
    import pwd

    script = tmp_path / "job.sh"
    script.write_text(BROKEN, encoding="utf-8")
    other = tmp_path / "also-job.sh"
    os.link(script, other)
    script.chmod(0o640)
    nobody = pwd.getpwnam("nobody")
    if os.geteuid() == 0:
        os.chown(script, nobody.pw_uid, nobody.pw_gid)  # another user's file, fixed by root
    before = script.stat()
    assert main(["lint", str(script), "--fix"]) == 0
    after = script.stat()
    assert (after.st_ino, after.st_uid, after.st_gid, after.st_mode) == (
        before.st_ino,
        before.st_uid,
        before.st_gid,
        before.st_mode,
    )
    assert after.st_nlink == 2
    assert other.read_text(encoding="utf-8") == script.read_text(encoding="utf-8") != BROKEN


def test_fix_of_a_directory_does_not_write_through_a_link_out_of_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree, outside = tmp_path / "tree", tmp_path / "outside"
    tree.mkdir()
    (outside / "sub").mkdir(parents=True)
    target = outside / "job.sh"
    target.write_text(BROKEN, encoding="utf-8")
    (outside / "sub" / "deep.sh").write_text(BROKEN, encoding="utf-8")
    (tree / "link.sh").symlink_to(target)
    (tree / "linked-dir").symlink_to(outside / "sub", target_is_directory=True)
    inside = tree / "own.sh"
    inside.write_text(BROKEN, encoding="utf-8")
    (tree / "alias.sh").symlink_to(inside)  # near miss: a link that stays in the tree
    assert main(["lint", "--fix", str(tree)]) == 2
    err = capsys.readouterr().err
    assert target.read_text(encoding="utf-8") == BROKEN
    assert (outside / "sub" / "deep.sh").read_text(encoding="utf-8") == BROKEN
    refused = [line for line in err.splitlines() if "not fixed" in line]
    assert len(refused) == 1, err  # a linked directory is not walked at all
    assert refused[0] == (
        f"jobc lint: {tree / 'link.sh'}: not fixed: a symbolic link to a file outside {tree}, "
        "the directory being fixed"
    )
    assert inside.read_text(encoding="utf-8") != BROKEN
    # named on the command line, the link is the file the user asked for
    assert main(["lint", "--fix", str(tree / "link.sh")]) == 0
    assert target.read_text(encoding="utf-8") != BROKEN


def test_a_file_changed_since_it_was_read_is_not_written(tmp_path: Path) -> None:
    from jobc.commands.lint import _write_fixed
    from jobc.core.files import Changed, rewrite

    script = tmp_path / "job.sh"
    script.write_text(BROKEN, encoding="utf-8")
    outcome = fix_path(script, config=Config(), unsafe=False)
    assert outcome.changed
    edited = BROKEN.replace("module load cuda", "module load cuda/12.4")
    script.write_text(edited, encoding="utf-8")  # someone saves the file meanwhile
    problem = _write_fixed(script, outcome, [])
    assert problem == "not fixed: the file changed since jobc read it; run jobc lint --fix again"
    assert script.read_text(encoding="utf-8") == edited
    with pytest.raises(Changed):
        rewrite(script, BROKEN.encode(), b"x")
    # near miss: unchanged, it is written, shorter or longer than before
    rewrite(script, edited.encode(), b"#!/bin/bash\n")
    assert script.read_bytes() == b"#!/bin/bash\n"
    rewrite(script, b"#!/bin/bash\n", edited.encode())
    assert script.read_text(encoding="utf-8") == edited


def test_show_fixes_lists_each_file_and_rule(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from jobc.cli import main

    spec = tmp_path / "s.yaml"
    spec.write_text(
        "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 2}\nlaunch: {program: a.py}\n"
        "slurm: {time: 01:00:00}\n"
    )
    assert main(["lint", str(spec), "--diff", "--show-fixes"]) == 0
    err = capsys.readouterr().err
    assert f"Would fix 1 finding:\n- {spec}:\n    1 × JC004 (ambiguous-scalar)\n" in err
    assert main(["lint", str(spec), "--fix", "--show-fixes"]) == 0
    assert f"Fixed 1 finding:\n- {spec}:\n    1 × JC004 (ambiguous-scalar)\n" in capsys.readouterr().err
    assert main(["lint", str(spec), "--fix", "--show-fixes"]) == 0
    assert "jobc lint: fixed nothing" in capsys.readouterr().err
    assert main(["lint", str(spec), "--show-fixes"]) == 2


def test_a_late_directive_with_a_shell_value_is_not_moved(tmp_path: Path) -> None:
    # source: a BDPDDM array job that sets QOS and TIME in an `if` and then writes them as
    # `#SBATCH --time=$TIME` (the form): sbatch reads no shell value, so moved up the line would ask
    # for the text `$TIME`; the finding stays, without a fix
    script = tmp_path / "job.sh"
    head = "#!/bin/bash\n#SBATCH --nodes=1\nTIME=1:00:00\n"
    script.write_text(head + "#SBATCH --time=$TIME\npython t.py\n", encoding="utf-8")
    late = [f for f in lint_path(script).findings if f.code == "JC801"]
    assert [f.fix for f in late] == [None]
    assert not fix_path(script, config=Config(), unsafe=True).changed
    # near miss: a value written out is moved as before
    script.write_text(head + "#SBATCH --time=2:00:00\npython t.py\n", encoding="utf-8")
    assert fix_path(script, config=Config(), unsafe=False).after.startswith(
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --time=2:00:00\n"
    )


def test_a_late_directive_below_a_word_the_grammar_ends_early_is_not_moved(tmp_path: Path) -> None:
    # found by the fix-script fuzz target (seed 963, input 229): `--master_port ${MAS…` has no `}`
    # on its line; the grammar ended the word there and read around it, but bash reads the word
    # on to the `}` lines below, the `#SBATCH` line among its text (bash's `bad substitution`
    # message quotes it): moved, it changed that text. The finding stays, without a fix
    script = tmp_path / "job.sh"
    head = "#!/bin/bash\n#SBATCH --nodes=1\n        --master_port ${MASTuncher scripts (the step).\n"
    text = head + '#SBATCH -A coreai\n: "${APPS_PATH:=/apps}"\n}\nsrun python train.py\n'
    script.write_text(text, encoding="utf-8")
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    late = [f for f in lint_path(script).findings if f.code == "JC801"]
    assert [f.fix for f in late] == [None]
    assert fix_path(script, config=Config(), unsafe=True).after == text
    # near miss: the word closed on its line, the grammar reads it all and the line is moved
    closed = text.replace("${MASTuncher scripts (the step).", "${MASTER_PORT}").replace("}\nsrun", "srun")
    script.write_text(closed, encoding="utf-8")
    assert fix_path(script, config=Config(), unsafe=True).after.startswith(
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH -A coreai\n"
    )
