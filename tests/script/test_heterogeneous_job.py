"""A heterogeneous job (`#SBATCH hetjob`, or `packjob`, between its components): the directives
before the first separator are the job's request the rules read; the others ask for another
allocation and are never mixed into it. The import writes the first component and lists the
others' lines as not carried."""

from __future__ import annotations

from pathlib import Path

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read

TRAINING = """\
#!/bin/bash
#SBATCH --time=01:00:00
#SBATCH --partition=gpu
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=2
#SBATCH --gres=gpu:2
"""
WORKERS = """\
#SBATCH --partition=cpu
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
"""
STEPS = """\
srun --het-group=1 python -m loader.worker &
srun --het-group=0 python -u example.py
"""


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "job.sh"
    path.write_text(text, encoding="utf-8")
    return path


def _found(path: Path) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in lint_path(path).findings]


def test_the_first_component_is_the_jobs_request(tmp_path: Path) -> None:
    for separator in ("#SBATCH hetjob\n", "#SBATCH packjob\n", "#SBATCH hetjob  # the workers\n"):
        path = _write(tmp_path, TRAINING + separator + WORKERS + STEPS)
        assert _found(path) == [], separator
        facts = read(path)
        assert facts.honoured()["nodes"].value == "1"
        assert [facts.component(d) for d in facts.directives] == [0] * 5 + [1] * 3


def test_without_the_separator_the_later_lines_win(tmp_path: Path) -> None:
    # one job: --nodes=2 and --ntasks-per-node=4 override the training lines, 4 tasks on 2 GPUs
    path = _write(tmp_path, TRAINING + WORKERS + STEPS)
    assert ("JC101", 9) in _found(path)
    # a word that only holds the name is no separator
    path = _write(tmp_path, TRAINING + "#SBATCH --job-name=hetjob\n" + WORKERS + STEPS)
    assert ("JC101", 10) in _found(path)


def test_a_step_in_another_component_is_not_held_to_the_first(tmp_path: Path) -> None:
    head = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=8\n#SBATCH --time=1:00:00\n"
    other = "#SBATCH hetjob\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=4\n#SBATCH --ntasks-per-node=4\n"
    path = _write(tmp_path, head + other + "srun --het-group=1 -N 2 python train.py\n")
    assert _found(path) == []
    # the same step in the first component (srun's default) runs on its one node
    path = _write(tmp_path, head + other + "srun -N 2 python train.py\n")
    assert _found(path) == [("JC804", 9)]


def test_a_missing_directive_is_placed_in_the_first_component(tmp_path: Path) -> None:
    text = TRAINING.replace("#SBATCH --time=01:00:00\n", "").replace("--nodes=1", "--nodes=2")
    path = _write(tmp_path, text + "#SBATCH hetjob\n" + WORKERS + STEPS)
    assert ("JC108", 5) in _found(path)


def test_the_import_writes_the_first_component_and_lists_the_others(tmp_path: Path) -> None:
    path = _write(tmp_path, TRAINING + "#SBATCH hetjob\n" + WORKERS + STEPS)
    facts = read(path)
    spec = imported(facts)
    assert spec.data["resources"]["nodes"] == 1
    assert spec.data["resources"]["gpus_per_node"] == 2
    assert spec.data["slurm"]["partition"] == "gpu"
    text = render(spec, facts)
    assert "a heterogeneous job of 2 components (#SBATCH hetjob on line 7)" in text
    why = (
        "component 1 of the heterogeneous job (after #SBATCH hetjob on line 7): "
        "the spec is the first component alone"
    )
    for line, option in ((8, "--partition=cpu"), (9, "--nodes=2"), (10, "--ntasks-per-node=4")):
        assert f"#   line {line}: #SBATCH {option} — {why}" in text
