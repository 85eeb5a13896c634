"""Hostile logs: absurd numbers, odd digits, huge ranges, control characters, secrets, file names
that are not UTF-8, and sizes that must stay linear. Each is a finding or a clean answer, never a
traceback, a hang or an allocation that grows with a number in the log."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from jobc.jobs.labels import parse
from jobc.jobs.triage import triage_files

BIG = "9" * 5000


def _triage(tmp_path: Path, text: str | bytes) -> object:
    path = tmp_path / "job.out"
    path.write_bytes(text.encode("utf-8") if isinstance(text, str) else text)
    return triage_files([path])


@pytest.mark.parametrize(
    "line",
    [
        f"[rank{BIG}]: ValueError: x",
        f"{BIG}: ValueError: x",
        f"srun: error: node1: task 0: Exited with exit code {BIG}",
        f"srun: error: node1: task {BIG}: Killed",
        f"jobc: master n0:{BIG}, restart {BIG}",
        f"jobc: the step ended with exit code {BIG}",
        f"jobc: world {BIG} = tp 1 x pp 1 x cp 1 x dp 1 (ep 1), srun launch",
        f"E0101 api.py:1] failed (exitcode: {BIG}) local_rank: {BIG} (pid: {BIG}) of binary: python",
        f"exits with return code = -{BIG}",
        f"[rank: {BIG}] Received SIGTERM: 15",
        "[rank²]: ValueError: x",
        "²: ValueError: x",
        "srun: error: node1: task ²: Exited with exit code ²",
        "jobc: the step ended with exit code ²",
    ],
)
def test_huge_and_unicode_numbers_are_text(tmp_path: Path, line: str) -> None:
    d = _triage(tmp_path, line + "\n")
    for f in d.findings:  # type: ignore[attr-defined]
        for value in (f.rank, f.task, f.exit_code, f.local_rank):
            assert value is None or abs(value) < 10**19


def test_a_huge_number_in_the_root_cause_table(tmp_path: Path) -> None:
    table = (
        "Root Cause (first observed failure):\n[0]:\n  time      : 2024-01-01_00:00:00\n  host      : n1\n"
        f"  rank      : {BIG} (local_rank: {BIG})\n  exitcode  : {BIG} (pid: 1)\n  error_file: <N/A>\n"
        "  traceback : To enable traceback see: https://pytorch.org/docs/stable/elastic/errors.html\n"
        "============================================================\n"
    )
    d = _triage(tmp_path, table)
    assert all(f.rank is None for f in d.findings)  # type: ignore[attr-defined]


def test_labels_with_huge_numbers() -> None:
    assert parse(f"{BIG}: x").task is None
    assert parse(f"[rank{BIG}]: x").rank is None
    assert parse("[rank²]: x").rank is None


def test_a_task_range_is_never_expanded(tmp_path: Path) -> None:
    import tracemalloc

    tracemalloc.start()
    d = _triage(tmp_path, "srun: error: node1: tasks 0-1000000000: Killed\n")
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 50 * 1024**2
    first = d.findings[0]  # type: ignore[attr-defined]
    assert (first.task, first.node, first.signal) == (0, "node1", "SIGKILL")
    assert "1000000000" in first.summary or "more" in first.summary


def _ratio(tmp_path: Path, big: bytes, small: bytes) -> float:
    """CPU time of triage on `big` over ten runs on `small` (a tenth as long): about 1 when reading
    is linear, about 10 when quadratic; the best of a few rounds of this process's CPU time."""
    one, ten = tmp_path / "big.out", tmp_path / "small.out"
    one.write_bytes(big)
    ten.write_bytes(small)

    def best(work: object) -> float:
        least = float("inf")
        for _ in range(3):
            start = time.process_time()
            work()  # type: ignore[operator]
            least = min(least, time.process_time() - start)
        return least

    return best(lambda: triage_files([one])) / max(
        best(lambda: [triage_files([ten]) for _ in range(10)]), 1e-4
    )


@pytest.mark.parametrize(
    "unit",
    ["NCCL", "gloo ", "rendezvous", "failed to connect ", "Error", "NCCL WARN ", "Traceback ", "\r", "a\r"],
)
def test_a_pathological_megabyte_line_is_read_in_linear_time(tmp_path: Path, unit: str) -> None:
    # relative, not wall-clock: a line ten times as long may take about ten times as long
    head = b"Traceback (most recent call last):\n" if unit == "Error" else b""
    big = head + unit.encode() * (1_000_000 // len(unit)) + b"!\n"
    small = head + unit.encode() * (100_000 // len(unit)) + b"!\n"
    ratio = _ratio(tmp_path, big, small)
    assert ratio < 4, f"{ratio:.1f}x the time of ten logs a tenth as long"


def test_many_pathological_lines_are_linear(tmp_path: Path) -> None:
    # 400 lines against ten times 40: a cost that grows with the lines already read would make
    # the ratio about 10; 3 MB is enough to show it, and less than that keeps the suite short
    line = b"NCCL gloo rendezvous failed to connect Error " * 180 + b"\n"  # about 8 kB
    assert _ratio(tmp_path, line * 400, line * 40) < 4


def test_five_megabytes_of_empty_lines_cost_a_newline_count(tmp_path: Path) -> None:
    # counted in steps, not seconds: not one of the lines reaches the line reader
    from jobc.jobs.triage import Scanner, scan

    scanner = Scanner()
    path = tmp_path / "empty.out"
    path.write_bytes(b"\n" * 5_000_000)
    with path.open("rb") as stream:
        scan([(str(path), stream)], scanner)
    assert scanner.lines == 5_000_000
    assert scanner._piece == 0
    assert triage_files([path]).findings == []


def test_exception_line_inside_an_open_traceback(tmp_path: Path) -> None:
    text = "Traceback (most recent call last):\n" + "Error" * 200_000 + "!\nValueError: real\n"
    d = _triage(tmp_path, text)
    assert d.findings[0].summary.endswith("ValueError: real")  # type: ignore[attr-defined]


def test_a_traceback_after_a_progress_bar_carriage_return(tmp_path: Path) -> None:
    bar = "".join(f"\r 45%|####5     | {i}/10000 [00:12<00:15,  5.97it/s]" for i in range(200))
    text = (
        bar + "\rTraceback (most recent call last):\n"
        '  File "/home/u/train.py", line 9, in <module>\n'
        "    main()\n"
        "RuntimeError: CUDA error: an illegal memory access was encountered\n"
    )
    d = _triage(tmp_path, text)
    first = d.findings[0]  # type: ignore[attr-defined]
    assert first.cls == "gpu_error"
    # the statement line first, then the traceback's header, glued to the bar on line 1
    assert [ev.line for ev in first.evidence][:1] == [4]
    assert 1 in [ev.line for ev in first.evidence]


def _cli(*argv: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "jobc", "triage", *argv], capture_output=True, check=False, env=env
    )


def test_control_characters_are_printed_as_escapes(tmp_path: Path) -> None:
    path = tmp_path / "job\x1b]0;pwned\x07.out"
    path.write_bytes(b"\x1b[2J\x1b]0;title\x07ValueError: bad \x07 value\x1b[31m\n")
    run = _cli(str(path))
    assert run.returncode == 0, run.stderr
    assert b"\x1b" not in run.stdout
    assert b"\x07" not in run.stdout
    assert b"ValueError: bad" in run.stdout
    data = json.loads(_cli(str(path), "--format", "json").stdout)
    assert data["findings"][0]["class"] == "exception"


def test_secrets_in_evidence_are_masked(tmp_path: Path) -> None:
    token = "hf_" + "Ab1" * 12
    text = (
        f"+ export HF_TOKEN={token}\n"
        "Traceback (most recent call last):\n"
        '  File "/t/a.py", line 3, in main\n'
        f"ValueError: cannot clone https://me:s3cretPassw0rd@git.example.com/x with {token}\n"
    )
    path = tmp_path / "job.out"
    path.write_text(text, encoding="utf-8")
    for fmt in ("text", "json"):
        out = _cli(str(path), "--format", fmt).stdout.decode()
        assert token not in out
        assert "s3cretPassw0rd" not in out
        assert "ValueError" in out


def test_a_file_name_that_is_not_utf8_on_a_strict_stdout(tmp_path: Path) -> None:
    name = os.fsencode(str(tmp_path)) + b"/job-\xff\xfe.out"
    with open(name, "wb") as out:
        out.write(b"ValueError: x\n")
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict"}
    for fmt in ("text", "json"):
        run = _cli(os.fsdecode(name), "--format", fmt, env=env)
        assert run.returncode == 0, run.stderr
        assert b"Traceback" not in run.stderr
        assert b"ValueError" in run.stdout


def test_logs_rank_filter_reads_huge_and_unicode_labels() -> None:
    from jobc.jobs.logs import keep

    for raw in (f"{BIG}: x\n".encode(), f"[rank{BIG}]: x\n".encode(), "²: x\n".encode(), b"3: x\n"):
        assert keep(raw, 3, torchrun=False, per_node=None) == (raw == b"3: x\n")


def test_a_flattened_traceback_of_a_megabyte_is_linear(tmp_path: Path) -> None:
    head = b"Traceback (most recent call last): "
    big = head + b"ErrorError: " * (1_000_000 // 12) + b"\n"
    small = head + b"ErrorError: " * (100_000 // 12) + b"\n"
    assert _ratio(tmp_path, big, small) < 4
