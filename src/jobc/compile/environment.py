"""What every rank finds in its environment: the JOBC_* contract, fabric, caches, the spec's env.

Values are exported from the batch shell as literal single-quoted words; srun hands the batch
shell's environment to every task, and pyxis passes the names in `--container-env` into the
container over the image's own values.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from jobc.compile.plan import Plan
from jobc.compile.shell import export, scalar, sq
from jobc.tables.contract import REQUEUE_EXIT_CODE

if TYPE_CHECKING:
    from collections.abc import Iterator

Exports = list[tuple[str, str]]

# Signals torch.distributed.run's agent handles by default; a user signal is added to them so the
# agent survives it (older torch ignores the variable).
TORCHRUN_SIGNALS = ("SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT")
DEBUG_VARIABLES = (
    ("TORCH_DISTRIBUTED_DEBUG", "DETAIL"),
    ("PYTHONFAULTHANDLER", "1"),
    ("CUDA_LAUNCH_BLOCKING", "1"),
)


def contract(plan: Plan) -> Exports:
    """The variables jobc.runtime reads (see its contract module)."""
    spec, p = plan.spec, plan.spec.parallelism
    out: Exports = [
        ("JOBC_SPEC_NAME", plan.name),
        ("JOBC_SPEC_SHA256", plan.sha256),
        ("JOBC_LAUNCH_MODE", plan.mode),
        ("JOBC_NODES", str(plan.nodes)),
        ("JOBC_GPUS_PER_NODE", str(plan.ranks_per_node)),
        ("JOBC_WORLD_SIZE", str(plan.world)),
        ("JOBC_TP", str(p.tp)),
        ("JOBC_PP", str(p.pp)),
        ("JOBC_CP", str(p.cp)),
        ("JOBC_EP", str(p.ep)),
    ]
    if plan.dp is not None:
        out.append(("JOBC_DP", str(plan.dp)))
    res = spec.resilience
    out += [
        ("JOBC_SIGNAL", res.signal or "none"),
        ("JOBC_GRACE_S", str(plan.grace_s)),
        ("JOBC_REQUEUE_EXIT_CODE", str(REQUEUE_EXIT_CODE)),
        ("JOBC_MAX_RESTARTS", str(res.max_restarts if res.requeue else 0)),
        ("JOBC_COLLECTIVE_TIMEOUT_S", str(spec.fabric.nccl_timeout_s)),
    ]
    if plan.checkpoints is not None:
        out.append(("JOBC_CHECKPOINT_DIR", plan.checkpoints))
    out.append(("JOBC_HANG_S", str(spec.monitoring.hang_s)))
    return out


def flight_recorder(plan: Plan) -> Exports:
    """torch's flight recorder, under both names: TORCH_FR_* since torch 2.7 (FlightRecorder.hpp
    reads the new name first), TORCH_NCCL_* before. Off is written out: torch 2.10 and later
    record 2000 entries when neither name is set."""
    size = plan.spec.monitoring.flight_recorder
    out: Exports = [("TORCH_FR_BUFFER_SIZE", str(size)), ("TORCH_NCCL_TRACE_BUFFER_SIZE", str(size))]
    if size:
        out += [("TORCH_FR_DUMP_ON_TIMEOUT", "1"), ("TORCH_NCCL_DUMP_ON_TIMEOUT", "1")]
    return out


def dump_dir(plan: Plan) -> Iterator[str]:
    """The job's own dump directory beside its log, named like the log: `<log stem>.flight`."""
    if not (plan.spec.monitoring.hang_s or plan.spec.monitoring.flight_recorder):
        return
    spec = plan.spec
    submit_dir = '"${SLURM_SUBMIT_DIR:-$PWD}"'
    if plan.dumps is None:
        base = submit_dir
    elif plan.dumps.startswith("/"):
        base = sq(plan.dumps.rstrip("/") or "/")
    else:
        # Slurm reads a relative log path from the submit directory; the program runs in
        # launch.workdir, so the exported path is made absolute here or the two would differ.
        base = f"{submit_dir}/{sq(plan.dumps.rstrip('/'))}"
    is_array = spec.slurm.array is not None or (spec.sweep is not None and bool(spec.sweep.values))
    # Slurm's own default log name when storage.logs is unset: slurm-%j.out in the submit directory.
    # The name is [A-Za-z0-9._-]+ (the schema says so): safe inside double quotes.
    prefix = "slurm" if plan.dumps is None else f"${{SLURM_JOB_NAME:-{plan.name}}}"
    job = "${SLURM_ARRAY_JOB_ID:-$jobc_job_id}_${SLURM_ARRAY_TASK_ID:-0}" if is_array else "${jobc_job_id}"
    stem = f"{prefix}-{job}"
    yield "# Hang dumps (flight recorder and stacks, written only when a rank hangs or a collective"
    yield "# times out) go to a directory of this job beside its log."
    yield f'export JOBC_DUMP_DIR={base}/"{stem}.flight"'
    yield 'mkdir -p -- "$JOBC_DUMP_DIR" || printf \'jobc: cannot create %s\\n\' "$JOBC_DUMP_DIR" >&2'
    if plan.spec.monitoring.flight_recorder:
        yield "# torch's own dump on a collective timeout (NCCL), for programs without jobc.runtime."
        yield 'export TORCH_FR_DUMP_TEMP_FILE="$JOBC_DUMP_DIR/torch-trace-rank"'
        yield 'export TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$TORCH_FR_DUMP_TEMP_FILE"'


def _user_names(plan: Plan) -> set[str]:
    return {name for name, _ in plan.env}


def nccl(plan: Plan) -> Exports:
    """NCCL and torch variables from the fabric section, then fabric.env (which wins)."""
    from jobc.spec.cudaenv import device_max_connections

    spec, f = plan.spec, plan.spec.fabric
    out: Exports = []
    if f.interface not in (None, "auto"):
        out += [("NCCL_SOCKET_IFNAME", f.interface), ("GLOO_SOCKET_IFNAME", f.interface)]
    out.append(("NCCL_IB_DISABLE", "0" if f.ib else "1"))
    if f.gdr_level is not None:
        out.append(("NCCL_NET_GDR_LEVEL", str(f.gdr_level)))
    if f.ib_gid_index is not None:
        out.append(("NCCL_IB_GID_INDEX", str(f.ib_gid_index)))
    if f.nvls is not None:
        out.append(("NCCL_NVLS_ENABLE", "1" if f.nvls else "0"))
    if spec.debug:
        out.append(("NCCL_DEBUG", "INFO"))
    elif f.debug is not None:
        out.append(("NCCL_DEBUG", f.debug))
    # A collective that times out aborts the process instead of hanging the job.
    out.append(("TORCH_NCCL_ASYNC_ERROR_HANDLING", "1"))
    connections = device_max_connections(spec, plan.ctx.gpu)
    if connections is not None:
        out.append(("CUDA_DEVICE_MAX_CONNECTIONS", str(connections)))
    if plan.mode == "torchrun":
        signals = list(TORCHRUN_SIGNALS)
        if spec.resilience.signal is not None and spec.resilience.signal not in signals:
            signals.append(spec.resilience.signal)
        out.append(("PET_SIGNALS_TO_HANDLE", ",".join(signals)))
        # The agent waits this long for its workers' checkpoint before SIGKILL (default 30 s).
        out.append(("TORCH_ELASTIC_SHUTDOWN_TIMEOUT", str(plan.grace_s)))
    out += [(key, scalar(f.env[key])) for key in sorted(f.env)]
    return out


def program(plan: Plan) -> Exports:
    out: Exports = list(plan.caches)
    if plan.spec.debug:
        out += list(DEBUG_VARIABLES)
    out += list(plan.env)
    return out


def _dedupe(groups: list[Exports]) -> list[Exports]:
    """A later definition of a name wins; the earlier one is not written at all."""
    last: dict[str, tuple[int, int]] = {}
    for g, group in enumerate(groups):
        for i, (name, _) in enumerate(group):
            last[name] = (g, i)
    return [
        [(name, value) for i, (name, value) in enumerate(group) if last[name] == (g, i)]
        for g, group in enumerate(groups)
    ]


def exported_names(plan: Plan) -> list[str]:
    """Every name the script exports for the program (for pyxis --container-env)."""
    names = {
        name
        for group in (contract(plan), flight_recorder(plan), nccl(plan), program(plan))
        for name, _ in group
    }
    if plan.spec.monitoring.hang_s or plan.spec.monitoring.flight_recorder:
        names.add("JOBC_DUMP_DIR")
    if plan.spec.monitoring.flight_recorder:
        names |= {"TORCH_FR_DUMP_TEMP_FILE", "TORCH_NCCL_DEBUG_INFO_TEMP_FILE"}
    names |= {"MASTER_ADDR", "MASTER_PORT", "SLURM_RESTART_COUNT"}
    if plan.spec.launch.pythonpath:
        names.add("PYTHONPATH")
    if plan.spec.container is not None:
        names |= set(plan.spec.container.env)
    names |= set(plan.spec.secrets)
    return sorted(names)


def auto_interface(plan: Plan) -> bool:
    """Whether the step detects the interface itself (not when the spec names one anyway)."""
    named = {name for name, _ in plan.spec.fabric.env.items()} | _user_names(plan)
    return plan.spec.fabric.interface == "auto" and "NCCL_SOCKET_IFNAME" not in named


def exports(plan: Plan) -> Iterator[str]:
    contract_, flight_, nccl_, program_ = _dedupe(
        [contract(plan), flight_recorder(plan), nccl(plan), program(plan)]
    )
    yield "# The contract jobc.runtime reads; it checks the live world against these numbers."
    yield from (export(name, value) for name, value in contract_)
    yield "# Slurm sets this only in the batch environment and only after a requeue."
    yield 'export SLURM_RESTART_COUNT="${SLURM_RESTART_COUNT:-0}"'
    yield ""
    yield "# torch's flight recorder: the last collectives of every process group, per rank."
    if not plan.ctx.given("monitoring"):
        yield "# monitoring is not in the spec: the recorder and jobc.runtime's hang watchdog (JOBC_HANG_S)"
        yield "# are on by default, because a hang leaves nothing to diagnose without them;"
        yield "# monitoring.flight_recorder: 0 and monitoring.hang_s: 0 turn them off."
    yield from (export(name, value) for name, value in flight_)
    dumps = list(dump_dir(plan))
    if dumps:
        yield from dumps
    yield ""
    yield "# Fabric and CUDA."
    if not plan.ctx.given("fabric"):
        yield "# fabric is not in the spec (nor in a profile): jobc's defaults for a GPU cluster with"
        yield "# InfiniBand (fabric.ib true, gdr_level 2, the interface found on each node when the job"
        yield "# starts); write a fabric section to change them. TORCH_NCCL_ASYNC_ERROR_HANDLING is always"
        yield "# set: a collective that fails or times out then ends the job instead of hanging it."
    yield from (export(name, value) for name, value in nccl_)
    if program_ or plan.spec.launch.pythonpath:
        yield ""
        yield "# The program's environment: caches and the spec's env, literal values."
        yield from (export(name, value) for name, value in program_)
        if plan.spec.launch.pythonpath:
            path = ":".join(plan.spec.launch.pythonpath)
            yield f'export PYTHONPATH={sq(path)}"${{PYTHONPATH:+:$PYTHONPATH}}"'


def secret_checks(plan: Plan) -> Iterator[str]:
    if not plan.spec.secrets:
        return
    yield "# Secrets are inherited from where the script is started; their values are never written here."
    for name in plan.spec.secrets:
        message = f"secret {name} is not set: export it in the shell that starts the job"
        yield f': "${{{name}:?{message}}}"'
