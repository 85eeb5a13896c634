"""``init()`` and the ``World`` it returns.

The order matters: contract and launcher are read and compared before any
network traffic (a wrong layout fails in milliseconds); the device is chosen
and set before the process group exists (NCCL binds to the current device);
signal handlers go in before the rendezvous (a signal during a slow start must
not kill the rank by its default action); the rendezvous counts every rank in
with a deadline and checks the world before the first collective.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import signal
import socket
import sys
import threading
import time
from datetime import timedelta
from pathlib import Path
from typing import NoReturn

from jobc.runtime.errors import RuntimeSetupError, require_torch

try:
    import torch
    import torch.distributed as dist
    from torch.distributed.device_mesh import DeviceMesh, init_device_mesh
except ModuleNotFoundError as missing:
    require_torch(missing)
    raise

from jobc.runtime.contract import Contract
from jobc.runtime.device import DeviceChoice, select_device
from jobc.runtime.hang import HangWatch
from jobc.runtime.launch import Launch, check_against_contract, export_launch, resolve_launch
from jobc.runtime.parallel import MESH_DIMS, Parallelism, resolve_parallelism
from jobc.runtime.rendezvous import rendezvous
from jobc.runtime.signals import (
    REASON_CODES,
    SignalWatch,
    StopReason,
    classify_stop,
    deadline_reached,
    torchrun_shutdown_s,
)
from jobc.runtime.signals import worker_init_fn as _worker_init_fn
from jobc.runtime.worldcheck import Member

__all__ = ["World", "current", "init"]

log = logging.getLogger("jobc.runtime")

_LOCK = threading.Lock()
_REASONS: dict[int, StopReason] = {code: name for name, code in REASON_CODES.items()}


def _launcher_reads_shutdown_timeout() -> bool:
    """Whether this torch's torchrun takes TORCH_ELASTIC_SHUTDOWN_TIMEOUT (newer versions only)."""
    try:
        from torch.distributed.launcher.api import LaunchConfig
    except ImportError:
        return False
    return any(f.name == "shutdown_timeout" for f in dataclasses.fields(LaunchConfig))


def _warn_if_torchrun_kills_early(launch: Launch, contract: Contract) -> None:
    if launch.mode != "torchrun" or os.environ.get("JOBC_SIGNAL_RELAY") == "agent":
        # The compiled script's agent (jobc.compile.agent) passes the spec's signal on without
        # shutting down, so it never kills the workers early.
        return
    # The launcher is only imported when there is a value for it to read.
    reads = "TORCH_ELASTIC_SHUTDOWN_TIMEOUT" in os.environ and _launcher_reads_shutdown_timeout()
    shutdown = torchrun_shutdown_s(os.environ, launcher_reads_it=reads)
    if contract.grace_s > shutdown:
        log.warning(
            "torchrun kills its workers %g s after forwarding a signal, less than "
            "JOBC_GRACE_S=%g; the checkpoint must fit in the shorter window",
            shutdown,
            contract.grace_s,
        )


def _job_end_time() -> float | None:
    raw = os.environ.get("SLURM_JOB_END_TIME", "").strip()
    try:
        value = float(raw)
    except ValueError:
        return None
    return value if value > 0 else None


class World:
    """This rank's place in the job, the device mesh, and the collective stop flag."""

    def __init__(
        self,
        *,
        launch: Launch,
        contract: Contract,
        parallel: Parallelism,
        device: torch.device,
        backend: str,
        mesh: DeviceMesh,
        signals: SignalWatch | None,
        hang: HangWatch | None = None,
    ) -> None:
        self.launch = launch
        self.contract = contract
        self.parallel = parallel
        self.device = device
        self.backend = backend
        self.mesh = mesh
        self.rank = launch.rank
        self.local_rank = launch.local_rank
        self.world_size = launch.world_size
        self.local_world_size = launch.local_world_size
        self.node_rank = launch.node_rank
        self.num_nodes = launch.num_nodes
        self.node_name = launch.node_name
        self.restart_count = launch.restart_count
        self.elastic_restart_count = launch.elastic_restart_count
        self.job_id = launch.job_id
        self.launch_mode = launch.mode
        self.master_addr = launch.master_addr
        self.master_port = launch.master_port
        self.is_main = launch.rank == 0
        self.coordinates = parallel.coordinates(launch.rank)
        self.spec_name = contract.spec_name
        self.spec_sha256 = contract.spec_sha256
        self.checkpoint_dir: Path | None = contract.checkpoint_dir
        self.max_restarts = contract.max_restarts
        self.requeue_exit_code = contract.requeue_exit_code
        self.stop_reason: StopReason | None = None
        self.stop_signal: str | None = None
        self._signals = signals
        self._hang = hang
        self._end_time = _job_end_time()
        self._stopped = False

    @staticmethod
    def worker_init_fn(worker_id: int) -> None:
        """``DataLoader(worker_init_fn=world.worker_init_fn)``: workers survive the stop signal.

        A static method, so it pickles by name for spawn/forkserver workers too.
        """
        _worker_init_fn(worker_id)

    def __repr__(self) -> str:
        return (
            f"World(rank={self.rank}/{self.world_size}, local_rank={self.local_rank}/"
            f"{self.local_world_size}, node={self.node_rank}/{self.num_nodes} "
            f"({self.node_name}), device={self.device}, backend={self.backend}, "
            f"mesh={dict(zip(MESH_DIMS, self.parallel.shape, strict=True))}, "
            f"restart={self.restart_count}, launch={self.launch_mode})"
        )

    @property
    def signals_installed(self) -> bool:
        return self._signals is not None and self._signals.installed

    def time_left(self) -> float | None:
        """Seconds until Slurm ends the job (``SLURM_JOB_END_TIME``), if known."""
        return None if self._end_time is None else self._end_time - time.time()

    def should_stop(self) -> bool:
        """Collective: True on every rank once any rank got a stop signal (or the
        job is within ``JOBC_GRACE_S`` of its end). Call it on every rank at the same
        point of every step; all ranks then stop after the same step."""
        if self._stopped:
            return True
        reason = 0
        signum = 0
        watch = self._signals
        grace = self.contract.grace_s
        if watch is not None and watch.received is not None and watch.received_wall is not None:
            reason = REASON_CODES[classify_stop(watch.received_wall, self._end_time, grace)]
            signum = int(watch.received)
        elif deadline_reached(time.time(), self._end_time, grace):
            reason = REASON_CODES["timeout"]
        flag_device = self.device if self.backend == "nccl" else torch.device("cpu")
        flag = torch.tensor([reason, signum], dtype=torch.int64, device=flag_device)
        dist.all_reduce(flag, op=dist.ReduceOp.MAX)
        agreed_reason, agreed_signum = (int(v) for v in flag.tolist())
        if self._hang is not None:
            self._hang.progress()
        if agreed_reason:
            self._stopped = True
            self.stop_reason = _REASONS[agreed_reason]
            self.stop_signal = _signal_name(agreed_signum)
            if watch is not None:
                # Ranks that never saw the signal must still leave within the window.
                watch.arm(grace)
            if self._hang is not None:
                # The checkpoint may take longer than a step; the grace watchdog bounds it.
                self._hang.stop()
        return self._stopped

    def exit_for_requeue(self) -> NoReturn:
        """After the checkpoint: wait for every rank, tear down, exit with the requeue code."""
        if self._signals is not None:
            self._signals.arm(self.contract.grace_s)
        if self._hang is not None:
            self._hang.stop()
        if dist.is_initialized():
            # No rank may leave while another is still writing its shard: with
            # srun --kill-on-bad-exit the first exit would kill the rest.
            if self.backend == "nccl" and self.device.type == "cuda":
                dist.barrier(device_ids=[self.device.index or 0])
            else:
                dist.barrier()
            dist.destroy_process_group()
        log.info("rank %d: exiting with code %d to be requeued", self.rank, self.requeue_exit_code)
        sys.stdout.flush()
        sys.stderr.flush()
        raise SystemExit(self.requeue_exit_code)

    def close(self) -> None:
        """Destroy the process group and restore the signal handlers (end of training)."""
        with _LOCK:
            if self._hang is not None:
                self._hang.stop()
            if dist.is_initialized():
                dist.destroy_process_group()
            if self._signals is not None:
                self._signals.uninstall()
            if _STATE.world is self:
                _STATE.world = None


def _signal_name(signum: int) -> str | None:
    if not signum:
        return None
    try:
        return signal.Signals(signum).name
    except ValueError:
        return str(signum)


class _State:
    world: World | None = None


_STATE = _State()


def current() -> World | None:
    """The World of this process, if ``init()`` ran."""
    return _STATE.world


def _process_groups() -> dict[str, list[int]]:
    """Each process group's name (as the flight recorder writes it) and its global ranks."""
    from torch.distributed import distributed_c10d as c10d

    state = c10d._world
    return {
        str(name): sorted(int(r) for r in state.pg_group_ranks.get(pg, {}))
        for pg, name in state.pg_names.items()
    }


# torch renamed its flight-recorder variables (TORCH_NCCL_* → TORCH_FR_*); the compiled script
# sets both so that every supported torch sees one, and a torch that reads the new name warns
# about the old one on every rank.
_RENAMED = (
    ("TORCH_FR_BUFFER_SIZE", "TORCH_NCCL_TRACE_BUFFER_SIZE"),
    ("TORCH_FR_DUMP_ON_TIMEOUT", "TORCH_NCCL_DUMP_ON_TIMEOUT"),
)


def _drop_old_recorder_names() -> None:
    """Unset an old name that repeats the new one, when this torch reads the new one."""
    import inspect

    try:
        source = inspect.getsource(dist.distributed_c10d)
    except (OSError, TypeError):
        return
    for new, old in _RENAMED:
        if new in source and old in os.environ and os.environ.get(new) == os.environ[old]:
            del os.environ[old]


def _member(launch: Launch, contract: Contract, device: torch.device) -> Member:
    gpu_uuid: str | None = None
    if device.type == "cuda":
        gpu_uuid = str(torch.cuda.get_device_properties(device).uuid)
    return Member(
        rank=launch.rank,
        local_rank=launch.local_rank,
        local_world_size=launch.local_world_size,
        node_rank=launch.node_rank,
        node=launch.node_name,
        host=socket.gethostname(),
        pid=os.getpid(),
        job_id=launch.job_id,
        restart_count=launch.restart_count,
        elastic_restart_count=launch.elastic_restart_count,
        spec_sha256=contract.spec_sha256,
        device=str(device),
        gpu_uuid=gpu_uuid,
    )


def _choose_device(launch: Launch, requested: str | None) -> torch.device:
    if requested is not None:
        device = torch.device(requested)
    else:
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        choice: DeviceChoice = select_device(count, launch.local_rank, os.environ)
        device = torch.device(str(choice))
    if device.type == "cuda":
        torch.cuda.set_device(device)
    return device


def init(
    *,
    backend: str | None = None,
    device: str | None = None,
    install_signals: bool = True,
    rendezvous_timeout_s: float | None = None,
) -> World:
    """Initialise torch.distributed for this job and return the World; idempotent.

    ``backend`` defaults to nccl on CUDA and gloo on CPU; ``device`` overrides the
    device choice (e.g. ``"cpu"`` to test on a GPU node); ``rendezvous_timeout_s``
    overrides ``JOBC_RENDEZVOUS_TIMEOUT_S``.
    """
    with _LOCK:
        existing = _STATE.world
        if existing is not None:
            if backend is not None and backend != existing.backend:
                raise ValueError(
                    f"jobc.runtime.init() already ran with backend {existing.backend!r}; "
                    f"it cannot switch to {backend!r}"
                )
            return existing
        if dist.is_initialized():
            raise RuntimeSetupError(
                "torch.distributed was initialised before jobc.runtime.init(); let init() "
                "create the process group so that it can check the world first"
            )
        contract = Contract.from_env(os.environ)
        launch = resolve_launch(os.environ, contract)
        check_against_contract(launch, contract)
        parallel = resolve_parallelism(contract, launch.world_size)
        filled = export_launch(launch, os.environ)
        log.debug("rank %d: filled %s", launch.rank, filled)
        _warn_if_torchrun_kills_early(launch, contract)
        _drop_old_recorder_names()
        chosen = _choose_device(launch, device)
        backend = backend or ("nccl" if chosen.type == "cuda" else "gloo")

        signals: SignalWatch | None = None
        if install_signals:
            signals = SignalWatch(contract.stop_signals, grace_s=contract.grace_s)
            signals.install()
        try:
            timeout_s = rendezvous_timeout_s or contract.rendezvous_timeout_s
            store = rendezvous(
                launch,
                contract,
                _member(launch, contract, chosen),
                os.environ,
                timeout_s=timeout_s,
            )
            pg_timeout = (
                None
                if contract.collective_timeout_s is None
                else timedelta(seconds=contract.collective_timeout_s)
            )
            dist.init_process_group(
                backend,
                store=store,
                rank=launch.rank,
                world_size=launch.world_size,
                timeout=pg_timeout,
                device_id=chosen if chosen.type == "cuda" else None,
            )
            mesh = init_device_mesh(chosen.type, parallel.shape, mesh_dim_names=MESH_DIMS)
            hang: HangWatch | None = None
            if contract.hang_s > 0:
                hang = HangWatch(
                    hang_s=contract.hang_s,
                    dump_dir=contract.dump_dir,
                    rank=launch.rank,
                    restart=launch.restart_count,
                    backend=backend,
                    world_size=launch.world_size,
                    groups=_process_groups,
                )
                hang.start()
        except BaseException:
            if signals is not None:
                signals.uninstall()
            if dist.is_initialized():
                dist.destroy_process_group()
            raise
        world = World(
            launch=launch,
            contract=contract,
            parallel=parallel,
            device=chosen,
            backend=backend,
            mesh=mesh,
            signals=signals,
            hang=hang,
        )
        _STATE.world = world
        return world
