"""Triage's normalize stage: a paste's and a terminal's debris removed, wrapping widths found,
flattened tables split."""

from __future__ import annotations

import pytest

from jobc.jobs.normalize import clean, split_flat_table, wrap_width


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        ("\x1b[31mRuntimeError\x1b[0m: boom", "RuntimeError: boom"),
        ("[36m(RayWorker pid=1)[0m ValueError: x", "(RayWorker pid=1) ValueError: x"),
        ("> Traceback (most recent call last):", "Traceback (most recent call last):"),
        ("> > srun: error: n1: task 0: Killed", "srun: error: n1: task 0: Killed"),
        ("```Traceback (most recent call last):", "Traceback (most recent call last):"),
        (
            "`srun: error: n1: task 3: Exited with exit code 1",
            "srun: error: n1: task 3: Exited with exit code 1",
        ),
        ("ValueError: bad```", "ValueError: bad"),
        ("```python", ""),
        ("~~~", ""),
        ("`salloc: error: Node failure on worker-1`", "salloc: error: Node failure on worker-1"),
    ],
)
def test_debris_is_removed(raw: str, text: str) -> None:
    assert clean(raw) == text


@pytest.mark.parametrize(
    "raw",
    [
        "step [5m] done",  # a bracket that looks like a colour code, with no reset on the line
        "x >= 3 and y > 2",
        "a = `b` + c",
        "    return x",
    ],
)
def test_text_that_only_looks_like_debris_stays(raw: str) -> None:
    assert clean(raw) == raw


def test_a_fixed_wrapping_width_is_found_only_when_many_lines_end_there() -> None:
    assert wrap_width([120] * 5 + [40, 80, 13]) == 120
    # lines longer than the candidate width: no wrapping at that width
    assert wrap_width([120] * 5 + [130]) is None
    assert wrap_width([80, 95, 61, 77, 120]) is None
    assert wrap_width([]) is None


def test_a_table_flattened_onto_its_root_cause_line() -> None:
    rest = (
        " [0]: time : 2024-06-01_10:00:00 host : gpu-node03 rank : 5 (local_rank: 1) "
        "exitcode : -11 (pid: 4242) error_file: <N/A> "
        "traceback : Signal 11 (SIGSEGV) received by PID 4242 ====="
    )
    fields = split_flat_table(rest)
    assert fields["host"] == "gpu-node03"
    assert fields["rank"] == "5 (local_rank: 1)"
    assert fields["exitcode"] == "-11 (pid: 4242)"
    assert fields["traceback"].startswith("Signal 11 (SIGSEGV)")
    assert split_flat_table(" see the table below") == {}
