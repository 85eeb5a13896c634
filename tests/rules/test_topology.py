"""JC1 rules: each fires at its line and column, and a near miss does not."""

from __future__ import annotations

from pathlib import Path

from tests.helpers import codes, lint_text, only, where


def test_jc101_fires_on_tasks_per_node_below_gpus(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources:
          nodes: 1
          gpus_per_node: 8
          tasks_per_node: 1
        launch: {mode: srun, program: train.py}
        """,
        tmp_path,
    )
    assert where(result, "JC101") == [(6, 19)]
    assert "tasks_per_node is 1 and gpus_per_node is 8" in only(result, "JC101").message


def test_jc101_near_miss_tasks_equal_gpus(tmp_path: Path) -> None:
    result = lint_text(
        """\
        version: 1
        name: t
        resources: {nodes: 1, gpus_per_node: 8, tasks_per_node: 8}
        launch: {mode: srun, program: train.py}
        """,
        tmp_path,
    )
    assert "JC101" not in codes(result)
