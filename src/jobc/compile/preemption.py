"""Signals, waiting and requeue in the batch shell.

Slurm sends the spec's signal to this shell only (`--signal=B:…`), and bash runs a trap only
between commands, so srun runs in the background and the shell waits, re-waiting after each
trap. The trap passes the signal on with `scancel --signal=URG <job>`: without --batch or --full
that reaches every process of every job step, but not this shell and not srun (which would
answer SIGTERM by killing its tasks at once). Every process but the step's shell and the torchrun
agent ignores SIGURG; those two give the spec's signal to the program, or to torchrun's workers,
so that each gets exactly one copy (see jobc.compile.launch). A SIGTERM that is not the spec's
signal is Slurm's own (the time limit, a preemption without send_user_signal): Slurm sends it to
every process of the job, so it is only noted here.

srun ends the step neither when a task exits nor when one fails; `jobc_watch_step` reads srun's
reports of failed tasks from its stderr and ends the step itself (see `watch`).

After the step, the shell requeues the job itself, since Slurm requeues nothing on a time
limit, when the program asked for it with the requeue exit code or when the signal arrived and
the step failed, as long as SLURM_RESTART_COUNT is below resilience.max_restarts.
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.compile import heal
from jobc.compile.launch import RELAY_SIGNAL, srun_line, step_signals
from jobc.compile.plan import Plan
from jobc.compile.sbatch import signal_name
from jobc.compile.shell import trap_handler_note
from jobc.tables import contract
from jobc.tables.contract import REQUEUE_EXIT_CODE

# How long the partners of a failed task may still run: long enough for those that fail for the
# same reason (a wrong world, a missing module) to say so, short against any queue wait.
FAILED_TASK_WAIT_S = 30


def traps(plan: Plan) -> Iterator[str]:
    sig = plan.spec.resilience.signal
    spec_signal = None if sig is None else signal_name(sig)
    yield "# Preemption and time limit: pass the spec's signal on to every program, remember that it came."
    yield "jobc_signal=''"
    if spec_signal is not None:
        yield from trap_handler_note()
        yield "jobc_forward() {"
        yield "  jobc_signal=$1"
        yield "  " + contract.SIGNAL_FORWARDED.shell('"$1"')
        yield (
            f'  scancel --signal={RELAY_SIGNAL} "$jobc_job_id" || '
            "printf 'jobc: scancel could not forward SIG%s\\n' \"$1\" >&2"
        )
        yield "}"
    if spec_signal != "TERM":
        yield from trap_handler_note()
        yield "jobc_noted() {"
        yield "  jobc_signal=$1"
        yield "  " + contract.SIGNAL_NOTED.shell('"$1"')
        yield "}"
    for name in step_signals(plan):
        handler = "jobc_forward" if name == spec_signal else "jobc_noted"
        yield f"trap '{handler} {name}' {name}"


def watch(plan: Plan) -> Iterator[str]:
    """The function that reads srun's stderr and ends the step when a task fails."""
    wait = plan.step_wait_s
    failed = FAILED_TASK_WAIT_S
    yield "# srun reports at once each task that ends with anything but exit code 0"
    yield '# ("srun: error: NODE: task 3: Exited with exit code 1"). Such a task ends the step, so that'
    yield f"# its partners do not wait for it until the time limit, {failed} s later (partners that fail"
    yield "# for the same reason say so first); a task that exits with the requeue code gives the"
    yield f"# others {wait} s to finish their checkpoint. A task that exits 0 never ends the step: a"
    yield "# rank may well finish long after the others."
    yield "jobc_step_end=''"
    yield from trap_handler_note()
    yield "jobc_end_step() {"
    yield "  jobc_step_end=$1"
    yield '  if [[ -n ${jobc_srun_pid:-} ]]; then kill -s TERM "$jobc_srun_pid" 2>/dev/null || true; fi'
    yield "}"
    yield "trap 'jobc_end_step failed' ALRM"
    yield "trap 'jobc_end_step requeue' VTALRM"
    yield "# jobc_step_timer SECONDS SIGNAL WHY: after SECONDS, say WHY and send SIGNAL to the batch shell."
    yield "jobc_step_timer() {"
    yield "  local sleeper=''"
    yield "  trap 'kill \"$sleeper\" 2>/dev/null; exit 0' TERM"
    yield '  sleep "$1" &'
    yield "  sleeper=$!"
    yield '  wait "$sleeper"'
    yield "  printf 'jobc: %s; ending the step\\n' \"$3\" >&2"
    yield '  kill -s "$2" "$$" 2>/dev/null || true'
    yield "}"
    yield "jobc_watch_step() {"
    yield "  local line failed='' requeued=''"
    yield "  trap '' INT"
    yield "  while IFS= read -r line || [[ -n $line ]]; do"
    yield "    printf '%s\\n' \"$line\" >&2"
    yield "    case $line in"
    yield f"      'srun: error: '*': task'*': Exited with exit code {REQUEUE_EXIT_CODE}')"
    yield "        if [[ -z $requeued ]]; then"
    yield (
        f"          jobc_step_timer {wait} VTALRM 'tasks still run {wait} s after one asked for a requeue' &"
    )
    yield "          requeued=$!"
    yield "        fi"
    yield "        ;;"
    yield "      'srun: error: '*': task'*': '*)"
    yield "        if [[ -z $failed ]]; then"
    yield f"          printf 'jobc: a task failed; the step ends in {failed} s\\n' >&2"
    yield f"          jobc_step_timer {failed} ALRM 'a task failed {failed} s ago' &"
    yield "          failed=$!"
    yield "        fi"
    yield "        ;;"
    yield "    esac"
    yield "  done"
    yield "  local timer"
    yield "  for timer in $failed $requeued; do"
    yield '    kill "$timer" 2>/dev/null || true'
    yield "  done"
    yield "}"


def _launch_and_wait(plan: Plan) -> Iterator[str]:
    yield from (srun_line(plan) + " &").split("\n")
    yield "jobc_srun_pid=$!"
    yield "# wait returns early when a trap ran; wait again until srun itself has ended."
    yield "while :; do"
    yield "  jobc_status=0"
    yield '  wait "$jobc_srun_pid" || jobc_status=$?'
    yield '  kill -0 "$jobc_srun_pid" 2>/dev/null || break'
    yield "done"
    yield "if [[ $jobc_step_end == requeue ]]; then"
    yield f"  jobc_status={REQUEUE_EXIT_CODE}"
    yield "fi"


def run(plan: Plan) -> Iterator[str]:
    """The launch and what follows it."""
    yield from watch(plan)
    yield ""
    if plan.attach is not None:
        yield "jobc_status=0"
        yield from _launch_and_wait(plan)
        yield contract.STEP_END.shell('"$jobc_status"')
        yield 'exit "$jobc_status"'
        return
    res = plan.spec.resilience
    yield "jobc_status=0"
    yield "printf 'jobc: step start %s\\n' \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\""
    yield "if [[ -z $jobc_signal ]]; then"
    for line in _launch_and_wait(plan):
        yield "  " + line
    yield "else"
    yield "  printf 'jobc: SIG%s arrived before the launch; not starting the program\\n' \"$jobc_signal\""
    yield "  jobc_status=1"
    yield "fi"
    yield contract.STEP_END.shell('"$jobc_status"')
    yield "printf 'jobc: step end %s\\n' \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\""
    yield ""
    if heal.enabled(plan):
        yield from heal.after_step(plan)
        return
    yield "jobc_requeue=''"
    yield f"if ((jobc_status == {REQUEUE_EXIT_CODE})); then"
    yield f"  jobc_requeue='the program exited with the requeue code {REQUEUE_EXIT_CODE}'"
    yield "elif [[ -n $jobc_signal ]] && ((jobc_status != 0)); then"
    yield '  jobc_requeue="SIG$jobc_signal arrived and the step did not finish"'
    yield "fi"
    yield "if [[ -n $jobc_requeue ]]; then"
    if not res.requeue:
        yield "  printf 'jobc: not requeued (%s): resilience.requeue is false\\n' \"$jobc_requeue\""
    else:
        yield f"  if ((SLURM_RESTART_COUNT < {res.max_restarts})); then"
        yield "    " + contract.REQUEUE.shell(
            '"$jobc_job_id"', '"$jobc_requeue"', '"$((SLURM_RESTART_COUNT + 1))"', str(res.max_restarts)
        )
        yield '    scontrol requeue "$jobc_job_id"'
        yield "    exit 0"
        yield "  fi"
        yield (
            "  printf 'jobc: not requeued (%s): %s restarts reached resilience.max_restarts\\n' "
            '"$jobc_requeue" "$SLURM_RESTART_COUNT"'
        )
    yield "fi"
    yield 'exit "$jobc_status"'
