"""Self-healing jobs in the batch shell: a preflight on every node, and a judge of every attempt.

Only a spec with `resilience.retry_on` or `resilience.preflight` gets these lines; any other
script is as before. Nothing runs on the login node: the batch shell itself

1. notes where this attempt's part of the log begins (the log holds every attempt);
2. asks `jobc heal start` (jobc, run with the launch's interpreter; with a container, the `jobc`
   on the host's PATH, since the batch shell runs outside the container) whether to run: it
   records the attempt, writes the end of an attempt Slurm restarted without its own word (a
   node failure, a lost batch host) from accounting, and refuses past the restart budget or on a
   node an earlier attempt excluded;
3. runs the preflight, one task per node, outside any container: the built-in checks and the
   spec's command; each node prints one line, and a node without one failed;
4. after the program's step, asks `jobc heal end` how the attempt ended and what to do.

An answer to requeue is carried out here, in the only window Slurm allows: `scontrol requeue`
first, which makes the job pending (and kills this shell's step: SIGTERM, then SIGKILL after
KillWait, so SIGTERM is ignored from here on), then `scontrol update … ExcNodeList=`, which
Slurm accepts only while the job is pending; the job waits at least until its BeginTime, so the
update is in place before the next attempt can start.
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.compile.plan import Plan
from jobc.compile.shell import sq, words

PREFLIGHT_DELIMITER = "JOBC_PREFLIGHT"
# How long a built-in check may take on a node: a hung mount or driver must not hold the job.
CHECK_TIMEOUT_S = 30
# Time the preflight step gets beyond the command's own timeout: the built-in checks and srun.
PREFLIGHT_SLACK_S = 4 * CHECK_TIMEOUT_S

# Runs once per node, outside any container, with every check's outcome as one line on stdout:
# `jobc: preflight NODE ok`, or `jobc: preflight NODE failed CHECK: DETAIL` at the first failure.
# Everything else (the command's own output) goes to stderr, so only this script speaks on
# stdout. Arguments: timeout, GPUs, checks, checkpoint directory, command, then the shared paths.
PREFLIGHT = r"""set -uo pipefail
node=${SLURMD_NODENAME:-$(hostname -s)}
limit=$1 gpus=$2 checks=",$3," checkpoints=$4 command=$5
shift 5
jobc_failed() {
  printf 'jobc: preflight %s failed %s: %s\n' "$node" "$1" "$2"
  exit 0
}
if [[ $checks == *,gpus,* ]] && ((gpus > 0)); then
  visible=${CUDA_VISIBLE_DEVICES:-}
  if [[ -z $visible || $visible == NoDevFiles ]]; then
    jobc_failed gpus "no GPU is visible (CUDA_VISIBLE_DEVICES is empty), $gpus expected"
  fi
  IFS=, read -ra ids <<<"$visible"
  if ((${#ids[@]} != gpus)); then
    jobc_failed gpus "${#ids[@]} GPUs are visible (CUDA_VISIBLE_DEVICES=$visible), $gpus expected"
  fi
  if command -v nvidia-smi >/dev/null 2>&1; then
    if ! listed=$(timeout CHECK_TIMEOUT nvidia-smi -L 2>&1); then
      jobc_failed gpus "nvidia-smi failed or did not answer within CHECK_TIMEOUT s: ${listed##*$'\n'}"
    fi
    found=$(grep -c '^GPU ' <<<"$listed" || true)
    if ((found < gpus)); then
      jobc_failed gpus "nvidia-smi lists $found GPUs, $gpus expected"
    fi
  fi
fi
if [[ $checks == *,paths,* ]]; then
  for path in "$@"; do
    case $path in
      '~' | '$HOME' | '${HOME}') path=$HOME ;;
      '~/'* | '$HOME/'* | '${HOME}/'*) path=$HOME/${path#*/} ;;
      /*) ;;
      *) continue ;;
    esac
    if ! timeout CHECK_TIMEOUT ls -- "$path" >/dev/null 2>&1; then
      jobc_failed paths "storage.shared $path is missing or unreadable (or no answer in CHECK_TIMEOUT s)"
    fi
  done
  if [[ -n $checkpoints ]]; then
    probe="$checkpoints/.jobc-preflight-$node-$$"
    if ! timeout CHECK_TIMEOUT bash -c 'mkdir -p -- "$1" && : >"$2" && rm -f -- "$2"' jobc-probe \
      "$checkpoints" "$probe" 2>/dev/null; then
      jobc_failed paths "storage.checkpoints $checkpoints is not writable (or no answer in CHECK_TIMEOUT s)"
    fi
  fi
fi
if [[ $checks == *,port,* && ${SLURM_NODEID:-0} == 0 ]]; then
  if command -v getent >/dev/null 2>&1 && ! getent hosts "$MASTER_ADDR" >/dev/null 2>&1; then
    jobc_failed port "the rendezvous host $MASTER_ADDR does not resolve"
  fi
  # a connection that succeeds means something listens there already: the rendezvous store
  # would fail to bind it (EADDRINUSE)
  if timeout 5 bash -c 'exec 3<>"/dev/tcp/$1/$2"' jobc-port "$MASTER_ADDR" "$MASTER_PORT" 2>/dev/null; then
    jobc_failed port "something already listens on the rendezvous port $MASTER_ADDR:$MASTER_PORT"
  fi
fi
if [[ -n $command ]]; then
  rc=0
  timeout --kill-after=10 "$limit" bash -c "$command" >&2 </dev/null || rc=$?
  if ((rc == 124 || rc == 137)); then
    jobc_failed command "did not finish within $limit s"
  elif ((rc != 0)); then
    jobc_failed command "exited with $rc"
  fi
fi
printf 'jobc: preflight %s ok\n' "$node"
""".replace("CHECK_TIMEOUT", str(CHECK_TIMEOUT_S))


def enabled(plan: Plan) -> bool:
    """Whether the spec asks for any of it (never in an attach script)."""
    res = plan.spec.resilience
    return plan.attach is None and (bool(res.retry_on) or res.preflight is not None)


def _log_fallback(plan: Plan) -> str:
    """The log's path as the script's own `--output` names it, for when /proc cannot say."""
    spec = plan.spec
    is_array = spec.slurm.array is not None or (spec.sweep is not None and bool(spec.sweep.values))
    job = "${SLURM_ARRAY_JOB_ID:-$jobc_job_id}_${SLURM_ARRAY_TASK_ID:-0}" if is_array else "${jobc_job_id}"
    if plan.logs is None:
        return f'"${{SLURM_SUBMIT_DIR:-$PWD}}/slurm-{job}.out"'
    return f'{sq(plan.logs.rstrip("/") or "/")}/"${{SLURM_JOB_NAME:-{plan.name}}}-{job}.out"'


def log_position(plan: Plan) -> Iterator[str]:
    """Before the banner: the log file and where this attempt's part of it begins."""
    if not enabled(plan):
        return
    yield "# The log holds every attempt (--open-mode=append); this one's part begins here."
    yield 'jobc_log=$(readlink -f "/proc/$$/fd/1" 2>/dev/null || true)'
    yield "if [[ ! -f $jobc_log ]]; then"
    yield f"  jobc_log={_log_fallback(plan)}"
    yield "fi"
    yield "jobc_log_offset=$(stat -L -c %s \"$jobc_log\" 2>/dev/null || printf '0')"


def _policy(plan: Plan) -> list[str]:
    res = plan.spec.resilience
    words_ = ["--max-restarts", str(res.max_restarts)]
    if res.retry_on:
        words_ += ["--retry-on", ",".join(res.retry_on)]
    if res.exclude_failed_nodes:
        words_.append("--exclude-failed-nodes")
    if res.requeue:
        words_.append("--requeue")
    return words_


def _functions(plan: Plan) -> Iterator[str]:
    yield "# Self-healing: jobc judges each attempt inside the job; nothing runs on the login node."
    if plan.spec.container is None:
        yield 'jobc_heal=("${jobc_python[@]}" -m jobc heal)'
    else:
        yield "# The batch shell runs outside the container: the host's jobc judges."
        yield "jobc_heal=(jobc heal)"
    yield f"jobc_heal_policy=({words(_policy(plan))})"
    yield "# jobc_heal_ask PHASE ARGS…: jobc heal's answer (go -, requeue NODES, exit CODE) in jobc_answer."
    yield "jobc_heal_ask() {"
    yield '  jobc_answer=$("${jobc_heal[@]}" "$1" --log "$jobc_log" "${jobc_heal_policy[@]}" "${@:2}") ||'
    yield "    jobc_answer=''"
    yield "}"
    yield "# jobc_requeue_without NODES: requeue this job (same id), then keep it off NODES (- for none)."
    yield "jobc_requeue_without() {"
    yield "  # scontrol requeue ends this shell's step (SIGTERM, SIGKILL after KillWait); the update"
    yield "  # must still run, and Slurm takes ExcNodeList only once the job is pending again."
    yield "  trap '' TERM"
    yield '  if ! scontrol requeue "$jobc_job_id"; then'
    yield "    printf 'jobc: scontrol requeue %s failed; the job ends here\\n' \"$jobc_job_id\" >&2"
    yield "    exit 1"
    yield "  fi"
    yield '  if [[ $1 != - ]] && ! scontrol update JobId="$jobc_job_id" ExcNodeList="$1"; then'
    yield "    printf 'jobc: could not exclude %s; the next attempt checks its nodes itself\\n' \"$1\" >&2"
    yield "  fi"
    yield "  exit 0"
    yield "}"
    yield "# jobc_heal_act CODE: do what jobc heal answered; without an answer, end with CODE."
    yield "jobc_heal_act() {"
    yield "  local action=${jobc_answer%% *} value=${jobc_answer#* }"
    yield "  if [[ $action == go ]]; then"
    yield "    return 0"
    yield "  elif [[ $action == requeue && $value =~ ^[-A-Za-z0-9._,]+$ ]]; then"
    yield '    jobc_requeue_without "$value"'
    yield "  elif [[ $action == exit && $value =~ ^[0-9]{1,3}$ ]]; then"
    yield '    exit "$value"'
    yield "  fi"
    yield "  printf 'jobc: jobc heal gave no answer (is jobc importable here?); not retrying\\n' >&2"
    yield '  exit "$1"'
    yield "}"


def _preflight(plan: Plan) -> Iterator[str]:
    pre = plan.spec.resilience.preflight
    if pre is None:
        return
    gpus = plan.ctx.gpus_per_node
    nodes = plan.nodes
    args = [str(pre.timeout_s), str(gpus), ",".join(pre.checks), plan.checkpoints or "", pre.command or ""]
    paths = list(plan.spec.storage.shared)
    shown = ", ".join([*pre.checks, *(["command"] if pre.command else [])]) or "none"
    yield ""
    yield "# Preflight: one task per node, outside any container; a node that prints no 'ok' failed."
    yield f"read -r -d '' jobc_preflight <<'{PREFLIGHT_DELIMITER}' || true"
    yield PREFLIGHT.rstrip("\n")
    yield PREFLIGHT_DELIMITER
    yield f"printf 'jobc: preflight on {nodes} node{'s' if nodes > 1 else ''}: %s\\n' {sq(shown)}"
    yield (
        f"jobc_report=$(timeout --kill-after=10 {pre.timeout_s + PREFLIGHT_SLACK_S} srun --nodes={nodes} "
        f"--ntasks={nodes} --ntasks-per-node=1 --kill-on-bad-exit=0 --wait=0 --label \\"
    )
    yield f'  bash -c "$jobc_preflight" jobc-preflight {words(args + paths)}) || true'
    yield "printf '%s\\n' \"$jobc_report\""
    yield 'jobc_heal_ask end --preflight <<<"$jobc_report"'
    yield "jobc_heal_act 1"


def before_launch(plan: Plan) -> Iterator[str]:
    """After the launch is defined and before it runs: the start's question and the preflight."""
    if not enabled(plan):
        return
    yield from _functions(plan)
    yield 'jobc_heal_ask start --log-offset "$jobc_log_offset"'
    yield "jobc_heal_act 1"
    yield from _preflight(plan)


def after_step(plan: Plan) -> Iterator[str]:
    """In place of the plain requeue: jobc heal judges the attempt; the shell does what it says."""
    yield "# How did this attempt end, and what now? (retry without a bad node, requeue, or end)"
    yield 'jobc_heal_ask end --status "$jobc_status" --signal "$jobc_signal"'
    yield 'jobc_heal_act "$jobc_status"'
    yield 'exit "$jobc_status"'
