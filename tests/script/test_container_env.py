"""Variables a container's command line gives the program inside it (`apptainer exec --env A=1`,
`docker run -e A=1`, `enroot start -e A=1`) are the program's environment, as `env A=1` in front of
it is: lint reads them (NCCL_DEBUG=INFO is JC404 there too) and the import carries or lists them."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gpus-per-node=4\n"
    "#SBATCH --time=1:00:00\n"
)
RUN = "torchrun --nnodes 2 --nproc_per_node 4 train.py\n"


def _codes(tmp_path: Path, text: str) -> list[tuple[str, int]]:
    script = tmp_path / "job.sh"
    script.write_text(text, encoding="utf-8")
    return [(f.code, f.span.line) for f in lint_path(script).findings]


@pytest.mark.parametrize(
    "line",
    [
        "srun apptainer exec --nv --env NCCL_DEBUG=INFO img.sif ",
        "srun apptainer exec --nv --env=NCCL_DEBUG=INFO img.sif ",
        "srun singularity exec --env A=1,NCCL_DEBUG=INFO --bind /data:/data img.sif ",
        "srun docker run --rm -it -e NCCL_DEBUG=INFO -v /data:/data img ",
        "srun podman run --env NCCL_DEBUG=INFO img ",
        "srun enroot start -e NCCL_DEBUG=INFO pytorch ",
    ],
)
def test_a_containers_variable_reaches_the_program_and_is_linted(tmp_path: Path, line: str) -> None:
    assert ("JC404", 6) in _codes(tmp_path, HEAD + line + RUN)


@pytest.mark.parametrize(
    "line",
    [
        # near misses: Apptainer's -e is --cleanenv, no variable; a file of variables is not read;
        # docker's bare -e passes the host's value; the variable set for another command
        "srun apptainer exec -e img.sif ",
        "srun apptainer exec --env-file nccl.env img.sif ",
        "srun docker run -e NCCL_DEBUG img ",
        "srun apptainer exec img.sif env A=1 ",
    ],
)
def test_near_miss_no_variable_of_the_container_line(tmp_path: Path, line: str) -> None:
    assert not [c for c, _ in _codes(tmp_path, HEAD + line + RUN) if c == "JC404"]


def test_the_import_carries_a_containers_literal_variable_and_lists_a_computed_one() -> None:
    script = (
        HEAD + 'srun apptainer exec --env OMP_NUM_THREADS=8 --env HOST_IP="$(hostname -i)" img.sif ' + RUN
    )
    derived = imported(read_bytes(script.encode(), "job.sh"))
    assert derived.data.get("env", {}).get("OMP_NUM_THREADS") == "8"
    assert "HOST_IP" not in derived.data.get("env", {})
    assert any(u.text.startswith("--env HOST_IP=") and "computed" in u.why for u in derived.unmapped)
    # and the program is the one inside the image, its launcher read past the options
    assert derived.data["launch"]["mode"] == "torchrun"
