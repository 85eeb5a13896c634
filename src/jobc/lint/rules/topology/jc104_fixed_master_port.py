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
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Hit, Severity
from jobc.lint.rules.base import Meta, Repair
from jobc.spec.context import Context

META = Meta(
    code="JC104",
    name="fixed-master-port",
    severity=Severity.WARNING,
    summary="A fixed MASTER_PORT on nodes that are not exclusive can collide with another job",
    remediation="Remove the fixed port (jobc derives one from the job id), or set slurm.exclusive: true.",
)
FIX = Repair(
    Applicability.UNSAFE,
    "replaces the fixed port with one derived from the job id, `$((20000 + SLURM_JOB_ID % "
    "9000))`, as compiled scripts do",
    "scripts",
)


def check(ctx: Context) -> Iterator[Hit]:
    if _exclusive(ctx):
        return
    why = "nodes are not exclusive (slurm.exclusive is not true), so another job on the same node"
    port = ctx.spec.launch.master_port
    if port is not None:
        yield Hit(
            ("launch", "master_port"),
            f"master_port is fixed at {port} but {why} can bind it too (EADDRINUSE); remove "
            "master_port (jobc derives one from the job id) or set slurm.exclusive: true",
        )
    if "MASTER_PORT" in ctx.spec.env:
        value = ctx.spec.env["MASTER_PORT"]
        yield Hit(
            ("env", "MASTER_PORT"),
            f"env MASTER_PORT fixes the port at {value} but {why} can bind it too (EADDRINUSE); "
            "remove it (jobc derives one from the job id) or set slurm.exclusive: true",
        )


def _exclusive(ctx: Context) -> bool:
    slurm = ctx.spec.slurm
    # `exclusive: user` or `mcs` in extra still lets the same user's other jobs share the node
    bare_flag = slurm.extra.get("exclusive") is True
    return bool(slurm.exclusive or ctx.spec.cluster.exclusive_nodes or bare_flag)
