"""JC814: a typographic dash (– — −) where an option's hyphen should be. What sbatch and bash do
with one is tried on the test cluster: the directive is refused, the shebang's job fails; fixed,
both run."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.cli import main
from jobc.core.diagnostics import Severity
from jobc.lint.scripts import lint_path
from tests.support.cluster import SlurmCluster

EN, EM, MINUS = "\u2013", "\u2014", "\u2212"


def found(tmp_path: Path, text: str) -> list[tuple[int, int, int, Severity, str]]:
    path = tmp_path / "job.sh"
    path.write_text(text, encoding="utf-8")
    return [
        (f.span.line, f.span.col, f.span.end_col, f.severity, f.message)
        for f in lint_path(path).findings
        if f.code == "JC814"
    ]


@pytest.mark.parametrize(
    ("line", "col", "end", "want"),
    [
        (f"#SBATCH {EN}-time=00:10:00", 9, 11, "`--time`"),
        (f"#SBATCH {EN}N 1", 9, 10, "`-N`"),
        (f"#SBATCH --nodes=1 {EM}exclusive", 19, 20, "`--exclusive`"),
        (f"#SBATCH {MINUS}{MINUS}gres=gpu:2", 9, 11, "`--gres`"),
        (f"#SBATCH {EN}-frobnicate=1", 9, 11, "the option with hyphens"),
    ],
)
def test_a_directive_with_a_dash_is_an_error_at_the_dash(
    tmp_path: Path, line: str, col: int, end: int, want: str
) -> None:
    [(row, c, e, severity, message)] = found(tmp_path, f"#!/bin/bash\n{line}\nsrun python train.py\n")
    assert (row, c, e, severity) == (2, col, end, Severity.ERROR)
    assert "sbatch refuses the script" in message
    assert f"write {want}" in message


def test_the_shebang_and_a_commands_option(tmp_path: Path) -> None:
    text = f"#!/bin/bash {EN}l\n#SBATCH --nodes=1\nsrun {EN}-ntasks=2 python train.py\n"
    [shebang, command] = found(tmp_path, text)
    assert shebang[:4] == (1, 13, 14, Severity.ERROR)
    assert "write `-l`" in shebang[4]
    assert command[:4] == (3, 6, 8, Severity.WARNING)
    assert "write `--ntasks`" in command[4]


@pytest.mark.parametrize(
    "body",
    [
        # a dash inside a value, in quotes, in a comment, or standing alone between words
        f"#SBATCH --job-name=pre{EN}training\n",
        f'echo "step 1 {EN}-x done"\n',
        f"# run with {EN}-ntasks=2 on big nodes\n",
        f"echo one {EN} two\n",
        "#SBATCH --time=00:10:00\n",
        # after the first command sbatch reads no directive at all (JC801's business)
        f"echo start\n#SBATCH {EN}-time=00:10:00\n",
    ],
)
def test_near_misses(tmp_path: Path, body: str) -> None:
    assert found(tmp_path, f"#!/bin/bash\n{body}srun python train.py\n") == []


def test_a_line_of_dashes_is_read_in_linear_time(tmp_path: Path) -> None:
    # possessive patterns: a huge run of dashes with no option name after them is one pass
    assert found(tmp_path, "#!/bin/bash\nsrun " + EN * 200_000 + "\n") == []


def test_fix_writes_hyphens(tmp_path: Path) -> None:
    path = tmp_path / "job.sh"
    path.write_text(
        f"#!/bin/bash {EN}l\n#SBATCH {EN}-time=00:10:00\n#SBATCH {EM}exclusive {EN}N 1\n"
        f"srun {EN}-ntasks=2 python train.py\n",
        encoding="utf-8",
    )
    assert main(["lint", "--fix", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == (
        "#!/bin/bash -l\n#SBATCH --time=00:10:00\n#SBATCH --exclusive -N 1\nsrun --ntasks=2 python train.py\n"
    )


def test_sbatch_refuses_the_dash_and_runs_the_fixed_script(
    slurm_cluster: SlurmCluster, jobs: list[int], tmp_path: Path
) -> None:
    directive = tmp_path / "directive.sh"
    directive.write_text(f"#!/bin/bash\n#SBATCH {EN}-time=00:02:00\necho ran\n", encoding="utf-8")
    refused = slurm_cluster.run("sbatch", str(directive), check=False, cwd=tmp_path)
    assert refused.returncode != 0
    assert "Invalid directive found in batch script" in refused.stderr
    shebang = tmp_path / "shebang.sh"
    shebang.write_text(f"#!/bin/bash {EN}l\n#SBATCH --time=00:02:00\necho ran\n", encoding="utf-8")
    jobs.append(slurm_cluster.sbatch(shebang, f"--output={tmp_path}/before.out", cwd=tmp_path))
    # as long as the job may run (two minutes) and Slurm's time to start and end it
    assert slurm_cluster.wait(jobs[-1], 300) == "FAILED"
    assert "No such file or directory" in (tmp_path / "before.out").read_text(encoding="utf-8")
    assert main(["lint", "--fix", str(directive), str(shebang)]) == 0
    for script in (directive, shebang):
        jobs.append(slurm_cluster.sbatch(script, f"--output={tmp_path}/{script.stem}.out", cwd=tmp_path))
        assert slurm_cluster.wait(jobs[-1], 300) == "COMPLETED"
        assert (tmp_path / f"{script.stem}.out").read_text(encoding="utf-8") == "ran\n"
