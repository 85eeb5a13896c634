"""A header written `# SBATCH --nodes=…` throughout (a blank after every `#`, no `#SBATCH` line):
sbatch reads none of it (JC813 at each line), but what the script asks for is plain, so the import
reads it as the request and says so at the top. Where some lines are `#SBATCH`, a `# SBATCH` among
them is switched off on purpose and stays off."""

from __future__ import annotations

from pathlib import Path

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

# source: the form of a JAX job script whose whole header was written `# SBATCH`
SPACED = (
    "#!/bin/bash\n"
    "# SBATCH --job-name=jaxrun\n"
    "# SBATCH --nodes=2\n"
    "# SBATCH --ntasks-per-node=4\n"
    "# SBATCH --gres=gpu:4\n"
    "# SBATCH --time=12:00:00\n"
    "\n"
    "srun python -m pkg.train --config cfg.yaml\n"
)


def test_a_spaced_header_is_read_as_the_request_and_said() -> None:
    derived = imported(read_bytes(SPACED.encode(), "job.sh"))
    assert derived.data["resources"] == {"nodes": 2, "gpus_per_node": 4}
    assert derived.data["slurm"]["time"] == "12:00:00"
    assert any("lines 2-6" in n and "# SBATCH" in n and "JC813" in n for n in derived.notes), derived.notes


def test_lint_still_reports_every_spaced_line() -> None:
    findings = lint_path(Path("job.sh"), data=SPACED.encode()).findings
    assert [f.span.line for f in findings if f.code == "JC813"] == [2, 3, 4, 5, 6]


def test_a_line_switched_off_among_read_ones_stays_off() -> None:
    # near miss: `#SBATCH` lines sbatch reads, one `# SBATCH` among them turned off
    text = SPACED.replace("# SBATCH --nodes=2", "#SBATCH --nodes=1").replace(
        "# SBATCH --gres=gpu:4", "#SBATCH --gres=gpu:4"
    )
    derived = imported(read_bytes(text.encode(), "job.sh"))
    assert derived.data["resources"] == {"nodes": 1, "gpus_per_node": 4}
    assert "time" not in derived.data.get("slurm", {})
    assert not any("# SBATCH" in n for n in derived.notes)


def test_prose_after_the_word_is_no_request() -> None:
    # near miss: a comment about the directives, with no option after the word
    text = "#!/bin/bash\n# SBATCH options below set the size\nsrun python train.py\n"
    derived = imported(read_bytes(text.encode(), "job.sh"))
    assert derived.data["resources"]["nodes"] == 1
    assert not any("# SBATCH" in n for n in derived.notes)
