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
