"""A per-rank or per-node variable (`$SLURM_PROCID`, `$SLURM_NODEID`, `$LOCAL_RANK`, …) written
where it cannot take a per-rank value.

These variables differ from rank to rank, so they only mean something once the step has started
a task. `launch.setup` runs once, in the batch shell on the first node, where `SLURM_NODEID`,
`SLURM_PROCID` and `SLURM_LOCALID` are 0 and `RANK`/`LOCAL_RANK` are unset: expanding them there
gives every rank the same value. That is the classic hang of `srun torchrun --node_rank=$SLURM_NODEID`
in an sbatch script, where all nodes claim node rank 0. Arithmetic such as
`$((SLURM_NODEID * 8 + SLURM_LOCALID))` counts too (and is not even the rank Slurm assigns:
that is `SLURM_PROCID`). `launch.args` and `env` values are passed literally, never
shell-expanded, so the program would receive the text `$SLURM_NODEID` instead.

Read these values in the program (`jobc.runtime.init()` gives `rank`, `local_rank` and
`node_rank`); with `launch.mode: torchrun` jobc passes `--node-rank` from inside the step itself.
In `setup`, a variable inside single quotes or escaped as `\\$` is left alone (it is meant for a
shell that a step starts).

Bad:

```yaml
launch:
  mode: srun
  program: train.py
  args: ["--node-rank", "$SLURM_NODEID"]
env: {MY_RANK: "${SLURM_PROCID}"}
```

Good:

```yaml
launch:
  mode: torchrun        # node rank passed from inside the step
  program: train.py     # reads world.node_rank from jobc.runtime.init()
```

In a script the same mistake is a per-rank variable in a double-quoted `bash -c` of a step,
in an unquoted heredoc the step's tasks read (`srun bash <<EOF`, or a file written from one,
`cat > run.sh <<EOF` then `srun bash run.sh`; quotes are text in a heredoc and do not stop it),
or in a launcher's options: the batch shell expands it before srun starts
anything. A quoted heredoc (`<<'EOF'`) or an escaped `\\$` leaves it to each task. On one node
the batch shell's node values (`$SLURM_NODEID`, its name, its GPUs, `$SLURM_STEP_GPUS`) are
every rank's, and so is a launcher's node rank read from the batch shell's task 0
(`srun torchrun --node_rank=$SLURM_PROCID`: the only node is node 0), unless the script asks for
no node count and reads the one it is given
(`--nnodes $SLURM_NNODES`): it is sized on the sbatch command line, for any number of nodes.

Bad in a script:

```bash
#!/bin/bash
#SBATCH --nodes=2
srun bash -c "python train.py --node-rank=$SLURM_NODEID"
```

```bash
#!/bin/bash
#SBATCH --nodes=2
srun bash <<EOF
python train.py --node-rank=$SLURM_NODEID
EOF
```

A count of the batch shell's GPUs (`GPUS_PER_NODE=$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\\n' |
wc -l)`) is every node's count when the script asks for GPUs per node (`--gres=gpu:N`,
`--gpus-per-node`): which GPUs a node has differs, how many does not.

The first node's name read once is what a rendezvous host wants (every node must reach the
same one), so the batch shell's `$SLURMD_NODENAME` as the host of a launcher's endpoint or
address, or as `MASTER_ADDR`, is no mistake:

```bash
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --exclusive
#SBATCH --time=1:00:00
srun torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d \\
    --rdzv_endpoint=$SLURMD_NODENAME:29500 train.py
```
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, DataPath, Hit, Severity
from jobc.core.lazyre import lazy
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import derived, facts
from jobc.spec.context import Context
from jobc.tables.ranks import RUNTIME_NAME, RUNTIME_VAR

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.script.facts import ScriptFacts

META = Meta(
    code="JC106",
    name="unescaped-runtime-var",
    severity=Severity.ERROR,
    summary="A per-rank variable ($SLURM_PROCID, $LOCAL_RANK, …) in args, env or setup",
    remediation=(
        "Read rank and node values inside the program (jobc.runtime.init()); jobc passes torchrun's "
        "node rank from inside the step."
    ),
)
FIX = Repair(
    Applicability.SAFE,
    'escapes the variable inside a double-quoted `bash -c "…"` or an unquoted heredoc a shell in '
    "the step reads, so the step's shell expands it on each node (where that shell reads it "
    "inside single quotes, it closes them around the variable instead); for a launcher started "
    "straight by srun (unsafe) it quotes the launch as `bash -c '…'`, when everything else in it "
    "reads the same in the step (no quote, substitution or list; only the job's Slurm variables, "
    "per-rank and exported ones); for `export NAME=$SLURM_PROCID` read by later `srun bash -c "
    "'…'` steps (unsafe) it moves the export into each of those steps' shells",
    "scripts",
)

# $(( … )): arithmetic names variables without a `$`, as in $((SLURM_NODEID * 8 + SLURM_LOCALID));
# the expression runs to the first `))` after the `$((` (found by a search over the positions of
# every `))`, made once per text: a regex from each `$((` rescanned the rest of the text each time)
_CLOSE = lazy(r"(?=\)\))")


_BATCH = (
    "in the batch shell, which runs once on the first node (where SLURM_NODEID, SLURM_PROCID and "
    "SLURM_LOCALID are 0 and RANK is unset), so every rank would see that one value"
)


def check(ctx: Context) -> Iterator[Hit]:
    launch = ctx.spec.launch
    for i, line in enumerate(launch.setup):
        names = _expanded_by_shell(line)
        if names:
            yield Hit(
                ("launch", "setup", i),
                f"setup line {i + 1} expands {_list(names)} {_BATCH}; read it inside the program",
            )
    literal: list[tuple[DataPath, str, str]] = [
        (("launch", "args", i), arg, f"launch.args[{i}]")
        for i, arg in enumerate(launch.args)
        if isinstance(arg, str)
    ]
    literal += [
        (("env", key), value, f"env {key}") for key, value in ctx.spec.env.items() if isinstance(value, str)
    ]
    literal += [
        (("fabric", "env", key), value, f"fabric.env {key}")
        for key, value in ctx.spec.fabric.env.items()
        if isinstance(value, str)
    ]
    for path, text, what in literal:
        names = _expansions(text)
        if names:
            yield Hit(
                path,
                f"{what} holds {_list(names)}, which is passed literally (never shell-expanded), and "
                "expanding it in the batch shell would give every rank the first node's value; "
                "read it inside the program (jobc.runtime.init() gives rank, local_rank, node_rank)",
            )


def check_script(ctx: Context) -> Iterator[Hit]:
    """In a script, every batch-shell line that expands a per-rank variable, at the expansion."""
    d = derived(ctx)
    if d is None:
        return
    script = facts(ctx)
    used = _used_beyond_logging(script.lines) if script is not None else None
    own = script.own if script is not None else frozenset()
    # on one node, the batch shell's node-level values are every rank's: node 0, its name, its GPUs
    same = _NODE_LEVEL if _one_node(ctx) else frozenset()
    for i, line in enumerate(ctx.spec.launch.setup):
        names = [n for n in _expanded_by_shell(line) if n not in own and n not in same]
        if "SLURMD_NODENAME" in names and _host_only(line):
            names = [n for n in names if n != "SLURMD_NODENAME"]
        if same and names:
            names = [n for n in names if not _node_rank_only(line, n)]
        if names and _gpus_per_node(script):
            names = [n for n in names if not _counted_only(line, n)]
        path = ("launch", "setup", i)
        span = d.expansions.get(path)
        if (
            names
            and script is not None
            and used is not None
            and span is not None
            and (
                _kept_in_the_batch_shell(script.lines[span.line - 1], used)
                or _set_again_in_every_step(script, script.lines[span.line - 1], span.line)
            )
        ):
            continue  # a value no rank ever reads: only logged, or every step sets its own
        if names:
            yield Hit(
                path,
                f"{_list(names)} is expanded {_BATCH}; read it inside the program, or let a shell "
                'inside the step expand it (srun bash -c "… \\$SLURM_PROCID …")',
                span=d.expansions.get(path),
            )


# Slurm's values for the node (not the task), set in the batch shell as they are in every task on
# that node; SLURM_STEP_GPUS is the node's GPUs of the step, the batch step's its whole share
_NODE_LEVEL = frozenset(
    {
        "SLURM_NODEID",
        "SLURMD_NODENAME",
        "SLURM_STEP_GPUS",
        "CUDA_VISIBLE_DEVICES",
        "ROCR_VISIBLE_DEVICES",
        "GPU_DEVICE_ORDINAL",
    }
)
# the batch shell's task values (task 0 of the first node), right only where a node's rank is asked
_TASK_LEVEL = frozenset({"SLURM_PROCID", "SLURM_LOCALID", "SLURM_NODEID"})
_TASK_REF = lazy(r"\$\{?(SLURM_PROCID|SLURM_LOCALID|SLURM_NODEID)\b")
_NODE_RANK_VALUE = lazy(
    r"--(?:node[-_]rank|machine[-_]rank)(?:=|[ \t]+)[\"']?\$\{?(SLURM_PROCID|SLURM_LOCALID|SLURM_NODEID)\b"
)
# A plain shell assignment (not exported): its value stays in the batch shell unless a later
# line hands it on.
_ASSIGNED = lazy(
    r"[ \t]*(?:(?:local|declare|typeset|readonly)[ \t]+(?P<flags>(?:-[A-Za-z]+[ \t]+)*))?"
    r"(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:\[[^\]\n]*\])?\+?="
)
_EXPORTING = lazy(r"[ \t]*(?:export|declare[ \t]+-[A-Za-z]*x|typeset[ \t]+-[A-Za-z]*x)[ \t]")
_IDENTIFIER = lazy(r"[A-Za-z_][A-Za-z0-9_]*")
_REFERENCE = lazy(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)")
# where a node's name is a rendezvous host: a launcher's endpoint or address option, MASTER_ADDR
_HOST_NAME = lazy(
    r"(?:--(?:rdzv[-_]endpoint|master[-_]addr(?:ess)?|main[-_]process[-_]ip)[= \t]+|\bMASTER_ADDR=)"
    r"[\"']?\$(?:SLURMD_NODENAME\b|\{SLURMD_NODENAME\})"
)
_NODE_COUNT = lazy(r"\$\{?(?:SLURM_NNODES|SLURM_JOB_NUM_NODES)\b")
_NODE_NAME = lazy(r"\$(?:SLURMD_NODENAME\b|\{SLURMD_NODENAME\})")
# commands that only show a value: a per-rank value shown once in the batch shell is harmless
_LOGGING = lazy(r"[ \t]*(?:echo|printf|logger|:)(?:[ \t]|$)")


def _used_beyond_logging(lines: list[str]) -> set[str]:
    """The shell variables some line reads other than to show them (one pass over the script).

    A later assignment, a step, an export, a heredoc or a file written from it all count, so only
    a variable that is echoed or never read again is let go."""
    used: set[str] = set()
    for line in lines:
        if _EXPORTING.match(line):
            used.update(_IDENTIFIER.findall(line))  # `export X` hands X to every step after it
        elif "$" in line and not _LOGGING.match(line):
            used.update(_REFERENCE.findall(line))
    return used


def _one_node(ctx: Context) -> bool:
    """The job surely runs on one node: its spec says so, or the script asks for one. sbatch's
    default of one node in a script that reads the count it is given (`--nnodes $SLURM_NNODES`)
    is a script sized on the sbatch command line (`sbatch -N 4 job.sh`), for any number."""
    if ctx.spec.resources.nodes != 1:
        return False
    script = facts(ctx)
    if script is None or {"nodes", "ntasks"} & set(script.honoured()):
        return True
    return not any(_NODE_COUNT.search(line) for line in script.lines if not line.lstrip().startswith("#"))


def _node_rank_only(line: str, name: str) -> bool:
    """On one node, every `$name` of the line is the value of a launcher's node-rank option
    (`torchrun --node_rank=$SLURM_PROCID`, accelerate's `--machine_rank`): the batch shell's task 0
    is the node's rank 0, the one right value there. A program's own `--rank $SLURM_PROCID` is
    each worker's and stays a finding."""
    if name not in _TASK_LEVEL:
        return False
    every = _TASK_REF.findall(line).count(name)
    return every > 0 and every == _NODE_RANK_VALUE.findall(line).count(name)


# the batch shell's GPU list only counted (`$(echo $CUDA_VISIBLE_DEVICES | tr ',' '\n' | wc -l)`,
# `… | awk -F, '{print NF}'`): the first node's count of GPUs
_DEVICE_LISTS = frozenset(
    {"CUDA_VISIBLE_DEVICES", "ROCR_VISIBLE_DEVICES", "GPU_DEVICE_ORDINAL", "SLURM_STEP_GPUS"}
)
_DEVICE_REF = lazy(r"\$\{?(CUDA_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL|SLURM_STEP_GPUS)\b")
_COUNTED = lazy(
    r"\$\([ \t]*(?:echo|printf[ \t]+['\"]?%s['\"]?)[ \t]+"
    r"['\"]?\$\{?(?P<name>[A-Z_]{3,30})\}?['\"]?[ \t]*\|[ \t]*"
    r"(?:tr[ \t]+[^|()\n]{1,40}\|[ \t]*wc[ \t]+-[lw]|wc[ \t]+-w|awk[ \t]+-F[ \t]*['\"]?,['\"]?[ \t]+"
    r"['\"]\{[ \t]*print[ \t]+NF[ \t]*\}['\"])[ \t]*\)"
)


def _gpus_per_node(script: ScriptFacts | None) -> bool:
    """The script asks for GPUs by the node (`--gres=gpu:N`, `--gpus-per-node`), not a total that
    Slurm may spread unevenly (`--gpus`), so every node has as many as the first."""
    if script is None:
        return False
    asked = set(script.honoured())
    return bool({"gres", "gpus-per-node"} & asked) and "gpus" not in asked


def _counted_only(line: str, name: str) -> bool:
    """Every `$name` of the line is a GPU list only counted (`GPUS_PER_NODE=$(echo
    $CUDA_VISIBLE_DEVICES | tr ',' '\\n' | wc -l)`): the first node's count, which is every node's
    when GPUs are asked per node. Which GPUs they are differs from node to node; how many does not."""
    if name not in _DEVICE_LISTS:
        return False
    every = _DEVICE_REF.findall(line).count(name)
    return every > 0 and every == sum(m.group("name") == name for m in _COUNTED.finditer(line))


def _host_only(line: str) -> bool:
    """Every `$SLURMD_NODENAME` of the line is a rendezvous host (`--rdzv_endpoint=$SLURMD_NODENAME:
    29500`, `MASTER_ADDR=$SLURMD_NODENAME`): expanded once, it is the first node's name, the one
    host every node must reach, not a value each node should have its own of."""
    return len(_HOST_NAME.findall(line)) == len(_NODE_NAME.findall(line))


def _kept_in_the_batch_shell(line: str, used: set[str]) -> bool:
    """The line only sets a shell variable (not exported, no command after it) that no later line
    reads other than to show it."""
    assigned = _ASSIGNED.match(line)
    if assigned is None or "x" in (assigned.group("flags") or "") or assigned.group("name") in used:
        return False
    import shlex  # only for a setup line that assigns a per-rank value

    try:
        words = shlex.split(line[assigned.end() :], comments=True)
    except ValueError:
        return False
    return len(words) <= 1  # `X=$SLURM_NODEID srun …` hands the value to the command


def _set_again_in_every_step(script: ScriptFacts, line: str, at: int) -> bool:
    """`export NODE_RANK=$SLURM_PROCID` in the batch shell, then every step after it sets NODE_RANK
    again in its own shell (`srun bash -c "export NODE_RANK=\\$SLURM_PROCID; torchrun …"`) and no
    other line after it reads it: the batch shell's one value is replaced before any rank reads it.
    A step that does not set it (a program started straight by srun reads its environment) keeps
    the finding."""
    assigned = _ASSIGNED.match(_EXPORTING.sub("", line, count=1))
    if assigned is None:
        return False
    name = assigned.group("name")
    later = [s for s in script.steps if s.span.line > at]
    if not later or any(name not in {a.name for a in s.env} for s in later):
        return False
    in_steps = {n for s in later for n in range(s.span.line, s.span.end_line + 1)}
    for number in range(at + 1, len(script.lines) + 1):
        text = script.lines[number - 1]
        if number in in_steps or _LOGGING.match(text) or text.lstrip().startswith("#"):
            continue
        if name in _REFERENCE.findall(text) or (_EXPORTING.match(text) and name in _IDENTIFIER.findall(text)):
            return False
    return True


def _expanded_by_shell(line: str) -> list[str]:
    """Runtime variables in ``line`` that bash would expand: not single-quoted, not escaped."""
    return _expansions(line, shell=True)


def _expansions(text: str, *, shell: bool = False) -> list[str]:
    """Runtime variables the `$` expansions of ``text`` read; with ``shell``, only those bash
    expands (outside single quotes, not escaped). One pass: a `$((…))` is skipped whole once
    read, and its end is looked up, so no part of the text is scanned twice."""
    if "$" not in text:
        return []  # every expansion starts at a `$`: most values hold none
    found: list[str] = []
    closes: list[int] | None = None
    single = double = False
    i = 0
    while i < len(text):
        ch = text[i]
        if shell and single:
            single = ch != "'"
        elif shell and ch == "\\":
            i += 1  # the next character is literal
        elif shell and ch == "'" and not double:
            single = True
        elif shell and ch == '"':
            double = not double
        elif ch == "$":
            match = RUNTIME_VAR.match(text, i)
            if match:
                found.append(match.group(1) or match.group(2))
            elif text.startswith("$((", i):
                if closes is None:
                    closes = [m.start() for m in _CLOSE.finditer(text)]
                k = bisect.bisect_left(closes, i + 3)
                if k < len(closes):
                    end = closes[k]
                    found += [m.group(1) for m in RUNTIME_NAME.finditer(text, i + 3, end)]
                    i = end + 1
        i += 1
    return found


def _list(names: list[str]) -> str:
    unique = list(dict.fromkeys(f"${n}" for n in names))
    return ", ".join(unique)
