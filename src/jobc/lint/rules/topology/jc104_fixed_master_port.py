"""A fixed rendezvous port on nodes that other jobs may share.

On a node that is not allocated whole, another job (or another copy of this one) can run next to
yours and bind the same fixed port; whichever starts second fails with `EADDRINUSE`, or worse,
joins the other job's rendezvous. jobc derives `MASTER_PORT` from the job id inside a range
outside the ephemeral ports, so two jobs never pick the same one. A fixed port is harmless only
when nodes are exclusive.

Warning, not error: the job often runs, and fails only when it happens to share a node.

Bad:

```yaml
launch: {program: train.py, master_port: 29500}
env: {MASTER_PORT: "29500"}
```

Bad in a script, assembled (a plain variable passed on; the finding points at its value):

```bash
#SBATCH --nodes=2
MASTER_PORT=29400
srun torchrun --nnodes=2 --rdzv_backend=c10d --rdzv_endpoint="$(hostname):$MASTER_PORT" train.py
```

Good:

```yaml
launch: {program: train.py}             # port derived from the job id
```

or, when a fixed port is really needed, whole nodes:

```yaml
slurm: {exclusive: true}
launch: {program: train.py, master_port: 29500}
```

In a script, an exported port:

Bad in a script:

```bash
#!/bin/bash
#SBATCH --nodes=2
export MASTER_PORT=29500
srun python train.py
```

A launcher's own name for it counts the same: a fixed number in a variable named
`…_MASTER_PORT` (ROCm Megatron's `SLURM_MASTER_PORT`, handed into a container that reads it as
its port) is that port written once for every job. So is a port the program is given as an
option of its own when no launcher starts it (`srun python train.py --master_port=3442`,
`--dist-url tcp://HOST:3442`, `--init_method tcp://HOST:3442`), which it reads as its
MASTER_PORT: the finding points at the port. A bare `--port` may be any server's, and is not read.
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta, Repair
from jobc.spec.context import Context

META = Meta(
    code="JC104",
    name="fixed-master-port",
    severity=Severity.WARNING,
    summary="A fixed MASTER_PORT on nodes that are not exclusive can collide with another job",
    remediation=(
        "Remove the fixed port (jobc derives one from the job id; a script can derive it from "
        "SLURM_JOB_ID), or ask for whole nodes (slurm.exclusive: true, #SBATCH --exclusive)."
    ),
)
FIX = Repair(
    Applicability.UNSAFE,
    "removes a spec's fixed port (launch.master_port, env MASTER_PORT), so that jobc derives one "
    "from the job id; in a script, replaces the fixed port with `$((20000 + SLURM_JOB_ID % 9000))`, "
    "as compiled scripts derive it",
    "specs and scripts",
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    if _exclusive(ctx):
        return
    exclusive = words.setting(ctx, ("slurm", "exclusive"), "", "slurm.exclusive: true")
    if words.in_script(ctx):
        why = "nodes are not exclusive (no #SBATCH --exclusive), so another job on the same node"
        fix = f"derive the port from the job id ({_derived_port()}) or add {exclusive}"
    else:
        why = "nodes are not exclusive (slurm.exclusive is not true), so another job on the same node"
        fix = f"remove it (jobc derives one from the job id) or set {exclusive}"
    port = ctx.spec.launch.master_port
    if port is not None:
        where = words.name(ctx, ("launch", "master_port"), "master_port")
        yield Hit(
            ("launch", "master_port"),
            f"{where} fixes the port at {port} but {why} can bind it too (EADDRINUSE); {fix}",
            fix=_remove(("launch", "master_port")),
        )
    for name, value in ctx.spec.env.items():
        if name != "MASTER_PORT" and not (name.endswith("_MASTER_PORT") and str(value).isdigit()):
            continue
        where = words.name(ctx, ("env", name))
        yield Hit(
            ("env", name),
            f"{where} fixes the port at {value} but {why} can bind it too (EADDRINUSE); {fix}",
            fix=_remove(("env", name)),
        )


def _derived_port() -> str:
    """What a script writes instead of a fixed port: one derived from the job id, outside the
    ephemeral range, as jobc's compiled script does. (The compiler's constants are imported
    here: a script's lint imports nothing else of the compiler.)"""
    from jobc.compile.rendezvous import PORT_BASE, PORT_SPAN

    return f"$(({PORT_BASE} + SLURM_JOB_ID % {PORT_SPAN}))"


def _remove(path: tuple[str, str]) -> Fix:
    """Out of a spec: jobc derives the port from the job id (in a script the repair is made from
    the script's words instead)."""
    return Fix.make(f"remove {'.'.join(path)}", Edit(path, "", remove=True), safe=False)


def _exclusive(ctx: Context) -> bool:
    slurm = ctx.spec.slurm
    # `exclusive: user` or `mcs` in extra still lets the same user's other jobs share the node
    bare_flag = slurm.extra.get("exclusive") is True
    return bool(slurm.exclusive or ctx.spec.cluster.exclusive_nodes or bare_flag)
