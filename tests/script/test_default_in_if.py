"""A default given by an `if` that tests a variable for being empty (`if [ -z "$MASTER_PORT" ];
then MASTER_PORT=29500; fi`), on a variable the script never set and no name Slurm, MPI or the site
sets, is that variable's value from there on, as `: "${MASTER_PORT:=29500}"` is: the launcher's
`--main_process_port $MASTER_PORT` then fixes the port (JC104, at the default's value). Near
misses: a test of another variable, `-n`, a value the script set before the `if`, a derived
default, and a test of a name Slurm sets."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=4\n"
    "#SBATCH --time=1:00:00\n"
)
STEP = (
    "srun accelerate launch --num_machines=2 --num_processes=8 --main_process_ip $MASTER_ADDR "
    "--main_process_port $MASTER_PORT train.py\n"
)


def _jc104(tmp_path: Path, text: str) -> list[tuple[int, int]]:
    path = tmp_path / "job.sh"
    path.write_text(text, encoding="utf-8")
    return [(f.span.line, f.span.col) for f in lint_path(path).findings if f.code == "JC104"]


@pytest.mark.parametrize(
    "test",
    [
        # pattern seen in: HPC-TUE/multi-gpu example_accelerate/jobs/accelerate-slurm-deepspeed.sh
        '[ -z "$MASTER_PORT" ]',
        "[[ -z ${MASTER_PORT} ]]",
        '[ "${MASTER_PORT:-}" = "" ]',
    ],
)
def test_a_default_given_when_the_variable_is_empty_is_its_value(tmp_path: Path, test: str) -> None:
    text = HEAD + f"if {test}; then\n    MASTER_PORT=29500  # the default\nfi\n" + STEP
    assert _jc104(tmp_path, text) == [(7, 17)]


@pytest.mark.parametrize(
    ("before", "test", "value"),
    [
        ("", '[ -z "$OTHER" ]', "29500"),
        ("", '[ -n "$MASTER_PORT" ]', "29500"),
        ("MASTER_PORT=$((20000 + SLURM_JOB_ID % 9000))\n", '[ -z "$MASTER_PORT" ]', "29500"),
        ("", '[ -z "$MASTER_PORT" ]', "$((20000 + SLURM_JOB_ID % 9000))"),
        # `${X:-8}` is never empty: the test says nothing of X
        ("", '[ -z "${MASTER_PORT:-8}" ]', "29500"),
        # a name Slurm sets may hold anything
        ("", '[ -z "$SLURM_JOB_ID" ]', "29500"),
    ],
)
def test_other_tests_or_values_leave_the_port_unknown_or_derived(
    tmp_path: Path, before: str, test: str, value: str
) -> None:
    text = HEAD + before + f"if {test}; then\n    MASTER_PORT={value}\nfi\n" + STEP
    assert _jc104(tmp_path, text) == []
