"""Assemble the script: a pure function of the validated spec and its context.

No clock, no file system, no host names, no jobc version: identical input gives identical bytes.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from jobc.compile import describe, environment, heal, helpers, launch, preemption, rendezvous
from jobc.compile.plan import Plan, make_plan
from jobc.compile.sbatch import directives
from jobc.compile.shell import sq, trap_handler_note
from jobc.tables import contract

if TYPE_CHECKING:
    from jobc.spec.context import Context


def compile_batch(ctx: Context) -> str:
    """The sbatch script for the spec."""
    return _join(_batch(make_plan(ctx)))


def compile_attach(ctx: Context, job_id: str) -> str:
    """A bash script that runs the same launch inside the running allocation `job_id`."""
    if not (job_id.isascii() and job_id.isdigit()):
        raise ValueError(f"a job id is a number, not {job_id!r}")
    return _join(_attach(make_plan(ctx, attach=job_id)))


def _join(lines: Iterator[str]) -> str:
    return "\n".join(lines) + "\n"


def _header(plan: Plan, what: str) -> Iterator[str]:
    yield "#!/bin/bash"
    yield f"# {plan.name}: {what}"
    yield "# compiled by jobc from the job spec; change the spec and recompile instead of editing this."
    yield f"# spec sha256: {plan.sha256}"
    yield from describe.header_lines(plan)


def _batch(plan: Plan) -> Iterator[str]:
    yield from _header(plan, "sbatch script")
    if plan.logs is not None:
        yield "# Slurm does not create the log directory; it must exist when the job starts."
    yield from directives(plan.ctx, plan.logs)
    yield ""
    yield "set -euo pipefail"
    yield ""
    yield from _allocation_check(plan)
    yield from _body(plan)
    yield ""
    yield from preemption.traps(plan)
    yield ""
    yield from _launch(plan)
    healing = list(heal.before_launch(plan))
    if healing:
        yield ""
        yield from healing
    yield ""
    yield from preemption.run(plan)


def _attach(plan: Plan) -> Iterator[str]:
    yield from _header(plan, f"the launch, attached to the running job {plan.attach}")
    yield "# For debugging inside an salloc allocation: srun --jobid --overlap, no requeue."
    yield ""
    yield "set -euo pipefail"
    yield ""
    yield from _attach_check(plan)
    yield from _body(plan)
    yield ""
    yield from _launch(plan)
    yield ""
    yield from preemption.run(plan)


def _mismatch_function(plan: Plan) -> Iterator[str]:
    yield "jobc_mismatch() {"
    yield (
        "  printf 'jobc: the allocation has %s=%s, but spec %s asks for %s (%s); "
        "did an option override the script?\\n' \\"
    )
    yield f'    "$1" "$2" {sq(plan.name)} "$3" "$4" >&2'
    yield "  exit 1"
    yield "}"


def _allocation_check(plan: Plan) -> Iterator[str]:
    yield "# The allocation must be the one the spec describes: sbatch options override #SBATCH lines."
    yield "if [[ -z ${SLURM_JOB_ID:-} ]]; then"
    yield "  printf 'jobc: not inside a Slurm job; submit this script with sbatch\\n' >&2"
    yield "  exit 1"
    yield "fi"
    yield from _mismatch_function(plan)
    checks = [
        ("SLURM_JOB_NUM_NODES", '"${SLURM_JOB_NUM_NODES:-unset}"', plan.nodes, "resources.nodes", False),
        (
            "SLURM_NTASKS_PER_NODE",
            '"$SLURM_NTASKS_PER_NODE"',
            plan.tasks_per_node,
            "tasks per node for launch.mode " + plan.mode,
            True,
        ),
        # srun reads SLURM_NTASKS from the batch environment as its --ntasks, which wins over the
        # step's --ntasks-per-node: an `sbatch -n 3` would otherwise run a smaller world.
        (
            "SLURM_NTASKS",
            '"$SLURM_NTASKS"',
            plan.nodes * plan.tasks_per_node,
            "resources.nodes x tasks per node for launch.mode " + plan.mode,
            True,
        ),
    ]
    gpus = plan.ctx.gpus_per_node
    if gpus:
        checks.append(
            ("SLURM_GPUS_PER_NODE", '"$SLURM_GPUS_PER_NODE"', gpus, "resources.gpus_per_node", True)
        )
        checks.append(("SLURM_GPUS_ON_NODE", '"$SLURM_GPUS_ON_NODE"', gpus, "resources.gpus_per_node", True))
    for variable, shown, want, where, optional in checks:
        # SLURM_GPUS_PER_NODE may name a type: "h100:8".
        value = f"${{{variable}##*:}}" if variable == "SLURM_GPUS_PER_NODE" else f"${variable}"
        if optional:
            test = f"[[ -n ${{{variable}:-}} ]] && [[ {value} != {want} ]]"
        else:
            test = f"[[ ${{{variable}:-}} != {want} ]]"
        yield f"if {test}; then"
        yield f"  jobc_mismatch {variable} {shown} {want} {sq(where)}"
        yield "fi"
    yield "jobc_job_id=$SLURM_JOB_ID"
    yield "jobc_nodelist=$SLURM_JOB_NODELIST"


def _attach_check(plan: Plan) -> Iterator[str]:
    assert plan.attach is not None
    yield "# The allocation must be running and have the spec's nodes."
    yield f"jobc_job_id={sq(plan.attach)}"
    yield "jobc_nodes=''"
    yield "jobc_nodelist=''"
    yield (
        "read -r jobc_nodes jobc_nodelist "
        "< <(squeue -h -t RUNNING -j \"$jobc_job_id\" -o '%D %N' || true) || true"
    )
    yield "if [[ -z $jobc_nodelist ]]; then"
    yield "  printf 'jobc: job %s is not a running allocation\\n' \"$jobc_job_id\" >&2"
    yield "  exit 1"
    yield "fi"
    yield from _mismatch_function(plan)
    yield f"if [[ $jobc_nodes != {plan.nodes} ]]; then"
    yield f'  jobc_mismatch nodes "$jobc_nodes" {plan.nodes} {sq("resources.nodes")}'
    yield "fi"


def _body(plan: Plan) -> Iterator[str]:
    """What both scripts share: secrets, tracing, environment, rendezvous, setup, banner."""
    secrets = list(environment.secret_checks(plan))
    if secrets:
        yield ""
        yield from secrets
    if plan.spec.debug:
        yield ""
        yield "# debug: trace every command (no secret is in the script to leak)."
        yield "set -x"
    yield ""
    yield from environment.exports(plan)
    yield ""
    yield from rendezvous.lines(plan)
    if plan.workdir is not None and plan.spec.container is None:
        yield ""
        yield f"cd -- {sq(plan.workdir)}"
    if plan.spec.launch.setup:
        yield ""
        yield "# launch.setup, as written in the spec."
        yield from plan.spec.launch.setup
    yield ""
    position = list(heal.log_position(plan))
    if position:
        yield from position
    yield from _banner(plan)
    heartbeat = list(helpers.heartbeat(plan))
    if heartbeat:
        yield ""
        yield "jobc_heartbeat_pid=''"
        yield from trap_handler_note()
        yield "jobc_cleanup() {"
        yield '  if [[ -n $jobc_heartbeat_pid ]]; then kill "$jobc_heartbeat_pid" 2>/dev/null || true; fi'
        yield "}"
        yield "trap jobc_cleanup EXIT"
        yield from heartbeat


def _banner(plan: Plan) -> Iterator[str]:
    p = plan.spec.parallelism
    dp = "?" if plan.dp is None else str(plan.dp)
    layout = (
        f"world {plan.world} = tp {p.tp} x pp {p.pp} x cp {p.cp} x dp {dp} (ep {p.ep}), {plan.mode} launch"
    )
    yield contract.JOB.shell(sq(plan.name), '"$jobc_job_id"', f'"{plan.nodes}"', '"$jobc_nodelist"')
    yield contract.LAYOUT.shell(sq(layout))
    yield contract.MASTER.shell('"$MASTER_ADDR"', '"$MASTER_PORT"', '"$SLURM_RESTART_COUNT"')


def _launch(plan: Plan) -> Iterator[str]:
    yield from launch.setup(plan)
    sync = list(launch.uv_sync(plan))
    if sync:
        yield ""
        yield from sync
