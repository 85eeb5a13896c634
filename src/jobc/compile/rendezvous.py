"""MASTER_ADDR and MASTER_PORT, decided once in the batch shell and exported to every rank."""

from __future__ import annotations

from collections.abc import Iterator

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:  # lint's JC104 reads the port range below without loading the compiler's plan
    from jobc.compile.plan import Plan

# The runtime's formula (jobc.runtime.launch.fallback_master_port with step 0).
PORT_BASE = 20000
PORT_SPAN = 9000

# The first host of a Slurm hostlist, for nodes without scontrol: the first top-level entry,
# expanded at its last bracket ("gpu-[003-004,010]-ib,cpu7" gives "gpu-003-ib").
FIRST_HOST = r"""jobc_first_host() {
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
}"""


def lines(plan: Plan) -> Iterator[str]:
    fixed = plan.spec.launch.master_port
    yield "# Rendezvous at the first host of the allocation."
    yield FIRST_HOST
    yield 'MASTER_ADDR=$(jobc_first_host "$jobc_nodelist")'
    if fixed is None:
        yield (f"# {PORT_BASE} + job id % {PORT_SPAN}: below Linux's ephemeral ports (32768-60999), clear")
        yield "# of torchrun's 29400/29500, equal on every rank and different for neighbouring jobs;"
        yield "# jobc.runtime derives the same. An exported MASTER_PORT wins."
        yield f"MASTER_PORT=${{MASTER_PORT:-$(({PORT_BASE} + jobc_job_id % {PORT_SPAN}))}}"
    else:
        yield "# launch.master_port; an exported MASTER_PORT wins."
        yield f"MASTER_PORT=${{MASTER_PORT:-{fixed}}}"
    yield "export MASTER_ADDR MASTER_PORT"
