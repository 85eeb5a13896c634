"""A file the script writes with a heredoc and runs later is read wherever its path is written the
same way: under a variable's directory (`cat > $wd/run.sh <<EOF`, then `bash $wd/run.sh`), or
inside a container that binds that directory (`singularity exec -B "$wd:/workdir" IMG
/workdir/run.sh`). A path the script computes otherwise, or a bind that does not map it, is not
read: the program stays not known."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gpus-per-node=1\n#SBATCH --time=1:00:00\n"
# source: AaltoSciComp/triton-llm-tutorial lumi-examples/run_dpo.sh (the form)
WRITE = (
    "wd=$(realpath .)\ncat > $wd/run-me.sh << EOF\n#!/bin/bash -e\nexport HF_HOME=/workdir/\n"
    "python /workdir/dpo.py --beta 0.1\nEOF\nchmod +x $wd/run-me.sh\n"
)


@pytest.mark.parametrize(
    ("run", "program"),
    [
        ('singularity exec -B "$wd:/workdir" img.sif /workdir/run-me.sh\n', "/workdir/dpo.py"),
        (
            "apptainer exec --bind /scratch:/s,$wd:/workdir/ img.sif bash /workdir/run-me.sh\n",
            "/workdir/dpo.py",
        ),
        ("bash $wd/run-me.sh\n", "/workdir/dpo.py"),
        ('srun "${wd}/run-me.sh"\n', "/workdir/dpo.py"),
        # near misses: a bind that maps another directory, another variable, no bind at all
        ('singularity exec -B "$wd:/data" img.sif /workdir/run-me.sh\n', None),
        ("bash $HOME/run-me.sh\n", None),
        ("singularity exec img.sif /workdir/run-me.sh\n", None),
    ],
)
def test_a_written_file_run_by_the_same_path(run: str, program: str | None) -> None:
    launch = imported(read_bytes((HEAD + WRITE + run).encode(), "job.sh")).data["launch"]
    assert launch.get("program") == program
    if program is not None:
        assert launch.get("args") == ["--beta", "0.1"]
