"""Background helpers: a heartbeat in the batch shell, `nvidia-smi dmon` on local rank 0 of each
node. Each is started with its PID kept in the shell that started it and is killed by that
shell's EXIT trap, so none outlives the job step or the job."""

from __future__ import annotations

from collections.abc import Iterator

from jobc.compile.plan import Plan


def heartbeat(plan: Plan) -> Iterator[str]:
    seconds = plan.spec.monitoring.heartbeat_s
    if not seconds:
        return
    yield f"# A timestamp every {seconds} s: a hang shows as a log that stops growing."
    yield "jobc_heartbeat() {"
    # The sleep is killed with the loop, so nothing of the heartbeat outlives the shell.
    yield "  local sleeper=''"
    yield "  trap 'kill \"$sleeper\" 2>/dev/null; exit 0' TERM"
    yield "  while :; do"
    yield f"    sleep {seconds} &"
    yield "    sleeper=$!"
    yield '    wait "$sleeper"'
    yield "    printf 'jobc: heartbeat %s\\n' \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\""
    yield "  done"
    yield "}"
    yield "jobc_heartbeat &"
    yield "jobc_heartbeat_pid=$!"


def dmon(plan: Plan) -> Iterator[str]:
    """Step-side: one `nvidia-smi dmon` per node, on the task with local rank 0."""
    seconds = plan.spec.monitoring.gpu_dmon_s
    if not seconds:
        return
    yield f"# GPU utilisation every {seconds} s, once per node, into a file named by the host: in the job"
    yield "# log it would interleave with the ranks' lines and not say which node it measured."
    yield "if [[ ${SLURM_LOCALID:-0} == 0 ]]; then"
    yield "  if command -v nvidia-smi >/dev/null 2>&1; then"
    yield (
        '    jobc_dmon_file="${jobc_monitor_dir:-$SLURM_SUBMIT_DIR}/'
        '${SLURM_JOB_NAME}-${SLURM_JOB_ID}-gpu-$(hostname -s).log"'
    )
    yield '    printf \'jobc: %s: GPU monitor in %s\\n\' "$(hostname -s)" "$jobc_dmon_file"'
    yield f'    nvidia-smi dmon -d {seconds} -o DT >>"$jobc_dmon_file" 2>&1 &'
    yield "    jobc_dmon_pid=$!"
    yield "  else"
    yield "    printf 'jobc: %s: nvidia-smi not found; no GPU monitor\\n' \"$(hostname)\" >&2"
    yield "  fi"
    yield "fi"
