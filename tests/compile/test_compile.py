"""The compiled script: structure, determinism, refusal, and the pieces that run on the node."""

from __future__ import annotations

import json
import os
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest

from jobc.cli import main
from jobc.compile.rendezvous import FIRST_HOST
from tests.compile.support import compile_data, compile_path, example_specs, lint, step_script


def base(**sections: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "version": 1,
        "name": "unit",
        "slurm": {"partition": "gpu", "time": "01:00:00"},
        "resources": {"nodes": 2, "gpus_per_node": 4},
        "launch": {"program": "train.py"},
    }
    for key, value in sections.items():
        data[key] = {**data.get(key, {}), **value} if isinstance(value, dict) else value
    return data


def sbatch_lines(script: str) -> list[str]:
    return [line for line in script.splitlines() if line.startswith("#SBATCH")]


# -- determinism -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", example_specs(), ids=lambda p: p.stem)
def test_compiling_twice_gives_the_same_bytes(path: Path) -> None:
    assert compile_path(path) == compile_path(path)


def _reverse(value: Any) -> Any:
    if isinstance(value, dict):
        return {key: _reverse(value[key]) for key in reversed(list(value))}
    return value


def test_key_order_does_not_change_the_script() -> None:
    data = base(
        env={"B": "2", "A": "1"},
        fabric={"gdr_level": 1, "ib": True},
        resilience={"signal": "SIGUSR2", "requeue": True, "grace_s": 90},
        monitoring={"heartbeat_s": 60, "gpu_dmon_s": 10},
    )
    assert compile_data(data) == compile_data(_reverse(data))


def test_nothing_of_the_compiling_machine_is_in_the_script(tmp_path: Path) -> None:
    spec = tmp_path / "deep" / "dir" / "spec.yaml"
    spec.parent.mkdir(parents=True)
    spec.write_text(json.dumps(base()), encoding="utf-8")
    script = compile_path(spec)
    assert str(tmp_path) not in script
    assert os.uname().nodename not in script
    from jobc import __version__

    assert __version__ not in script.replace("20000", "")


# -- structure ---------------------------------------------------------------------------------


def test_header_and_directive_order() -> None:
    data = base(
        slurm={"account": "acct", "qos": "high", "exclusive": True, "extra": {"hint": "nomultithread"}},
        resources={"cpus_per_task": 8, "mem": "0"},
        storage={"logs": "/shared/logs/{name}"},
        resilience={"signal": "SIGTERM", "grace_s": 120, "requeue": True},
    )
    script = compile_data(data)
    lines = script.splitlines()
    assert lines[0] == "#!/bin/bash"
    assert lines[1].startswith("# unit:")
    assert lines[3].startswith("# spec sha256: ")
    assert len(lines[3].split()[-1]) == 64
    assert sbatch_lines(script) == [
        "#SBATCH --job-name=unit",
        "#SBATCH --partition=gpu",
        "#SBATCH --account=acct",
        "#SBATCH --qos=high",
        "#SBATCH --time=01:00:00",
        "#SBATCH --nodes=2",
        "#SBATCH --ntasks-per-node=4",
        "#SBATCH --gpus-per-node=4",
        "#SBATCH --cpus-per-task=8",
        "#SBATCH --mem=0",
        "#SBATCH --exclusive",
        "#SBATCH --output=/shared/logs/unit/%x-%j.out",
        "#SBATCH --open-mode=append",
        "#SBATCH --signal=B:TERM@120",
        "#SBATCH --requeue",
        "#SBATCH --hint=nomultithread",
    ]
    # sbatch reads #SBATCH lines only up to the first command.
    first_command = next(i for i, line in enumerate(lines) if line and not line.startswith("#"))
    assert lines[first_command] == "set -euo pipefail"
    assert max(i for i, line in enumerate(lines) if line.startswith("#SBATCH")) < first_command


def test_sha_is_of_the_canonical_spec_and_changes_with_it() -> None:
    one, two = compile_data(base()), compile_data(base(resources={"nodes": 3}))
    assert one.splitlines()[3] != two.splitlines()[3]
    sha = one.splitlines()[3].split()[-1]
    assert f"export JOBC_SPEC_SHA256='{sha}'" in one


def test_task_counts_per_mode() -> None:
    srun = compile_data(base())
    assert "#SBATCH --ntasks-per-node=4" in srun
    assert "srun --nodes=2 --ntasks-per-node=4" in srun
    torchrun = compile_data(base(launch={"mode": "torchrun"}))
    assert "#SBATCH --ntasks-per-node=1" in torchrun
    assert "srun --nodes=2 --ntasks-per-node=1" in torchrun
    assert "--nnodes=2 --nproc-per-node=4" in torchrun
    assert '--rdzv-endpoint="$MASTER_ADDR:$MASTER_PORT"' in torchrun


@pytest.mark.parametrize(
    ("mode", "ntasks", "expected"),
    [("srun", "3", 8), ("srun", "4", 8), ("torchrun", "4", 2)],
)
def test_allocation_check_refuses_a_different_task_count(
    mode: str, ntasks: str, expected: int, tmp_path: Path
) -> None:
    # What `sbatch -n N` leaves in the batch shell: the per-node count still matches the spec,
    # but srun would take SLURM_NTASKS as its --ntasks and start another world.
    script = compile_data(base(launch={"mode": mode}))
    env = {
        "PATH": os.environ["PATH"],
        "SLURM_JOB_ID": "77",
        "SLURM_JOB_NUM_NODES": "2",
        "SLURM_NTASKS_PER_NODE": "4" if mode == "srun" else "1",
        "SLURM_NTASKS": ntasks,
        "SLURM_GPUS_ON_NODE": "4",
    }
    run = subprocess.run(
        ["bash", "-c", script], env=env, cwd=tmp_path, capture_output=True, text=True, check=False
    )
    assert run.returncode == 1
    assert run.stderr == (
        f"jobc: the allocation has SLURM_NTASKS={ntasks}, but spec unit asks for {expected} "
        f"(resources.nodes x tasks per node for launch.mode {mode}); did an option override the script?\n"
    )


def test_node_rank_is_read_inside_the_step() -> None:
    script = compile_data(base(launch={"mode": "torchrun"}))
    step = step_script(script)
    assert '--node-rank="$SLURM_NODEID"' in step
    outside = script.replace(step.removeprefix("#!/bin/bash\n"), "")
    assert "SLURM_NODEID" not in outside
    assert "<<'JOBC_STEP'" in script  # quoted heredoc: the batch shell expands nothing in it


def test_master_port_default_fixed_and_env() -> None:
    assert "MASTER_PORT=${MASTER_PORT:-$((20000 + jobc_job_id % 9000))}" in compile_data(base())
    fixed = compile_data(base(launch={"master_port": 29555}))
    assert "MASTER_PORT=${MASTER_PORT:-29555}" in fixed


def test_runtime_port_formula_agrees() -> None:
    runtime = pytest.importorskip("jobc.runtime.launch")
    for job in (1, 8999, 9000, 123456789):
        assert runtime.fallback_master_port(job) == 20000 + job % 9000


def test_uv_two_phase_and_direct_python() -> None:
    script = compile_data(base())
    assert "srun --nodes=1 --ntasks=1 --ntasks-per-node=1 uv sync" in script
    assert "jobc_python=('uv' 'run' '--no-sync' 'python')" in script
    direct = compile_data(base(launch={"python": "/opt/venv/bin/python"}))
    assert "uv sync" not in direct
    assert "jobc_python=('/opt/venv/bin/python')" in direct
    none = compile_data(base(launch={"uv_sync": "none"}))
    assert "uv sync" not in none


def test_container_flags_on_srun_only() -> None:
    data = base(
        container={"image": "/images/pt.sqsh", "mounts": ["/lustre:/lustre"], "workdir": "/w"},
        env={"FOO": "1"},
        secrets=["HF_TOKEN"],
        launch={"python": "uv"},
    )
    script = compile_data(data)
    assert not any("container" in line for line in sbatch_lines(script))
    assert "--container-image='/images/pt.sqsh'" in script
    assert "--container-mounts='/lustre:/lustre'" in script
    assert "--container-workdir='/w'" in script
    assert "--no-container-mount-home" in script
    env_names = script.split("--container-env='")[1].split("'")[0].split(",")
    assert {"FOO", "HF_TOKEN", "JOBC_WORLD_SIZE", "MASTER_ADDR", "MASTER_PORT"} <= set(env_names)
    assert script.count('"${jobc_container[@]}"') == 2  # uv sync and the launch


def test_secrets_checked_never_written() -> None:
    script = compile_data(base(secrets=["HF_TOKEN"], debug=True))
    check = ': "${HF_TOKEN:?secret HF_TOKEN is not set'
    assert check in script
    assert "export HF_TOKEN" not in script
    assert script.index(check) < script.index("\nset -x\n")


def test_env_caches_pythonpath_and_debug() -> None:
    data = base(
        env={"A": "x y", "N": 3},
        storage={"caches": {"hf_home": "/c/hf", "uv_cache_dir": "/c/uv"}},
        launch={"pythonpath": ["src", "lib"]},
        debug=True,
    )
    script = compile_data(data)
    for line in (
        "export A='x y'",
        "export N='3'",
        "export HF_HOME='/c/hf'",
        "export UV_CACHE_DIR='/c/uv'",
        "export PYTHONPATH='src:lib'\"${PYTHONPATH:+:$PYTHONPATH}\"",
        "export NCCL_DEBUG='INFO'",
        "export TORCH_DISTRIBUTED_DEBUG='DETAIL'",
        "export PYTHONFAULTHANDLER='1'",
        "export CUDA_LAUNCH_BLOCKING='1'",
    ):
        assert line in script


def test_interpolation() -> None:
    data = base(
        parallelism={"tp": 2},
        launch={"args": ["--tp", "{parallelism.tp}", "--name={name}", "{{literal}}"]},
        storage={"checkpoints": "/ckpt/{name}"},
    )
    script = compile_data(data)
    assert "jobc_program=('train.py' '--tp' '2' '--name=unit' '{literal}')" in script
    assert "export JOBC_CHECKPOINT_DIR='/ckpt/unit'" in script


def test_fabric_variables() -> None:
    data = base(
        fabric={"interface": "ib1", "ib": True, "gdr_level": 3, "ib_gid_index": 3, "nvls": False},
        parallelism={"tp": 2},
        resources={"gpu": "h100-80gb"},
    )
    script = compile_data(data)
    for line in (
        "export NCCL_SOCKET_IFNAME='ib1'",
        "export GLOO_SOCKET_IFNAME='ib1'",
        "export NCCL_IB_DISABLE='0'",
        "export NCCL_NET_GDR_LEVEL='3'",
        "export NCCL_IB_GID_INDEX='3'",
        "export NCCL_NVLS_ENABLE='0'",
        "export CUDA_DEVICE_MAX_CONNECTIONS='1'",
        "export JOBC_COLLECTIVE_TIMEOUT_S='1800'",
    ):
        assert line in script
    assert "/sys/class/net" not in script
    auto = compile_data(base())
    assert "/sys/class/net" in step_script(auto)


def test_user_env_wins_over_derived_values() -> None:
    script = compile_data(base(parallelism={"tp": 2}, env={"CUDA_DEVICE_MAX_CONNECTIONS": "8"}))
    assert script.count("export CUDA_DEVICE_MAX_CONNECTIONS=") == 1
    assert "export CUDA_DEVICE_MAX_CONNECTIONS='8'" in script


def test_contract_variables() -> None:
    data = base(
        parallelism={"tp": 2, "pp": 2},
        storage={"checkpoints": "/ckpt"},
        resilience={"signal": "SIGUSR2", "requeue": True, "max_restarts": 5},
    )
    script = compile_data(data)
    for name, value in {
        "JOBC_SPEC_NAME": "unit",
        "JOBC_LAUNCH_MODE": "srun",
        "JOBC_WORLD_SIZE": "8",
        "JOBC_NODES": "2",
        "JOBC_GPUS_PER_NODE": "4",
        "JOBC_TP": "2",
        "JOBC_PP": "2",
        "JOBC_CP": "1",
        "JOBC_EP": "1",
        "JOBC_DP": "2",
        "JOBC_SIGNAL": "SIGUSR2",
        "JOBC_GRACE_S": "110",
        "JOBC_REQUEUE_EXIT_CODE": "75",
        "JOBC_CHECKPOINT_DIR": "/ckpt",
        "JOBC_MAX_RESTARTS": "5",
    }.items():
        assert f"export {name}='{value}'" in script
    runtime = pytest.importorskip("jobc.runtime.contract")
    env = {
        line.split("=", 1)[0].removeprefix("export "): line.split("=", 1)[1].strip("'")
        for line in script.splitlines()
        if line.startswith("export JOBC_")
    }
    contract = runtime.Contract.from_env(env)
    assert (contract.world_size, contract.tp, contract.pp, contract.dp) == (8, 2, 2, 2)


def test_preemption_shape() -> None:
    script = compile_data(base(resilience={"signal": "SIGUSR2", "requeue": True, "max_restarts": 4}))
    # Slurm's own SIGTERM reaches every task itself; only the spec's signal is passed on, as the
    # SIGURG that the step's shell (or torchrun's agent) turns into one copy of it.
    assert "trap 'jobc_noted TERM' TERM" in script
    assert "trap 'jobc_forward USR2' USR2" in script
    assert 'scancel --signal=URG "$jobc_job_id"' in script
    assert "2> >(jobc_watch_step) &\n" in script
    assert 'wait "$jobc_srun_pid"' in script
    assert "((SLURM_RESTART_COUNT < 4))" in script
    assert 'scontrol requeue "$jobc_job_id"' in script
    step = step_script(script)
    assert "trap 'jobc_trapped=1' TERM USR2" in step
    assert "trap jobc_relay URG" in step
    assert '( trap - INT QUIT; exec "${jobc_python[@]}" "$@" ) &' in step
    no_requeue = compile_data(base())
    assert "#SBATCH --no-requeue" in no_requeue
    assert "scontrol requeue" not in no_requeue
    assert "jobc_forward" not in no_requeue


def test_srun_never_ends_the_step_itself() -> None:
    script = compile_data(base(resilience={"grace_s": 90}))
    assert "--kill-on-bad-exit=0 --wait=0 " in script
    assert "'srun: error: '*': task'*': Exited with exit code 75')" in script
    assert "jobc_step_timer 90 VTALRM" in script
    assert "jobc_step_timer 30 ALRM" in script
    assert "trap 'jobc_end_step failed' ALRM" in script


def test_srun_tasks_get_torchrun_rank_variables() -> None:
    step = step_script(compile_data(base()))
    for line in (
        "export RANK=$SLURM_PROCID",
        "export LOCAL_RANK=$SLURM_LOCALID",
        "export WORLD_SIZE=$SLURM_STEP_NUM_TASKS",
        "export LOCAL_WORLD_SIZE=4",
        "export GROUP_RANK=$SLURM_NODEID",
    ):
        assert line in step
    torchrun = step_script(compile_data(base(launch={"mode": "torchrun", "program": "train.py"})))
    assert "export RANK=" not in torchrun
    assert 'set -- -c "$jobc_agent" --node-rank="$SLURM_NODEID" "$@"' in torchrun
    assert "from torch.distributed.run import main" in torchrun


def test_helpers_are_cleaned_up() -> None:
    script = compile_data(base(monitoring={"heartbeat_s": 30, "gpu_dmon_s": 5}))
    assert "trap jobc_cleanup EXIT" in script
    assert "sleep 30 &" in script
    step = step_script(script)
    assert "trap jobc_cleanup EXIT" in step
    assert "nvidia-smi dmon -d 5" in step
    assert "SLURM_LOCALID:-0} == 0" in step


def test_attach_script() -> None:
    script = compile_data(base(), attach="777")
    assert "#SBATCH" not in script
    assert "srun --jobid='777' --overlap" in script
    assert "scontrol requeue" not in script
    assert "jobc_job_id='777'" in script


# -- the shell functions, run -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("nodelist", "first"),
    [
        ("node7", "node7"),
        ("gpu-[001-004,010],cpu7", "gpu-001"),
        ("cpu7,gpu-[001-004]", "cpu7"),
        ("linux[1,2]", "linux1"),
        ("node[1-3]-ib", "node1-ib"),
        ("node[09-11]", "node09"),
        ("n1 n2", "n1"),
    ],
)
def test_first_host_without_scontrol(nodelist: str, first: str, tmp_path: Path) -> None:
    bash = subprocess.run(["bash", "-c", "command -v bash"], capture_output=True, text=True, check=True)
    (tmp_path / "bin").mkdir()
    os.symlink(bash.stdout.strip(), tmp_path / "bin" / "bash")
    program = FIRST_HOST + '\njobc_first_host "$1"\n'
    result = subprocess.run(
        [str(tmp_path / "bin" / "bash"), "-c", program, "x", nodelist],
        capture_output=True,
        text=True,
        check=True,
        env={"PATH": str(tmp_path / "bin")},  # no scontrol here: the pure-bash path
    )
    assert result.stdout == first + "\n"


# -- the command line ---------------------------------------------------------------------------


def test_cli_writes_executable_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(base()), encoding="utf-8")
    out = tmp_path / "job.sh"
    assert main(["compile", str(spec), "-o", str(out)]) == 0
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert out.read_text(encoding="utf-8") == compile_path(spec)
    assert capsys.readouterr().out == ""


def test_output_through_a_symlink_writes_the_file_it_names(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(base()), encoding="utf-8")
    real = tmp_path / "scripts" / "job.sh"
    real.parent.mkdir()
    real.write_text("old\n")
    link = tmp_path / "job.sh"
    link.symlink_to(real)
    assert main(["compile", str(spec), "-o", str(link)]) == 0
    assert link.is_symlink()
    assert real.read_text(encoding="utf-8") == compile_path(spec)


def test_output_to_a_fifo_is_written_through(tmp_path: Path) -> None:
    import threading

    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(base()), encoding="utf-8")
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text(encoding="utf-8")))
    reader.start()
    assert main(["compile", str(spec), "-o", str(fifo)]) == 0
    reader.join(timeout=30)
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert got == [compile_path(spec)]


def test_output_to_a_character_device_leaves_the_device(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(base()), encoding="utf-8")
    before = os.lstat("/dev/null")
    assert main(["compile", str(spec), "-o", "/dev/null"]) == 0
    after = os.lstat("/dev/null")
    assert stat.S_ISCHR(after.st_mode)
    assert (after.st_ino, after.st_rdev) == (before.st_ino, before.st_rdev)


def test_output_to_a_directory_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(base()), encoding="utf-8")
    assert main(["compile", str(spec), "-o", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "is a directory" in err
    assert tmp_path.is_dir()


def test_cli_refuses_on_errors_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(base(resources={"nodes": "two"})), encoding="utf-8")
    out = tmp_path / "job.sh"
    assert main(["compile", str(spec), "-o", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "JC003 [error]" in captured.err
    assert not out.exists()
    assert not list(tmp_path.glob(".job.sh.*"))


def test_cli_set_overrides_and_attach(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(base()), encoding="utf-8")
    assert main(["compile", str(spec), "--set", "resources.nodes=3", "--attach", "12"]) == 0
    out = capsys.readouterr().out
    assert "--nodes=3" in out
    assert "--jobid='12'" in out
    assert main(["compile", str(spec), "--attach", "12;rm"]) == 2


def test_cli_warnings_go_to_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    spec = tmp_path / "spec.yaml"
    spec.write_text(json.dumps(base(resilience={"requeue": True})), encoding="utf-8")
    result = lint(spec)
    warnings = [f for f in result.findings if str(f.severity) != "error"]
    assert main(["compile", str(spec)]) == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("#!/bin/bash\n")
    for finding in warnings:
        assert finding.code in captured.err


def test_extra_options_are_checked(tmp_path: Path) -> None:
    spec = tmp_path / "spec.yaml"
    data = base(slurm={"extra": {"nodse": 1, "nodes": 2, "container-image": "x", "hint": "compute_bound"}})
    spec.write_text(json.dumps(data), encoding="utf-8")
    findings = lint(spec).findings
    messages = [f.message for f in findings if f.code == "JC003"]
    assert any("'nodse' is not an sbatch option" in m and "'nodes'" in m for m in messages)
    assert any("--nodes is set by jobc from resources.nodes" in m for m in messages)
    # a pyxis flag is JC501's finding, reported once, not JC003's too
    assert not any("container-image" in m for m in messages)
    assert [f.code for f in findings if "container-image" in f.message] == ["JC501"]
    assert not any("hint" in m for m in messages)
