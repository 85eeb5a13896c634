"""A step behind a site's or a project's wrapper (`srun "$X/bin/site-exec" python -m pkg.train`, `srun
./wrap.sh python train.py`): the command jobc cannot read is followed by an interpreter and a program,
so the program is that one, said with medium confidence; the mode is srun when srun starts one task
per GPU. A known tool in front (numactl, nsys) is no such doubt, and a wrapper given no interpreter
leaves the program unknown."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

# source: the form of a JAX job started through a site's exec wrapper, one task per GPU
HEAD = (
    "#!/bin/bash\n"
    "#SBATCH --nodes=2\n"
    "#SBATCH --ntasks-per-node=4\n"
    "#SBATCH --gpus-per-node=4\n"
    "#SBATCH --time=02:00:00\n"
)


def _import(step: str) -> tuple[dict[str, object], list[str], list[str]]:
    derived = imported(read_bytes((HEAD + step).encode(), "job.sh"))
    return derived.data["launch"], derived.notes, [u.why for u in derived.unmapped]


@pytest.mark.parametrize(
    ("step", "key", "target"),
    [
        ('srun "$GW_HOME/bin/site-exec" python -m pkg.train --config cfg.yaml\n', "module", "pkg.train"),
        ("srun --cpu-bind=none ${SITE}/bin/run-in-env python3 -u -m pkg.train\n", "module", "pkg.train"),
        ("srun ./wrap.sh python train.py --lr 1e-4\n", "program", "train.py"),
        ("srun site-exec --bind numa python train.py\n", "program", "train.py"),
    ],
)
def test_the_program_after_a_wrapper_is_taken_with_medium_confidence(
    step: str, key: str, target: str
) -> None:
    launch, notes, whys = _import(step)
    assert launch["mode"] == "srun"
    assert launch[key] == target
    assert any("medium confidence" in n and "line 6" in n for n in notes), notes
    assert any("medium confidence" in w for w in whys), whys


def test_a_known_tool_in_front_is_no_doubt() -> None:
    # near miss: numactl runs what it is given as it is
    launch, notes, _ = _import("srun numactl --cpunodebind=0 python train.py\n")
    assert launch["program"] == "train.py"
    assert not any("medium confidence" in n for n in notes), notes


def test_a_wrapper_without_an_interpreter_after_it_leaves_the_program_unknown() -> None:
    # near miss: what the wrapper runs is in no line of the script
    launch, _, _ = _import('srun "$GW_HOME/bin/site-exec" --config cfg.yaml\n')
    assert "program" not in launch
    assert "module" not in launch
