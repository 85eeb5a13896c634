"""JC3 rules, model findings (JC003) and the JC2 rules on presets and Hugging Face configs:
each fires at its line and column, and a near miss does not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from jobc.core.diagnostics import Severity
from jobc.memory import presets
from tests.support.lint import codes, lint_text, only, where


def spec(resources: str, model: str, parallelism: str, workload: str) -> str:
    """Lines: 3 resources, 5 model, 6 parallelism, 7 workload."""
    return (
        "version: 1\n"
        "name: t\n"
        f"resources: {resources}\n"
        "launch: {program: train.py}\n"
        f"model: {model}\n"
        f"parallelism: {parallelism}\n"
        f"workload: {workload}\n"
        'slurm: {time: "01:00:00"}\n'
    )


def node(nodes: int) -> str:
    return f"{{nodes: {nodes}, gpus_per_node: 8, gpu: h100-80gb}}"


MINIMAX = "{preset: minimax-m2}"


# ---------------------------------------------------------------------------------------------
# JC301 and the MiniMax-M2 practice table (etp 1 as in Megatron-Bridge's conversion scripts)


def test_jc301_tp2_ep4_on_8_gpus_fails_convert(tmp_path: Path) -> None:
    result = lint_text(spec(node(1), MINIMAX, "{tp: 2, ep: 4, etp: 1}", "{kind: convert}"), tmp_path)
    assert where(result, "JC301") == [(6, 26)]
    message = only(result, "JC301").message
    assert message.startswith("64 experts per GPU (256 experts / ep 4) hold 112.3 GB of expert weights")
    assert "above the 60.0 GB budget for a convert job (75 % of h100-80gb's 80.0 GB)" in message
    assert "raise parallelism.ep to 8 (32 experts per GPU, 56.2 GB)" in message
    assert "tp 2 does not shard experts while etp is 1: tp helps only when etp > 1" in message


def test_jc301_tp2_ep8_on_16_gpus_passes_convert_and_fails_inference(tmp_path: Path) -> None:
    convert = lint_text(spec(node(2), MINIMAX, "{tp: 2, ep: 8, etp: 1}", "{kind: convert}"), tmp_path)
    assert "JC301" not in codes(convert)
    served = lint_text(spec(node(2), MINIMAX, "{tp: 2, ep: 8, etp: 1}", "{kind: inference}"), tmp_path)
    assert where(served, "JC301") == [(6, 26)]
    message = only(served, "JC301").message
    assert "32 experts per GPU" in message
    assert "56.2 GB of expert weights" in message
    assert "above the 40.0 GB budget for an inference job (50 % of h100-80gb's 80.0 GB)" in message
    assert "raise parallelism.ep to 16 (16 experts per GPU, 28.1 GB)" in message


def test_jc301_tp1_ep16_on_16_gpus_passes_inference(tmp_path: Path) -> None:
    result = lint_text(spec(node(2), MINIMAX, "{tp: 1, ep: 16, etp: 1}", "{kind: inference}"), tmp_path)
    assert "JC301" not in codes(result)
    assert "JC302" not in codes(result)


def test_jc301_says_etp_already_splits(tmp_path: Path) -> None:
    # etp unset: Megatron-Core's default etp = tp = 2 halves every expert: 56.2 GB for training
    result = lint_text(spec(node(1), MINIMAX, "{tp: 2, ep: 4}", "{kind: pretrain}"), tmp_path)
    message = only(result, "JC301").message
    assert "(256 experts / ep 4, each split over etp 2) hold 56.2 GB" in message
    assert "above the 30.0 GB budget for a pretrain job (37.5 %" in message
    assert "experts are already split over etp 2" in message
    assert "which needs a world divisible by ep·etp·pp = 16 (it is 8)" in message


def test_jc301_without_ep_points_at_the_preset(tmp_path: Path) -> None:
    result = lint_text(spec(node(1), MINIMAX, "{tp: 8}", "{kind: inference}"), tmp_path)
    assert where(result, "JC301") == [(5, 17)]
    assert "256 experts per GPU" in only(result, "JC301").message


def test_jc301_needs_a_gpu_and_a_moe(tmp_path: Path) -> None:
    no_gpu = "{nodes: 1, gpus_per_node: 8}"
    assert "JC301" not in codes(
        lint_text(spec(no_gpu, MINIMAX, "{tp: 2, ep: 4, etp: 1}", "{kind: convert}"), tmp_path)
    )
    dense = "{preset: llama3-70b}"
    assert "JC301" not in codes(lint_text(spec(node(1), dense, "{tp: 8}", "{kind: convert}"), tmp_path))


# ---------------------------------------------------------------------------------------------
# JC302


def test_jc302_full_adam_minimax_at_tp2_ep32_does_not_fit(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            node(8),
            MINIMAX,
            "{tp: 2, ep: 32, etp: 1, sharding: distributed-optimizer}",
            "{kind: pretrain, seq_length: 4096}",
        ),
        tmp_path,
    )
    assert "JC301" not in codes(result)  # 14.0 GB of experts: the coarse pre-check passes
    finding = only(result, "JC302")
    assert (finding.span.line, finding.span.col) == (6, 1)
    assert finding.severity is Severity.ERROR
    assert "above h100-80gb's 80.0 GB" in finding.message
    assert "weights 18.1 GB" in finding.message
    assert "weights, gradients and optimizer state alone are 97.2 GB with sharding distributed-optimizer" in (
        finding.message
    )


def _llama_serving(micro_batch: int) -> str:
    return spec(
        "{nodes: 1, gpus_per_node: 1, gpu: h100-80gb}",
        "{preset: llama3-8b}",
        "{tp: 1}",
        f"{{kind: inference, seq_length: 8192, micro_batch: {micro_batch}}}",
    )


def test_jc302_warns_above_90_percent(tmp_path: Path) -> None:
    finding = only(lint_text(_llama_serving(24), tmp_path), "JC302")
    assert finding.severity is Severity.WARNING
    assert (finding.span.line, finding.span.col) == (6, 1)
    assert "92% of h100-80gb's 80.0 GB" in finding.message
    assert "KV cache 25.8 GB" in finding.message


def test_jc302_errors_above_memory(tmp_path: Path) -> None:
    assert only(lint_text(_llama_serving(28), tmp_path), "JC302").severity is Severity.ERROR


def test_jc302_near_miss(tmp_path: Path) -> None:
    assert "JC302" not in codes(lint_text(_llama_serving(20), tmp_path))


def test_jc302_without_parallelism_points_at_the_model(tmp_path: Path) -> None:
    text = (
        "version: 1\nname: t\nresources: {nodes: 1, gpus_per_node: 1, gpu: a100-40gb}\n"
        "launch: {program: train.py}\nmodel:\n  preset: llama3-8b\n"
    )
    result = lint_text(text, tmp_path)
    assert where(result, "JC302") == [(6, 11)]
    assert "shard the optimizer state" not in only(result, "JC302").message  # dp is 1


def test_jc302_suggests_the_distributed_optimizer(tmp_path: Path) -> None:
    result = lint_text(spec(node(1), "{preset: llama3-8b}", "{tp: 1}", "{kind: pretrain}"), tmp_path)
    message = only(result, "JC302").message
    assert "shard the optimizer state (sharding: distributed-optimizer)" in message
    assert "activations not counted (set workload.seq_length)" in message


# ---------------------------------------------------------------------------------------------
# JC303


def test_jc303_fp8_checkpoint_as_bf16(tmp_path: Path) -> None:
    result = lint_text(spec(node(1), "{preset: deepseek-v3}", "{tp: 8}", "{kind: inference}"), tmp_path)
    assert where(result, "JC303") == [(5, 17)]
    finding = only(result, "JC303")
    assert finding.severity is Severity.INFO
    assert "1342.1 GB for the whole model instead of 671.0 GB" in finding.message


def test_jc303_points_at_an_explicit_dtype(tmp_path: Path) -> None:
    result = lint_text(
        spec(node(1), "{preset: minimax-m2, dtype: bf16}", "{tp: 8}", "{kind: convert}"), tmp_path
    )
    assert where(result, "JC303") == [(5, 36)]


def test_jc303_near_misses(tmp_path: Path) -> None:
    fp8 = lint_text(
        spec(node(1), "{preset: deepseek-v3, dtype: fp8}", "{tp: 8}", "{kind: inference}"), tmp_path
    )
    assert "JC303" not in codes(fp8)
    bf16 = lint_text(spec(node(1), "{preset: llama3-70b}", "{tp: 8}", "{kind: inference}"), tmp_path)
    assert "JC303" not in codes(bf16)


def test_jc303_explicit_checkpoint_dtype(tmp_path: Path) -> None:
    model = "{layers: 2, hidden: 64, heads: 4, ffn_hidden: 128, vocab: 100, checkpoint_dtype: fp8}"
    result = lint_text(spec(node(1), model, "{tp: 1}", "{kind: convert}"), tmp_path)
    assert where(result, "JC303") == [(5, 89)]
    assert "the checkpoint (model.checkpoint_dtype) is fp8" in only(result, "JC303").message


# ---------------------------------------------------------------------------------------------
# JC003 for presets and configs


def test_unknown_preset_is_jc003_with_a_suggestion(tmp_path: Path) -> None:
    result = lint_text(spec(node(1), "{preset: llama-3-8b}", "{tp: 8}", "{kind: pretrain}"), tmp_path)
    assert where(result, "JC003") == [(5, 17)]
    assert "model.preset 'llama-3-8b' is not a bundled preset; did you mean 'llama3-8b'?" in (
        only(result, "JC003").message
    )
    assert not any(code.startswith("JC3") for code in codes(result))


def test_missing_hf_config_is_jc003(tmp_path: Path) -> None:
    result = lint_text(
        spec(node(1), "{hf_config: ckpt/config.json}", "{tp: 8}", "{kind: pretrain}"), tmp_path
    )
    assert where(result, "JC003") == [(5, 20)]
    assert "model.hf_config 'ckpt/config.json': no such file" in only(result, "JC003").message


def test_invalid_hf_config_is_jc003(tmp_path: Path) -> None:
    result = lint_text(
        spec(node(1), "{hf_config: config.json}", "{tp: 8}", "{kind: pretrain}"),
        tmp_path,
        files={"config.json": '{"model_type": "llama", "hidden_size": 4096}'},
    )
    assert where(result, "JC003") == [(5, 20)]
    assert "the config has no 'num_attention_heads'" in only(result, "JC003").message


def test_hf_config_relative_to_the_spec(tmp_path: Path) -> None:
    config = json.dumps(presets.catalogue()["mixtral-8x7b"].config)
    result = lint_text(
        spec(node(1), "{hf_config: ../models/mixtral/config.json}", "{tp: 2, ep: 3}", "{kind: pretrain}"),
        tmp_path,
        name="jobs/spec.yaml",
        files={"models/mixtral/config.json": config},
    )
    assert "JC003" not in codes(result)
    assert where(result, "JC204") == [(6, 26)]
    assert "model.moe.experts 8 is not divisible by ep 3" in only(result, "JC204").message


# ---------------------------------------------------------------------------------------------
# JC2 rules read presets


def test_jc202_from_a_preset(tmp_path: Path) -> None:
    result = lint_text(spec(node(2), "{preset: llama3-8b}", "{tp: 16}", "{kind: pretrain}"), tmp_path)
    assert where(result, "JC202") == [(6, 19)]
    assert "model.kv_heads 8 is not divisible by tp 16" in only(result, "JC202").message
    near = lint_text(spec(node(2), "{preset: llama3-8b}", "{tp: 8}", "{kind: pretrain}"), tmp_path)
    assert "JC202" not in codes(near)


def test_jc203_from_a_preset(tmp_path: Path) -> None:
    result = lint_text(spec(node(3), "{preset: llama3-8b}", "{pp: 3}", "{kind: pretrain}"), tmp_path)
    assert where(result, "JC203") == [(6, 19)]
    assert "model.layers 32 is not divisible by pp 3" in only(result, "JC203").message
    overridden = lint_text(
        spec(node(3), "{preset: llama3-8b, layers: 33}", "{pp: 3}", "{kind: pretrain}"), tmp_path
    )
    assert "JC203" not in codes(overridden)


def test_jc209_and_jc210_from_presets(tmp_path: Path) -> None:
    dense = lint_text(spec(node(1), "{preset: llama3-8b}", "{ep: 2}", "{kind: pretrain}"), tmp_path)
    assert where(dense, "JC209") == [(6, 19)]
    assert "preset llama3-8b is a dense model" in only(dense, "JC209").message
    moe = lint_text(spec(node(1), "{preset: mixtral-8x7b}", "{tp: 1}", "{kind: pretrain}"), tmp_path)
    assert where(moe, "JC210") == [(5, 17)]
    assert "all 8 experts" in only(moe, "JC210").message
    spread = lint_text(spec(node(1), "{preset: mixtral-8x7b}", "{ep: 8}", "{kind: pretrain}"), tmp_path)
    assert "JC210" not in codes(spread)
    assert "JC209" not in codes(spread)


# ---------------------------------------------------------------------------------------------
# Lint stays light


def test_lint_loads_the_memory_model_only_for_a_model(tmp_path: Path) -> None:
    plain = tmp_path / "plain.yaml"
    plain.write_text(spec(node(1), "null", "{tp: 1}", "{kind: pretrain}"))
    with_model = tmp_path / "model.yaml"
    with_model.write_text(spec(node(1), MINIMAX, "{tp: 2, ep: 4, etp: 1}", "{kind: convert}"))
    probe = (
        "import sys\n"
        "from pathlib import Path\n"
        "from jobc.lint.pipeline import lint_file\n"
        f"lint_file(Path({str(plain)!r}))\n"
        "first = 'jobc.memory.shape' in sys.modules\n"
        f"lint_file(Path({str(with_model)!r}))\n"
        "print(first, 'jobc.memory.shape' in sys.modules, 'torch' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True", "False"]


def test_absurd_models_lint_quickly(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "{nodes: 1000000, gpus_per_node: 8, gpu: h100-80gb}",
            "{preset: deepseek-v3, layers: 1000000000000}",
            "{tp: 8, pp: 1000000, ep: 8}",
            "{kind: pretrain, seq_length: 99999999999, global_batch: 12345678901234}",
        ),
        tmp_path,
    )
    assert "JC003" not in codes(result)
    huge = lint_text(
        spec(node(1), "{preset: minimax-m2, layers: 1000000000000}", "{ep: 8}", "{kind: convert}"), tmp_path
    )
    assert "JC301" in codes(huge)
