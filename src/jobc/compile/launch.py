"""The launch: the argument arrays, the per-task step script and the srun lines.

Spec values only ever reach the step as quoted words of bash arrays, expanded with "${a[@]}";
the step script itself is constant text in a quoted heredoc, so nothing in it is expanded by the
batch shell. Whatever must be read on the node (SLURM_NODEID for torchrun's --node-rank, the
InfiniBand interface, local rank 0 for the GPU monitor) is read by that step script.
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.compile import environment, fabric, helpers, sweep
from jobc.compile.agent import AGENT
from jobc.compile.plan import NO_PYTHON, UV_PYTHON, Plan
from jobc.compile.sbatch import signal_name
from jobc.compile.shell import array, sq, trap_handler_note, words

STEP_DELIMITER = "JOBC_STEP"


# The batch shell's scancel sends this to every process of the step. Everything but the step's
# shell and the torchrun agent ignores it by default (SIGURG's default action), so it wakes the
# one process that then gives the program the spec's signal: exactly one copy per process, where
# a scancel of the spec's signal itself reaches each worker directly and again through whatever
# forwards signals above it (torchrun's agent, `uv run`).
RELAY_SIGNAL = "URG"
AGENT_DELIMITER = "JOBC_AGENT"
# What torchrun gives its workers, set per task in srun mode so that a program that does not
# import jobc.runtime can still call init_process_group() with env://.
SRUN_RANK_VARIABLES = (
    ("RANK", "$SLURM_PROCID"),
    ("LOCAL_RANK", "$SLURM_LOCALID"),
    ("WORLD_SIZE", "$SLURM_STEP_NUM_TASKS"),
    ("LOCAL_WORLD_SIZE", None),  # the tasks per node, from the plan
    ("GROUP_RANK", "$SLURM_NODEID"),
    ("GROUP_WORLD_SIZE", "$SLURM_STEP_NUM_NODES"),
    ("ROLE_RANK", "$SLURM_PROCID"),
    ("ROLE_WORLD_SIZE", "$SLURM_STEP_NUM_TASKS"),
)


def step_signals(plan: Plan) -> list[str]:
    """Signals the step's shell must survive (the program gets them, from Slurm or the relay):
    TERM (Slurm's time limit and a preemption without send_user_signal) and the spec's."""
    signals = ["TERM"]
    sig = plan.spec.resilience.signal
    if sig is not None and signal_name(sig) not in signals:
        signals.append(signal_name(sig))
    return signals


def _rank_variables(plan: Plan) -> list[str]:
    if plan.mode != "srun":
        return []
    lines = ["# The variables torchrun gives its workers, for programs that read them (env:// rendezvous)."]
    for name, value in SRUN_RANK_VARIABLES:
        # srun is given --nodes and --ntasks-per-node, so every node runs the same number of tasks.
        lines.append(f"export {name}={value or plan.tasks_per_node}")
    return lines


def _run_program(plan: Plan) -> list[str]:
    """Start the program in the background and wait for it, re-waiting after each trap."""
    lines: list[str] = []
    if plan.mode == "torchrun":
        lines += [
            "# torchrun's agent, wrapped (jobc.compile.agent): it gives the workers the spec's signal",
            "# on SIGURG and keeps their requeue exit code.",
            f"read -r -d '' jobc_agent <<'{AGENT_DELIMITER}' || true",
            *AGENT.rstrip("\n").split("\n"),
            AGENT_DELIMITER,
            'set -- -c "$jobc_agent" --node-rank="$SLURM_NODEID" "$@"',
            "# torchrun's --tee=3 prefixes each worker's lines with this; srun --label adds the node's",
            "# task number in front, so every line of the log says which rank wrote it.",
            "# ${rank} is torchrun's template field, not the shell's.",
            "# shellcheck disable=SC2016",
            "export TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE='[rank${rank}]:'",
        ]
    lines += [
        "# The spec's signal and SIGTERM reach this shell too: it only has to outlive the program,",
        "# so that the program's exit code (and the cleanup) survive.",
        "jobc_child=''",
        "jobc_trapped=''",
    ]
    if plan.mode == "srun":
        lines += [
            "jobc_relayed=''",
            *trap_handler_note(),
            "jobc_relay() {",
            "  jobc_trapped=1",
            "  if [[ -z $jobc_relayed && -n $jobc_child && ${JOBC_SIGNAL:-none} != none ]]; then",
            "    jobc_relayed=1",
            '    kill -s "${JOBC_SIGNAL#SIG}" "$jobc_child" 2>/dev/null || true',
            "  fi",
            "}",
            f"trap jobc_relay {RELAY_SIGNAL}",
        ]
    lines += [
        f"trap 'jobc_trapped=1' {' '.join(step_signals(plan))}",
        "# A background command would ignore SIGINT and SIGQUIT; the program gets the defaults back.",
        '( trap - INT QUIT; exec "${jobc_python[@]}" "$@" ) &',
        "jobc_child=$!",
        "# wait returns early when a trap ran; a second wait collects the status once the program",
        "# has ended (127: the first wait had collected it already).",
        "jobc_status=''",
        "jobc_early=''",
        "while [[ -z $jobc_status ]]; do",
        "  jobc_trapped=''",
        "  jobc_rc=0",
        '  wait "$jobc_child" || jobc_rc=$?',
        "  if ((jobc_rc == 127)) && [[ -n $jobc_early ]]; then",
        "    jobc_status=$jobc_early",
        "  elif [[ -n $jobc_trapped ]] && ((jobc_rc > 128)); then",
        "    jobc_early=$jobc_rc",
        "  else",
        "    jobc_status=$jobc_rc",
        "  fi",
        "done",
        'exit "$jobc_status"',
    ]
    return lines


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
        *_rank_variables(plan),
    ]
    if environment.auto_interface(plan):
        lines += fabric.DETECT_IB.rstrip("\n").split("\n")
    dmon = list(helpers.dmon(plan))
    if dmon:
        lines += [
            "jobc_dmon_pid=''",
            *trap_handler_note(),
            "jobc_cleanup() {",
            '  if [[ -n $jobc_dmon_pid ]]; then kill "$jobc_dmon_pid" 2>/dev/null || true; fi',
            "}",
            "trap jobc_cleanup EXIT",
            *dmon,
        ]
    lines += _run_program(plan)
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
    yield from sweep.lines(plan.spec)
    if plan.mode == "torchrun":
        t = plan.spec.launch.torchrun
        # Same on every node, so expanded here; --node-rank is added inside the step.
        yield (
            f"jobc_torchrun=(--nnodes={plan.nodes} --nproc-per-node={plan.ranks_per_node} "
            f'--rdzv-backend={t.rdzv} --rdzv-endpoint="$MASTER_ADDR:$MASTER_PORT" '
            f'--rdzv-id="$jobc_job_id" --max-restarts={t.max_restarts} --tee=3'
            + (" --no-python" if plan.spec.launch.python == NO_PYTHON else "")
            + ")"
        )
    if plan.spec.monitoring.gpu_dmon_s and plan.logs is not None:
        yield "# The GPU monitor's files go beside the job log."
        yield f"export jobc_monitor_dir={sq(plan.logs.rstrip('/') or '/')}"
    flags = container_flags(plan)
    if flags:
        yield "# pyxis flags belong on srun: sbatch does not start the container."
        yield "jobc_container=(" + " ".join(flags) + ")"
    yield f"read -r -d '' jobc_step <<'{STEP_DELIMITER}' || true"
    yield step_script(plan).rstrip("\n")
    yield STEP_DELIMITER


def _container_words(plan: Plan) -> str:
    return ' "${jobc_container[@]}"' if plan.spec.container is not None else ""


def uv_sync_options(plan: Plan) -> list[str]:
    """What launch.uv names, as `uv sync` options; the ranks' `uv run --no-sync` keeps it."""
    uv = plan.spec.launch.uv
    options: list[str] = []
    for extra in uv.extras:
        options += ["--extra", extra]
    if uv.all_extras:
        options.append("--all-extras")
    for group in uv.groups:
        options += ["--group", group]
    if uv.lock is not None:
        options.append(f"--{uv.lock}")
    return options


def _uv_sync_lines(plan: Plan) -> list[str]:
    if plan.spec.launch.uv_sync != "two-phase":
        return []
    options = uv_sync_options(plan)
    return [
        "# uv, phase one: a single task syncs the environment, so the ranks do not race on the cache;",
        "# launch.uv names what it installs (a bare uv sync removes every extra it is not given).",
        f"{_srun_head(plan)} --nodes=1 --ntasks=1 --ntasks-per-node=1{_container_words(plan)} uv sync"
        + (" " + words(options) if options else ""),
    ]


def uv_sync(plan: Plan) -> Iterator[str]:
    """The uv sync before the launch: for `python: uv`, or, when launch.python is not set, for a
    uv project, decided in the workdir when the job starts."""
    if plan.uv:
        yield from _uv_sync_lines(plan)
        return
    if not plan.python_chosen_at_start:
        return
    yield "# launch.python is not set: a uv project (a uv.lock here, in the workdir) runs under uv, as"
    yield "# launch.python: uv would; anything else under the python on PATH after launch.setup."
    yield "if [[ -f uv.lock ]]; then"
    yield "  " + array("jobc_python", UV_PYTHON)
    yield from ("  " + line for line in _uv_sync_lines(plan))
    yield "fi"
    yield "printf 'jobc: interpreter %s (launch.python not set)\\n' \"${jobc_python[*]}\""


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
    # A rank may run on long after the others exited 0 (the last checkpoint, an export): srun must
    # never end the step because a task ended, whatever the site's KillOnBadExit and WaitTime.
    # jobc_watch_step (jobc.compile.preemption) ends it when a task fails.
    parts += ["--kill-on-bad-exit=0", "--wait=0"]
    # Every line of the log starts with the task that wrote it (the rank, or torchrun's node).
    parts.append("--label")
    words = " ".join(parts) + _container_words(plan)
    launch = '"${jobc_python[@]}"'
    if plan.mode == "torchrun":
        launch += ' "${jobc_torchrun[@]}"'
    launch += ' "${jobc_program[@]}"'
    return (
        f'{words} \\\n  bash -c "$jobc_step" jobc-step "${{#jobc_python[@]}}" {launch} 2> >(jobc_watch_step)'
    )
