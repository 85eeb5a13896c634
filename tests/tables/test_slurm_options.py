"""Slurm's option grammar, one table for the compiler, the script reader and the rules."""

from __future__ import annotations

from jobc.script.directives import parse_line
from jobc.script.parse import read_bytes
from jobc.tables.slurm_options import (
    CLI_ONLY,
    COUNT_OPTIONS,
    SBATCH_FLAGS,
    SBATCH_OPTIONS,
    SBATCH_SHORT,
    SPEC_FIELD,
    SPEC_PATH,
    SRUN_FLAGS,
    SRUN_SHORT,
    is_pyxis,
)


def test_every_short_letter_and_owned_option_is_an_sbatch_option() -> None:
    assert set(SBATCH_SHORT.values()) <= SBATCH_OPTIONS
    assert set(SPEC_FIELD) <= SBATCH_OPTIONS
    assert CLI_ONLY <= SBATCH_OPTIONS
    assert {name for name in SBATCH_FLAGS if not is_pyxis(name)} <= SBATCH_OPTIONS
    assert set(SBATCH_SHORT.items()) <= set(SRUN_SHORT.items())  # srun reads sbatch's letters
    assert set(COUNT_OPTIONS) <= SBATCH_OPTIONS
    assert set(SPEC_PATH) <= SBATCH_OPTIONS
    assert len(set(SPEC_PATH.values())) == len(SPEC_PATH)  # one option per field, read both ways


def test_pyxis_options_are_not_slurms_own_container_options() -> None:
    assert is_pyxis("container-image")
    assert is_pyxis("no-container-mount-home")
    assert is_pyxis("container-entrypoint")
    assert not is_pyxis("container")
    assert not is_pyxis("container-id")


def test_a_directive_reads_flags_and_values_by_the_table() -> None:
    options = list(parse_line("#SBATCH -N 2 --exclusive -J run --requeue", 1, True))
    assert [(d.name, d.value) for d in options] == [
        ("nodes", "2"),
        ("exclusive", None),
        ("job-name", "run"),
        ("requeue", None),
    ]


def test_srun_hint_takes_a_value() -> None:
    # srun --hint=<type> always takes one; read as a flag, its value would become the program
    assert "hint" not in SRUN_FLAGS
    facts = read_bytes(b"#!/bin/bash\nsrun --hint nomultithread python train.py\n", "job.sh")
    step = facts.main_step
    assert step is not None
    assert step.program is not None
    assert step.program.text == "train.py"
