"""Launcher detection and derivation on simulated environments (no processes, no torch)."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from jobc.runtime.contract import Contract
from jobc.runtime.device import select_device
from jobc.runtime.errors import DeviceError, LaunchError, WorldMismatchError
from jobc.runtime.launch import (
    PORT_BASE,
    PORT_SPAN,
    check_against_contract,
    export_launch,
    fallback_master_port,
    resolve_launch,
)
from jobc.runtime.parallel import Parallelism, resolve_parallelism

EPHEMERAL = range(32768, 61000)


def srun_step(rank: int = 5, **overrides: str) -> dict[str, str]:
    """Task ``rank`` of ``srun -N3 --ntasks-per-node`` with uneven tasks: 3+3+2."""
    env = {
        "SLURM_JOB_ID": "123456",
        "SLURM_STEP_ID": "0",
        "SLURM_PROCID": str(rank),
        "SLURM_LOCALID": str(rank % 3),
        "SLURM_NODEID": str(rank // 3),
        "SLURM_STEP_NUM_TASKS": "8",
        "SLURM_STEP_NUM_NODES": "3",
        "SLURM_STEP_NODELIST": "gpu-[007-008]-ib,gpu-010-ib",
        "SLURM_STEP_TASKS_PER_NODE": "3(x2),2",
        "SLURMD_NODENAME": ["gpu-007-ib", "gpu-008-ib", "gpu-010-ib"][rank // 3],
        "PATH": "/nonexistent",  # no scontrol, no anything
    }
    env.update(overrides)
    return env


def resolve(env: dict[str, str], **contract: Any) -> Any:
    return resolve_launch(env, Contract(**contract), hostname="testhost", free_port=lambda: 45678)


def test_srun_native_uses_step_variables() -> None:
    launch = resolve(srun_step(5))
    assert launch.mode == "srun"
    assert (launch.rank, launch.local_rank, launch.world_size) == (5, 2, 8)
    assert (launch.node_rank, launch.num_nodes, launch.local_world_size) == (1, 3, 3)
    assert launch.tasks_per_node == (3, 3, 2)
    assert launch.hosts == ("gpu-007-ib", "gpu-008-ib", "gpu-010-ib")
    assert launch.master_addr == "gpu-007-ib"
    assert launch.master_port == fallback_master_port(123456, 0)
    assert launch.node_name == "gpu-008-ib"


def test_uneven_last_node_gets_its_own_local_world_size() -> None:
    launch = resolve(srun_step(7))
    assert (launch.node_rank, launch.local_rank, launch.local_world_size) == (2, 1, 2)


def test_job_level_variables_are_ignored_in_a_step() -> None:
    # A 2-node step inside a 4-node job: SLURM_NTASKS / SLURM_JOB_NODELIST describe the job
    # (or the request, with --preserve-env); only the step variables describe this world.
    env = srun_step(
        1,
        SLURM_STEP_NUM_TASKS="4",
        SLURM_STEP_NUM_NODES="2",
        SLURM_STEP_NODELIST="node[03-04]",
        SLURM_STEP_TASKS_PER_NODE="2(x2)",
        SLURM_LOCALID="1",
        SLURM_NODEID="0",
        SLURM_JOB_NODELIST="node[01-04]",
        SLURM_NODELIST="node[01-04]",
        SLURM_NTASKS="16",
        SLURM_NNODES="4",
        SLURM_TASKS_PER_NODE="4(x4)",
        SLURM_NTASKS_PER_NODE="4",
        SLURM_JOB_NUM_NODES="4",
    )
    launch = resolve(env)
    assert (launch.world_size, launch.num_nodes, launch.local_world_size) == (4, 2, 2)
    assert launch.master_addr == "node03"  # first host of the step, not of the job


def test_the_batch_shell_is_not_an_srun_step() -> None:
    batch = {"SLURM_JOB_ID": "77", "SLURM_PROCID": "0", "SLURM_LOCALID": "0", "SLURM_NTASKS": "8"}
    with pytest.raises(LaunchError, match=r"batch shell of job 77 without srun.*JOBC_WORLD_SIZE=8"):
        resolve(batch, world_size=8)
    single = resolve(batch, world_size=1)
    assert (single.mode, single.world_size, single.master_port) == ("single", 1, 45678)


def test_torchrun_under_srun_trusts_torchrun() -> None:
    # srun --ntasks-per-node=1 torchrun --nproc-per-node=4 on node 1 of 2, worker 2: the
    # SLURM_* variables describe the agent (rank 1 of 2), torchrun's describe the worker.
    env = srun_step(
        1,
        SLURM_STEP_NUM_TASKS="2",
        SLURM_STEP_NUM_NODES="2",
        SLURM_STEP_NODELIST="node[1-2]",
        SLURM_STEP_TASKS_PER_NODE="1(x2)",
        SLURM_LOCALID="0",
        SLURM_NODEID="1",
        TORCHELASTIC_RUN_ID="abc",
        RANK="2",  # rendezvous order: this node joined first, so it is group 0
        LOCAL_RANK="2",
        WORLD_SIZE="8",
        LOCAL_WORLD_SIZE="4",
        GROUP_RANK="0",
        GROUP_WORLD_SIZE="2",
        MASTER_ADDR="node2",
        MASTER_PORT="29400",
        TORCHELASTIC_RESTART_COUNT="1",
    )
    launch = resolve(env)
    assert launch.mode == "torchrun"
    assert (launch.rank, launch.local_rank, launch.world_size, launch.local_world_size) == (2, 2, 8, 4)
    assert (launch.node_rank, launch.num_nodes) == (0, 2)  # GROUP_RANK, never SLURM_NODEID
    assert (launch.master_addr, launch.master_port) == ("node2", 29400)
    assert launch.elastic_restart_count == 1
    environ = dict(env)
    assert export_launch(launch, environ) == {"NODE_RANK": "0"}
    assert environ["RANK"] == "2"


def test_rank_variables_alone_do_not_mean_torchrun() -> None:
    # The enroot PyTorch hook exports these inside srun-launched containers.
    env = srun_step(
        4, RANK="4", LOCAL_RANK="1", WORLD_SIZE="8", MASTER_ADDR="gpu-007-ib", MASTER_PORT="61000"
    )
    launch = resolve(env)
    assert launch.mode == "srun"
    assert (launch.rank, launch.world_size, launch.master_port) == (4, 8, 61000)


def test_enroot_hook_values_are_kept_and_only_gaps_filled() -> None:
    env = srun_step(4, RANK="4", LOCAL_RANK="1", WORLD_SIZE="8", MASTER_ADDR="10.0.0.7", MASTER_PORT="61234")
    launch = resolve(env)
    filled = export_launch(launch, env)
    assert filled == {"LOCAL_WORLD_SIZE": "3", "NODE_RANK": "1"}
    assert (env["MASTER_ADDR"], env["MASTER_PORT"]) == ("10.0.0.7", "61234")


def test_a_hook_value_that_contradicts_the_step_is_an_error() -> None:
    # The hook writes WORLD_SIZE=$SLURM_NTASKS; with srun --preserve-env that is the job's count.
    env = srun_step(4, WORLD_SIZE="16", SLURM_NTASKS="16")
    with pytest.raises(LaunchError, match=r"WORLD_SIZE=16 is already set but the step says 8"):
        resolve(env)


def test_export_fills_unset_and_empty_variables_only() -> None:
    env = srun_step(0, MASTER_PORT="", LOCAL_RANK="0")
    launch = resolve(env)
    filled = export_launch(launch, env)
    assert set(filled) == {
        "RANK",
        "WORLD_SIZE",
        "LOCAL_WORLD_SIZE",
        "NODE_RANK",
        "MASTER_ADDR",
        "MASTER_PORT",
    }
    assert env["LOCAL_RANK"] == "0"
    assert export_launch(launch, env) == {}


def test_scontrol_is_never_needed(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError(f"the runtime started a process: {args}")

    monkeypatch.setattr(subprocess.Popen, "__init__", refuse)
    launch = resolve(
        srun_step(
            0,
            SLURM_STEP_NODELIST="a-[01-02,05]-ib,b7",
            SLURM_STEP_NUM_NODES="4",
            SLURM_STEP_TASKS_PER_NODE="2(x4)",
        )
    )
    assert launch.master_addr == "a-01-ib"
    assert launch.hosts == ("a-01-ib", "a-02-ib", "a-05-ib", "b7")


def test_explicit_master_is_honoured() -> None:
    launch = resolve(srun_step(3, MASTER_ADDR="10.1.2.3", MASTER_PORT="23456"))
    assert (launch.master_addr, launch.master_port) == ("10.1.2.3", 23456)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"SLURM_PROCID": ""}, "SLURM_PROCID is not set"),
        ({"SLURM_PROCID": "x"}, "SLURM_PROCID='x' is not an integer"),
        ({"SLURM_PROCID": "8"}, "rank 8 is outside a world of 8"),
        ({"SLURM_STEP_TASKS_PER_NODE": "3(x3)"}, "adds up to 9 ranks but SLURM_STEP_NUM_TASKS=8"),
        ({"SLURM_STEP_TASKS_PER_NODE": "4(x2)"}, "describes 2 nodes but the step has 3"),
        ({"SLURM_STEP_NUM_NODES": "4"}, "names 3 hosts but SLURM_STEP_NUM_NODES=4"),
        ({"SLURM_STEP_NODELIST": "gpu-[007-"}, "unclosed"),
        ({"SLURM_STEP_TASKS_PER_NODE": "3(x2"}, "invalid item"),
        ({"SLURM_LOCALID": "3"}, "local rank 3 is outside 3 ranks"),
        ({"MASTER_PORT": "70000"}, "MASTER_PORT=70000 is not a TCP port"),
        ({"SLURM_JOB_ID": ""}, "MASTER_PORT is unset"),
    ],
)
def test_bad_srun_variables_are_named(overrides: dict[str, str], message: str) -> None:
    with pytest.raises(LaunchError, match=message):
        resolve(srun_step(5, **overrides))


def test_torchrun_missing_variable_is_named() -> None:
    with pytest.raises(LaunchError, match=r"torchrun.*LOCAL_WORLD_SIZE is not set"):
        resolve({"TORCHELASTIC_RUN_ID": "x", "RANK": "0", "LOCAL_RANK": "0", "WORLD_SIZE": "2"})


def test_plain_env_launcher() -> None:
    env = {
        "RANK": "3",
        "WORLD_SIZE": "4",
        "LOCAL_RANK": "1",
        "LOCAL_WORLD_SIZE": "2",
        "MASTER_ADDR": "h",
        "MASTER_PORT": "1234",
    }
    launch = resolve(env)
    assert (launch.mode, launch.node_rank, launch.num_nodes) == ("env", 1, 2)
    with pytest.raises(LaunchError, match="MASTER_ADDR is not set"):
        resolve({k: v for k, v in env.items() if k != "MASTER_ADDR"})


def test_single_process_defaults() -> None:
    launch = resolve({})
    assert (launch.mode, launch.rank, launch.world_size, launch.master_addr) == ("single", 0, 1, "127.0.0.1")
    assert launch.restart_count == 0


def test_restart_count_comes_from_slurm() -> None:
    assert resolve(srun_step(0, SLURM_RESTART_COUNT="3")).restart_count == 3
    assert resolve(srun_step(0)).restart_count == 0
    with pytest.raises(LaunchError, match="SLURM_RESTART_COUNT"):
        resolve(srun_step(0, SLURM_RESTART_COUNT="many"))


# --- MASTER_PORT fallback -----------------------------------------------------------------


@pytest.mark.parametrize("job_id", [0, 1, 8999, 9000, 123456, 4294967295, 10**12])
@pytest.mark.parametrize("step_id", [0, 1, 7, 4294967294])
def test_fallback_port_is_in_range_and_outside_ephemeral_ports(job_id: int, step_id: int) -> None:
    port = fallback_master_port(job_id, step_id)
    assert PORT_BASE <= port < PORT_BASE + PORT_SPAN
    assert port not in EPHEMERAL
    assert port not in (29400, 29500)


def test_fallback_port_separates_neighbouring_jobs_and_steps() -> None:
    ports = {fallback_master_port(job, step) for job in range(1000, 2000) for step in range(4)}
    assert len(ports) == 4000
    assert fallback_master_port(123456) == 20000 + 123456 % 9000  # the batch-shell formula


def test_fallback_port_is_the_same_on_every_rank() -> None:
    ports = {resolve(srun_step(rank, SLURM_STEP_ID="3")).master_port for rank in range(8)}
    assert ports == {fallback_master_port(123456, 3)}


# --- world check against the contract (before any network) ---------------------------------


def test_matching_world_passes() -> None:
    check_against_contract(resolve(srun_step(0)), Contract(world_size=8, nodes=3, launch_mode="srun"))


def test_world_size_mismatch_names_both_numbers() -> None:
    launch = resolve(srun_step(0))
    with pytest.raises(WorldMismatchError) as info:
        check_against_contract(launch, Contract(world_size=16, spec_name="llama"))
    message = str(info.value)
    assert "JOBC_WORLD_SIZE=16" in message
    assert "SLURM_STEP_NUM_TASKS=8" in message
    assert "'llama'" in message


def test_per_node_mismatch_names_the_node() -> None:
    with pytest.raises(WorldMismatchError, match=r"JOBC_GPUS_PER_NODE=3 but node 2 \(gpu-010-ib\) runs 2"):
        check_against_contract(resolve(srun_step(0)), Contract(gpus_per_node=3))


def test_node_count_and_launch_mode_mismatches() -> None:
    launch = resolve(srun_step(0))
    with pytest.raises(WorldMismatchError, match=r"JOBC_NODES=2 nodes but the launcher reports 3") as info:
        check_against_contract(launch, Contract(nodes=2, launch_mode="torchrun"))
    assert "JOBC_LAUNCH_MODE=torchrun but this process was started by srun" in str(info.value)


def test_torchrun_per_node_check_uses_local_world_size() -> None:
    env = {
        "TORCHELASTIC_RUN_ID": "x",
        "RANK": "0",
        "LOCAL_RANK": "0",
        "WORLD_SIZE": "8",
        "LOCAL_WORLD_SIZE": "4",
        "GROUP_RANK": "0",
        "MASTER_ADDR": "h",
        "MASTER_PORT": "1",
    }
    with pytest.raises(WorldMismatchError, match=r"JOBC_GPUS_PER_NODE=8 but this node runs 4"):
        check_against_contract(resolve(env), Contract(gpus_per_node=8, world_size=8))


# --- parallelism ----------------------------------------------------------------------------


def test_dp_is_derived_and_coordinates_are_row_major() -> None:
    parallel = resolve_parallelism(Contract(tp=2, pp=2), 16)
    assert parallel == Parallelism(pp=2, dp=4, cp=1, tp=2)
    assert parallel.coordinates(0) == {"pp": 0, "dp": 0, "cp": 0, "tp": 0}
    assert parallel.coordinates(1) == {"pp": 0, "dp": 0, "cp": 0, "tp": 1}
    assert parallel.coordinates(9) == {"pp": 1, "dp": 0, "cp": 0, "tp": 1}
    assert resolve_parallelism(Contract(), 4) == Parallelism(pp=1, dp=4, cp=1, tp=1)


def test_parallelism_that_does_not_fit_is_an_error() -> None:
    with pytest.raises(WorldMismatchError, match=r"not divisible by JOBC_PP\*JOBC_CP\*JOBC_TP = 1\*1\*3"):
        resolve_parallelism(Contract(tp=3), 8)
    with pytest.raises(WorldMismatchError, match=r"= 8 but the world has 4 ranks"):
        resolve_parallelism(Contract(tp=2, dp=4), 4)


# --- device ---------------------------------------------------------------------------------


def test_gpus_per_task_binding_uses_device_zero() -> None:
    # --gpus-per-task=1: every task sees exactly one GPU, whatever its local rank.
    env = {"CUDA_VISIBLE_DEVICES": "0", "SLURM_STEP_GPUS": "3"}
    assert str(select_device(1, 3, env)) == "cuda:0"


def test_gpus_per_node_uses_local_rank() -> None:
    assert str(select_device(8, 5, {"CUDA_VISIBLE_DEVICES": "0,1,2,3,4,5,6,7"})) == "cuda:5"


def test_no_gpu_means_cpu() -> None:
    assert str(select_device(0, 3, {})) == "cpu"


def test_local_rank_beyond_visible_gpus_is_a_clear_error() -> None:
    env = {"CUDA_VISIBLE_DEVICES": "0,1", "SLURM_GPUS_ON_NODE": "2"}
    with pytest.raises(DeviceError, match=r"local rank 3 has no GPU: this process sees 2 GPUs") as info:
        select_device(2, 3, env)
    assert "CUDA_VISIBLE_DEVICES=0,1" in str(info.value)
    assert "SLURM_STEP_GPUS=<unset>" in str(info.value)
