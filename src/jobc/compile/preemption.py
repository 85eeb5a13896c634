"""Signals, waiting and requeue in the batch shell.

Slurm sends the spec's signal to this shell only (`--signal=B:…`), and bash runs a trap only
between commands, so srun runs in the background and the shell waits for it, re-waiting after
each trap. The trap forwards the signal with `scancel --signal=SIG <job>`: without --batch or
--full that reaches every process of every job step (each rank, torchrun's agent and its
workers), but not this shell and not srun, which would answer SIGTERM by killing its tasks at
once. After the step, the shell requeues the job itself, since Slurm requeues nothing on a time
limit, when the program asked for it with the requeue exit code or when the signal arrived and
the step failed, as long as SLURM_RESTART_COUNT is below resilience.max_restarts.
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.compile.launch import srun_line, step_signals
from jobc.compile.plan import REQUEUE_EXIT_CODE, Plan


def traps(plan: Plan) -> Iterator[str]:
    yield "# Preemption and time limit: forward the signal to every rank, remember that it came."
    yield "jobc_signal=''"
    yield "jobc_forward() {"
    yield "  jobc_signal=$1"
    yield "  printf 'jobc: SIG%s received, forwarding it to every task of the job steps\\n' \"$1\""
    yield (
        '  scancel --signal="$1" "$jobc_job_id" || '
        "printf 'jobc: scancel could not forward SIG%s\\n' \"$1\" >&2"
    )
    yield "}"
    for sig in step_signals(plan):
        yield f"trap 'jobc_forward {sig}' {sig}"


def run(plan: Plan) -> Iterator[str]:
    """The launch and what follows it."""
    if plan.attach is not None:
        yield "jobc_status=0"
        yield srun_line(plan) + " || jobc_status=$?"
        yield "printf 'jobc: the step ended with exit code %s\\n' \"$jobc_status\""
        yield 'exit "$jobc_status"'
        return
    res = plan.spec.resilience
    yield "jobc_status=0"
    yield "if [[ -z $jobc_signal ]]; then"
    for line in (srun_line(plan) + " &").split("\n"):
        yield "  " + line
    yield "  jobc_srun_pid=$!"
    yield "  # wait returns early when a trap ran; wait again until srun itself has ended."
    yield "  while :; do"
    yield "    jobc_status=0"
    yield '    wait "$jobc_srun_pid" || jobc_status=$?'
    yield '    kill -0 "$jobc_srun_pid" 2>/dev/null || break'
    yield "  done"
    yield "else"
    yield "  printf 'jobc: SIG%s arrived before the launch; not starting the program\\n' \"$jobc_signal\""
    yield "  jobc_status=1"
    yield "fi"
    yield "printf 'jobc: the step ended with exit code %s\\n' \"$jobc_status\""
    yield ""
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
        yield (
            "    printf 'jobc: requeueing job %s: %s (restart %s of at most %s)\\n' "
            f'"$jobc_job_id" "$jobc_requeue" "$((SLURM_RESTART_COUNT + 1))" {res.max_restarts}'
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
