"""Which training code a spec runs: stated in workload.framework or inferred from the spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.memory import context as mem
from tests.support.lint import lint_text


def _spec(launch: str, parallelism: str = "{}", workload: str = "{seq_length: 4096}") -> str:
    return (
        "version: 1\n"
        "name: t\n"
        "resources: {nodes: 1, gpus_per_node: 8, gpu: h100-80gb}\n"
        f"launch: {launch}\n"
        f"parallelism: {parallelism}\n"
        "model: {preset: llama3-8b}\n"
        f"workload: {workload}\n"
    )


CASES = [
    # launch, parallelism, workload, framework, words in the reason
    ("{program: train.py}", "{}", "{}", "pytorch", "without model parallelism"),
    ("{program: train.py}", "{sharding: fsdp2}", "{}", "pytorch", "fully_shard"),
    ("{program: train.py}", "{sharding: distributed-optimizer}", "{}", "megatron", "Megatron's"),
    ("{program: train.py}", "{sharding: megatron-fsdp}", "{}", "megatron", "Megatron's"),
    ("{program: pretrain_gpt.py}", "{}", "{}", "megatron", "launch.program 'pretrain_gpt.py'"),
    ("{module: megatron.bridge.recipes.run}", "{}", "{}", "megatron", "launch.module"),
    ("{workdir: /lustre/me/Megatron-LM, program: run.py}", "{}", "{}", "megatron", "launch.workdir"),
    ("{workdir: /lustre/me/NeMo, program: run.py}", "{}", "{}", "megatron", "launch.workdir"),
    # a model family named like NeMo is no hint
    ("{program: finetune_nemotron.py}", "{}", "{}", "pytorch", "without model parallelism"),
    ("{module: torchtitan.train}", "{tp: 2}", "{}", "pytorch", "PyTorch training library"),
    ("{program: train.py}", "{tp: 2}", "{}", "megatron", "tp 2 with sharding none"),
    ("{program: train.py}", "{pp: 2}", "{}", "megatron", "pp 2"),
    ("{program: pretrain_gpt.py}", "{}", "{framework: pytorch}", "pytorch", "workload.framework"),
    ("{program: train.py}", "{sharding: fsdp2}", "{framework: megatron}", "megatron", "workload.framework"),
]


@pytest.mark.parametrize("case", CASES)
def test_framework_from_the_spec(tmp_path: Path, case: tuple[str, str, str, str, str]) -> None:
    launch, parallelism, workload, name, reason = case
    ctx = lint_text(_spec(launch, parallelism, workload), tmp_path).context
    assert ctx is not None
    found = ctx.framework
    assert found.name == name
    assert reason in found.reason
    assert found.inferred == (reason != "workload.framework")


def test_framework_chooses_the_activation_model(tmp_path: Path) -> None:
    plain = lint_text(_spec("{program: train.py}"), tmp_path / "a").context
    megatron = lint_text(_spec("{program: pretrain_gpt.py}"), tmp_path / "b").context
    assert plain is not None
    assert megatron is not None
    assert mem.job(plain).framework == "pytorch"
    assert mem.job(megatron).framework == "megatron"
    torch_like, megatron_like = mem.estimate_for(plain), mem.estimate_for(megatron)
    assert torch_like is not None
    assert megatron_like is not None
    # the same model and layout: PyTorch-style code stores more per layer
    assert torch_like.activations > megatron_like.activations
    said = " ".join(mem.spec_assumptions(plain))
    assert "PyTorch-style code" in said
    assert "inferred (sharding none without model parallelism" in said
    assert "Set workload.framework" in said


def test_framework_is_a_schema_field(tmp_path: Path) -> None:
    result = lint_text(_spec("{program: train.py}", workload="{framework: jax}"), tmp_path)
    assert any(f.code == "JC003" and "framework" in f.message for f in result.findings)
