"""Who launched this process, and the rank/world/master it implies.

Detection, first match wins:

1. ``torchrun`` — ``TORCHELASTIC_RUN_ID`` is set. Under ``srun torchrun`` the
   Slurm variables describe the agent, not the worker, so torchrun's ``RANK``,
   ``LOCAL_RANK``, ``WORLD_SIZE``, ``LOCAL_WORLD_SIZE`` and ``MASTER_*`` are taken
   verbatim and the node rank is ``GROUP_RANK`` (rendezvous order), never
   ``SLURM_NODEID``.
2. ``srun`` — ``SLURM_STEP_NUM_TASKS`` is set, which only srun-launched steps have
   (the batch shell also has ``SLURM_PROCID=0`` and ``SLURM_NTASKS``). Everything
   comes from step-level variables, because a step may use a subset of the job's
   nodes and ``srun --preserve-env`` keeps job-level counts.
3. ``env`` — ``RANK`` and ``WORLD_SIZE`` are set by some other launcher.
4. ``single`` — one process. Inside a Slurm job without a step (the batch shell)
   this is refused when the spec wants more than one rank: the job would hang.

Only unset variables are filled in; a launcher's or container hook's values are
never overwritten, and a value that contradicts the step is an error.

The fallback ``MASTER_PORT`` (the compiled script normally exports one) is::

    20000 + (SLURM_JOB_ID + 5563 * SLURM_STEP_ID) % 9000

i.e. 20000-28999: below Linux's ephemeral range (32768-60999), clear of
torchrun's defaults 29400/29500, the same on every rank without communication,
different for concurrent jobs with nearby ids and for concurrent steps of one job.
With ``SLURM_STEP_ID`` 0 (or not numeric) it is ``20000 + SLURM_JOB_ID % 9000``,
the formula the compiled script uses in the batch shell.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Mapping, MutableMapping
from dataclasses import dataclass, field
from typing import Literal, TypedDict

from jobc.runtime.contract import Contract
from jobc.runtime.errors import HostlistError, LaunchError, WorldMismatchError
from jobc.runtime.hostlist import expand_hostlist, expand_tasks_per_node

__all__ = [
    "PORT_BASE",
    "PORT_SPAN",
    "STEP_STRIDE",
    "Launch",
    "LaunchMode",
    "check_against_contract",
    "export_launch",
    "fallback_master_port",
    "find_free_port",
    "resolve_launch",
]

LaunchMode = Literal["torchrun", "srun", "env", "single"]

PORT_BASE = 20000
PORT_SPAN = 9000
# The span times the golden ratio: the first steps of a job land far apart in the
# span, so step s of job j only meets step 0 of a job over a thousand ids away,
# not a neighbour that is likely to run at the same time.
STEP_STRIDE = 5563


def fallback_master_port(job_id: int, step_id: int = 0) -> int:
    """The documented MASTER_PORT for a job (and step) when none is exported."""
    return PORT_BASE + (job_id + STEP_STRIDE * step_id) % PORT_SPAN


def find_free_port() -> int:
    """A currently free TCP port; only safe when one process will use it."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass(frozen=True)
class Launch:
    mode: LaunchMode
    rank: int
    local_rank: int
    world_size: int
    local_world_size: int
    node_rank: int
    num_nodes: int
    master_addr: str
    master_port: int
    node_name: str
    restart_count: int = 0
    elastic_restart_count: int = 0
    job_id: str | None = None
    # srun only: ranks on each node of the step, in node order.
    tasks_per_node: tuple[int, ...] | None = None
    hosts: tuple[str, ...] | None = None
    # Which variable each value came from, so errors can name it.
    sources: Mapping[str, str] = field(default_factory=dict)

    @property
    def master(self) -> str:
        return f"{self.master_addr}:{self.master_port}"


class _Common(TypedDict):
    node_name: str
    restart_count: int
    elastic_restart_count: int
    job_id: str | None


def _get(env: Mapping[str, str], name: str) -> str | None:
    value = env.get(name, "").strip()
    return value or None


def _int(env: Mapping[str, str], name: str, *, context: str) -> int:
    raw = _get(env, name)
    if raw is None:
        raise LaunchError(f"{context}: {name} is not set")
    try:
        value = int(raw)
    except ValueError:
        raise LaunchError(f"{context}: {name}={raw!r} is not an integer") from None
    if value < 0:
        raise LaunchError(f"{context}: {name}={value} is negative")
    return value


def _optional_int(env: Mapping[str, str], name: str, default: int) -> int:
    if _get(env, name) is None:
        return default
    return _int(env, name, context="reading the restart count")


def _port(env: Mapping[str, str], name: str, *, context: str) -> int:
    port = _int(env, name, context=context)
    if not 0 < port < 65536:
        raise LaunchError(f"{context}: {name}={port} is not a TCP port")
    return port


def _node_name(env: Mapping[str, str], hostname: str | None) -> str:
    return _get(env, "SLURMD_NODENAME") or hostname or socket.gethostname()


def resolve_launch(
    env: Mapping[str, str],
    contract: Contract | None = None,
    *,
    hostname: str | None = None,
    free_port: Callable[[], int] = find_free_port,
) -> Launch:
    """Derive rank, world and master from ``env`` without touching it."""
    contract = contract or Contract()
    common = _Common(
        node_name=_node_name(env, hostname),
        restart_count=_optional_int(env, "SLURM_RESTART_COUNT", 0),
        elastic_restart_count=_optional_int(env, "TORCHELASTIC_RESTART_COUNT", 0),
        job_id=_get(env, "SLURM_JOB_ID"),
    )
    if _get(env, "TORCHELASTIC_RUN_ID") is not None:
        return _resolve_torchrun(env, common)
    if _get(env, "SLURM_STEP_NUM_TASKS") is not None:
        return _resolve_srun(env, common)
    if _get(env, "RANK") is not None or _get(env, "WORLD_SIZE") is not None:
        return _resolve_env(env, common)
    if common["job_id"] is not None and (contract.world_size or 1) > 1:
        raise LaunchError(
            f"running in the Slurm batch shell of job {common['job_id']} without srun "
            f"(SLURM_JOB_ID is set, SLURM_STEP_NUM_TASKS is not), but the spec expects "
            f"JOBC_WORLD_SIZE={contract.world_size} ranks: start the program with srun "
            "(or torchrun inside srun), otherwise it waits forever for ranks that never start"
        )
    return _resolve_single(env, common, free_port)


def _resolve_torchrun(env: Mapping[str, str], common: _Common) -> Launch:
    context = "torchrun launch (TORCHELASTIC_RUN_ID is set)"
    rank = _int(env, "RANK", context=context)
    local_rank = _int(env, "LOCAL_RANK", context=context)
    world_size = _int(env, "WORLD_SIZE", context=context)
    local_world_size = _int(env, "LOCAL_WORLD_SIZE", context=context)
    if world_size < 1 or local_world_size < 1:
        raise LaunchError(f"{context}: WORLD_SIZE and LOCAL_WORLD_SIZE must be positive")
    if _get(env, "GROUP_RANK") is not None:
        node_rank = _int(env, "GROUP_RANK", context=context)
        node_source = "GROUP_RANK"
    else:
        node_rank = rank // local_world_size
        node_source = "RANK // LOCAL_WORLD_SIZE"
    if _get(env, "GROUP_WORLD_SIZE") is not None:
        num_nodes = _int(env, "GROUP_WORLD_SIZE", context=context)
    else:
        num_nodes = max(1, world_size // local_world_size)
    _check_bounds(
        rank=rank,
        world_size=world_size,
        local_rank=local_rank,
        local_world_size=local_world_size,
        node_rank=node_rank,
        num_nodes=num_nodes,
        context=context,
    )
    return Launch(
        mode="torchrun",
        rank=rank,
        local_rank=local_rank,
        world_size=world_size,
        local_world_size=local_world_size,
        node_rank=node_rank,
        num_nodes=num_nodes,
        master_addr=_require(env, "MASTER_ADDR", context),
        master_port=_port(env, "MASTER_PORT", context=context),
        sources={
            "world_size": "WORLD_SIZE",
            "local_world_size": "LOCAL_WORLD_SIZE",
            "node_rank": node_source,
            "num_nodes": "GROUP_WORLD_SIZE",
            "master_addr": "MASTER_ADDR",
            "master_port": "MASTER_PORT",
        },
        **common,
    )


def _require(env: Mapping[str, str], name: str, context: str) -> str:
    value = _get(env, name)
    if value is None:
        raise LaunchError(f"{context}: {name} is not set")
    return value


def _check_bounds(
    *,
    rank: int,
    world_size: int,
    local_rank: int,
    local_world_size: int,
    node_rank: int,
    num_nodes: int,
    context: str,
) -> None:
    if not rank < world_size:
        raise LaunchError(f"{context}: rank {rank} is outside a world of {world_size}")
    if not local_rank < local_world_size:
        raise LaunchError(
            f"{context}: local rank {local_rank} is outside {local_world_size} ranks on this node"
        )
    if not node_rank < num_nodes:
        raise LaunchError(f"{context}: node rank {node_rank} is outside {num_nodes} nodes")


def _resolve_srun(env: Mapping[str, str], common: _Common) -> Launch:
    context = "srun launch (SLURM_STEP_NUM_TASKS is set)"
    world_size = _int(env, "SLURM_STEP_NUM_TASKS", context=context)
    rank = _int(env, "SLURM_PROCID", context=context)
    local_rank = _int(env, "SLURM_LOCALID", context=context)
    node_rank = _int(env, "SLURM_NODEID", context=context)
    nodelist = _require(env, "SLURM_STEP_NODELIST", context)
    tasks_text = _require(env, "SLURM_STEP_TASKS_PER_NODE", context)
    try:
        hosts = expand_hostlist(nodelist)
        tasks = expand_tasks_per_node(tasks_text)
    except HostlistError as exc:
        raise LaunchError(f"{context}: {exc}") from None
    if _get(env, "SLURM_STEP_NUM_NODES") is not None:
        num_nodes = _int(env, "SLURM_STEP_NUM_NODES", context=context)
    else:
        num_nodes = len(hosts)
    if len(hosts) != num_nodes:
        raise LaunchError(
            f"{context}: SLURM_STEP_NODELIST={nodelist!r} names {len(hosts)} hosts but "
            f"SLURM_STEP_NUM_NODES={num_nodes}"
        )
    if len(tasks) != num_nodes:
        raise LaunchError(
            f"{context}: SLURM_STEP_TASKS_PER_NODE={tasks_text!r} describes {len(tasks)} nodes "
            f"but the step has {num_nodes}"
        )
    if sum(tasks) != world_size:
        raise LaunchError(
            f"{context}: SLURM_STEP_TASKS_PER_NODE={tasks_text!r} adds up to {sum(tasks)} "
            f"ranks but SLURM_STEP_NUM_TASKS={world_size}"
        )
    if not node_rank < num_nodes:
        raise LaunchError(f"{context}: SLURM_NODEID={node_rank} is outside {num_nodes} nodes")
    local_world_size = tasks[node_rank]
    _check_bounds(
        rank=rank,
        world_size=world_size,
        local_rank=local_rank,
        local_world_size=local_world_size,
        node_rank=node_rank,
        num_nodes=num_nodes,
        context=context,
    )

    _refuse_other_layouts(
        env,
        {
            "RANK": rank,
            "LOCAL_RANK": local_rank,
            "WORLD_SIZE": world_size,
            "LOCAL_WORLD_SIZE": local_world_size,
            "NODE_RANK": node_rank,
        },
        context,
    )
    sources = {
        "world_size": "SLURM_STEP_NUM_TASKS",
        "local_world_size": "SLURM_STEP_TASKS_PER_NODE",
        "node_rank": "SLURM_NODEID",
        "num_nodes": "SLURM_STEP_NUM_NODES",
    }
    master_addr, master_port = _srun_master(env, hosts, sources, context)
    return Launch(
        mode="srun",
        rank=rank,
        local_rank=local_rank,
        world_size=world_size,
        local_world_size=local_world_size,
        node_rank=node_rank,
        num_nodes=num_nodes,
        master_addr=master_addr,
        master_port=master_port,
        tasks_per_node=tuple(tasks),
        hosts=tuple(hosts),
        sources=sources,
        **common,
    )


def _refuse_other_layouts(env: Mapping[str, str], derived: Mapping[str, int], context: str) -> None:
    """A torch variable already set to another value than the step's: refused, not overridden."""
    for name, value in derived.items():
        preset = _get(env, name)
        if preset is not None and preset != str(value):
            raise LaunchError(
                f"{context}: {name}={preset} is already set but the step says {value} "
                f"(from SLURM_PROCID/SLURM_LOCALID/SLURM_NODEID/SLURM_STEP_*); something "
                "exported it for a different layout (a container hook reading job-level "
                "variables, srun --preserve-env, or a stale export in the batch script): "
                f"unset {name} or make it agree"
            )


def _srun_master(
    env: Mapping[str, str], hosts: list[str], sources: dict[str, str], context: str
) -> tuple[str, int]:
    """MASTER_ADDR and MASTER_PORT of an srun step, noting in `sources` where each came from."""
    master_addr = _get(env, "MASTER_ADDR")
    sources["master_addr"] = "MASTER_ADDR"
    if master_addr is None:
        master_addr = hosts[0]
        sources["master_addr"] = "first host of SLURM_STEP_NODELIST"
    if _get(env, "MASTER_PORT") is not None:
        sources["master_port"] = "MASTER_PORT"
        return master_addr, _port(env, "MASTER_PORT", context=context)
    job_id = _get(env, "SLURM_JOB_ID")
    # ASCII digits of a job id's size ("²".isdigit() is true; int() refuses it)
    if job_id is None or not (job_id.isascii() and job_id.isdigit() and len(job_id) <= 18):
        raise LaunchError(
            f"{context}: MASTER_PORT is unset and SLURM_JOB_ID={job_id!r} cannot key the "
            "fallback port; export MASTER_PORT"
        )
    step = _get(env, "SLURM_STEP_ID")
    usable = step is not None and step.isascii() and step.isdigit() and len(step) <= 18
    step_id = int(step) if usable and step is not None else 0
    sources["master_port"] = "derived from SLURM_JOB_ID and SLURM_STEP_ID"
    return master_addr, fallback_master_port(int(job_id), step_id)


def _resolve_env(env: Mapping[str, str], common: _Common) -> Launch:
    context = "launch from RANK/WORLD_SIZE (no torchrun, no srun step)"
    rank = _int(env, "RANK", context=context)
    world_size = _int(env, "WORLD_SIZE", context=context)
    local_rank = _int(env, "LOCAL_RANK", context=context)
    local_world_size = _int(env, "LOCAL_WORLD_SIZE", context=context)
    if world_size < 1 or local_world_size < 1:
        raise LaunchError(f"{context}: WORLD_SIZE and LOCAL_WORLD_SIZE must be positive")
    if _get(env, "NODE_RANK") is not None:
        node_rank = _int(env, "NODE_RANK", context=context)
    else:
        node_rank = rank // local_world_size
    num_nodes = max(1, -(-world_size // local_world_size))
    _check_bounds(
        rank=rank,
        world_size=world_size,
        local_rank=local_rank,
        local_world_size=local_world_size,
        node_rank=node_rank,
        num_nodes=num_nodes,
        context=context,
    )
    return Launch(
        mode="env",
        rank=rank,
        local_rank=local_rank,
        world_size=world_size,
        local_world_size=local_world_size,
        node_rank=node_rank,
        num_nodes=num_nodes,
        master_addr=_require(env, "MASTER_ADDR", context),
        master_port=_port(env, "MASTER_PORT", context=context),
        sources={
            "world_size": "WORLD_SIZE",
            "local_world_size": "LOCAL_WORLD_SIZE",
            "node_rank": "NODE_RANK",
            "num_nodes": "WORLD_SIZE / LOCAL_WORLD_SIZE",
            "master_addr": "MASTER_ADDR",
            "master_port": "MASTER_PORT",
        },
        **common,
    )


def _resolve_single(env: Mapping[str, str], common: _Common, free_port: Callable[[], int]) -> Launch:
    context = "single-process launch"
    master_port = (
        _port(env, "MASTER_PORT", context=context) if _get(env, "MASTER_PORT") is not None else free_port()
    )
    return Launch(
        mode="single",
        rank=0,
        local_rank=0,
        world_size=1,
        local_world_size=1,
        node_rank=0,
        num_nodes=1,
        master_addr=_get(env, "MASTER_ADDR") or "127.0.0.1",
        master_port=master_port,
        sources={
            "world_size": "single process",
            "local_world_size": "single process",
            "num_nodes": "single process",
            "master_addr": "MASTER_ADDR or 127.0.0.1",
            "master_port": "MASTER_PORT or a free port",
        },
        **common,
    )


def export_launch(launch: Launch, environ: MutableMapping[str, str]) -> dict[str, str]:
    """Fill the standard variables that are unset; return what was filled."""
    values = {
        "RANK": launch.rank,
        "LOCAL_RANK": launch.local_rank,
        "WORLD_SIZE": launch.world_size,
        "LOCAL_WORLD_SIZE": launch.local_world_size,
        "NODE_RANK": launch.node_rank,
        "MASTER_ADDR": launch.master_addr,
        "MASTER_PORT": launch.master_port,
    }
    filled: dict[str, str] = {}
    for name, value in values.items():
        if not environ.get(name, "").strip():
            environ[name] = filled[name] = str(value)
    return filled


def check_against_contract(launch: Launch, contract: Contract) -> None:
    """Compare what the launcher started with what the spec expects, before any network."""
    problems: list[str] = []
    src = launch.sources
    if contract.launch_mode not in (None, launch.mode) and launch.mode in ("srun", "torchrun"):
        problems.append(
            f"launch mode: the spec expects JOBC_LAUNCH_MODE={contract.launch_mode} but "
            f"this process was started by {launch.mode}"
        )
    if contract.world_size is not None and contract.world_size != launch.world_size:
        problems.append(
            f"world size: the spec expects JOBC_WORLD_SIZE={contract.world_size} ranks but "
            f"the launcher started {launch.world_size} "
            f"({src.get('world_size', 'launcher')}={launch.world_size})"
        )
    if contract.nodes is not None and contract.nodes != launch.num_nodes:
        problems.append(
            f"nodes: the spec expects JOBC_NODES={contract.nodes} nodes but the launcher "
            f"reports {launch.num_nodes} ({src.get('num_nodes', 'launcher')}={launch.num_nodes})"
        )
    if contract.gpus_per_node is not None:
        if launch.tasks_per_node is not None:
            hosts = launch.hosts or ()
            for index, count in enumerate(launch.tasks_per_node):
                if count != contract.gpus_per_node:
                    host = hosts[index] if index < len(hosts) else f"node {index}"
                    problems.append(
                        f"ranks per node: the spec expects JOBC_GPUS_PER_NODE="
                        f"{contract.gpus_per_node} but node {index} ({host}) runs {count} "
                        f"(SLURM_STEP_TASKS_PER_NODE)"
                    )
        elif contract.gpus_per_node != launch.local_world_size:
            problems.append(
                f"ranks per node: the spec expects JOBC_GPUS_PER_NODE={contract.gpus_per_node} "
                f"but this node runs {launch.local_world_size} "
                f"({src.get('local_world_size', 'launcher')}={launch.local_world_size})"
            )
    if problems:
        raise WorldMismatchError(_mismatch_message(problems, contract))


def _mismatch_message(problems: list[str], contract: Contract) -> str:
    spec = f" {contract.spec_name!r}" if contract.spec_name else ""
    lines = "\n".join(f"  - {p}" for p in problems)
    return f"the live world does not match the spec{spec}:\n{lines}"
