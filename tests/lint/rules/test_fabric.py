"""JC4 rules: each fires at its line and column, and a near miss does not."""

from __future__ import annotations

from pathlib import Path

import pytest

from jobc.core.diagnostics import Severity
from jobc.lint.rules.fabric.jc402_gloo_interface_mismatch import nccl_matches
from tests.support.lint import codes, lint_text, only, where


def spec(extra: str, *, nodes: int = 2, gpu: str = "h100-80gb") -> str:
    """A valid spec of five lines; ``extra`` starts on line 6."""
    return (
        "version: 1\n"
        "name: t\n"
        f"resources: {{nodes: {nodes}, gpus_per_node: 8, gpu: {gpu}}}\n"
        "launch: {program: train.py}\n"
        'slurm: {time: "01:00:00"}\n'
        f"{extra}"
    )


# JC401 cuda-device-max-connections


def test_jc401_is_an_error_when_megatron_would_assert(tmp_path: Path) -> None:
    # tp 4 with sharding none and a plain program name: a Megatron layout, which asserts
    result = lint_text(spec('parallelism: {tp: 4}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: "8"}\n'), tmp_path)
    assert where(result, "JC401") == [(7, 36)]
    finding = only(result, "JC401")
    assert finding.severity == Severity.ERROR
    assert "tp=4 on h100-80gb (hopper)" in finding.message
    assert "Megatron (inferred: parallelism tp 4" in finding.message
    assert "assertion error" in finding.message
    assert "sets 8" in finding.message
    assert "jobc exports 1" in finding.message


def test_jc401_is_an_error_for_megatron_context_parallelism(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            'parallelism: {cp: 2}\nworkload: {framework: megatron}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: "4"}\n'
        ),
        tmp_path,
    )
    finding = only(result, "JC401")
    assert finding.severity == Severity.ERROR
    assert "Megatron (workload.framework)" in finding.message


def test_jc401_is_a_warning_for_pytorch_code(tmp_path: Path) -> None:
    # PyTorch tensor parallelism loses the overlap but does not check the variable
    result = lint_text(
        spec(
            'parallelism: {tp: 4}\nworkload: {framework: pytorch}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: "8"}\n'
        ),
        tmp_path,
    )
    finding = only(result, "JC401")
    assert finding.severity == Severity.WARNING
    assert "silently lost" in finding.message
    assert "assert" not in finding.message


def test_jc401_is_a_warning_for_megatron_on_an_unknown_gpu(tmp_path: Path) -> None:
    text = (
        "version: 1\nname: t\nresources: {nodes: 2, gpus_per_node: 8}\n"
        'launch: {program: pretrain_gpt.py}\nslurm: {time: "01:00:00"}\n'
        'parallelism: {tp: 2}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: "8"}\n'
    )
    finding = only(lint_text(text, tmp_path), "JC401")
    assert finding.severity == Severity.WARNING
    assert "before Blackwell" in finding.message
    assert "resources.gpu" in finding.message


def test_jc401_near_miss_override_agrees(tmp_path: Path) -> None:
    result = lint_text(spec('parallelism: {tp: 4}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: "1"}\n'), tmp_path)
    assert "JC401" not in codes(result)


def test_jc401_near_miss_no_tensor_parallelism(tmp_path: Path) -> None:
    result = lint_text(spec('env: {CUDA_DEVICE_MAX_CONNECTIONS: "8"}\n'), tmp_path)
    assert "JC401" not in codes(result)


def test_jc401_fires_on_one_queue_with_fsdp2(tmp_path: Path) -> None:
    result = lint_text(
        spec("parallelism:\n  sharding: fsdp2\nfabric:\n  env:\n    CUDA_DEVICE_MAX_CONNECTIONS: 1\n"),
        tmp_path,
    )
    assert where(result, "JC401") == [(10, 34)]
    assert "sharding fsdp2" in only(result, "JC401").message


def test_jc401_near_miss_fsdp2_with_eight(tmp_path: Path) -> None:
    result = lint_text(
        spec("parallelism: {sharding: fsdp2, tp: 2}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: 8}\n"), tmp_path
    )
    assert "JC401" not in codes(result)


def test_jc401_is_info_on_blackwell(tmp_path: Path) -> None:
    result = lint_text(
        spec('parallelism: {tp: 2}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: "1"}\n', gpu="b200-180gb"), tmp_path
    )
    finding = only(result, "JC401")
    assert (finding.span.line, finding.span.col) == (7, 36)
    assert finding.severity == Severity.INFO
    assert "Blackwell" in finding.message


def test_jc401_wants_32_for_moe_overlap(tmp_path: Path) -> None:
    result = lint_text(
        spec('workload: {overlap_moe_ep_comm: true}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: "1"}\n'), tmp_path
    )
    assert where(result, "JC401") == [(7, 36)]
    assert "32" in only(result, "JC401").message


def test_jc401_not_a_number(tmp_path: Path) -> None:
    result = lint_text(spec("parallelism: {tp: 2}\nenv: {CUDA_DEVICE_MAX_CONNECTIONS: lots}\n"), tmp_path)
    assert "not a number" in only(result, "JC401").message


# JC402 gloo-interface-mismatch


def test_jc402_fires_when_gloo_differs_from_the_named_interface(tmp_path: Path) -> None:
    result = lint_text(
        spec("fabric:\n  interface: ib0\n  env:\n    GLOO_SOCKET_IFNAME: eth0\n"),
        tmp_path,
    )
    assert where(result, "JC402") == [(9, 25)]
    assert "'eth0'" in only(result, "JC402").message
    assert "'ib0'" in only(result, "JC402").message


def test_jc402_near_miss_gloo_within_the_nccl_prefix(tmp_path: Path) -> None:
    result = lint_text(
        spec("fabric:\n  interface: null\n  env: {NCCL_SOCKET_IFNAME: ib, GLOO_SOCKET_IFNAME: ib0}\n"),
        tmp_path,
    )
    assert "JC402" not in codes(result)


def test_jc402_fires_on_nccl_override_that_leaves_gloo_on_fabric_interface(tmp_path: Path) -> None:
    result = lint_text(spec("fabric:\n  interface: ib0\n  env: {NCCL_SOCKET_IFNAME: ib1}\n"), tmp_path)
    assert where(result, "JC402") == [(8, 29)]


def test_jc402_fires_on_fixed_gloo_with_auto(tmp_path: Path) -> None:
    result = lint_text(spec("env: {GLOO_SOCKET_IFNAME: ib0}\n"), tmp_path)
    assert where(result, "JC402") == [(6, 27)]
    assert "auto" in only(result, "JC402").message


def test_jc402_fires_on_nccl_without_gloo_for_async_checkpoints(tmp_path: Path) -> None:
    result = lint_text(
        spec("env: {NCCL_SOCKET_IFNAME: ib0}\nresilience: {checkpoint: {async: true}}\n"), tmp_path
    )
    assert where(result, "JC402") == [(6, 27)]
    assert "asynchronous checkpointing" in only(result, "JC402").message


def test_jc402_near_miss_nccl_without_gloo_and_sync_checkpoints(tmp_path: Path) -> None:
    result = lint_text(spec("env: {NCCL_SOCKET_IFNAME: ib0}\n"), tmp_path)
    assert "JC402" not in codes(result)


@pytest.mark.parametrize(
    ("nccl", "name", "expected"),
    [
        ("ib", "ib0", True),
        ("=ib0", "ib0", True),
        ("=ib0", "ib01", False),
        ("^docker,lo", "ib0", True),
        ("^docker,lo", "docker0", False),
        ("^=eth0", "eth0", False),
        ("eth,ib", "ib3", True),
        ("mlx", "ib0", False),
    ],
)
def test_jc402_reads_nccl_interface_lists_as_nccl_does(nccl: str, name: str, expected: bool) -> None:
    assert nccl_matches(nccl, name) is expected


# JC403 site-specific-gid-index


def test_jc403_fires_on_gid_index_in_the_spec(tmp_path: Path) -> None:
    result = lint_text(spec("fabric:\n  ib_gid_index: 3\n"), tmp_path)
    assert where(result, "JC403") == [(7, 17)]
    assert only(result, "JC403").severity == Severity.INFO


def test_jc403_fires_on_the_nccl_variable_in_env(tmp_path: Path) -> None:
    result = lint_text(spec("env: {NCCL_IB_GID_INDEX: 3}\n"), tmp_path)
    assert where(result, "JC403") == [(6, 26)]


def test_jc403_near_miss_gid_index_in_the_profile(tmp_path: Path) -> None:
    result = lint_text(
        "extends: roce.yaml\n" + spec(""),
        tmp_path,
        files={"roce.yaml": "profile: roce\nfabric: {ib_gid_index: 3}\n"},
    )
    assert "JC403" not in codes(result)
    assert result.context is not None
    assert result.context.spec.fabric.ib_gid_index == 3


# JC404 nccl-debug-info


def test_jc404_fires_on_info_outside_debug(tmp_path: Path) -> None:
    result = lint_text(spec("fabric: {debug: INFO}\n"), tmp_path)
    assert where(result, "JC404") == [(6, 17)]
    assert "16 ranks" in only(result, "JC404").message


def test_jc404_fires_on_the_variable_in_env(tmp_path: Path) -> None:
    result = lint_text(spec("env:\n  NCCL_DEBUG: info\n"), tmp_path)
    assert where(result, "JC404") == [(7, 15)]


def test_jc404_near_miss_debug_mode(tmp_path: Path) -> None:
    result = lint_text(spec("fabric: {debug: INFO}\ndebug: true\n"), tmp_path)
    assert "JC404" not in codes(result)


def test_jc404_near_miss_warn(tmp_path: Path) -> None:
    result = lint_text(spec("fabric: {debug: WARN}\n"), tmp_path)
    assert "JC404" not in codes(result)


# JC405 nccl-timeout-short


def test_jc405_fires_on_a_short_timeout_for_several_nodes(tmp_path: Path) -> None:
    result = lint_text(spec("fabric:\n  nccl_timeout_s: 300\n"), tmp_path)
    assert where(result, "JC405") == [(7, 19)]
    assert "at least 600 s" in only(result, "JC405").message


def test_jc405_near_miss_same_timeout_on_one_node(tmp_path: Path) -> None:
    result = lint_text(spec("fabric:\n  nccl_timeout_s: 300\n", nodes=1), tmp_path)
    assert "JC405" not in codes(result)


def test_jc405_scales_with_the_job(tmp_path: Path) -> None:
    result = lint_text(spec("fabric: {nccl_timeout_s: 900}\n", nodes=64), tmp_path)
    assert "at least 1200 s" in only(result, "JC405").message


def test_jc405_covers_a_synchronous_save(tmp_path: Path) -> None:
    text = spec("resilience: {checkpoint: {size_gb: 4000, write_gbps: 2}}\n")
    assert "at least 3000 s" in only(lint_text(text, tmp_path), "JC405").message
    text = spec("resilience: {checkpoint: {size_gb: 4000, write_gbps: 2, async: true}}\n")
    assert "JC405" not in codes(lint_text(text, tmp_path))


# JC406 ib-disabled-multinode


def test_jc406_fires_on_ib_off_across_nodes(tmp_path: Path) -> None:
    result = lint_text(spec("fabric: {ib: false}\n"), tmp_path)
    assert where(result, "JC406") == [(6, 14)]
    assert "2 nodes" in only(result, "JC406").message


def test_jc406_fires_on_socket_transport(tmp_path: Path) -> None:
    result = lint_text(spec("env: {NCCL_NET: Socket}\n"), tmp_path)
    assert where(result, "JC406") == [(6, 17)]


def test_jc406_fires_on_the_variable_even_with_ib_true(tmp_path: Path) -> None:
    result = lint_text(spec('fabric: {ib: true}\nenv: {NCCL_IB_DISABLE: "1"}\n'), tmp_path)
    assert where(result, "JC406") == [(7, 24)]


def test_jc406_near_miss_single_node(tmp_path: Path) -> None:
    result = lint_text(spec("fabric: {ib: false}\n", nodes=1), tmp_path)
    assert "JC406" not in codes(result)


# JC407 unknown-nccl-variable


def test_jc407_fires_on_a_typo_with_a_suggestion(tmp_path: Path) -> None:
    result = lint_text(spec("fabric:\n  env:\n    NCCL_SOCKET_IFACE: ib0\n"), tmp_path)
    assert where(result, "JC407") == [(8, 5)]
    assert "did you mean NCCL_SOCKET_IFNAME?" in only(result, "JC407").message


def test_jc407_fires_on_a_misspelt_prefix_in_env(tmp_path: Path) -> None:
    result = lint_text(spec("env: {NCLL_DEBUG: WARN}\n"), tmp_path)
    assert where(result, "JC407") == [(6, 7)]
    assert "NCCL_DEBUG" in only(result, "JC407").message


def test_jc407_names_the_pytorch_rename(tmp_path: Path) -> None:
    result = lint_text(spec('env: {NCCL_ASYNC_ERROR_HANDLING: "1"}\n'), tmp_path)
    assert "TORCH_NCCL_ASYNC_ERROR_HANDLING" in only(result, "JC407").message


def test_jc407_knows_the_flight_recorder_names(tmp_path: Path) -> None:
    # the compiled script sets these (monitoring); a typo of one is still caught
    result = lint_text(spec('env: {TORCH_FR_BUFFER_SIZE: "2000", TORCH_FR_DUMP_ON_TIMEOUT: "1"}\n'), tmp_path)
    assert "JC407" not in codes(result)
    result = lint_text(spec('env: {TORCH_FR_BUFER_SIZE: "2000"}\n'), tmp_path)
    assert "did you mean TORCH_FR_BUFFER_SIZE?" in only(result, "JC407").message


def test_jc407_near_miss_known_names(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "fabric:\n  env:\n    NCCL_IB_HCA: mlx5\n    TORCH_NCCL_AVOID_RECORD_STREAMS: 1\n"
            "    NCCL_GPUDIRECTTCPX_SOCKET_IFNAME: eth1\n"
            # read by NVIDIA's IB/SHARP net plugin, not by NCCL itself
            "    NCCL_IBEXT_DISABLE: 1\n    NCCL_SHARP_DISABLE: 1\n"
            "env: {PYTORCH_CUDA_ALLOC_CONF: 'expandable_segments:True', NCCL_P2P_LEVEL: NVL}\n"
        ),
        tmp_path,
    )
    assert "JC407" not in codes(result)
