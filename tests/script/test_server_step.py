"""An inference server started in the background before its client (`vllm serve M &`, `srun … vllm
serve … &`, `python -m vllm.entrypoints.openai.api_server … &`, `trl vllm-serve … &`) is not the step
that trains: the client the script runs after it is chosen. A server that is the script's only step,
or one run in the foreground, stays what it is."""

from __future__ import annotations

import pytest

from jobc.lint.imported import imported
from jobc.script.facts import ScriptFacts
from jobc.script.parse import read_bytes

# source: the form of GRPO jobs that serve generations with vLLM on one GPU of the node
HEAD = "#!/bin/bash\n#SBATCH --nodes=1\n#SBATCH --gres=gpu:4\n#SBATCH --time=12:00:00\n"
CLIENT = "sleep 60\nCUDA_VISIBLE_DEVICES=1,2,3 python grpo.py --vllm_url http://localhost:8000\n"


def _facts(body: str) -> ScriptFacts:
    return read_bytes((HEAD + body).encode(), "job.sh")


@pytest.mark.parametrize(
    "server",
    [
        "srun --overlap -n1 --gpus=1 vllm serve Qwen/Qwen2.5-7B --port 8000 &\n",
        "CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen2.5-7B --port 8000 &\n",
        "CUDA_VISIBLE_DEVICES=0 python -m vllm.entrypoints.openai.api_server --model m --port 8000 &\n",
        "CUDA_VISIBLE_DEVICES=0 trl vllm-serve --model Qwen/Qwen2.5-7B &\n",
    ],
)
def test_the_client_after_a_background_server_is_the_training_step(server: str) -> None:
    facts = _facts(server + CLIENT)
    step = facts.main_step
    assert step is not None
    assert step.program is not None
    assert step.program.text == "grpo.py"
    launch = imported(facts).data["launch"]
    assert launch["program"] == "grpo.py"


def test_a_server_alone_is_still_the_step() -> None:
    # near miss: nothing else runs; the server is what the job does
    step = _facts("srun vllm serve Qwen/Qwen2.5-7B --port 8000 &\nwait\n").main_step
    assert step is not None
    assert step.program is not None
    assert step.program.text == "vllm"


def test_a_foreground_command_of_the_same_name_is_no_server() -> None:
    # near miss: a vllm subcommand run in the foreground (a benchmark) is a step as any other
    step = _facts("srun vllm bench throughput --model m\n" + CLIENT).main_step
    assert step is not None
    assert step.program is not None
    assert step.program.text == "vllm"
