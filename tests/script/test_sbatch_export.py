"""`#SBATCH --export=ALL,NAME=value,…`: sbatch sets each NAME=value in the job's environment before
the batch shell starts, so the batch shell and every step see it: lint reads it as an export at the
top (JC404 on NCCL_DEBUG=INFO, JC104 on a fixed MASTER_PORT), the import carries it in `env` and
keeps only what is left of the option (NONE, names) as an sbatch option."""

from __future__ import annotations

from pathlib import Path

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

# source: the form of a pretraining job that sets its NCCL and thread variables on the #SBATCH line
HEAD = (
    "#!/bin/bash\n"
    "#SBATCH --job-name=pretrain\n"
    "#SBATCH --nodes=2\n"
    "#SBATCH --ntasks-per-node=4\n"
    "#SBATCH --gres=gpu:4\n"
    "#SBATCH --time=04:00:00\n"
)
STEP = "srun python train.py --epochs 3\n"


def _findings(text: str) -> list[tuple[str, int, int]]:
    return [(f.code, f.span.line, f.span.col) for f in lint_path(Path("job.sh"), data=text.encode()).findings]


def test_nccl_debug_info_given_to_sbatch_is_reported_at_its_value() -> None:
    text = HEAD + "#SBATCH --export=ALL,NCCL_DEBUG=INFO,OMP_NUM_THREADS=8\n" + STEP
    assert ("JC404", 7, 33) in _findings(text)


def test_a_value_given_to_sbatch_reaches_the_steps() -> None:
    text = HEAD + "#SBATCH --export=ALL,MASTER_PORT=29500\n" + STEP
    assert any(code == "JC104" and line == 7 for code, line, _ in _findings(text))


def test_near_misses_warn_level_or_a_later_export_or_no_assignment() -> None:
    for directive in (
        "#SBATCH --export=ALL,NCCL_DEBUG=WARN\n",
        "#SBATCH --export=ALL,NCCL_DEBUG=INFO\nexport NCCL_DEBUG=WARN\n",
        "#SBATCH --export=ALL\n",
        "#SBATCH --export=NCCL_DEBUG\n",
    ):
        assert not any(code == "JC404" for code, _, _ in _findings(HEAD + directive + STEP)), directive


def test_the_import_carries_the_values_and_leaves_the_pitfall_out() -> None:
    text = HEAD + "#SBATCH --export=ALL,NCCL_DEBUG=INFO,OMP_NUM_THREADS=8\n" + STEP
    derived = imported(read_bytes(text.encode(), "job.sh"))
    assert derived.data["env"] == {"OMP_NUM_THREADS": "8"}
    assert "export" not in derived.data.get("slurm", {}).get("extra", {})
    assert "debug" not in derived.data.get("fabric", {})
    assert any("NCCL_DEBUG=INFO" in u.text and "JC404" in u.why for u in derived.unmapped)


def test_the_import_keeps_what_is_no_assignment_as_an_sbatch_option() -> None:
    # near miss: NONE is no value of the environment; it stays sbatch's option
    text = HEAD + "#SBATCH --export=NONE\n" + STEP
    derived = imported(read_bytes(text.encode(), "job.sh"))
    assert derived.data["slurm"]["extra"]["export"] == "NONE"
    assert "env" not in derived.data


def test_a_value_with_a_byte_that_is_not_utf8_is_read_by_its_bytes() -> None:
    # found by the script fuzz target (seed 7301, input 5,524): `#SBATCH --export HF_TOKEN=…\xd0…`
    # ended lint with an internal error: the value's offsets were counted by encoding its text,
    # whose byte that is not UTF-8 is a surrogate
    data = b"#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --export=ALL,TAG=ab\xd0cd\nsrun python train.py\n"
    facts = read_bytes(data, "job.sh")
    (export,) = [e for e in facts.exports if e.name == "TAG"]
    assert export.value == "ab\udcd0cd"
    assert lint_path(Path("job.sh"), data=data).findings is not None
    # near miss: a value in UTF-8 counts each character by its bytes too
    text = (
        b"#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --export=ALL,TAG=\xc3\xa9t\xc3\xa9\nsrun python train.py\n"
    )
    (export,) = [e for e in read_bytes(text, "job.sh").exports if e.name == "TAG"]
    assert export.value == "été"
