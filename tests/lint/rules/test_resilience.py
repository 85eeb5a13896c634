"""JC6 rules: each fires at its line and column, and a near miss does not."""

from __future__ import annotations

from pathlib import Path

from jobc.core.diagnostics import Severity
from tests.support.lint import codes, lint_text, only, where


def spec(resilience: str, storage: str = "storage: {shared: [/lustre], checkpoints: /lustre/ckpt}") -> str:
    """A valid spec; line 6 holds storage, line 7 starts the resilience section."""
    return (
        "version: 1\n"
        "name: t\n"
        "resources: {nodes: 2, gpus_per_node: 8}\n"
        "launch: {program: train.py}\n"
        'slurm: {time: "01:00:00"}\n'
        f"{storage}\n"
        f"{resilience}"
    )


# JC601 requeue-without-signal


def test_jc601_fires_on_requeue_without_signal(tmp_path: Path) -> None:
    result = lint_text(spec("resilience:\n  requeue: true\n"), tmp_path)
    assert where(result, "JC601") == [(8, 12)]
    assert only(result, "JC601").severity == Severity.WARNING


def test_jc601_near_miss_with_signal(tmp_path: Path) -> None:
    result = lint_text(spec("resilience: {requeue: true, signal: SIGTERM}\n"), tmp_path)
    assert "JC601" not in codes(result)


# JC602 signal-without-requeue


def test_jc602_fires_on_signal_without_requeue(tmp_path: Path) -> None:
    result = lint_text(spec("resilience: {signal: SIGUSR2}\n"), tmp_path)
    assert where(result, "JC602") == [(7, 22)]
    assert only(result, "JC602").severity == Severity.INFO


def test_jc602_near_miss_with_requeue(tmp_path: Path) -> None:
    result = lint_text(spec("resilience: {signal: SIGUSR2, requeue: true}\n"), tmp_path)
    assert "JC602" not in codes(result)


# JC603 grace-too-short


def test_jc603_fires_when_the_save_is_longer_than_the_grace(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "resilience:\n  signal: SIGTERM\n  requeue: true\n  grace_s: 120\n"
            "  checkpoint: {size_gb: 1000, write_gbps: 5}\n"
        ),
        tmp_path,
    )
    assert where(result, "JC603") == [(10, 12)]
    finding = only(result, "JC603")
    assert finding.severity == Severity.ERROR
    assert "about 200 s" in finding.message
    assert "grace_s: 240" in finding.message


def test_jc603_does_not_subtract_the_early_delivery(tmp_path: Path) -> None:
    # 100 s of saving fits in 180 s: Slurm's up-to-60 s early signal only ever adds time, so the
    # check must not demand 100 + 60 s, nor count on 180 + 60 s
    result = lint_text(
        spec(
            "resilience: {signal: SIGTERM, requeue: true, grace_s: 180,"
            " checkpoint: {size_gb: 500, write_gbps: 5}}\n"
        ),
        tmp_path,
    )
    assert "JC603" not in codes(result)
    result = lint_text(
        spec(
            "resilience: {signal: SIGTERM, requeue: true, grace_s: 180,"
            " checkpoint: {size_gb: 1100, write_gbps: 5}}\n"
        ),
        tmp_path,
    )
    assert only(result, "JC603").severity == Severity.ERROR


def test_jc603_warns_when_no_margin_is_left(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "resilience: {signal: SIGTERM, requeue: true, grace_s: 120,"
            " checkpoint: {size_gb: 500, write_gbps: 5}}\n"
        ),
        tmp_path,
    )
    finding = only(result, "JC603")
    assert finding.severity == Severity.WARNING
    assert (finding.span.line, finding.span.col) == (7, 55)


def test_jc603_near_miss_without_checkpoint_facts(tmp_path: Path) -> None:
    result = lint_text(spec("resilience: {signal: SIGTERM, requeue: true, grace_s: 30}\n"), tmp_path)
    assert "JC603" not in codes(result)


# JC604 sigusr1-with-nccl


def test_jc604_fires_on_sigusr1(tmp_path: Path) -> None:
    result = lint_text(spec("resilience: {signal: SIGUSR1, requeue: true}\n"), tmp_path)
    assert where(result, "JC604") == [(7, 22)]
    assert "SIGUSR2" in only(result, "JC604").message


def test_jc604_near_miss_sigusr2(tmp_path: Path) -> None:
    result = lint_text(spec("resilience: {signal: SIGUSR2, requeue: true}\n"), tmp_path)
    assert "JC604" not in codes(result)


# JC605 requeue-without-checkpoints


def test_jc605_fires_on_requeue_without_checkpoints(tmp_path: Path) -> None:
    result = lint_text(
        spec("resilience: {signal: SIGTERM, requeue: true}\n", storage="storage: {shared: [/lustre]}"),
        tmp_path,
    )
    assert where(result, "JC605") == [(7, 40)]


def test_jc605_near_miss_with_checkpoints(tmp_path: Path) -> None:
    result = lint_text(spec("resilience: {signal: SIGTERM, requeue: true}\n"), tmp_path)
    assert "JC605" not in codes(result)


def test_jc605_gives_way_to_jc608_when_retries_are_asked(tmp_path: Path) -> None:
    result = lint_text(
        spec(
            "resilience: {signal: SIGTERM, requeue: true, retry_on: [node_fail]}\n",
            storage="storage: {shared: [/lustre]}",
        ),
        tmp_path,
    )
    assert "JC605" not in codes(result)
    assert "JC608" in codes(result)


# JC606 retry-on-bug

HEAL = "resilience:\n  requeue: true\n  signal: SIGTERM\n"


def test_jc606_fires_on_each_bug_class(tmp_path: Path) -> None:
    result = lint_text(spec(HEAL + "  retry_on: [node_fail, exception, cuda_oom]\n"), tmp_path)
    assert where(result, "JC606") == [(10, 25), (10, 36)]
    messages = [f.message for f in result.findings if f.code == "JC606"]
    assert "exception is not a node's fault" in messages[0]
    assert "cuda_oom" in messages[1]
    assert all(f.severity == Severity.ERROR for f in result.findings if f.code == "JC606")


def test_jc606_near_miss_node_classes(tmp_path: Path) -> None:
    result = lint_text(
        spec(HEAL + "  retry_on: [preflight, node_fail, gpu_error, nccl_error, hang]\n"), tmp_path
    )
    assert "JC606" not in codes(result)


# JC607 retry-without-requeue


def test_jc607_fires_on_retries_without_requeue(tmp_path: Path) -> None:
    result = lint_text(spec("resilience:\n  retry_on: [node_fail]\n"), tmp_path)
    assert where(result, "JC607") == [(8, 13)]
    assert only(result, "JC607").severity == Severity.ERROR


def test_jc607_near_miss_with_requeue(tmp_path: Path) -> None:
    result = lint_text(spec(HEAL + "  retry_on: [node_fail]\n"), tmp_path)
    assert "JC607" not in codes(result)


# JC608 retry-without-checkpoints


def test_jc608_fires_on_retries_without_checkpoints(tmp_path: Path) -> None:
    result = lint_text(
        spec(HEAL + "  retry_on: [gpu_error]\n", storage="storage: {shared: [/lustre]}"), tmp_path
    )
    assert where(result, "JC608") == [(10, 13)]
    assert only(result, "JC608").severity == Severity.WARNING


def test_jc608_near_miss_with_checkpoints(tmp_path: Path) -> None:
    result = lint_text(spec(HEAL + "  retry_on: [gpu_error]\n"), tmp_path)
    assert "JC608" not in codes(result)


# JC609 retry-without-budget


def test_jc609_fires_on_a_zero_budget_with_retries(tmp_path: Path) -> None:
    result = lint_text(spec(HEAL + "  max_restarts: 0\n  retry_on: [node_fail]\n"), tmp_path)
    assert where(result, "JC609") == [(10, 17)]
    assert only(result, "JC609").severity == Severity.ERROR


def test_jc609_near_miss_zero_budget_without_retries(tmp_path: Path) -> None:
    result = lint_text(spec(HEAL + "  max_restarts: 0\n"), tmp_path)
    assert "JC609" not in codes(result)


# JC610 preflight-command-node-local


def test_jc610_fires_on_a_node_local_command(tmp_path: Path) -> None:
    result = lint_text(spec("resilience:\n  preflight: {command: /tmp/check.sh --quick}\n"), tmp_path)
    assert where(result, "JC610") == [(8, 24)]
    assert "/tmp is node-local" in only(result, "JC610").message


def test_jc610_fires_on_a_relative_command_in_a_node_local_workdir(tmp_path: Path) -> None:
    text = spec("resilience:\n  preflight: {command: ./check.sh}\n").replace(
        "launch: {program: train.py}", "launch: {program: train.py, workdir: /dev/shm/me}"
    )
    assert "/dev/shm" in only(lint_text(text, tmp_path), "JC610").message


def test_jc610_near_miss_on_shared_storage(tmp_path: Path) -> None:
    result = lint_text(spec("resilience:\n  preflight: {command: bash /lustre/tools/check.sh}\n"), tmp_path)
    assert "JC610" not in codes(result)
    # /tmp declared shared (the test cluster's one host) is shared
    shared = spec(
        "resilience:\n  preflight: {command: /tmp/check.sh}\n",
        storage="storage: {shared: [/tmp], checkpoints: /tmp/ckpt}",
    )
    assert "JC610" not in codes(lint_text(shared, tmp_path))


def test_jc610_unbalanced_quotes_are_not_judged(tmp_path: Path) -> None:
    result = lint_text(spec('resilience:\n  preflight: {command: "/tmp/x \'oops"}\n'), tmp_path)
    assert "JC610" not in codes(result)


# JC611 exclusion-exhausts-partition


def partition(nodes: int, extra: str = "") -> str:
    return spec(
        HEAL + "  retry_on: [node_fail]\n" + extra,
        storage="storage: {shared: [/lustre], checkpoints: /lustre/ckpt}\n"
        f"cluster: {{partitions: {{batch: {{nodes: {nodes}}}}}}}\n"
        "slurm: {partition: batch}",
    ).replace('slurm: {time: "01:00:00"}\n', "")


def test_jc611_fires_when_no_node_is_spare(tmp_path: Path) -> None:
    result = lint_text(partition(2), tmp_path)
    finding = only(result, "JC611")
    assert finding.severity == Severity.ERROR
    assert "can never start again" in finding.message
    # the default is not written: the finding points at the section
    assert where(result, "JC611") == [(8, 1)]


def test_jc611_warns_when_fewer_spares_than_restarts(tmp_path: Path) -> None:
    result = lint_text(partition(4, "  exclude_failed_nodes: true\n"), tmp_path)
    finding = only(result, "JC611")
    assert finding.severity == Severity.WARNING
    assert where(result, "JC611") == [(12, 25)]
    assert "after 2 excluded nodes" in finding.message


def test_jc611_near_miss(tmp_path: Path) -> None:
    assert "JC611" not in codes(lint_text(partition(8), tmp_path))
    assert "JC611" not in codes(lint_text(partition(2, "  exclude_failed_nodes: false\n"), tmp_path))


# JC612 preflight-outlasts-time-limit


def test_jc612_fires_on_a_timeout_as_long_as_the_job(tmp_path: Path) -> None:
    result = lint_text(spec("resilience:\n  preflight: {command: ./c.sh, timeout_s: 3600}\n"), tmp_path)
    assert where(result, "JC612") == [(8, 43)]


def test_jc612_near_miss(tmp_path: Path) -> None:
    result = lint_text(spec("resilience:\n  preflight: {command: ./c.sh, timeout_s: 3599}\n"), tmp_path)
    assert "JC612" not in codes(result)
