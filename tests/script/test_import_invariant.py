"""What `jobc import` promises, over every script of the corpus and over generated ones: it either
exits with a clear error, or writes a spec that parses, lints and compiles — failing lint only
with a finding that names what the script itself left unknown (its program, a multi-node job's
time limit, an argument computed when the job ran) — and the compiled job runs the same program
with the same arguments."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobc.cli import main
from jobc.compile.plan import make_plan
from jobc.compile.script import compile_batch
from jobc.core.diagnostics import Severity
from jobc.core.text import UNSAFE
from jobc.lint.config import Config
from jobc.lint.pipeline import lint_file
from jobc.script.parse import read

CORPUS = sorted(p for p in Path(__file__).with_name("corpus").iterdir() if p.is_file()) + sorted(
    Path(__file__).with_name("corpus").joinpath("annotated").glob("*.sh")
)

# the errors an imported spec may still have: each names what the script never said
LEFT_UNKNOWN = (
    ("JC003", "launch needs 'program'"),
    ("JC003", "resources needs 'gpus_per_node'"),
    ("JC108", "needs a time limit"),
    # an argument the script computed when the job ran keeps its place as {unknown.NAME}
    ("JC008", "stands for a value the imported script computed only when the job ran"),
    # the program is kept as the script runs it, and the spec's comment says why JC702 objects
    ("JC702", "launch.program holds"),
    ("JC702", "launch.module holds"),
)


def check_import(script: Path, out: Path, capsys: pytest.CaptureFixture[str]) -> str | None:
    """Import ``script`` to ``out`` and hold the result to the promise; the spec's text, or None
    when import refused with a clear error."""
    out.unlink(missing_ok=True)
    code = main(["import", str(script), "-o", str(out)])
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert "Traceback" not in err
    if not out.exists():
        assert code in (1, 2)
        assert "jobc import:" in err
        assert "not imported" in err or "cannot" in err or "no such file" in err
        return None
    text = out.read_text(encoding="utf-8")
    assert UNSAFE.search(text.replace("\n", "")) is None, "a raw control character in the YAML"
    result = lint_file(out, config=Config())
    errors = [f for f in result.findings if f.severity is Severity.ERROR]
    unexplained = [
        (f.code, f.message)
        for f in errors
        if not any(f.code == code and words in f.message for code, words in LEFT_UNKNOWN)
    ]
    assert unexplained == [], text
    if any(f.code == "JC003" for f in errors):
        assert "# Not known: " in text or "write launch.program" in text  # said in the spec too
        return text
    if errors:
        return text  # the time limit: lint refuses to compile; nothing else is missing
    ctx = result.context
    assert ctx is not None
    script_text = compile_batch(ctx)
    assert "\0" not in script_text
    _same_program(script, make_plan(ctx).program, text)
    return text


def _same_program(script: Path, compiled: tuple[str, ...], spec_text: str) -> None:
    """The compiled job runs the script's program with its arguments (those import listed as
    not mapped, with why, aside)."""
    facts = read(script)
    step = facts.main_step
    assert step is not None
    target = step.module or step.program
    assert target is not None
    head = ("-m", target.text) if step.module is not None else (target.text,)
    assert compiled[: len(head)] == head
    listed = [line for line in spec_text.splitlines() if line.startswith("#   line ")]
    unmapped = {int(line.split()[2].rstrip(":")) for line in listed}
    lines = {step.span.line, *(w.span.line for w in step.args)}
    if unmapped & lines:
        return  # an argument import could not carry is listed, with why
    rest = list(compiled[len(head) :])
    assert len(rest) == len(step.args)
    for have, word in zip(rest, step.args, strict=True):
        # Slurm's allocation variables ($SLURM_JOB_NUM_NODES) are the spec values they equal
        assert have == word.text if word.literal else "$" not in have


@pytest.mark.parametrize("script", CORPUS, ids=lambda p: p.name)
def test_every_corpus_script_imports_to_a_spec_that_means_it(
    script: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check_import(script, tmp_path / "spec.yaml", capsys)


# generated scripts ------------------------------------------------------------------------------

_TEXT = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\0"), min_size=1, max_size=12
)
_WORD = st.one_of(
    st.sampled_from(["--lr", "0.1", "{epoch}", "ckpt-{epoch}-{step}.pt", "{name}-{resources.nodes}n", "a b"]),
    _TEXT,
)


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


@st.composite
def scripts(draw: st.DrawFn) -> str:
    lines = ["#!/bin/bash"]
    lines.append(f"#SBATCH --nodes={draw(st.sampled_from(['1', '2', '0', '²', '9' * 30]))}")
    if draw(st.booleans()):
        lines.append(f"#SBATCH --time={draw(st.sampled_from(['1:00:00', '60', '9' * 30, 'x']))}")
    if draw(st.booleans()):
        lines.append(f"#SBATCH --gres=gpu:{draw(st.sampled_from(['8', '²', 'h100:4']))}")
    if draw(st.booleans()):
        lines.append(f"#SBATCH --cpus-per-task={draw(st.sampled_from(['8', '0', '1' * 23]))}")
    for name in draw(st.lists(st.sampled_from(["A", "1A", "NCCL_DEBUG", "HF_TOKEN", "NCCL_X"]), max_size=3)):
        lines.append(f"export {name}={_quote(draw(_TEXT))}")
    programs = ["train.py", "./run.sh", "{name}.py", "dir with space/t.py", "tr\u00e9in.py"]
    program = draw(st.sampled_from(programs))
    args = " ".join(_quote(a) for a in draw(st.lists(_WORD, max_size=5)))
    launcher = draw(st.sampled_from(["srun python", "srun torchrun --nproc_per_node=8", "srun"]))
    lines.append(f"{launcher} {_quote(program)} {args}")
    return "\n".join(lines) + "\n"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=scripts(), name=st.sampled_from(["job.sh", "a\nenv:\n  EVIL: 1\n#.sh", "b\x1b]0;t\x07.sh"]))
def test_generated_scripts_import_to_a_spec_that_means_them(
    text: str, name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / name
    script.write_text(text, encoding="utf-8")
    spec = check_import(script, tmp_path / "spec.yaml", capsys)
    if spec is not None:
        assert re.search(r"(?m)^\s*EVIL\s*:", spec) is None  # the file name stays in its comment
