"""Phase one of `uv_sync: two-phase` runs exactly what launch.uv names; the ranks never sync."""

from __future__ import annotations

from typing import Any

from tests.compile.support import compile_data, step_script


def _spec(**uv: Any) -> dict[str, Any]:
    return {
        "version": 1,
        "name": "uv",
        "slurm": {"partition": "gpu", "time": "01:00:00"},
        "resources": {"nodes": 2, "gpus_per_node": 4},
        "storage": {"shared": ["/lustre"]},
        "launch": {"python": "uv", "workdir": "/lustre/p", "program": "train.py", "uv": uv},
    }


def _phase_one(script: str) -> list[str]:
    return [line for line in script.splitlines() if line.startswith("srun --nodes=1 --ntasks=1")]


def test_a_bare_sync_when_the_spec_names_nothing() -> None:
    assert _phase_one(compile_data(_spec())) == ["srun --nodes=1 --ntasks=1 --ntasks-per-node=1 uv sync"]


def test_extras_groups_and_lock_reach_phase_one_in_order() -> None:
    script = compile_data(_spec(extras=["training", "dev"], groups=["test"], lock="frozen"))
    assert _phase_one(script) == [
        "srun --nodes=1 --ntasks=1 --ntasks-per-node=1 uv sync '--extra' 'training' '--extra' 'dev' "
        "'--group' 'test' '--frozen'"
    ]
    locked = compile_data(_spec(all_extras=True, lock="locked"))
    assert _phase_one(locked)[0].endswith("uv sync '--all-extras' '--locked'")


def test_the_ranks_never_sync() -> None:
    script = compile_data(_spec(extras=["training"]))
    assert "jobc_python=('uv' 'run' '--no-sync' 'python')" in script
    assert "uv sync" not in step_script(script)
    none = compile_data({**_spec(extras=["training"]), "launch": {**_spec()["launch"], "uv_sync": "none"}})
    assert not _phase_one(none)
