"""JC701 on a script's own words: a cache variable set to a node-local directory with the rest of
its path computed by the job (`export HF_HOME=/mnt/bb/$USER`: a setup line of the spec), and the
job's log in a node's own directory (`#SBATCH --output=/tmp/%A.out`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.core.diagnostics import Severity
from jobc.lint.scripts import lint_path

ONE = "#!/bin/bash\n#SBATCH --gpus=1\n#SBATCH -t 1:00:00\n"
FOUR = "#!/bin/bash\n#SBATCH -N 4\n#SBATCH -t 1:00:00\n"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # source: olcf/olcf_containers_examples frontier vllm launchmultinode_lustre.sbatch (the form)
        (FOUR + "export HF_HOME=/mnt/bb/$USER\nsrun python train.py\n", [(4, Severity.WARNING)]),
        # near miss: a shared directory with the user's name, and the same cache on one node
        (FOUR + "export HF_HOME=/lustre/orion/$USER/hf\nsrun python train.py\n", []),
        (ONE + "export HF_HOME=/mnt/bb/$USER\nsrun python train.py\n", []),
        # source: romxero/submission_scripts john_pak_submission_for_esm.sh (the form)
        (ONE + "#SBATCH --output=/tmp/%a.esm.%A.out\npython fold.py\n", [(4, Severity.WARNING)]),
        (FOUR + "#SBATCH -o /tmp/logs/%j/out.txt\nsrun python train.py\n", [(4, Severity.ERROR)]),
        # near misses: a shared directory, a relative one, and a directory the job computes
        (ONE + "#SBATCH --output=/lustre/logs/%A.out\npython fold.py\n", []),
        (ONE + "#SBATCH --output=logs/%A.out\npython fold.py\n", []),
        (ONE + "#SBATCH --output=$TMPDIR/%A.out\npython fold.py\n", []),
    ],
)
def test_node_local_outputs_of_a_script(tmp_path: Path, text: str, want: list[object]) -> None:
    path = tmp_path / "job.sh"
    path.write_text(text, encoding="utf-8")
    got = [(f.span.line, f.severity) for f in lint_path(path).findings if f.code == "JC701"]
    assert got == want
