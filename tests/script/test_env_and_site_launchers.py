"""What stands in front of a launcher does not hide it. env's own options take their values (`env
-u CUDA_VISIBLE_DEVICES torchrun …` unsets a variable; it does not run a command of that name), and
what env changes besides the variables it sets is listed as not carried. A site's command around
torchrun (JSC's `torchrun_jsc`) given torchrun's options starts torchrun: mode torchrun; one with
options of its own is a launcher jobc does not know: the Python file it starts is the program, and
its mode stays unknown."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read_bytes

HEAD = (
    "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --ntasks-per-node=1\n#SBATCH --gres=gpu:4\n#SBATCH -t 1:00:00\n"
)
TORCHRUN = "torchrun --nnodes=2 --nproc_per_node=4 --rdzv_endpoint=$MASTER_ADDR:29500 train.py --lr 1"


def _launch(body: str) -> dict[str, object]:
    data = imported(read_bytes((HEAD + body).encode(), "job.sh")).data
    launch: dict[str, object] = data["launch"]
    return launch


@pytest.mark.parametrize(
    "body",
    [
        f"srun env -u CUDA_VISIBLE_DEVICES {TORCHRUN}\n",
        f"srun env -u CUDA_VISIBLE_DEVICES LD_PRELOAD=/opt/lib/libnccl-net.so {TORCHRUN}\n",
        f"srun bash -c 'env -u CUDA_VISIBLE_DEVICES LD_PRELOAD=/opt/x.so {TORCHRUN}'\n",
        f"srun env --unset=CUDA_VISIBLE_DEVICES -C /scratch/run {TORCHRUN}\n",
        f"srun env -i PATH=/opt/bin:/usr/bin HOME=/tmp {TORCHRUN}\n",
        f"srun bash -c 'OMP_NUM_THREADS=4 {TORCHRUN}'\n",
        f"env LD_PRELOAD=/opt/x.so srun {TORCHRUN}\n",
    ],
)
def test_env_in_front_of_the_launcher(body: str) -> None:
    launch = _launch(body)
    assert launch.get("mode") == "torchrun"
    assert launch.get("program") == "train.py"
    assert launch.get("args") == ["--lr", "1"]


def test_what_env_changes_besides_its_variables_is_listed() -> None:
    body = f"srun env -u CUDA_VISIBLE_DEVICES LD_PRELOAD=/opt/x.so {TORCHRUN}\n"
    derived = imported(read_bytes((HEAD + body).encode(), "job.sh"))
    assert derived.data["env"]["LD_PRELOAD"] == "/opt/x.so"
    assert any(u.text == "env -u CUDA_VISIBLE_DEVICES" for u in derived.unmapped)
    # near miss: env with variables only changes nothing else
    plain = imported(read_bytes((HEAD + f"srun env LD_PRELOAD=/opt/x.so {TORCHRUN}\n").encode(), "job.sh"))
    assert not any(u.text.startswith("env ") for u in plain.unmapped)


@pytest.mark.parametrize(
    ("body", "mode", "program"),
    [
        # source: HelmholtzAI-FZJ 2025-12 JSC course, run_fsdp_training.sbatch (the form)
        (
            'srun bash -c "torchrun_jsc --nnodes=$SLURM_NNODES --rdzv_backend c10d --nproc_per_node=gpu '
            '--rdzv_id $RANDOM --rdzv_endpoint=$MASTER_ADDR:$MASTER_PORT fsdp_training.py"\n',
            "torchrun",
            "fsdp_training.py",
        ),
        ("srun torchrun-site --standalone --nproc-per-node 1 -m pkg.train --cfg a.yaml\n", "torchrun", None),
        # near misses: a launcher's own options, and no option at all: its program, not its mode
        ("srun torchrun-hpc -N 2 -n 4 train.py --lr 1\n", None, "train.py"),
        ("srun torchrun_jsc train.py\n", None, "train.py"),
        # and a file right after an option of its own may be that option's value: not read
        ("srun torchrun-hpc -N 2 --cfg x.py\n", None, None),
    ],
)
def test_a_site_command_around_torchrun(body: str, mode: str | None, program: str | None) -> None:
    head = HEAD.replace("--ntasks-per-node=1", "--ntasks-per-node=4")  # no mode from the layout
    data = imported(read_bytes((head + body).encode(), "job.sh")).data
    launch = data["launch"]
    if mode is None:
        # not torchrun: a task per GPU runs a launcher jobc does not know
        assert launch.get("mode") != "torchrun"
        assert launch.get("program") == program
        return
    assert launch.get("mode") == mode
    if program is not None:
        assert launch.get("program") == program
    if "-m pkg.train" in body:
        assert launch.get("module") == "pkg.train"


def test_a_site_torchrun_is_a_launcher_to_the_rules(tmp_path: Path) -> None:
    # eight tasks per node each start the site's torchrun: eight launchers per node (JC102)
    head = HEAD.replace("--ntasks-per-node=1", "--ntasks-per-node=4")
    path = tmp_path / "job.sh"
    path.write_text(head + "srun torchrun_jsc --nnodes=2 --nproc_per_node=4 train.py\n", encoding="utf-8")
    assert "JC102" in {f.code for f in lint_path(path).findings}
    path.write_text(HEAD + "srun torchrun_jsc --nnodes=2 --nproc_per_node=4 train.py\n", encoding="utf-8")
    assert "JC102" not in {f.code for f in lint_path(path).findings}
