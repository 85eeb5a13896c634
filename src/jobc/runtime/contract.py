"""The environment contract between the compiled sbatch script and the runtime.

The compiler exports these variables to every rank; the runtime reads them and
nothing else of the spec. All are optional for the runtime (a program started by
hand still runs), but a compiled script exports every one of them.

=========================  ================================================================
``JOBC_SPEC_NAME``         the spec's ``name``; shown in reports and errors
``JOBC_SPEC_SHA256``       sha256 of the spec file; every rank must report the same value
``JOBC_LAUNCH_MODE``       ``srun`` (one task per GPU) or ``torchrun`` (one agent per node);
                           the launcher actually detected must match
``JOBC_WORLD_SIZE``        expected number of ranks (nodes × ranks per node)
``JOBC_NODES``             expected number of nodes
``JOBC_GPUS_PER_NODE``     expected number of ranks on every node (one per GPU)
``JOBC_TP``                tensor-parallel size (default 1)
``JOBC_PP``                pipeline-parallel size (default 1)
``JOBC_CP``                context-parallel size (default 1)
``JOBC_EP``                expert-parallel size (default 1); exposed, not a mesh dimension
``JOBC_DP``                data-parallel size; derived as world / (pp·cp·tp) when unset
``JOBC_SIGNAL``            the preemption signal (``SIGTERM``, ``SIGUSR2``, ``USR2``, ``12``,
                           or ``none``); SIGTERM is always handled as well
``JOBC_GRACE_S``           seconds from the signal's arrival until the watchdog forces the
                           process out (default 120; 0 disables the watchdog)
``JOBC_REQUEUE_EXIT_CODE`` exit code meaning "checkpointed, please requeue" (default 75,
                           ``EX_TEMPFAIL``)
``JOBC_CHECKPOINT_DIR``    where the program checkpoints (exposed as ``World.checkpoint_dir``)
``JOBC_MAX_RESTARTS``      how many requeues the batch shell allows (exposed)
``JOBC_RENDEZVOUS_TIMEOUT_S`` seconds all ranks have to meet at MASTER_ADDR:MASTER_PORT
                           (default 300)
``JOBC_COLLECTIVE_TIMEOUT_S`` timeout of collectives in the process group (default: torch's)
``JOBC_HANG_S``            seconds without a completed step before the hang watchdog writes
                           its dumps and ends the rank (default 0: off)
``JOBC_DUMP_DIR``          where the hang watchdog writes flight-recorder traces and stacks
=========================  ================================================================

``JOBC_TP``·``JOBC_PP``·``JOBC_CP``·``JOBC_DP`` must equal the world size.
"""

from __future__ import annotations

import signal
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from jobc.runtime.errors import ContractError

__all__ = [
    "CONTRACT",
    "DEFAULT_GRACE_S",
    "DEFAULT_RENDEZVOUS_TIMEOUT_S",
    "DEFAULT_REQUEUE_EXIT_CODE",
    "HANG_EXIT_CODE",
    "LAUNCHER_VARIABLES",
    "WATCHDOG_EXIT_CODE",
    "WRITTEN_VARIABLES",
    "Contract",
    "EnvVar",
    "parse_signal",
]

# sysexits.h EX_TEMPFAIL: "temporary failure, the user is invited to retry";
# distinct from Python's 1, a signal death (128+n) and the watchdog's code.
DEFAULT_REQUEUE_EXIT_CODE = 75
# Same code as coreutils `timeout`: the save overran its window, the checkpoint
# may be incomplete, so the batch shell must not treat it as a clean requeue.
WATCHDOG_EXIT_CODE = 124
# The hang watchdog ended the rank (no step completed for JOBC_HANG_S, or a collective failed):
# outside sysexits' 64-78, below the shell's 126+, distinct from the codes above.
HANG_EXIT_CODE = 86
DEFAULT_GRACE_S = 120.0
DEFAULT_RENDEZVOUS_TIMEOUT_S = 300.0

LaunchMode = Literal["srun", "torchrun"]


@dataclass(frozen=True)
class EnvVar:
    name: str
    meaning: str


CONTRACT: tuple[EnvVar, ...] = (
    EnvVar("JOBC_SPEC_NAME", "the spec's name; shown in reports and errors"),
    EnvVar("JOBC_SPEC_SHA256", "sha256 of the spec; every rank must report the same value"),
    EnvVar("JOBC_LAUNCH_MODE", "srun or torchrun; the detected launcher must match"),
    EnvVar("JOBC_WORLD_SIZE", "expected number of ranks"),
    EnvVar("JOBC_NODES", "expected number of nodes"),
    EnvVar("JOBC_GPUS_PER_NODE", "expected number of ranks on every node"),
    EnvVar("JOBC_TP", "tensor-parallel size (default 1)"),
    EnvVar("JOBC_PP", "pipeline-parallel size (default 1)"),
    EnvVar("JOBC_CP", "context-parallel size (default 1)"),
    EnvVar("JOBC_EP", "expert-parallel size (default 1)"),
    EnvVar("JOBC_DP", "data-parallel size (default world / (pp*cp*tp))"),
    EnvVar("JOBC_SIGNAL", "preemption signal; SIGTERM is always handled too"),
    EnvVar("JOBC_GRACE_S", "seconds from the signal until the watchdog forces exit (default 120)"),
    EnvVar("JOBC_REQUEUE_EXIT_CODE", "exit code for 'checkpointed, please requeue' (default 75)"),
    EnvVar("JOBC_CHECKPOINT_DIR", "checkpoint directory"),
    EnvVar("JOBC_MAX_RESTARTS", "requeues the batch shell allows"),
    EnvVar("JOBC_RENDEZVOUS_TIMEOUT_S", "seconds all ranks have to meet (default 300)"),
    EnvVar("JOBC_COLLECTIVE_TIMEOUT_S", "collective timeout of the process group"),
    EnvVar("JOBC_HANG_S", "seconds without a completed step before the hang watchdog acts (0: off)"),
    EnvVar("JOBC_DUMP_DIR", "where the hang watchdog writes flight-recorder traces and stacks"),
)

# Set by Slurm or torchrun, read (never written) by the runtime.
LAUNCHER_VARIABLES: tuple[EnvVar, ...] = (
    EnvVar("TORCHELASTIC_RUN_ID", "present: launched by torchrun, whose variables win"),
    EnvVar("RANK", "torchrun: global rank"),
    EnvVar("LOCAL_RANK", "torchrun: rank on this node"),
    EnvVar("WORLD_SIZE", "torchrun: number of ranks"),
    EnvVar("LOCAL_WORLD_SIZE", "torchrun: ranks on this node"),
    EnvVar("GROUP_RANK", "torchrun: node rank (never SLURM_NODEID)"),
    EnvVar("GROUP_WORLD_SIZE", "torchrun: number of nodes"),
    EnvVar("TORCHELASTIC_RESTART_COUNT", "torchrun: in-job restarts"),
    EnvVar("TORCHELASTIC_USE_AGENT_STORE", "torchrun: the agent hosts the TCPStore"),
    EnvVar("MASTER_ADDR", "rendezvous host; honoured when set"),
    EnvVar("MASTER_PORT", "rendezvous port; honoured when set"),
    EnvVar("SLURM_JOB_ID", "job id; keys the fallback MASTER_PORT"),
    EnvVar("SLURM_STEP_ID", "step id; keys the fallback MASTER_PORT"),
    EnvVar("SLURM_PROCID", "srun: global rank"),
    EnvVar("SLURM_LOCALID", "srun: rank on this node"),
    EnvVar("SLURM_NODEID", "srun: node index within the step"),
    EnvVar("SLURM_STEP_NUM_TASKS", "srun: number of ranks; its presence means 'srun started me'"),
    EnvVar("SLURM_STEP_NUM_NODES", "srun: number of nodes"),
    EnvVar("SLURM_STEP_NODELIST", "srun: the step's hosts; the first is the fallback MASTER_ADDR"),
    EnvVar("SLURM_STEP_TASKS_PER_NODE", "srun: ranks per node, e.g. 2(x3),1"),
    EnvVar("SLURMD_NODENAME", "the node's Slurm name; groups ranks by node"),
    EnvVar("SLURM_RESTART_COUNT", "requeues so far (0 when unset)"),
    EnvVar("SLURM_JOB_END_TIME", "Unix time the job is killed; tells timeout from preemption"),
    EnvVar("CUDA_VISIBLE_DEVICES", "reported when the device cannot be chosen"),
    EnvVar("NCCL_SOCKET_IFNAME", "reported by the check program"),
    EnvVar("GLOO_SOCKET_IFNAME", "reported by the check program"),
)

# Filled in (only when unset) for the program and libraries that read them.
WRITTEN_VARIABLES: tuple[str, ...] = (
    "RANK",
    "LOCAL_RANK",
    "WORLD_SIZE",
    "LOCAL_WORLD_SIZE",
    "NODE_RANK",
    "MASTER_ADDR",
    "MASTER_PORT",
)


def parse_signal(value: str, *, variable: str = "JOBC_SIGNAL") -> signal.Signals | None:
    """``SIGTERM`` / ``TERM`` / ``15`` → the signal; ``none`` or empty → None."""
    text = value.strip()
    if text.lower() in {"", "none", "null"}:
        return None
    if text.isascii() and text.isdigit() and len(text) <= 18:  # "²".isdigit() is true too
        try:
            return signal.Signals(int(text))
        except ValueError:
            raise ContractError(f"{variable}={value!r} is not a signal number") from None
    name = text.upper()
    if not name.startswith("SIG"):
        name = "SIG" + name
    try:
        return signal.Signals[name]
    except KeyError:
        raise ContractError(f"{variable}={value!r} is not a signal name") from None


def _text(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def _int(env: Mapping[str, str], name: str, *, minimum: int) -> int | None:
    raw = _text(env, name)
    if raw is None:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ContractError(f"{name}={raw!r} is not an integer") from None
    if value < minimum:
        raise ContractError(f"{name}={value} must be at least {minimum}")
    return value


def _seconds(env: Mapping[str, str], name: str) -> float | None:
    raw = _text(env, name)
    if raw is None:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise ContractError(f"{name}={raw!r} is not a number of seconds") from None
    if not value >= 0:  # also rejects NaN
        raise ContractError(f"{name}={raw!r} must be a non-negative number of seconds")
    return value


@dataclass(frozen=True)
class Contract:
    """The ``JOBC_*`` variables, parsed and validated; None where unset."""

    spec_name: str | None = None
    spec_sha256: str | None = None
    launch_mode: LaunchMode | None = None
    world_size: int | None = None
    nodes: int | None = None
    gpus_per_node: int | None = None
    tp: int = 1
    pp: int = 1
    cp: int = 1
    ep: int = 1
    dp: int | None = None
    preemption_signal: signal.Signals | None = signal.SIGTERM
    grace_s: float = DEFAULT_GRACE_S
    requeue_exit_code: int = DEFAULT_REQUEUE_EXIT_CODE
    checkpoint_dir: Path | None = None
    max_restarts: int | None = None
    rendezvous_timeout_s: float = DEFAULT_RENDEZVOUS_TIMEOUT_S
    collective_timeout_s: float | None = None
    hang_s: float = 0.0
    dump_dir: Path | None = None

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Contract:
        mode = _text(env, "JOBC_LAUNCH_MODE")
        if mode is not None and mode not in ("srun", "torchrun"):
            raise ContractError(f"JOBC_LAUNCH_MODE={mode!r} must be 'srun' or 'torchrun'")
        raw_signal = env.get("JOBC_SIGNAL")
        requeue = _int(env, "JOBC_REQUEUE_EXIT_CODE", minimum=1)
        if requeue is not None and requeue > 255:
            raise ContractError(f"JOBC_REQUEUE_EXIT_CODE={requeue} must be between 1 and 255")
        checkpoint_dir = _text(env, "JOBC_CHECKPOINT_DIR")
        grace = _seconds(env, "JOBC_GRACE_S")
        rendezvous = _seconds(env, "JOBC_RENDEZVOUS_TIMEOUT_S")
        if rendezvous is not None and rendezvous <= 0:
            raise ContractError("JOBC_RENDEZVOUS_TIMEOUT_S must be positive")
        hang = _seconds(env, "JOBC_HANG_S")
        dump_dir = _text(env, "JOBC_DUMP_DIR")
        collective = _seconds(env, "JOBC_COLLECTIVE_TIMEOUT_S")
        if collective is not None and collective <= 0:
            raise ContractError("JOBC_COLLECTIVE_TIMEOUT_S must be positive")
        return cls(
            spec_name=_text(env, "JOBC_SPEC_NAME"),
            spec_sha256=_text(env, "JOBC_SPEC_SHA256"),
            launch_mode="srun" if mode == "srun" else "torchrun" if mode == "torchrun" else None,
            world_size=_int(env, "JOBC_WORLD_SIZE", minimum=1),
            nodes=_int(env, "JOBC_NODES", minimum=1),
            gpus_per_node=_int(env, "JOBC_GPUS_PER_NODE", minimum=1),
            tp=_int(env, "JOBC_TP", minimum=1) or 1,
            pp=_int(env, "JOBC_PP", minimum=1) or 1,
            cp=_int(env, "JOBC_CP", minimum=1) or 1,
            ep=_int(env, "JOBC_EP", minimum=1) or 1,
            dp=_int(env, "JOBC_DP", minimum=1),
            preemption_signal=signal.SIGTERM if raw_signal is None else parse_signal(raw_signal),
            grace_s=DEFAULT_GRACE_S if grace is None else grace,
            requeue_exit_code=DEFAULT_REQUEUE_EXIT_CODE if requeue is None else requeue,
            checkpoint_dir=None if checkpoint_dir is None else Path(checkpoint_dir),
            max_restarts=_int(env, "JOBC_MAX_RESTARTS", minimum=0),
            rendezvous_timeout_s=DEFAULT_RENDEZVOUS_TIMEOUT_S if rendezvous is None else rendezvous,
            collective_timeout_s=collective,
            hang_s=0.0 if hang is None else hang,
            dump_dir=None if dump_dir is None else Path(dump_dir),
        )

    @property
    def stop_signals(self) -> tuple[signal.Signals, ...]:
        """The configured signal first, then SIGTERM: Slurm's time limit and a preemption
        without ``send_user_signal`` only ever send SIGTERM."""
        if self.preemption_signal is None or self.preemption_signal == signal.SIGTERM:
            return (signal.SIGTERM,)
        return (self.preemption_signal, signal.SIGTERM)
