"""The launchers table: each launcher read from its own options, and the rules that ask it."""

from __future__ import annotations

import textwrap
from pathlib import Path

from jobc.commands.import_ import render
from jobc.lint.imported import imported
from jobc.lint.scripts import lint_path
from jobc.script.parse import read
from jobc.script.spec import gpus_per_node


def _script(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "job.sh"
    path.write_text(textwrap.dedent(text).lstrip(), encoding="utf-8")
    return path


def _codes(path: Path) -> list[str]:
    return [f.code for f in lint_path(path).findings]


def test_deepspeed_with_a_hostfile_reaches_the_nodes_itself(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --gpus-per-node=8
        #SBATCH --time=1:00:00
        scontrol show hostnames "$SLURM_JOB_NODELIST" | sed 's/$/ slots=8/' > hostfile
        deepspeed --hostfile hostfile --launcher openmpi --num_nodes 2 --num_gpus 8 train.py --ds ds.json
        """,
    )
    assert "JC805" not in _codes(path)
    facts = read(path)
    text = render(imported(facts), facts)
    assert "# jobc: `deepspeed` is run as launch.mode torchrun" in text
    assert "--hostfile" in text.split("# jobc: not carried over", 1)[1].splitlines()[0]
    mpirun = _script(
        tmp_path,
        path.read_text().replace("deepspeed --hostfile hostfile --launcher openmpi", "mpirun -np 16 python"),
    )
    assert "JC805" not in _codes(mpirun)


def test_a_python_helper_in_the_batch_shell_is_not_the_launch(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=4
        #SBATCH --gpus-per-node=4
        #SBATCH --time=1:00:00
        srun python train.py
        python summarize.py --out results.json
        """,
    )
    step = read(path).main_step
    assert step is not None
    assert step.program is not None
    assert step.program.text == "train.py"
    assert "JC805" not in _codes(path)


def test_packed_steps_and_a_step_sized_on_purpose(tmp_path: Path) -> None:
    head = """
        #!/bin/bash
        #SBATCH --nodes=4
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=8
        #SBATCH --time=1:00:00
        #SBATCH --exclusive
    """
    packed = _script(
        tmp_path,
        head
        + "".join(f"        srun -N 1 -n 1 --exclusive python sweep.py --seed {i} &\n" for i in range(4))
        + "        wait\n",
    )
    assert "JC804" not in _codes(packed)
    sized = _script(
        tmp_path,
        head
        + "        srun --ntasks=2 --ntasks-per-node=1 torchrun --nnodes=2 --nproc_per_node=8 train.py\n",
    )
    assert "JC804" not in _codes(sized)


def test_gpus_from_every_slurm_form(tmp_path: Path) -> None:
    forms = {
        "--gres=gpu:4": 4,
        "--gres=gpu:a100:4": 4,
        "--gpus-per-node=8": 8,
        "--gpus=16": 8,
        "-G 16": 8,
        "--gpus-per-task=1": 4,
        "--gpus-per-task=rtx8000:1": 4,
    }
    for form, want in forms.items():
        path = _script(
            tmp_path,
            f"""
            #!/bin/bash
            #SBATCH --nodes=2
            #SBATCH --ntasks-per-node=4
            #SBATCH {form}
            srun python train.py
            """,
        )
        assert gpus_per_node(read(path))[0] == want, form


def test_accelerate_reads_its_config_file_beside_the_script(tmp_path: Path) -> None:
    (tmp_path / "multi.yaml").write_text(
        "compute_environment: LOCAL_MACHINE\nnum_machines: 4\nnum_processes: 16\n", encoding="utf-8"
    )
    path = _script(
        tmp_path,
        """
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=1
        #SBATCH --gpus-per-node=8
        #SBATCH --time=1:00:00
        srun accelerate launch --config_file multi.yaml --machine_rank $SLURM_NODEID train.py
        """,
    )
    found = [(f.code, f.span.line) for f in lint_path(path).findings]
    assert ("JC804", 6) in found  # num_machines 4 and num_processes 16 against 2 × 8


def test_the_import_never_invents_a_program(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
        #!/bin/bash
        #SBATCH --nodes=1
        #SBATCH --gpus-per-node=4
        #SBATCH --time=1:00:00
        SCRIPT=$(realpath "$1")
        srun bash "$SCRIPT"
        """,
    )
    facts = read(path)
    derived = imported(facts)
    assert "program" not in derived.data["launch"]
    assert "module" not in derived.data["launch"]
    assert any(u.line == 6 and "not written in the script" in u.why for u in derived.unmapped)


def test_a_step_sized_when_the_job_runs_is_not_compared(tmp_path: Path) -> None:
    path = _script(
        tmp_path,
        """
        #!/bin/bash
        #SBATCH --nodes=2
        #SBATCH --ntasks-per-node=8
        #SBATCH --gres=gpu:a100:8(S:0-1)
        #SBATCH --time=1:00:00
        srun -n $SLURM_NNODES torchrun --nnodes=$SLURM_NNODES --nproc_per_node=8 train.py
        """,
    )
    assert gpus_per_node(read(path))[0] == 8
    assert "JC102" not in _codes(path)
