"""Any bytes given as a script give findings (or none), never an exception: shell fragments, cut
and spliced corpus scripts, arbitrary bytes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes
from jobc.script.writer import Unwritable

CORPUS = sorted(Path(__file__).with_name("corpus").glob("*.sh"))
FRAGMENTS = [
    "#!/bin/bash\n", "#SBATCH ", "--nodes=", "-N ", "2", "--gres=gpu:", "--signal=B:USR1@", "\n",
    "srun ", "torchrun ", "python ", "-m ", "bash -c '", "'", '"', "$SLURM_NODEID", "${RANK:-0}",
    "$((SLURM_NODEID*8))", "exec ", "trap '' TERM\n", "&", "wait\n", "export A=", "\\\n", "<<EOF\n",
    "EOF\n", "if [ x ]; then\n", "fi\n", "f() {", "}", "--nnodes=", "--rdzv_endpoint=localhost:1",
    "accelerate launch ", "deepspeed ", "uv run ", "=", "#", " ", "ü", "\t", "(", ")", "`", ";",
]  # fmt: skip


def _check(data: bytes, tmp: Path) -> None:
    path = tmp / "job.sh"
    path.write_bytes(data)
    result = lint_path(path)
    for finding in result.findings:
        assert finding.span.line >= 1
        assert finding.span.col >= 1
    facts = read_bytes(data, "job.sh")
    if facts.readable:
        derived = imported(facts)
        try:
            render(derived, facts)
        except Unwritable as exc:
            # the import's own refusal of a value no spec can hold (bytes that are not UTF-8):
            # `jobc import` says which value and writes nothing
            said = str(exc)
            assert said, "a refusal that names nothing"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(parts=st.lists(st.sampled_from(FRAGMENTS), max_size=60))
def test_shell_fragments(parts: list[str], tmp_path: Path) -> None:
    _check("".join(parts).encode(), tmp_path)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    script=st.sampled_from(CORPUS),
    cut=st.integers(min_value=0, max_value=2000),
    other=st.sampled_from(CORPUS),
    at=st.integers(min_value=0, max_value=2000),
)
def test_spliced_corpus_scripts(script: Path, cut: int, other: Path, at: int, tmp_path: Path) -> None:
    a, b = script.read_bytes(), other.read_bytes()
    _check(a[:cut] + b[at:], tmp_path)


def test_a_spliced_script_whose_value_holds_bytes_that_are_not_utf8_lists_that_value(
    tmp_path: Path,
) -> None:
    # found by the spliced-scripts property: accelerate_launcher_var.sh cut at byte 707, then
    # bom.sh from its second byte, so an exported value holds the rest of a byte-order mark; the
    # import refused the whole script for it, and now lists that one variable
    corpus = Path(__file__).with_name("corpus")
    data = (corpus / "accelerate_launcher_var.sh").read_bytes()[:707] + (corpus / "bom.sh").read_bytes()[1:]
    facts = read_bytes(data, "job.sh")
    spec = render(imported(facts), facts)
    assert "#   line 22: export SCRIPT_ARGS=\\xbb\\xbf#!/bin/bash — SCRIPT_ARGS's value holds bytes" in spec
    assert 'program: "train.py"' in spec
    _check(data, tmp_path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.binary(max_size=400))
def test_arbitrary_bytes(data: bytes, tmp_path: Path) -> None:
    _check(b"#!/bin/bash\n#SBATCH -N 2\n" + data, tmp_path)
