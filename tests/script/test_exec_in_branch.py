"""JC803 and an `exec` inside an `if`/`case` arm: the lines after the statement are the path the
script takes when the arm does not run, not a cleanup the exec skips; lines after the exec inside
its own arm, and a trap set before it, are still what the rule is about."""

from __future__ import annotations

from pathlib import Path

from jobc.lint.scripts import lint_path

HEAD = """\
#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gpus-per-node=2
#SBATCH --time=01:00:00
"""


def _jc803(tmp_path: Path, body: str) -> list[tuple[int, str]]:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body, encoding="utf-8")
    return [(f.span.line, f.message) for f in lint_path(path).findings if f.code == "JC803"]


def test_an_exec_in_one_arm_does_not_make_the_other_path_unreached(tmp_path: Path) -> None:
    body = (
        'if [ "$SLURM_JOB_NUM_NODES" -eq 1 ]; then\n'
        "    exec srun --ntasks=1 python train.py\n"
        "fi\n"
        "srun --ntasks-per-node=1 bash start_ray.sh &\n"
        "python -m pkg.train\n"
    )
    assert _jc803(tmp_path, body) == []
    case = 'case "$MODE" in\n  one) exec srun python train.py ;;\n  *) echo other ;;\nesac\necho after\n'
    assert _jc803(tmp_path, case) == []


def test_lines_after_the_exec_in_its_own_arm_are_still_reported(tmp_path: Path) -> None:
    body = 'if [ -n "$X" ]; then\n    exec srun python train.py\n    echo "could not start"\nfi\necho done\n'
    found = _jc803(tmp_path, body)
    assert [line for line, _ in found] == [6]
    assert "line 7 and the rest of its branch (to line 7)" in found[0][1]


def test_a_trap_before_an_exec_in_an_arm_is_still_reported(tmp_path: Path) -> None:
    body = "trap 'touch stop' USR1\nif [ -n \"$X\" ]; then\n    exec srun python train.py\nfi\n"
    found = _jc803(tmp_path, body)
    assert [line for line, _ in found] == [7]
    assert "the trap on line 5" in found[0][1]


def test_an_exec_outside_any_arm_still_makes_every_later_line_unreached(tmp_path: Path) -> None:
    found = _jc803(tmp_path, "exec srun python train.py\necho done\n")
    assert [line for line, _ in found] == [5]
    assert "line 6 and everything after it" in found[0][1]
