"""Lint's work grows in proportion to its input: doubling a hostile file does not quadruple it.

Each case lints an input of size n and compares two measures: the number of function calls
(Python and C, counted by a profile hook, so deterministic) on an input of size 2n, where linear
work doubles and quadratic work quadruples; and the CPU time (this process's, the best of three
runs, never wall-clock seconds) on an input of size 10n, where linear work grows tenfold and
quadratic a hundredfold, so the bound sits far from both and a busy machine does not reach it.
"""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from jobc.lint.config import Config
from jobc.lint.pipeline import lint_file

RATIO = 3.0  # for counted calls at twice the input, which are exact
CPU_RATIO = 30.0  # for CPU time at ten times the input: linear about 10, quadratic about 100
BASE: dict[str, Any] = {
    "version": 1,
    "name": "t",
    "resources": {"nodes": 1, "gpus_per_node": 8},
    "launch": {"program": "t.py"},
}


def flow_spec_with_a_suppression(n: int) -> str:
    data = dict(BASE, env={f"K{i}": f"v{i}" for i in range(n)}, bogus=1)
    return json.dumps(data) + "  # jobc: ignore[JC003]\n"


def unknown_keys(n: int) -> str:
    return "version: 1\n" + "".join(f"k{i}: 1\n" for i in range(n))


def suppressed_unknown_keys(n: int) -> str:
    return "version: 1\n" + "".join(f"k{i}: 1  # jobc: ignore[JC003]\n" for i in range(n))


def documents(n: int) -> str:
    return "a: 1\n" + "---\n" * n


def long_flow_line(n: int) -> str:
    # one line holding every finding: placing each must not rescan the line
    return json.dumps({"version": 1, **{f"k{i}": i for i in range(n)}}) + "\n"


CASES: dict[str, tuple[Callable[[int], str], int]] = {
    "flow-spec-suppressed": (flow_spec_with_a_suppression, 800),
    "unknown-keys": (unknown_keys, 1_500),
    "suppressed-unknown-keys": (suppressed_unknown_keys, 1_500),
    "documents": (documents, 20_000),
    "long-flow-line": (long_flow_line, 1_500),
}


def _lint(path: Path) -> int:
    return len(lint_file(path, config=Config()).findings)


def calls(path: Path) -> int:
    count = 0

    def hook(frame: Any, event: str, arg: Any) -> None:
        nonlocal count
        if event in ("call", "c_call"):
            count += 1

    sys.setprofile(hook)
    try:
        _lint(path)
    finally:
        sys.setprofile(None)
    return count


def cpu(path: Path) -> float:
    best = float("inf")
    gc.collect()
    gc.disable()  # a collection that happens to fall in one run would skew the ratio
    try:
        for _ in range(3):
            start = time.process_time()
            _lint(path)
            best = min(best, time.process_time() - start)
    finally:
        gc.enable()
    return best


@pytest.mark.parametrize("case", list(CASES))
def test_doubling_the_input_does_not_quadruple_the_work(tmp_path: Path, case: str) -> None:
    make, n = CASES[case]
    small, large, larger = tmp_path / "small.yaml", tmp_path / "large.yaml", tmp_path / "larger.yaml"
    small.write_text(make(n))
    large.write_text(make(2 * n))
    larger.write_text(make(10 * n))
    _lint(small)  # imports and caches: paid once, outside the measurement
    assert calls(large) / calls(small) < RATIO
    ratio = cpu(larger) / cpu(small)
    assert ratio < CPU_RATIO, f"ten times the input took {ratio:.0f} times the CPU time"


def test_a_second_document_stops_the_reading(tmp_path: Path) -> None:
    small, large = tmp_path / "small.yaml", tmp_path / "large.yaml"
    small.write_text(documents(1_000))
    large.write_text(documents(50_000))
    _lint(small)
    assert calls(large) < 1.2 * calls(small)


def test_a_files_lines_are_split_once(tmp_path: Path) -> None:
    # every finding is placed through the lines; splitting the text for each one was quadratic
    path = tmp_path / "spec.yaml"
    path.write_text(unknown_keys(10))
    result = lint_file(path, config=Config())
    source = result.sources[0]
    assert source.lines is source.lines
