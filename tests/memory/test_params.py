"""Exact parameter counts, presets, Hugging Face configs and explicit overrides."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from jobc.memory import hf, presets
from jobc.memory.estimate import Job, estimate
from jobc.memory.params import count
from jobc.memory.placement import Sizes
from jobc.memory.resolve import resolve, resolve_model
from jobc.memory.shape import Experts, ModelShape

# sum(p.numel()) of the Hugging Face model built from each config on the meta device
EXACT = {
    "llama3-8b": 8_030_261_248,
    "llama3-70b": 70_553_706_496,
    "mixtral-8x7b": 46_702_792_704,
    "qwen3-30b-a3b": 30_532_122_624,
    "deepseek-v3": 671_026_404_352,
    "gpt-oss-120b": 116_829_156_672,
    "gpt-oss-20b": 20_914_757_184,
    "minimax-m2": 228_689_748_992,
}

ACTIVE = {
    "mixtral-8x7b": 12_879_925_248,
    "qwen3-30b-a3b": 3_353_032_704,
    "deepseek-v3": 37_552_282_624,
    "gpt-oss-120b": 5_711_982_912,
    "gpt-oss-20b": 4_187_440_704,
    "minimax-m2": 11_030_537_216,
}


@pytest.mark.parametrize(("name", "total"), EXACT.items())
def test_exact_total(name: str, total: int) -> None:
    assert count(presets.shape(name)).total == total


@pytest.mark.parametrize(("name", "active"), ACTIVE.items())
def test_exact_active(name: str, active: int) -> None:
    assert count(presets.shape(name)).active == active


def test_dense_models_are_all_active() -> None:
    for name in ("llama3-8b", "llama3-70b"):
        c = count(presets.shape(name))
        assert c.active == c.total


def test_active_matches_published_figures() -> None:
    # published active counts, in billions, with each vendor's embedding convention
    assert round(ACTIVE["mixtral-8x7b"] / 1e9, 1) == 12.9
    assert round(ACTIVE["deepseek-v3"] / 1e9) == 38  # "37B", embedding and head included
    gpt = count(presets.shape("gpt-oss-120b"))
    assert round((gpt.active - gpt.embedding) / 1e9, 2) == 5.13  # without the input embedding
    mm = count(presets.shape("minimax-m2"))
    assert round((mm.active - mm.embedding - mm.output) / 1e9, 2) == 9.80


def test_deepseek_routing_bias_is_a_buffer() -> None:
    c = count(presets.shape("deepseek-v3"))
    assert c.buffers == 58 * 256 == 14_848
    assert c.total + c.buffers == 671_026_419_200
    assert count(presets.shape("minimax-m2")).buffers == 15_872


def test_breakdowns() -> None:
    mm = count(presets.shape("minimax-m2"))
    assert mm.routed_experts == 224_680_476_672
    assert mm.attention == 2_730_936_320
    assert mm.router == 48_758_784
    assert mm.norms == 384_000
    assert mm.embedding == mm.output == 614_596_608
    assert mm.one_expert == 14_155_776
    ds = count(presets.shape("deepseek-v3"))
    assert ds.routed_experts == 653_908_770_816
    assert ds.attention == 11_413_547_008
    assert ds.router == 106_430_464
    assert ds.embedding == 926_679_040
    assert ds.mlp == 2_554_331_136 + 1_189_085_184  # shared experts + dense MLPs
    assert ds.one_expert == 44_040_192
    gpt = count(presets.shape("gpt-oss-120b"))
    assert (gpt.routed_experts, gpt.attention, gpt.router) == (114_701_598_720, 955_805_184, 13_275_648)
    mix = count(presets.shape("mixtral-8x7b"))
    assert (mix.routed_experts, mix.attention, mix.router) == (45_097_156_608, 1_342_177_280, 1_048_576)
    qwen = count(presets.shape("qwen3-30b-a3b"))
    assert (qwen.routed_experts, qwen.attention, qwen.router) == (28_991_029_248, 905_981_952, 12_582_912)


def test_more_presets_match_their_model_cards() -> None:
    # safetensors parameter counts shown on the model cards
    assert count(presets.shape("mistral-7b")).total == 7_241_732_096
    assert count(presets.shape("qwen2.5-0.5b")).total == 494_032_768  # q/k/v biases, tied
    assert count(presets.shape("qwen3-8b")).total == 8_190_735_360  # per-head QK-norm
    assert count(presets.shape("llama3.1-405b")).total == 405_853_388_800


def test_every_preset_reads() -> None:
    for key in presets.catalogue():
        assert count(presets.shape(key)).total > 0


# ---------------------------------------------------------------------------------------------
# hf_config


def _write(tmp_path: Path, config: dict[str, object], name: str = "config.json") -> str:
    (tmp_path / name).write_text(json.dumps(config))
    return name


@pytest.mark.parametrize("name", sorted(EXACT))
def test_preset_configs_read_from_files_give_the_same_count(tmp_path: Path, name: str) -> None:
    rel = _write(tmp_path, presets.catalogue()[name].config)
    shape = hf.shape_from_file(tmp_path, rel)
    assert count(shape).total == EXACT[name]


def test_hf_config_directory_and_text_config(tmp_path: Path) -> None:
    inner = dict(presets.catalogue()["minimax-m2"].config)
    quant = inner.pop("quantization_config")
    wrapper = {"model_type": "minimax_m3_vl", "text_config": inner, "quantization_config": quant}
    (tmp_path / "ckpt").mkdir()
    _write(tmp_path / "ckpt", wrapper)
    shape = hf.shape_from_file(tmp_path, "ckpt")
    assert count(shape).total == EXACT["minimax-m2"]
    assert shape.checkpoint_dtype == "fp8"
    # the plan says what is left out
    (note,) = shape.notes
    assert "multimodal model (minimax_m3_vl)" in note
    assert "only its text model (text_config, minimax_m2) is counted" in note
    assert presets.shape("minimax-m2").notes == ()
    said = estimate(shape, Sizes(8, ep=8), Job(kind="inference")).assumptions
    assert note in said


def test_minimax_m2_fields_the_implementation_ignores(tmp_path: Path) -> None:
    # transformers' MiniMax-M2 has no projection biases, always full-width QK-norm and no shared
    # expert, whatever the config says: the count is the published model's and says so
    config = dict(presets.catalogue()["minimax-m2"].config)
    config.update(
        attention_bias=True, use_qk_norm=False, qk_norm_type="per_head", shared_intermediate_size=1536
    )
    shape = hf.shape_from_config(config, "test")
    assert count(shape).total == EXACT["minimax-m2"]
    assert (shape.qkv_bias, shape.out_bias, shape.qk_norm) == (False, False, "full")
    assert shape.moe is not None
    assert shape.moe.shared_experts == 0
    (note,) = shape.notes
    for ignored in (
        "attention_bias true",
        "use_qk_norm false",
        "qk_norm_type 'per_head'",
        "shared_intermediate_size 1536",
    ):
        assert ignored in note
    assert "counted as transformers builds it" in note
    # the settings the implementation does follow leave no note
    assert hf.shape_from_config(presets.catalogue()["minimax-m2"].config, "test").notes == ()


def test_family_details(tmp_path: Path) -> None:
    def shape(config: dict[str, object]) -> ModelShape:
        return hf.shape_from_config(config, "test")

    small = {"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 100}
    llama = shape({"model_type": "llama", **small, "intermediate_size": 128, "attention_bias": True})
    assert (llama.qkv_bias, llama.out_bias, llama.kv_heads, llama.head_dim) == (True, True, 4, 16)
    qwen2 = shape({"model_type": "qwen2", **small, "intermediate_size": 128})
    assert (qwen2.qkv_bias, qwen2.out_bias) == (True, False)
    qwen3 = shape({"model_type": "qwen3", **small, "intermediate_size": 128, "head_dim": 32})
    assert (qwen3.qk_norm, qwen3.head_dim) == ("head", 32)
    mistral = shape({"model_type": "mistral", **small, "intermediate_size": 128, "head_dim": None})
    assert mistral.head_dim == 16
    sparse = shape(
        {
            "model_type": "qwen3_moe",
            **small,
            "num_hidden_layers": 6,
            "intermediate_size": 128,
            "moe_intermediate_size": 32,
            "num_experts": 8,
            "num_experts_per_tok": 2,
            "decoder_sparse_step": 2,
            "mlp_only_layers": [3],
        }
    )
    assert [sparse.is_moe(i) for i in range(6)] == [False, True, False, False, False, True]
    ds = presets.shape("deepseek-v3")
    assert [ds.is_moe(i) for i in range(5)] == [False, False, False, True, True]
    assert ds.checkpoint_mtp_layers == 1
    assert presets.shape("minimax-m2").checkpoint_mtp_layers == 3
    assert presets.shape("gpt-oss-120b").checkpoint_dtype == "mxfp4"
    tied = shape({"model_type": "llama", **small, "intermediate_size": 128, "tie_word_embeddings": True})
    assert count(tied).output == 0


@pytest.mark.parametrize(
    ("config", "message"),
    [
        ({"model_type": "bert"}, "model_type 'bert' is not supported"),
        ({"hidden_size": 8}, "no model_type"),
        ({"model_type": "llama", "hidden_size": 8}, "no 'num_attention_heads'"),
        (
            {
                "model_type": "llama",
                "hidden_size": "4096",
                "num_attention_heads": 32,
                "num_hidden_layers": 2,
                "vocab_size": 10,
                "intermediate_size": 10,
            },
            "'hidden_size' is '4096', not a non-negative integer",
        ),
        (
            {
                "model_type": "llama",
                "hidden_size": 64,
                "num_attention_heads": 6,
                "num_key_value_heads": 4,
                "num_hidden_layers": 2,
                "vocab_size": 10,
                "intermediate_size": 10,
            },
            "not a multiple of num_key_value_heads",
        ),
    ],
)
def test_config_errors_name_the_key(config: dict[str, object], message: str) -> None:
    with pytest.raises(hf.ConfigError, match=message):
        hf.shape_from_config(config, "test")


def test_missing_and_broken_config_files(tmp_path: Path) -> None:
    with pytest.raises(hf.ConfigError, match="no such file"):
        hf.shape_from_file(tmp_path, "nope/config.json")
    (tmp_path / "bad.json").write_text("{ not json")
    with pytest.raises(hf.ConfigError, match=r"not valid JSON: .* line 1, column 3"):
        hf.shape_from_file(tmp_path, "bad.json")
    (tmp_path / "list.json").write_text("[1, 2]")
    with pytest.raises(hf.ConfigError, match="a JSON object"):
        hf.shape_from_file(tmp_path, "list.json")


# ---------------------------------------------------------------------------------------------
# resolve: presets, configs and explicit fields


@dataclass(frozen=True)
class MoE:
    experts: int
    top_k: int
    expert_ffn_hidden: int | None = None
    shared_experts: int = 0
    shared_ffn_hidden: int | None = None
    dense_layers: int = 0


@dataclass(frozen=True)
class Model:
    preset: str | None = None
    hf_config: str | None = None
    layers: int | None = None
    hidden: int | None = None
    heads: int | None = None
    kv_heads: int | None = None
    head_dim: int | None = None
    ffn_hidden: int | None = None
    vocab: int | None = None
    tied_embeddings: bool | None = None
    attention_bias: bool | None = None
    mtp_layers: int | None = None
    moe: MoE | None = None
    dtype: str = "bf16"
    checkpoint_dtype: str | None = None


def test_explicit_fields_override_a_preset() -> None:
    shape = resolve(Model(preset="llama3-8b", layers=16), ".")
    assert shape is not None
    full = count(presets.shape("llama3-8b"))
    half = count(shape)
    per_layer = (full.total - full.embedding - full.output - full.final_norm) // 32
    assert full.total - half.total == 16 * per_layer
    wider = resolve(Model(preset="llama3-8b", hidden=2048, heads=16, kv_heads=4), ".")
    assert wider is not None
    assert (wider.head_dim, wider.kv_heads) == (128, 4)
    moe = resolve(Model(preset="deepseek-v3", moe=MoE(experts=64, top_k=4, dense_layers=1)), ".")
    assert moe is not None
    assert moe.moe is not None
    assert (moe.moe.experts, moe.moe.ffn_hidden, moe.moe.first_dense) == (64, 2048, 1)
    assert moe.moe.routing_bias  # the family's extras stay
    assert resolve(Model(preset="minimax-m2", dtype="fp8"), ".") is not None


def test_explicit_model_alone() -> None:
    shape = resolve(Model(layers=32, hidden=4096, heads=32, kv_heads=8, ffn_hidden=14336, vocab=128256), ".")
    assert shape is not None
    assert count(shape).total == EXACT["llama3-8b"]
    mixtral = Model(
        layers=32, hidden=4096, heads=32, kv_heads=8, vocab=32000, moe=MoE(8, 2, expert_ffn_hidden=14336)
    )
    shape = resolve(mixtral, ".")
    assert shape is not None
    assert count(shape).total == EXACT["mixtral-8x7b"]


def test_incomplete_explicit_model_lists_what_is_missing() -> None:
    found = resolve_model(Model(heads=32, layers=8), ".")
    assert found.shape is None
    assert found.missing == ("hidden", "vocab", "ffn_hidden")
    assert (found.dims.heads, found.dims.layers, found.dims.kv_heads) == (32, 8, 32)


def test_unknown_preset_suggests_the_closest() -> None:
    found = resolve_model(Model(preset="llama-3-8b"), ".")
    assert found.shape is None
    assert found.problems[0].field == "preset"
    assert "did you mean 'llama3-8b'?" in found.problems[0].message
    by_hub_id = resolve_model(Model(preset="meta-llama/Meta-Llama-3-70B"), ".")
    assert "did you mean 'llama3-70b'?" in by_hub_id.problems[0].message
    nothing_close = resolve_model(Model(preset="zzz"), ".")
    assert "presets: llama3-8b" in nothing_close.problems[0].message


def test_preset_and_config_together_is_a_problem() -> None:
    found = resolve_model(Model(preset="llama3-8b", hf_config="config.json"), ".")
    assert found.shape is None
    assert found.problems[0].field == "hf_config"


def test_dims_come_from_the_preset_unless_written() -> None:
    dims = resolve_model(Model(preset="qwen3-30b-a3b", heads=16), ".").dims
    assert (dims.layers, dims.heads, dims.kv_heads, dims.experts, dims.top_k) == (48, 16, 4, 128, 8)
    shape = resolve(Model(preset="qwen3-30b-a3b", heads=16), ".")
    assert shape is not None
    assert shape.kv_heads == 4
    odd = resolve_model(Model(preset="qwen3-30b-a3b", heads=6), ".")
    assert odd.dims.kv_heads == 6
    dims = resolve_model(Model(preset="qwen3-30b-a3b"), ".").dims
    assert (dims.heads, dims.kv_heads) == (32, 4)


def test_moe_layer_counting_matches_the_per_layer_rule() -> None:
    rules = [
        Experts(8, 2, 32),
        Experts(8, 2, 32, first_dense=3),
        Experts(8, 2, 32, step=2, offset=1, dense_only=frozenset({3, 5, 8})),
        Experts(8, 2, 32, first_dense=2, step=3),
        Experts(8, 2, 32, pattern=(False, True, True, False, True)),
    ]
    for rule in rules:
        for start in range(12):
            for stop in range(start, 13):
                assert rule.count(start, stop) == sum(rule.is_moe(i) for i in range(start, stop))


def test_mtp_modules_are_counted_when_the_job_builds_them() -> None:
    base = presets.shape("deepseek-v3")
    with_mtp = resolve(Model(preset="deepseek-v3", mtp_layers=1), ".")
    assert with_mtp is not None
    plain, extra = count(base), count(with_mtp)
    moe = plain.moe
    assert moe is not None
    h = 7168
    assert extra.total - plain.total == moe.total + 2 * h * h + 3 * h
    assert extra.active - plain.active == moe.total - moe.experts + 8 * plain.one_expert + 2 * h * h + 3 * h


def test_huge_layer_counts_are_counted_without_walking_them() -> None:
    shape = resolve(Model(preset="deepseek-v3", layers=10**12), ".")
    assert shape is not None
    assert shape.moe_layer_count == 10**12 - 3
