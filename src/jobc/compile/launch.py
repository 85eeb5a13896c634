"""The launch: the argument arrays, the per-task step script and the srun lines.

Spec values only ever reach the step as quoted words of bash arrays, expanded with "${a[@]}";
the step script itself is constant text in a quoted heredoc, so nothing in it is expanded by the
batch shell. Whatever must be read on the node (SLURM_NODEID for torchrun's --node-rank, the
InfiniBand interface, local rank 0 for the GPU monitor) is read by that step script.
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.compile import environment, fabric, helpers
from jobc.compile.plan import Plan
from jobc.compile.sbatch import signal_name
from jobc.compile.shell import array, sq

STEP_DELIMITER = "JOBC_STEP"


def step_signals(plan: Plan) -> list[str]:
    """Signals the batch shell forwards and the step's shell must survive: the spec's and TERM
    (Slurm's time limit and a preemption without send_user_signal)."""
    signals = ["TERM"]
    sig = plan.spec.resilience.signal
    if sig is not None and signal_name(sig) not in signals:
        signals.append(signal_name(sig))
    return signals


def step_script(plan: Plan) -> str:
    """The script every task runs (bash -c), with the python words counted in $1."""
    lines = [
        "# Runs once per task, inside the step (and the container): what only the node knows is",
        "# read here, never in the batch shell.",
        "set -euo pipefail",
        "jobc_npython=$1",
        "shift",
        'jobc_python=("${@:1:jobc_npython}")',
        'shift "$jobc_npython"',
    ]
    if environment.auto_interface(plan):
        lines += fabric.DETECT_IB.rstrip("\n").split("\n")
    dmon = list(helpers.dmon(plan))
    if dmon:
        lines += [
            "jobc_dmon_pid=''",
            "jobc_cleanup() {",
            '  if [[ -n $jobc_dmon_pid ]]; then kill "$jobc_dmon_pid" 2>/dev/null || true; fi',
            "}",
            "trap jobc_cleanup EXIT",
            *dmon,
        ]
    lines += [
        "# The signal reaches every process of the step; this shell only has to outlive the",
        "# program, so that the program's exit code (and the cleanup) survive.",
        f"trap : {' '.join(step_signals(plan))}",
        "jobc_status=0",
    ]
    if plan.mode == "torchrun":
        lines.append(
            '"${jobc_python[@]}" -m torch.distributed.run --node-rank="$SLURM_NODEID" "$@" || jobc_status=$?'
        )
    else:
        lines.append('"${jobc_python[@]}" "$@" || jobc_status=$?')
    lines.append('exit "$jobc_status"')
    return "\n".join(lines) + "\n"


def container_flags(plan: Plan) -> list[str]:
    container = plan.spec.container
    if container is None:
        return []
    flags = [f"--container-image={sq(container.image)}"]
    if plan.mounts:
        flags.append(f"--container-mounts={sq(','.join(plan.mounts))}")
    workdir = plan.container_workdir or plan.workdir
    if workdir is not None:
        flags.append(f"--container-workdir={sq(workdir)}")
    if not container.mount_home:
        flags.append("--no-container-mount-home")
    if container.remap_root:
        flags.append("--container-remap-root")
    # The image's own values (PATH, PYTHONPATH, …) would otherwise win over the exported ones.
    flags.append(f"--container-env={sq(','.join(environment.exported_names(plan)))}")
    return flags


def _srun_head(plan: Plan) -> str:
    if plan.attach is None:
        return "srun"
    return f"srun --jobid={sq(plan.attach)} --overlap"


def setup(plan: Plan) -> Iterator[str]:
    """Arrays and the step script, defined before anything runs."""
    yield "# The launch, as words: spec values are quoted, never re-parsed by a shell."
    yield array("jobc_python", plan.python)
    yield array("jobc_program", plan.program)
    if plan.mode == "torchrun":
        t = plan.spec.launch.torchrun
        # Same on every node, so expanded here; --node-rank is added inside the step.
        yield (
            f"jobc_torchrun=(--nnodes={plan.nodes} --nproc-per-node={plan.ranks_per_node} "
            f'--rdzv-backend={t.rdzv} --rdzv-endpoint="$MASTER_ADDR:$MASTER_PORT" '
            f'--rdzv-id="$jobc_job_id" --max-restarts={t.max_restarts})'
        )
    flags = container_flags(plan)
    if flags:
        yield "# pyxis flags belong on srun: sbatch does not start the container."
        yield "jobc_container=(" + " ".join(flags) + ")"
    yield f"read -r -d '' jobc_step <<'{STEP_DELIMITER}' || true"
    yield step_script(plan).rstrip("\n")
    yield STEP_DELIMITER


def _container_words(plan: Plan) -> str:
    return ' "${jobc_container[@]}"' if plan.spec.container is not None else ""


def uv_sync(plan: Plan) -> Iterator[str]:
    if not (plan.uv and plan.spec.launch.uv_sync == "two-phase"):
        return
    yield "# uv, phase one: a single task syncs the environment, so the ranks do not race on the cache."
    yield (f"{_srun_head(plan)} --nodes=1 --ntasks=1 --ntasks-per-node=1{_container_words(plan)} uv sync")


def srun_line(plan: Plan) -> str:
    parts = [
        _srun_head(plan),
        f"--nodes={plan.nodes}",
        f"--ntasks-per-node={plan.tasks_per_node}",
    ]
    cpus = plan.spec.resources.cpus_per_task
    if cpus is not None:
        # srun does not take --cpus-per-task from the job (Slurm 22.05 to 23.02).
        parts.append(f"--cpus-per-task={cpus}")
    # Ranks that save a checkpoint exit one by one: never kill the others at the first exit,
    # but do not wait for a dead rank's partners for ever either.
    parts += ["--kill-on-bad-exit=0", f"--wait={plan.step_wait_s}"]
    words = " ".join(parts) + _container_words(plan)
    launch = '"${jobc_python[@]}"'
    if plan.mode == "torchrun":
        launch += ' "${jobc_torchrun[@]}"'
    launch += ' "${jobc_program[@]}"'
    return f'{words} \\\n  bash -c "$jobc_step" jobc-step "${{#jobc_python[@]}}" {launch}'
