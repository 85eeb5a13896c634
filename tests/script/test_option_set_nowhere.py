"""A launcher option whose value reads a variable the script sets nowhere is said: empty, the
launcher takes the next word for the option's value. Not so for a value that is never empty: a
reference with a default (`${GPUS:-8}`, also read through the script's own variables, as DGX
Cloud's `NTASKS_PER_NODE=${RUN_CONF_GPU_PER_NODE:-8}`), or a value with text of its own beside the
variable (`--config_file $STAGE_PATH/fsdp.yaml` is `/fsdp.yaml` at the least)."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes

_HEAD = "#!/bin/bash\n#SBATCH --nodes=2\n#SBATCH --gpus-per-node=8\n"


def _said(body: str) -> list[str]:
    derived = imported(read_bytes((_HEAD + body).encode(), "job.sh"))
    return [u.why for u in derived.unmapped if "set nowhere in the script" in u.why]


@pytest.mark.parametrize(
    "body",
    [
        "srun torchrun --nproc-per-node $GPUS --nnodes 2 train.py\n",
        "srun torchrun --nproc-per-node=${GPUS} --nnodes 2 train.py\n",
        'N=$GPUS\nsrun torchrun --nproc-per-node "$N" --nnodes 2 train.py\n',
    ],
)
def test_a_value_empty_where_the_variable_is_unset_is_said(body: str) -> None:
    said = _said(body)
    assert len(said) == 1
    assert "$GPUS" in said[0]


@pytest.mark.parametrize(
    "body",
    [
        "srun torchrun --nproc-per-node ${GPUS:-8} --nnodes 2 train.py\n",
        "srun torchrun --nproc-per-node=${GPUS-8} --nnodes 2 train.py\n",
        # source: NVIDIA/dgxc-benchmarking hf-llama2/launch.sh
        "NTASKS_PER_NODE=${RUN_CONF_GPU_PER_NODE:-8}\n"
        "TOTAL=${SBATCH_GPUS:-$(( ${SLURM_JOB_NUM_NODES} * ${NTASKS_PER_NODE} ))}\n"
        "srun accelerate launch --num_processes $TOTAL --num_machines 2 --machine_rank $SLURM_NODEID "
        "--main_process_ip node0 train.py\n",
        "srun accelerate launch --config_file $STAGE_PATH/fsdp.yaml --num_processes 16 --num_machines 2 "
        "--machine_rank $SLURM_NODEID --main_process_ip node0 train.py\n",
    ],
)
def test_near_miss_a_value_that_is_never_empty_is_not_said(body: str) -> None:
    assert _said(body) == []
