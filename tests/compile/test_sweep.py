"""A sweep compiles to a job array whose task i runs the i-th combination of the values."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from jobc.compile.sweep import combinations
from tests.compile.support import compile_data, lint
from tests.support.lint import codes

SPEC: dict[str, Any] = {
    "version": 1,
    "name": "sw",
    "slurm": {"partition": "debug", "time": "00:05:00"},
    "resources": {"nodes": 1, "gpus_per_node": 1},
    "launch": {
        "program": "train.py",
        "args": ["--lr", "{sweep.lr}", "--tag=lr{sweep.lr}-s{sweep.seed}", "it's & $HOME {name}"],
    },
    "storage": {"logs": "/tmp/logs"},
    "sweep": {"values": {"lr": [0.0001, "3e-4 & $(x)"], "seed": [1, 2, 3]}, "max_parallel": 2},
}


def _program(script: str, task: int) -> list[str]:
    """The program's words as the batch shell of array task `task` holds them."""
    lines = script.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("jobc_program=("))
    end = next(i for i in range(start, len(lines)) if lines[i] == "done")
    body = "\n".join(lines[start : end + 1]) + '\nprintf "%s\\0" "${jobc_program[@]}"\n'
    run = subprocess.run(
        ["bash", "-c", body], env={"SLURM_ARRAY_TASK_ID": str(task)}, capture_output=True, check=True
    )
    banner, words = run.stdout.decode().split("\n", 1)
    assert banner.startswith(f"jobc: sweep task {task}: lr=")
    return words.split("\0")[:-1]


def test_sweep_is_an_array_and_each_task_gets_its_combination() -> None:
    script = compile_data(SPEC)
    assert "#SBATCH --array=0-5%2" in script
    assert "#SBATCH --output=/tmp/logs/%x-%A_%a.out" in script
    combos = combinations(lint_spec().sweep)  # type: ignore[union-attr]
    assert [(c["lr"], c["seed"]) for c in combos] == [
        (0.0001, 1), (0.0001, 2), (0.0001, 3), ("3e-4 & $(x)", 1), ("3e-4 & $(x)", 2), ("3e-4 & $(x)", 3)
    ]  # fmt: skip
    for task, combo in enumerate(combos):
        lr = str(combo["lr"])
        assert _program(script, task) == [
            "train.py", "--lr", lr, f"--tag=lr{lr}-s{combo['seed']}", "it's & $HOME sw"
        ]  # fmt: skip


def lint_spec() -> Any:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "spec.yaml"
        path.write_text(json.dumps(SPEC), encoding="utf-8")
        return lint(path).spec


def test_sweep_rules(tmp_path: Path) -> None:
    bad = {**SPEC, "slurm": {**SPEC["slurm"], "array": "0-3"}, "env": {"LR": "{sweep.lr}"}}
    bad["sweep"] = {"values": {"lr": [], "seed": [1]}}
    path = tmp_path / "spec.yaml"
    path.write_text(json.dumps(bad), encoding="utf-8")
    result = lint(path)
    messages = [f.message for f in result.findings if f.code == "JC110"]
    assert any("slurm.array" in m and "sweep" in m for m in messages), messages
    assert any("sweep.values.lr" in m and "no values" in m for m in messages), messages
    assert any("env.LR" in m and "{sweep.lr}" in m for m in messages), messages
    path.write_text(json.dumps({**SPEC, "launch": {"program": "t.py", "args": ["{sweep.nope}"]}}))
    assert "JC008" in codes(lint(path))
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    assert not lint(path).errors


def test_plan_lists_the_combinations(tmp_path: Path) -> None:
    import sys

    path = tmp_path / "spec.yaml"
    path.write_text(json.dumps(SPEC), encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "jobc", "plan", str(path), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
    )
    data = json.loads(run.stdout)
    assert data["sweep"]["array"] == "0-5%2"
    assert data["sweep"]["tasks"][4] == {"lr": "3e-4 & $(x)", "seed": 2}
    text = subprocess.run(
        [sys.executable, "-m", "jobc", "plan", str(path)], capture_output=True, text=True, check=False
    )
    assert "  task 4    lr=3e-4 & $(x) seed=2" in text.stdout
