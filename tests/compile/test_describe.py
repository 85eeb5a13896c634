"""Defaults in the open: the compiled script's header and `jobc plan` state the effective launch
in one line and every default the spec left that reaches the script; an unwritten section that
still adds lines says why."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from jobc.cli import main
from tests.compile.support import compile_data


def _spec(**launch: Any) -> dict[str, Any]:
    return {
        "version": 1,
        "name": "d",
        "slurm": {"partition": "gpu", "time": "01:00:00"},
        "resources": {"nodes": 2, "gpus_per_node": 8},
        "storage": {"shared": ["/lustre"]},
        "launch": {"program": "train.py", "workdir": "/lustre/p", **launch},
    }


def _header(script: str) -> list[str]:
    lines = script.splitlines()
    return lines[: next(i for i, line in enumerate(lines) if line.startswith("#SBATCH"))]


def test_the_header_states_the_launch_in_one_line() -> None:
    head = _header(compile_data(_spec(mode="torchrun", python="uv", args=["--lr", "3e-4"])))
    assert (
        "# launch: 2 nodes × 8 GPUs under torchrun, an agent per node with 8 workers each: "
        "uv sync once, then uv run --no-sync python train.py --lr 3e-4"
    ) in head
    srun = _header(compile_data(_spec(python="/opt/env/bin/python", setup=["module load cuda"])))
    assert (
        "# launch: 2 nodes × 8 GPUs under srun, 16 tasks with 8 per node, after 1 launch.setup line: "
        "/opt/env/bin/python train.py"
    ) in srun


def test_the_header_names_every_default_left_and_only_those() -> None:
    script = compile_data(_spec())
    text = "\n".join(_header(script))
    for field in ("launch.mode srun", "launch.python chosen when the job starts", "fabric.interface auto"):
        assert field in text
    assert "resources.tasks_per_node 8 (one per GPU, from launch.mode)" in text
    # written fields are not defaults
    written = "\n".join(_header(compile_data(_spec(mode="torchrun", python="uv"))))
    assert "launch.mode srun" not in written
    assert "launch.python" not in written
    assert all(len(line) <= 100 for line in _header(script) if line.startswith("#  "))


def test_spec_values_in_the_header_cannot_end_the_comment() -> None:
    script = compile_data(_spec(program="train.py\ntouch /tmp/owned", python="/opt/bin/python\rx"))
    head = _header(script)
    assert all(line.startswith("#") for line in head)
    assert any("train.py\\ntouch /tmp/owned" in line for line in head)


def test_unwritten_sections_say_why_they_add_lines() -> None:
    script = compile_data(_spec())
    assert "# fabric is not in the spec (nor in a profile): jobc's defaults" in script
    assert "# monitoring is not in the spec: the recorder and jobc.runtime's hang watchdog" in script
    written = compile_data({**_spec(), "fabric": {"ib": True}, "monitoring": {"hang_s": 600}})
    assert "fabric is not in the spec" not in written
    assert "monitoring is not in the spec" not in written


def test_an_unset_interpreter_is_chosen_in_the_workdir() -> None:
    script = compile_data(_spec())
    assert "jobc_python=('python')" in script
    block = script[script.index("# launch.python is not set") :].split("\nfi\n")[0]
    assert "if [[ -f uv.lock ]]; then" in block
    assert "  jobc_python=('uv' 'run' '--no-sync' 'python')" in block
    assert "  srun --nodes=1 --ntasks=1 --ntasks-per-node=1 uv sync" in block
    # a container's python is the image's: no choice made on the host
    boxed = compile_data({**_spec(), "container": {"image": "/i/x.sqsh", "mounts": ["/lustre:/lustre"]}})
    assert "launch.python is not set" not in boxed
    assert "uv sync" not in boxed
    # a spec that says uv or a path gets exactly that
    assert "if [[ -f uv.lock ]]" not in compile_data(_spec(python="uv"))
    assert "if [[ -f uv.lock ]]" not in compile_data(_spec(python="/usr/bin/python3"))


def test_plan_shows_the_launch_and_the_defaults(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(_spec(mode="torchrun")))
    assert main(["plan", str(spec), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["launch"].startswith(
        "2 nodes × 8 GPUs under torchrun, an agent per node with 8 workers each: "
    )
    assert data["defaults"]["launch.uv_sync"] == "two-phase"
    assert "launch.mode" not in data["defaults"]
    assert main(["plan", str(spec)]) == 0
    out = capsys.readouterr().out
    assert "\nlaunch     2 nodes × 8 GPUs under torchrun" in out
    assert "\ndefaults   launch.python: chosen when the job starts" in out
