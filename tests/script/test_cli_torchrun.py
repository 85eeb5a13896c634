"""A console script that starts torchrun itself: LLaMA-Factory's `llamafactory-cli train CONFIG`
(or `lmf train`) runs `torchrun … llamafactory/launcher.py CONFIG` on its node when
FORCE_TORCHRUN (USE_MCA, USE_MEGATRON_BRIDGE) is enabled, or when it sees more than one GPU and
neither USE_RAY nor USE_KT is. The import then takes launch.mode torchrun and runs the module its
torchrun runs (the console script under torchrun would start torchrun again in every worker);
with one GPU, another command or Ray it is one process, as before; when the script does not say
(a computed variable, several tasks on a node), the mode is not known."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.parse import read_bytes


def _head(gpus: int, nodes: int = 1, tasks: int = 1) -> str:
    return (
        f"#!/bin/bash\n#SBATCH --nodes={nodes}\n#SBATCH --ntasks-per-node={tasks}\n"
        f"#SBATCH --gres=gpu:{gpus}\n#SBATCH --time=1:00:00\n"
    )


TORCHRUN = [
    # source: OpenEuroLLM/post-training slurm/llamafactory/submit_multinode.sh (the form; shortened)
    (
        _head(4, nodes=2)
        + 'srun singularity exec --nv img.sif bash -lc "\n  export NNODES=\\"\\$SLURM_NNODES\\"\n'
        '  llamafactory-cli train configs/sft.yaml\n"\n'
    ),
    _head(8) + "llamafactory-cli train examples/lora.yaml\n",
    _head(1) + "FORCE_TORCHRUN=1 llamafactory-cli train examples/lora.yaml\n",
    _head(1) + "export FORCE_TORCHRUN=true\nsrun lmf train examples/lora.yaml\n",
]


@pytest.mark.parametrize("script", TORCHRUN)
def test_the_cli_that_starts_torchrun_is_torchrun_running_its_module(script: str) -> None:
    derived = imported(read_bytes(script.encode(), "job.sh"))
    launch = derived.data["launch"]
    assert launch.get("mode") == "torchrun"
    assert launch.get("module") == "llamafactory.launcher"
    assert launch.get("program") is None
    assert launch.get("python") == "python"
    assert launch.get("args")[-1].endswith(".yaml")
    assert any("starts torchrun on its node" in note for note in derived.notes)


@pytest.mark.parametrize(
    "script",
    [
        _head(1) + "llamafactory-cli train examples/lora.yaml\n",  # one GPU: its own process
        _head(8) + "USE_RAY=1 llamafactory-cli train examples/lora.yaml\n",  # Ray's own workers
        _head(8) + "srun llamafactory-cli export examples/merge.yaml\n",  # another command
    ],
)
def test_one_process_stays_the_console_script(script: str) -> None:
    launch = imported(read_bytes(script.encode(), "job.sh")).data["launch"]
    assert launch.get("mode") == "srun"
    assert launch.get("program") == "llamafactory-cli"
    assert launch.get("module") is None


@pytest.mark.parametrize(
    "script",
    [
        _head(1) + 'FORCE_TORCHRUN="$1" llamafactory-cli train examples/lora.yaml\n',
        _head(8, tasks=8) + "srun llamafactory-cli train examples/lora.yaml\n",
    ],
)
def test_what_the_script_does_not_say_leaves_the_mode_unknown(script: str) -> None:
    derived = imported(read_bytes(script.encode(), "job.sh"))
    assert derived.data["launch"].get("mode") is None
    assert any("write launch.mode" in line and "llamafactory.launcher" in line for line in derived.unknown)
