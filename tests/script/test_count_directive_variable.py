"""JC107 on an `#SBATCH` count written as a shell variable: sbatch reads `--nodes=$NUM_NODES` as the
text it is (it refuses the job), and the spec, which holds counts as numbers, never sees it."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.scripts import lint_path

HEAD = "#!/bin/bash\n#SBATCH --time=01:00:00\n#SBATCH --ntasks-per-node=1\n"


@pytest.mark.parametrize(
    ("directive", "want"),
    [
        ("#SBATCH --nodes=$NUM_NODES", [("JC107", 4, 9)]),
        ("#SBATCH --gpus-per-task=${GPUS}", [("JC107", 4, 9)]),
        ("#SBATCH --output=/scratch/$USER/x.out", [("JC107", 4, 9)]),  # once, not twice
        ("#SBATCH --nodes=2", []),  # near miss: the count itself
        ("#SBATCH --comment=cost$", []),  # a `$` that starts no expansion
    ],
)
def test_a_shell_word_in_a_count_directive(tmp_path: Path, directive: str, want: list[object]) -> None:
    path = tmp_path / "job.sh"
    path.write_text(HEAD + directive + "\nsrun python train.py\n", encoding="utf-8")
    got = [(f.code, f.span.line, f.span.col) for f in lint_path(path).findings if f.code == "JC107"]
    assert got == want
