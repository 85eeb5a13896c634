"""JC813: a misspelled or malformed `#SBATCH` line in the directive block, which sbatch ignores."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from jobc.cli import main
from jobc.core.diagnostics import Severity
from jobc.lint.fix import apply
from jobc.lint.scripts import lint_path

HEAD = "#!/bin/bash\n#SBATCH --time=01:00:00\n"


def lint(tmp_path: Path, body: str) -> list[tuple[int, int, Severity, str]]:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + body + "srun python train.py\n", encoding="utf-8")
    return [
        (f.span.line, f.span.col, f.severity, f.message)
        for f in lint_path(path).findings
        if f.code == "JC813"
    ]


@pytest.mark.parametrize(
    "line",
    [
        "#SBTACH --nodes=2",
        "#SABTCH --nodes=2",
        "#SBACTH --nodes=2",
        "# SBATCH --nodes=2",
        "#\tSBATCH --nodes=2",
        "#sbatch --nodes=2",
        "#Sbatch -N 2",
        "#SBATC --nodes=2",
        # sbatch takes an indented directive for a comment (tried on Slurm 22.05)
        "  #SBATCH --nodes=2",
        "\t#SBATCH -N 2",
    ],
)
def test_a_line_sbatch_ignores_is_reported_with_its_option(tmp_path: Path, line: str) -> None:
    [(row, col, severity, message)] = lint(tmp_path, "#SBATCH --ntasks=1\n" + line + "\n")
    assert (row, col, severity) == (4, 1, Severity.WARNING)
    assert "sbatch ignores this line" in message
    assert "#SBATCH " in message
    assert ("--nodes=2" in message) or ("-N 2" in message)


@pytest.mark.parametrize(
    "line",
    [
        # prose about the directives, with no option after the word
        "# SBATCH options below set the size of the job",
        # a usage note: the command line that submits the script (Delaunay's multi-node.sh)
        "#   sbatch --nodes 3 --gres=gpu:4 --cpus-per-gpu=4 --mem=16G multi-node.sh train.py",
        "# sbatch --array=0-9 job.sh",
        "# sbatch reads the lines below",
        # the usual way to switch a directive off on purpose
        "##SBATCH --nodes=4",
        "## SBATCH --nodes=4",
        # other words, other schedulers
        "# batch size: 32",
        "#PBS -l nodes=2",
        "#BSUB -n 4",
        "#SBATCH --nodes=2",
        "#SBATCH\t--nodes=2",
        # sbatch reads these (tried on Slurm 22.05): no blank is needed before the option
        "#SBATCH--nodes=2",
        "#SBATCH-N 2",
    ],
)
def test_prose_disabled_lines_and_directives_are_left_alone(tmp_path: Path, line: str) -> None:
    assert lint(tmp_path, line + "\n") == []


def test_a_word_after_the_prefix_makes_sbatch_refuse_the_script(tmp_path: Path) -> None:
    [(row, _, _, message)] = lint(tmp_path, "#SBATCHH --nodes=2\n")
    assert row == 3
    assert "sbatch refuses the script" in message


def test_a_line_after_the_first_command_is_left_to_jc801(tmp_path: Path) -> None:
    assert lint(tmp_path, "module load cuda\n#SBTACH --nodes=2\n") == []


def test_the_fix_writes_the_prefix_and_keeps_the_options(tmp_path: Path) -> None:
    path = tmp_path / "job.sh"
    path.write_text(
        HEAD + "#SBTACH --nodes=2  # two\n# SBATCH -N 2\n#SBATCHX --gpus-per-node=8\nsrun python t.py\n",
        encoding="utf-8",
    )
    findings = [f for f in lint_path(path).findings if f.code == "JC813"]
    assert len(findings) == 3
    assert all(f.fix is not None for f in findings)
    text, _ = apply(path.read_text(encoding="utf-8"), [f.fix for f in findings if f.fix])
    indented = tmp_path / "indented.sh"
    indented.write_text(HEAD + "  #SBATCH --nodes=2  # two\nsrun python t.py\n", encoding="utf-8")
    [found] = [f for f in lint_path(indented).findings if f.code == "JC813"]
    assert found.fix is not None
    assert (
        apply(indented.read_text(encoding="utf-8"), [found.fix])[0].splitlines()[2]
        == "#SBATCH --nodes=2  # two"
    )
    assert text.splitlines()[2:5] == ["#SBATCH --nodes=2  # two", "#SBATCH -N 2", "#SBATCH --gpus-per-node=8"]


def test_a_directive_without_a_blank_after_the_prefix_is_read(tmp_path: Path) -> None:
    script = tmp_path / "job.sh"
    script.write_text(
        "#!/bin/bash\n#SBATCH--nodes=2\n#SBATCH-t 01:00:00\n#SBATCH --ntasks-per-node=1\n"
        "srun python train.py\n",
        encoding="utf-8",
    )
    out = tmp_path / "spec.yaml"
    assert main(["import", str(script), "-o", str(out)]) in (0, 1)
    spec = out.read_text(encoding="utf-8")
    assert re.search(r"^\s*nodes: 2\b", spec, re.MULTILINE), spec
    assert "01:00:00" in spec, spec


def test_a_mark_before_the_prefix_makes_the_line_a_command(tmp_path: Path) -> None:
    # `!#SBATCH --signal=…` (ECMWF ai-land): bash runs it, sbatch stops reading directives there
    path = tmp_path / "job.sh"
    path.write_text(
        HEAD + "!#SBATCH --signal=SIGUSR1@90\n#SBATCH --nodes=2\nsrun python t.py\n", encoding="utf-8"
    )
    [found] = [f for f in lint_path(path).findings if f.code == "JC813"]
    assert (found.span.line, found.span.col, found.severity) == (3, 1, Severity.WARNING)
    assert "bash runs the line as a command" in found.message
    assert "--signal=SIGUSR1@90" in found.message
    assert found.fix is not None
    assert not found.fix.safe
    text, _ = apply(path.read_text(encoding="utf-8"), [found.fix])
    assert text.splitlines()[2] == "#SBATCH --signal=SIGUSR1@90"


@pytest.mark.parametrize(
    "body",
    [
        # near misses: switched off with `##`, a command after the block, a bang with no directive
        "##SBATCH --signal=SIGUSR1@90\n",
        "module load cuda\n!#SBATCH --signal=SIGUSR1@90\n",
        "!#SBATCH is how we switch lines off\n",
    ],
)
def test_no_mark_before_a_directive_is_left_alone(tmp_path: Path, body: str) -> None:
    assert lint(tmp_path, body) == []
