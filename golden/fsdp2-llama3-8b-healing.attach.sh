#!/bin/bash
# fsdp2-llama3-8b-healing: the launch, attached to the running job 4242
# compiled by jobc from the job spec; change the spec and recompile instead of editing this.
# spec sha256: 85a7c0c65c839422c9fe565ab6ecf66552ef1482a54f07aa91ac9e8b3819e8aa
# launch: 8 nodes × 8 GPUs under srun, 64 tasks with 8 per node: uv sync once, then uv run --no-sync python -m train.fsdp2 --config configs/llama3-8b.toml
# defaults (not written in the spec; write them to change them):
#   launch.uv_sync two-phase; resources.tasks_per_node 8 (one per GPU, from launch.mode);
#   monitoring.flight_recorder 2000; monitoring.hang_s 900; launch.master_port 20000 + job id % 9000
# For debugging inside an salloc allocation: srun --jobid --overlap, no requeue.

set -euo pipefail

# The allocation must be running and have the spec's nodes.
jobc_job_id='4242'
jobc_nodes=''
jobc_nodelist=''
read -r jobc_nodes jobc_nodelist < <(squeue -h -t RUNNING -j "$jobc_job_id" -o '%D %N' || true) || true
if [[ -z $jobc_nodelist ]]; then
  printf 'jobc: job %s is not a running allocation\n' "$jobc_job_id" >&2
  exit 1
fi
jobc_mismatch() {
  printf 'jobc: the allocation has %s=%s, but spec %s asks for %s (%s); did an option override the script?\n' \
    "$1" "$2" 'fsdp2-llama3-8b-healing' "$3" "$4" >&2
  exit 1
}
if [[ $jobc_nodes != 8 ]]; then
  jobc_mismatch nodes "$jobc_nodes" 8 'resources.nodes'
fi

# The contract jobc.runtime reads; it checks the live world against these numbers.
export JOBC_SPEC_NAME='fsdp2-llama3-8b-healing'
export JOBC_SPEC_SHA256='85a7c0c65c839422c9fe565ab6ecf66552ef1482a54f07aa91ac9e8b3819e8aa'
export JOBC_LAUNCH_MODE='srun'
export JOBC_NODES='8'
export JOBC_GPUS_PER_NODE='8'
export JOBC_WORLD_SIZE='64'
export JOBC_TP='1'
export JOBC_PP='1'
export JOBC_CP='1'
export JOBC_EP='1'
export JOBC_DP='64'
export JOBC_SIGNAL='SIGTERM'
export JOBC_GRACE_S='290'
export JOBC_REQUEUE_EXIT_CODE='75'
export JOBC_MAX_RESTARTS='3'
export JOBC_COLLECTIVE_TIMEOUT_S='1800'
export JOBC_CHECKPOINT_DIR='/lustre/ckpt/fsdp2-llama3-8b-healing'
export JOBC_HANG_S='900'
# Slurm sets this only in the batch environment and only after a requeue.
export SLURM_RESTART_COUNT="${SLURM_RESTART_COUNT:-0}"

# torch's flight recorder: the last collectives of every process group, per rank.
# monitoring is not in the spec: the recorder and jobc.runtime's hang watchdog (JOBC_HANG_S)
# are on by default, because a hang leaves nothing to diagnose without them;
# monitoring.flight_recorder: 0 and monitoring.hang_s: 0 turn them off.
export TORCH_FR_BUFFER_SIZE='2000'
export TORCH_NCCL_TRACE_BUFFER_SIZE='2000'
export TORCH_FR_DUMP_ON_TIMEOUT='1'
export TORCH_NCCL_DUMP_ON_TIMEOUT='1'
# Hang dumps (flight recorder and stacks, written only when a rank hangs or a collective
# times out) go to a directory of this job beside its log.
export JOBC_DUMP_DIR='/lustre/logs/fsdp2-llama3-8b-healing'/"${SLURM_JOB_NAME:-fsdp2-llama3-8b-healing}-${jobc_job_id}.flight"
mkdir -p -- "$JOBC_DUMP_DIR" || printf 'jobc: cannot create %s\n' "$JOBC_DUMP_DIR" >&2
# torch's own dump on a collective timeout (NCCL), for programs without jobc.runtime.
export TORCH_FR_DUMP_TEMP_FILE="$JOBC_DUMP_DIR/torch-trace-rank"
export TORCH_NCCL_DEBUG_INFO_TEMP_FILE="$TORCH_FR_DUMP_TEMP_FILE"

# Fabric and CUDA.
export NCCL_IB_DISABLE='0'
export NCCL_NET_GDR_LEVEL='2'
export TORCH_NCCL_ASYNC_ERROR_HANDLING='1'

# The program's environment: caches and the spec's env, literal values.
export HF_HOME='/lustre/cache/huggingface'
export UV_CACHE_DIR='/lustre/cache/uv'
export TRITON_CACHE_DIR='/lustre/cache/triton'
export NEMO_HOME='/lustre/cache/nemo'
export PYTORCH_CUDA_ALLOC_CONF='expandable_segments:True'
export TORCH_NCCL_AVOID_RECORD_STREAMS='1'

# Rendezvous at the first host of the allocation.
jobc_first_host() {
  local list=$1 entry='' char prefix rest ranges hosts
  local -i i depth=0
  if command -v scontrol >/dev/null 2>&1 && hosts=$(scontrol show hostnames "$list" 2>/dev/null) &&
    [[ -n $hosts ]]; then
    printf '%s\n' "${hosts%%$'\n'*}"
    return
  fi
  for ((i = 0; i < ${#list}; i++)); do
    char=${list:i:1}
    if [[ $char == '[' ]]; then
      depth+=1
    elif [[ $char == ']' ]]; then
      depth+=-1
    elif [[ ($char == ',' || $char == ' ') && depth -eq 0 ]]; then
      break
    fi
    entry+=$char
  done
  # Brackets quoted rather than escaped in the patterns: the same to bash, and readable by
  # tree-sitter-bash (which `jobc lint` uses on scripts), which misreads `\]` inside `${…}`.
  if [[ $entry == *'['*']'* ]]; then
    prefix=${entry%'['*}
    rest=${entry##*'['}
    ranges=${rest%%']'*}
    ranges=${ranges%%,*}
    entry=$prefix${ranges%%-*}${rest#*']'}
  fi
  printf '%s\n' "$entry"
}
MASTER_ADDR=$(jobc_first_host "$jobc_nodelist")
# 20000 + job id % 9000: below Linux's ephemeral ports (32768-60999), clear
# of torchrun's 29400/29500, equal on every rank and different for neighbouring jobs;
# jobc.runtime derives the same. An exported MASTER_PORT wins.
MASTER_PORT=${MASTER_PORT:-$((20000 + jobc_job_id % 9000))}
export MASTER_ADDR MASTER_PORT

cd -- '/lustre/projects/my-account/llama-fsdp2'

printf 'jobc: %s job %s on %s nodes (%s)\n' 'fsdp2-llama3-8b-healing' "$jobc_job_id" "8" "$jobc_nodelist"
printf 'jobc: %s\n' 'world 64 = tp 1 x pp 1 x cp 1 x dp 64 (ep 1), srun launch'
printf 'jobc: master %s:%s, restart %s\n' "$MASTER_ADDR" "$MASTER_PORT" "$SLURM_RESTART_COUNT"

# The launch, as words: spec values are quoted, never re-parsed by a shell.
jobc_python=('uv' 'run' '--no-sync' 'python')
jobc_program=('-m' 'train.fsdp2' '--config' 'configs/llama3-8b.toml')
read -r -d '' jobc_step <<'JOBC_STEP' || true
# Runs once per task, inside the step (and the container): what only the node knows is
# read here, never in the batch shell.
set -euo pipefail
jobc_npython=$1
shift
jobc_python=("${@:1:jobc_npython}")
shift "$jobc_npython"
# The variables torchrun gives its workers, for programs that read them (env:// rendezvous).
export RANK=$SLURM_PROCID
export LOCAL_RANK=$SLURM_LOCALID
export WORLD_SIZE=$SLURM_STEP_NUM_TASKS
export LOCAL_WORLD_SIZE=8
export GROUP_RANK=$SLURM_NODEID
export GROUP_WORLD_SIZE=$SLURM_STEP_NUM_NODES
export ROLE_RANK=$SLURM_PROCID
export ROLE_WORLD_SIZE=$SLURM_STEP_NUM_TASKS
# fabric.interface auto: the first InfiniBand interface that is up on this node, for NCCL
# and Gloo alike; without one, NCCL and Gloo choose for themselves.
jobc_iface=''
for jobc_dev in /sys/class/net/*; do
  jobc_name=${jobc_dev##*/}
  jobc_type=''
  jobc_state=''
  if [[ -r $jobc_dev/type ]]; then jobc_type=$(<"$jobc_dev/type"); fi
  if [[ -r $jobc_dev/operstate ]]; then jobc_state=$(<"$jobc_dev/operstate"); fi
  if [[ ($jobc_type == 32 || $jobc_name == ib*) && $jobc_state == up ]]; then
    jobc_iface=$jobc_name
    break
  fi
done
if [[ -n $jobc_iface ]]; then
  export NCCL_SOCKET_IFNAME=$jobc_iface GLOO_SOCKET_IFNAME=$jobc_iface
elif [[ ${SLURM_LOCALID:-0} == 0 ]]; then
  printf 'jobc: %s: no InfiniBand interface is up; NCCL and Gloo choose the interface\n' "$(hostname)" >&2
fi
# The spec's signal and SIGTERM reach this shell too: it only has to outlive the program,
# so that the program's exit code (and the cleanup) survive.
jobc_child=''
jobc_trapped=''
jobc_relayed=''
# Only a trap calls this function, which shellcheck cannot see.
# shellcheck disable=SC2317
jobc_relay() {
  jobc_trapped=1
  if [[ -z $jobc_relayed && -n $jobc_child && ${JOBC_SIGNAL:-none} != none ]]; then
    jobc_relayed=1
    kill -s "${JOBC_SIGNAL#SIG}" "$jobc_child" 2>/dev/null || true
  fi
}
trap jobc_relay URG
trap 'jobc_trapped=1' TERM
# A background command would ignore SIGINT and SIGQUIT; the program gets the defaults back.
( trap - INT QUIT; exec "${jobc_python[@]}" "$@" ) &
jobc_child=$!
# wait returns early when a trap ran; a second wait collects the status once the program
# has ended (127: the first wait had collected it already).
jobc_status=''
jobc_early=''
while [[ -z $jobc_status ]]; do
  jobc_trapped=''
  jobc_rc=0
  wait "$jobc_child" || jobc_rc=$?
  if ((jobc_rc == 127)) && [[ -n $jobc_early ]]; then
    jobc_status=$jobc_early
  elif [[ -n $jobc_trapped ]] && ((jobc_rc > 128)); then
    jobc_early=$jobc_rc
  else
    jobc_status=$jobc_rc
  fi
done
exit "$jobc_status"
JOBC_STEP

# uv, phase one: a single task syncs the environment, so the ranks do not race on the cache;
# launch.uv names what it installs (a bare uv sync removes every extra it is not given).
srun --jobid='4242' --overlap --nodes=1 --ntasks=1 --ntasks-per-node=1 uv sync

# srun reports at once each task that ends with anything but exit code 0
# ("srun: error: NODE: task 3: Exited with exit code 1"). Such a task ends the step, so that
# its partners do not wait for it until the time limit, 30 s later (partners that fail
# for the same reason say so first); a task that exits with the requeue code gives the
# others 300 s to finish their checkpoint. A task that exits 0 never ends the step: a
# rank may well finish long after the others.
jobc_step_end=''
# Only a trap calls this function, which shellcheck cannot see.
# shellcheck disable=SC2317
jobc_end_step() {
  jobc_step_end=$1
  if [[ -n ${jobc_srun_pid:-} ]]; then kill -s TERM "$jobc_srun_pid" 2>/dev/null || true; fi
}
trap 'jobc_end_step failed' ALRM
trap 'jobc_end_step requeue' VTALRM
# jobc_step_timer SECONDS SIGNAL WHY: after SECONDS, say WHY and send SIGNAL to the batch shell.
jobc_step_timer() {
  local sleeper=''
  trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
  sleep "$1" &
  sleeper=$!
  wait "$sleeper"
  printf 'jobc: %s; ending the step\n' "$3" >&2
  kill -s "$2" "$$" 2>/dev/null || true
}
jobc_watch_step() {
  local line failed='' requeued=''
  trap '' INT
  while IFS= read -r line || [[ -n $line ]]; do
    printf '%s\n' "$line" >&2
    case $line in
      'srun: error: '*': task'*': Exited with exit code 75')
        if [[ -z $requeued ]]; then
          jobc_step_timer 300 VTALRM 'tasks still run 300 s after one asked for a requeue' &
          requeued=$!
        fi
        ;;
      'srun: error: '*': task'*': '*)
        if [[ -z $failed ]]; then
          printf 'jobc: a task failed; the step ends in 30 s\n' >&2
          jobc_step_timer 30 ALRM 'a task failed 30 s ago' &
          failed=$!
        fi
        ;;
    esac
  done
  local timer
  for timer in $failed $requeued; do
    kill "$timer" 2>/dev/null || true
  done
}

jobc_status=0
srun --jobid='4242' --overlap --nodes=8 --ntasks-per-node=8 --cpus-per-task=14 --kill-on-bad-exit=0 --wait=0 --label \
  bash -c "$jobc_step" jobc-step "${#jobc_python[@]}" "${jobc_python[@]}" "${jobc_program[@]}" 2> >(jobc_watch_step) &
jobc_srun_pid=$!
# wait returns early when a trap ran; wait again until srun itself has ended.
while :; do
  jobc_status=0
  wait "$jobc_srun_pid" || jobc_status=$?
  kill -0 "$jobc_srun_pid" 2>/dev/null || break
done
if [[ $jobc_step_end == requeue ]]; then
  jobc_status=75
fi
printf 'jobc: the step ended with exit code %s\n' "$jobc_status"
exit "$jobc_status"
