"""Self-healing in the compiled script: only where the spec asks, and the preflight step's own
script run by real bash on this machine (its checks fail where they should and say why)."""

from __future__ import annotations

import os
import socket
import subprocess
from pathlib import Path
from typing import Any

import pytest

from jobc.compile.heal import PREFLIGHT
from tests.compile.support import compile_data


def spec(**resilience: Any) -> dict[str, Any]:
    return {
        "version": 1,
        "name": "healer",
        "slurm": {"time": "01:00:00"},
        "resources": {"nodes": 2, "gpus_per_node": 8},
        "launch": {"program": "train.py", "workdir": "/lustre/w"},
        "storage": {"shared": ["/lustre"], "logs": "/lustre/logs", "checkpoints": "/lustre/ckpt"},
        "resilience": {"signal": "SIGTERM", "requeue": True, **resilience},
    }


def test_a_spec_without_healing_has_none_of_it() -> None:
    script = compile_data(spec())
    assert "jobc_heal" not in script
    assert "jobc_log_offset" not in script
    assert "preflight" not in script
    assert 'scontrol requeue "$jobc_job_id"' in script  # the plain preemption requeue


def test_retries_without_a_preflight() -> None:
    script = compile_data(spec(retry_on=["node_fail", "gpu_error"], max_restarts=2))
    assert 'jobc_heal=("${jobc_python[@]}" -m jobc heal)' in script
    assert (
        "jobc_heal_policy=('--max-restarts' '2' '--retry-on' 'node_fail,gpu_error' "
        "'--exclude-failed-nodes' '--requeue')"
    ) in script
    assert "jobc_preflight" not in script
    # the start's question comes before the launch, the end's after it; no plain requeue is left
    assert script.index("jobc_heal_ask start") < script.index("jobc_srun_pid=$!")
    assert script.index("jobc_srun_pid=$!") < script.index('jobc_heal_ask end --status "$jobc_status"')
    assert script.rstrip().endswith('exit "$jobc_status"')
    assert "jobc: requeueing job" not in script
    # requeue first (the job becomes pending), exclude after: Slurm takes ExcNodeList only then
    body = script[script.index("jobc_requeue_without() {") :]
    assert body.index("trap '' TERM") < body.index("if ! scontrol requeue") < body.index("ExcNodeList=")


def test_a_preflight_runs_once_per_node_before_the_program() -> None:
    script = compile_data(
        spec(preflight={"checks": ["gpus", "paths"], "command": "./check.sh --fast", "timeout_s": 90})
    )
    line = next(x for x in script.splitlines() if "srun --nodes=2 --ntasks=2 --ntasks-per-node=1" in x)
    assert line.startswith("jobc_report=$(timeout --kill-after=10 210 srun ")
    assert "'90' '8' 'gpus,paths' '/lustre/ckpt' './check.sh --fast' '/lustre'" in script
    assert script.index("jobc_report=$(") < script.index("jobc_srun_pid=$!")
    # a spec without exclusion says so to the judge
    assert "--exclude-failed-nodes" not in compile_data(spec(preflight={}, exclude_failed_nodes=False))


def test_with_a_container_the_hosts_jobc_judges_and_attach_scripts_do_not() -> None:
    data = spec(retry_on=["node_fail"])
    data["container"] = {"image": "/lustre/img.sqsh", "mounts": ["/lustre:/lustre"]}
    assert "jobc_heal=(jobc heal)" in compile_data(data)
    assert "jobc_heal" not in compile_data(spec(retry_on=["node_fail"]), attach="42")


# -- the preflight step's script, run by bash -----------------------------------------------------


def preflight(
    tmp_path: Path,
    *,
    gpus: str = "2",
    checks: str = "gpus,paths,port",
    checkpoints: str = "",
    command: str = "",
    paths: tuple[str, ...] = (),
    env: dict[str, str] | None = None,
    limit: str = "20",
) -> tuple[str, str]:
    environment = {
        "PATH": os.environ["PATH"],
        "HOME": str(tmp_path),
        "SLURMD_NODENAME": "n7",
        "SLURM_NODEID": "0",
        "CUDA_VISIBLE_DEVICES": "0,1",
        "MASTER_ADDR": "127.0.0.1",
        "MASTER_PORT": "1",
        **(env or {}),
    }
    done = subprocess.run(
        ["bash", "-c", PREFLIGHT, "jobc-preflight", limit, gpus, checks, checkpoints, command, *paths],
        capture_output=True,
        text=True,
        env=environment,
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout, done.stderr


def test_a_fit_node_says_ok(tmp_path: Path) -> None:
    (tmp_path / "ckpt").mkdir()
    out, _ = preflight(
        tmp_path, checkpoints=str(tmp_path / "ckpt"), command="echo checked", paths=(str(tmp_path), "~")
    )
    assert out == "jobc: preflight n7 ok\n"
    assert list((tmp_path / "ckpt").iterdir()) == []  # the write probe leaves nothing behind


def test_the_gpus_slurm_gave_must_be_visible(tmp_path: Path) -> None:
    out, _ = preflight(tmp_path, gpus="4")
    assert (
        out == "jobc: preflight n7 failed gpus: 2 GPUs are visible (CUDA_VISIBLE_DEVICES=0,1), 4 expected\n"
    )
    out, _ = preflight(tmp_path, env={"CUDA_VISIBLE_DEVICES": ""})
    assert "failed gpus: no GPU is visible" in out
    assert preflight(tmp_path, gpus="0", env={"CUDA_VISIBLE_DEVICES": ""})[0].endswith(" ok\n")


def test_shared_paths_must_be_there_and_checkpoints_writable(tmp_path: Path) -> None:
    out, _ = preflight(tmp_path, paths=(str(tmp_path), str(tmp_path / "gone")))
    said = f"storage.shared {tmp_path / 'gone'} is missing or unreadable (or no answer in 30 s)"
    assert out == f"jobc: preflight n7 failed paths: {said}\n"
    blocker = tmp_path / "file"
    blocker.write_text("")
    out, _ = preflight(tmp_path, checkpoints=str(blocker / "ckpt"))
    assert "failed paths: storage.checkpoints" in out


def test_the_rendezvous_port_must_be_free_on_the_master(tmp_path: Path) -> None:
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = str(listener.getsockname()[1])
        out, _ = preflight(tmp_path, env={"MASTER_PORT": port})
        said = f"something already listens on the rendezvous port 127.0.0.1:{port}"
        assert out == f"jobc: preflight n7 failed port: {said}\n"
        # only the master's node checks it
        assert preflight(tmp_path, env={"MASTER_PORT": port, "SLURM_NODEID": "1"})[0].endswith(" ok\n")
    assert preflight(tmp_path, env={"MASTER_PORT": port})[0].endswith(" ok\n")


def test_the_command_runs_with_a_timeout_and_speaks_only_on_stderr(tmp_path: Path) -> None:
    out, err = preflight(tmp_path, command="echo 'jobc: preflight n7 ok'; exit 3")
    assert out == "jobc: preflight n7 failed command: exited with 3\n"  # its stdout cannot forge a verdict
    assert "jobc: preflight n7 ok" in err
    out, _ = preflight(tmp_path, command="sleep 30", limit="1")
    assert out == "jobc: preflight n7 failed command: did not finish within 1 s\n"


@pytest.mark.parametrize("value", ["$(touch pwned)", "; touch pwned", "`touch pwned`"])
def test_paths_are_data(tmp_path: Path, value: str) -> None:
    preflight(tmp_path, paths=(value,), checkpoints=value)
    assert not (tmp_path / "pwned").exists()
