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
or in a launcher's options: the batch shell expands it before srun starts anything.

Bad in a script:

```bash
#!/bin/bash
#SBATCH --nodes=2
srun bash -c "python train.py --node-rank=$SLURM_NODEID"
```
"""

import re
from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, DataPath, Hit, Severity
from jobc.lint.rules.base import Meta, Repair
from jobc.spec.context import Context

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
    'escapes the variable inside a double-quoted `bash -c "…"`, so the step\'s shell expands '
    "it on each node; for a launcher started straight by srun (unsafe) it quotes the launch "
    "as `bash -c '…'`",
    "scripts",
)

_RUNTIME = (
    r"SLURM_PROCID|SLURM_NODEID|SLURM_LOCALID|SLURM_GTIDS|SLURM_TASK_PID|SLURMD_NODENAME"
    r"|SLURM_STEP_[A-Z0-9_]+|RANK|LOCAL_RANK|NODE_RANK|GROUP_RANK|ROLE_RANK"
    r"|CUDA_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL"
)
# $NAME or ${NAME…}: the name must end there, so $RANKS or $SLURM_NODEIDX do not count
_VAR = re.compile(rf"\$(?:\{{({_RUNTIME})(?=[}}:#%/^,@-]|\[)|({_RUNTIME})(?![A-Za-z0-9_]))")
# $(( … )): arithmetic names variables without a `$`, as in $((SLURM_NODEID * 8 + SLURM_LOCALID))
_ARITHMETIC = re.compile(r"\$\(\((.*?)\)\)")
_NAME = re.compile(rf"(?<![A-Za-z0-9_])({_RUNTIME})(?![A-Za-z0-9_])")


def check(ctx: Context) -> Iterator[Hit]:
    launch = ctx.spec.launch
    for i, line in enumerate(launch.setup):
        names = _expanded_by_shell(line)
        if names:
            yield Hit(
                ("launch", "setup", i),
                f"setup line {i + 1} expands {_list(names)} in the batch shell, which runs once on "
                "the first node (where SLURM_NODEID, SLURM_PROCID and SLURM_LOCALID are 0 and RANK "
                "is unset), so every rank would see that one value; read it inside the program",
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
        names = [name for i, ch in enumerate(text) if ch == "$" for name in _expansion_at(text, i)]
        if names:
            yield Hit(
                path,
                f"{what} holds {_list(names)}, which is passed literally (never shell-expanded), and "
                "expanding it in the batch shell would give every rank the first node's value; "
                "read it inside the program (jobc.runtime.init() gives rank, local_rank, node_rank)",
            )


def _expanded_by_shell(line: str) -> list[str]:
    """Runtime variables in ``line`` that bash would expand: not single-quoted, not escaped."""
    found: list[str] = []
    single = double = False
    i = 0
    while i < len(line):
        ch = line[i]
        if single:
            single = ch != "'"
        elif ch == "\\":
            i += 1  # the next character is literal
        elif ch == "'" and not double:
            single = True
        elif ch == '"':
            double = not double
        elif ch == "$":
            found += _expansion_at(line, i)
        i += 1
    return found


def _expansion_at(text: str, i: int) -> list[str]:
    """The runtime variables that the expansion starting with the `$` at ``text[i]`` reads."""
    match = _VAR.match(text, i)
    if match:
        return [match.group(1) or match.group(2)]
    arithmetic = _ARITHMETIC.match(text, i)
    if arithmetic:
        return [m.group(1) for m in _NAME.finditer(arithmetic.group(1))]
    return []


def _list(names: list[str]) -> str:
    unique = list(dict.fromkeys(f"${n}" for n in names))
    return ", ".join(unique)
