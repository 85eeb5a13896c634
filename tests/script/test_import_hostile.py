"""`jobc import` of hostile scripts and file names: the spec it writes means what the script
meant, holds nothing pasted, and a failure leaves the old spec as it was."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from jobc.cli import main
from jobc.lint.config import Config
from jobc.lint.pipeline import lint_file

HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=1\n#SBATCH --time=1:00:00\n"


def _import(script: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["import", str(script), "-o", str(out)])
    err = capsys.readouterr().err
    return code, (out.read_text(encoding="utf-8") if out.exists() else ""), err


def test_a_newline_in_the_file_name_injects_no_yaml(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "a\nenv:\n  EVIL: pwned\n#.sh"
    script.write_text(HEAD + "srun python train.py\n")
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert re.search(r"(?m)^\s*EVIL", spec) is None
    assert "a\\nenv:\\n  EVIL: pwned\\n#.sh" in spec.splitlines()[0]
    result = lint_file(tmp_path / "spec.yaml", config=Config())
    assert result.findings == []
    assert result.context is not None
    assert "EVIL" not in result.context.spec.env


def test_control_characters_are_escaped_in_strings_and_comments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "b\x1b]0;title\x07\x7f\u0085.sh"
    script.write_text(HEAD + 'echo "\x1b[2J\x07done"\nsrun python train.py "x\x1by" "\u202eevil"\n')
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    for ch in "\x1b\x07\x7f\x85\u202e":
        assert ch not in spec
        assert ch not in err
    assert '- "x\\ey"' in spec
    assert '- "\\u202eevil"' in spec
    assert 'echo "\\e[2J\\x07done"' in spec
    result = lint_file(tmp_path / "spec.yaml", config=Config())
    assert [f.code for f in result.findings] == []
    assert result.context is not None
    assert result.context.spec.launch.args == ["x\x1by", "\u202eevil"]


def test_literal_braces_are_escaped_for_interpolation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from jobc.compile.plan import make_plan

    script = tmp_path / "job.sh"
    script.write_text(
        HEAD + "srun python train.py ckpt-{epoch}-{step}.pt '{name}-{resources.nodes}n' '${HOME}/{x}'\n"
    )
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert '"ckpt-{{epoch}}-{{step}}.pt"' in spec
    result = lint_file(tmp_path / "spec.yaml", config=Config())
    assert [f.code for f in result.findings] == ["JC507"]  # ${HOME} is passed as written, as in the script
    assert result.context is not None
    assert make_plan(result.context).program == (
        "train.py",
        "ckpt-{epoch}-{step}.pt",
        "{name}-{resources.nodes}n",
        "${HOME}/{x}",
    )


def test_a_program_name_that_is_not_utf8_fails_and_leaves_the_old_spec(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_bytes(HEAD.encode() + b"srun python tr\xffain.py --lr 1\n")
    out = tmp_path / "spec.yaml"
    out.write_text("version: 1  # the user's own spec\n")
    code, spec, err = _import(script, out, capsys)
    assert code == 1
    assert spec == "version: 1  # the user's own spec\n"
    assert err.strip().splitlines()[-1] == (
        f"jobc import: {script}: not imported: line 5: launch.program: "
        "tr\\xffain.py holds bytes that are not UTF-8, which a spec cannot hold"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.sh", "spec.yaml"]  # no temporary left


def test_an_exported_name_longer_than_a_yaml_key_may_be_is_refused_with_its_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Written as a key, YAML stops reading it after 1,024 characters and the spec fails to
    # parse; a name one character under the limit imports and parses.
    script = tmp_path / "job.sh"
    long = "CUDA_" + "9" * 5000 + "_X"
    script.write_text(HEAD + f"export {long}=1\nsrun python train.py\n")
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 1
    assert err.strip().splitlines()[-1] == (
        f"jobc import: {script}: not imported: line 5: env.{long}: "
        "a name of 5,007 characters, longer than a YAML key may be"
    )
    fits = "A" * 1000
    script.write_text(HEAD + f"export {fits}=1\nsrun python train.py\n")
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert f"  {fits}: " in spec
    assert yaml.safe_load(spec)["env"][fits] == "1"


def test_a_file_name_that_is_not_utf8_to_a_strict_utf8_stdout(tmp_path: Path) -> None:
    name = os.fsdecode(b"c\xff.sh")
    script = tmp_path / name
    script.write_text(HEAD + "srun python train.py\n")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    done = subprocess.run(
        [sys.executable, "-m", "jobc", "import", os.fsencode(script)],
        capture_output=True,
        env=env,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")  # strict: every byte is UTF-8
    assert "c\\xff.sh" in out.splitlines()[0]
    assert b"c\\xff.sh" in done.stderr


def test_a_wrapper_is_never_imported_as_an_invented_program(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(HEAD + "srun ./run.sh --lr 1\n")
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert "train.py" not in spec
    assert re.search(r"(?m)^\s*program:", spec) is None
    assert "#   line 5: srun ./run.sh --lr 1 — the program this runs is not written in the script" in spec
    assert "write launch.program" in err
    result = lint_file(tmp_path / "spec.yaml", config=Config())
    assert [(f.code, f.message) for f in result.findings] == [
        ("JC003", "launch needs 'program' (a script) or 'module' (python -m)")
    ]


def test_a_script_without_a_program_says_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "job.sh"
    script.write_text(HEAD + "echo nothing to run\n")
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert "train.py" not in spec
    assert "the program this runs is not written in the script" in spec


def test_secrets_are_not_copied_into_the_comments(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    token = "hf_abcdefghijklmnopqrstuvwxyz0123456789"
    wandb = "0123456789abcdef0123456789abcdef01234567"
    script = tmp_path / "job.sh"
    script.write_text(
        HEAD + f"export HF_TOKEN={token}\nexport WANDB_API_KEY={wandb}\n"
        "export DATABASE_URL=postgres://me:s3cretPassw0rd@db.example.com/x\n"
        "git clone https://me:s3cretPassw0rd@git.example.com/repo\n"
        "srun python train.py --token abcdef123456\n"
    )
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    for secret in (token, wandb, "s3cretPassw0rd", "abcdef123456"):
        assert secret not in spec
        assert secret not in err
    assert "export HF_TOKEN=… — left out, JC702" in spec
    assert "git clone https://me:…@git.example.com/repo" in spec


@pytest.mark.parametrize(
    ("line", "path"),
    [
        ("#SBATCH --nodes=0", "nodes:"),
        ("#SBATCH --cpus-per-task=12345678901234567890123", "cpus_per_task:"),
        ("#SBATCH --nodes=" + "9" * 5000, "nodes:"),
        ("#SBATCH --nodes=²", "nodes:"),
    ],
)
def test_a_value_slurm_refuses_is_a_finding_not_a_value(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str, path: str
) -> None:
    script = tmp_path / "job.sh"
    rest = "#SBATCH --gpus-per-node=1\n#SBATCH --time=1:00:00\nsrun python t.py\n"
    script.write_text(f"#!/bin/bash\n{line}\n{rest}")
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0  # the import did its work; the script is what sbatch refuses (lint fails)
    assert "job.sh:2:9: JC809 [error] #SBATCH --" in err
    assert path not in spec
    assert len(spec) < 2000
    assert lint_file(tmp_path / "spec.yaml", config=Config()).findings == []


def test_an_export_bash_refuses_is_a_finding_not_an_env_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(HEAD + "export 1A=x\nsrun python t.py\n")
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert "job.sh:5:8: JC809 [error] export 1A: bash refuses the name" in err
    assert "env:" not in spec
    assert lint_file(tmp_path / "spec.yaml", config=Config()).findings == []
    # the last line says the spec is written without the refused value
    assert err.splitlines()[-1].endswith(
        "note: the spec in " + str(tmp_path / "spec.yaml") + " leaves out 1 value(s) the script holds "
        "that sbatch, srun or bash refuses (JC809, above, each listed as not mapped); "
        "everything else was read"
    )
    assert "program:" in spec


def test_an_import_with_nothing_refused_ends_with_its_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(HEAD + "export A1=x\nsrun python t.py\n")
    code, _, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert "leaves out" not in err


def test_a_nul_byte_anywhere_is_not_imported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    script = tmp_path / "job.sh"
    script.write_bytes(HEAD.encode() + b"echo hi\n" * 10000 + b"srun python train.py a\0b\n")
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 1
    assert spec == ""
    assert "NUL byte at line 10005" in err


def test_a_program_path_that_looks_like_a_token_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "job.sh"
    script.write_text(HEAD + "srun python /data/sk-abcdefghijklmnopqrstuvwx1/train.py --lr 1\n")
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert 'program: "/data/sk-abcdefghijklmnopqrstuvwx1/train.py"  # line 5' in spec
    assert "# jobc: launch.program kept as the script runs it, although JC702 says" in spec
    found = lint_file(tmp_path / "spec.yaml", config=Config()).findings
    assert [(f.code, f.path) for f in found] == [("JC702", ("launch", "program"))]


def test_a_control_character_in_a_directive_value_is_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # found by the import fuzz target: --output's directory became storage.logs with its DEL
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=1\n#SBATCH --time=1:00:00\n"
        "#SBATCH --output=/home/alice\x7fsweep/%A_%a.out\n#SBATCH --partition=a\x1bb\nsrun python t.py\n"
    )
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert re.search(r"(?m)^\s*(logs|partition):", spec) is None
    assert "left out, JC003: storage.logs: a line break or control character" in spec
    assert lint_file(tmp_path / "spec.yaml", config=Config()).findings == []


@pytest.mark.parametrize(
    "line",
    [
        "#SBATCH --container-image=nvcr.io#nvidia=nvcr.io#nvidia/pytorch:24.05-py3",  # JC502: two '#'
        "#SBATCH --container-workdir=/lustre/code",  # pyxis options without an image
    ],
)
def test_a_container_import_cannot_describe_is_left_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], line: str
) -> None:
    # both found by the import fuzz target: the spec failed JC502, or JC003 (container needs image)
    script = tmp_path / "job.sh"
    script.write_text(HEAD.replace("#SBATCH --time", f"{line}\n#SBATCH --time") + "srun python t.py\n")
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert re.search(r"(?m)^container:", spec) is None
    assert "left out" in spec or "container options without an image" in spec or "(JC816)" in spec
    assert [f.code for f in lint_file(tmp_path / "spec.yaml", config=Config()).findings] == []


def test_a_failed_write_is_the_one_line_of_the_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the summary ("script → spec") came first, as if the spec had been written
    script = tmp_path / "job.sh"
    script.write_text("#!/bin/bash\n#SBATCH -N 1\nsrun python train.py\n", encoding="utf-8")
    assert main(["import", str(script), "-o", "/dev/full"]) == 2
    assert capsys.readouterr().err == "jobc import: /dev/full: cannot write: No space left on device\n"


def test_a_job_name_longer_than_a_spec_may_hold_is_left_out_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # found by the import fuzz target: a 1,000-character job name was written as the spec's name,
    # which the schema refuses (JC003)
    script = tmp_path / "job.sh"
    script.write_text(
        HEAD.replace("#SBATCH --time", f"#SBATCH --job-name=m{'9' * 1000}\n#SBATCH --time")
        + "srun python t.py\n"
    )
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert 'name: "job"' in spec
    assert "at most 200 of them: the spec is named after the file" in spec
    assert [f.code for f in lint_file(tmp_path / "spec.yaml", config=Config()).findings] == []


def test_an_image_left_out_takes_its_container_options_along_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # an image pyxis would read from Docker Hub (JC502) is left out; the mounts went with it, but
    # the spec said "container options without an image" at line 1 and kept a note on the mounts
    script = tmp_path / "job.sh"
    script.write_text(
        HEAD
        + "srun --container-image nvcr.io/nvidia/pytorch:24.01-py3 --container-mounts $PWD:/w python t.py\n"
    )
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert "container:" not in spec
    assert "Not known: container" not in spec
    assert "#   line 5: --container-* options — the image is left out (above)" in spec
    # near miss: options with no image at all are said as such, at their own line
    bare = tmp_path / "bare.sh"
    bare.write_text(HEAD + "srun --container-mounts /a:/a python t.py\n")
    code, spec, _ = _import(bare, tmp_path / "bare.yaml", capsys)
    assert code == 0
    assert "the image is left out" not in spec
    assert "#   line 5: --container-mounts=/a:/a" in spec or "#   line 5: --container-mounts /a:/a" in spec


@pytest.mark.parametrize(("char", "name"), [("\x0b", "vertical tab"), ("\x0c", "form feed")])
def test_a_character_bash_keeps_in_a_word_but_the_grammar_splits_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str, name: str
) -> None:
    # found by the import fuzz target: `python -u -m a<VT>b` is one module name to bash, and the
    # grammar read module `a` with argument `b`
    script = tmp_path / "job.sh"
    script.write_text(
        f"#!/bin/bash\n#SBATCH --nodes=1\n# a comment may hold one{char}\nsrun python -u -m a{char}b\n",
        encoding="utf-8",
    )
    assert main(["import", str(script), "-o", str(tmp_path / "spec.yaml")]) == 1
    err = capsys.readouterr().err
    assert f"job.sh:4:20: not imported: a {name}" in err
    assert not (tmp_path / "spec.yaml").exists()


def test_a_token_inside_an_argument_computed_when_the_job_runs_is_left_out_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # found by the import fuzz target: `"$SLURM_ARRAY_TASK_I…HF_TOKEN=hf_…"` was kept as
    # `{unknown.SLURM_ARRAY_TASK_I}…hf_…` in launch.args (a literal argument's token was left
    # out, a computed one's was not): the spec held the token and failed JC702 without a word
    token = "hf_abcdefghijklmnopqrstuvwxyz0123456789"
    script = tmp_path / "job.sh"
    script.write_text(HEAD + f'srun python sweep.py --task "$SLURM_ARRAY_TASK_I-{token}" --lr 1\n')
    code, spec, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert token not in spec
    assert token not in err
    assert "launch.args.1 — left out, JC702: launch.args[1] holds a Hugging Face token" in spec
    # what said it was kept goes with it, and the arguments around it stay in their order
    assert "kept as {unknown.SLURM_ARRAY_TASK_I}" not in spec + err
    assert yaml.safe_load(spec)["launch"]["args"] == ["--task", "--lr", "1"]
    assert lint_file(tmp_path / "spec.yaml", config=Config()).findings == []
    # near miss: no token in it, the argument is kept in its place as computed when the job runs
    script.write_text(HEAD + 'srun python sweep.py --task "$SLURM_ARRAY_TASK_I-run" --lr 1\n')
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert yaml.safe_load(spec)["launch"]["args"] == [
        "--task",
        "{unknown.SLURM_ARRAY_TASK_I}-run",
        "--lr",
        "1",
    ]
    assert "kept as {unknown.SLURM_ARRAY_TASK_I}-run: write its value" in spec
    assert "left out" not in spec


def test_the_arguments_after_one_left_out_keep_their_words_and_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # taking an argument out of launch.args moved the ones after it down a place, but not what
    # was known of each: a second token's removal took out the argument after it (`--c`), an
    # argument kept as `{unknown.FOO}` was escaped as a literal (`{{unknown.FOO}}`, the compiled
    # job passed the text), and each named the line of the argument before it
    token, other = "hf_abcdefghijklmnopqrstuvwxyz0123456789", "hf_bbcdefghijklmnopqrstuvwxyz0123456789"
    script = tmp_path / "job.sh"
    script.write_text(HEAD + f'srun python train.py --a {token} --b {other} "$FOO" \\\n  --c 3\n')
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    assert code == 0
    assert yaml.safe_load(spec)["launch"]["args"] == ["--a", "--b", "{unknown.FOO}", "--c", "3"]
    assert '- "{unknown.FOO}"  # line 5\n    - "--c"  # line 6\n' in spec
    assert spec.count("— left out, JC702") == 2
    # near miss: nothing left out, nothing moved
    script.write_text(HEAD + 'srun python train.py --a 1 --b 2 "$FOO" \\\n  --c 3\n')
    code, spec, _ = _import(script, tmp_path / "spec.yaml", capsys)
    args = yaml.safe_load(spec)["launch"]["args"]
    assert args == ["--a", "1", "--b", "2", "{unknown.FOO}", "--c", "3"]
    assert '- "{unknown.FOO}"  # line 5\n    - "--c"  # line 6\n' in spec


@pytest.mark.parametrize("condition", ["", " ", "\t"])
def test_an_if_without_a_condition_is_a_finding_not_an_internal_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], condition: str
) -> None:
    # found by the import fuzz target: `if ; then` (bash refuses it) is an empty command to the
    # grammar, whose first word the reading of `test …` conditions looked for
    script = tmp_path / "job.sh"
    # (reduced from the fuzzed script: the grammar reads the empty command after a `then` it
    # cannot read)
    script.write_bytes(
        HEAD.encode() + b"if true; th\xd7n\nif true; then\nif" + condition.encode() + b"; then\nfi\n"
    )
    code, _, err = _import(script, tmp_path / "spec.yaml", capsys)
    assert "internal error" not in err
    assert code in (0, 1)
    # near miss: a `test` condition is still read
    script.write_text(HEAD + "if test 1 -eq 2; then\n  srun python eval.py\nfi\nsrun python train.py\n")
    code, spec, err = _import(script, tmp_path / "near.yaml", capsys)
    assert code == 0, err
    assert "never takes this arm" in spec


def test_a_header_below_a_byte_order_mark_line_is_run_as_the_import_reads_it(tmp_path: Path) -> None:
    # found by the import fuzz target: a second `#!` line with a byte-order mark before it is a
    # command to bash, so the header below it is one sbatch ignores (JC801); the import reads it
    # as the request, 88 tasks per node, one per GPU, and said so, but the simulator gave a node
    # at most 64 GPUs: the compiled job stopped at its own check and ran no program
    from tests.script.roundtrip import round_trip

    body = "#SBATCH --nodes=1\n#SBATCH --ntasks-per-node=88\n#SBATCH --time=01:00:00\nsrun python train.py\n"
    script = ("#!/bin/bash\n\ufeff#!/bin/bash\n" + body).encode()
    outcome = round_trip(script, tmp_path, "job.sh")
    assert outcome.compiled is not None
    assert "below its first command, where sbatch ignores them" in (outcome.spec or "")
    assert "--ntasks-per-node=88" in outcome.compiled
    assert outcome.unlisted == []
    # near miss: no byte-order mark, the header is read by sbatch and both run it alike
    outcome = round_trip(("#!/bin/bash\n" + body).encode(), tmp_path, "job.sh")
    assert outcome.compiled is not None
    assert "sbatch ignores them" not in (outcome.spec or "")
    assert outcome.unlisted == []


def test_a_variable_with_a_huge_name_is_listed_cut_and_the_round_trip_accepts_it(tmp_path: Path) -> None:
    # found by the import fuzz target (seed 4001, input 2,584): `export MAS999…TER_PORT=$((…))`
    # with a name of thousands of characters; the spec lists the line with the name cut (`MAS99…`),
    # which the round trip's judge did not take for that name
    from tests.script.roundtrip import _names, round_trip

    name = "MAS" + "9" * 3000 + "TER_PORT"
    script = HEAD + f"export {name}=$((10000 + SLURM_JOB_ID % 50000))\nsrun python train.py\n"
    outcome = round_trip(script.encode(), tmp_path, "job.sh")
    assert outcome.unlisted == [], outcome.unlisted
    assert any("export MAS999" in line and "…" in line for line in outcome.listed)
    # near misses: another name, or too short a start to say which name it is, is not named
    listed = ["#   line 14: export MAS" + "9" * 40 + "… — a value computed in the batch shell"]
    assert _names(name, listed)
    assert not _names("MAS" + "8" * 3000, listed)
    assert not _names("MAS9999", ["#   line 14: export MAS99… — x"])  # 5 characters say no name
