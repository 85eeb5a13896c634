"""`NCCL_DEBUG=INFO` (or `TRACE`) outside a debugging run.

At INFO every rank prints NCCL's version, topology, rings, trees and channel setup, and one
line per communicator it creates: thousands of lines per node, more with every process group,
interleaved from all ranks into one log. It slows start-up at scale, buries the messages that
matter and can fill a log quota. It is the right setting while chasing a hang, which is what
`debug: true` is for (it also turns on `TORCH_DISTRIBUTED_DEBUG=DETAIL` and fault handlers);
`WARN` keeps the errors.

Warning: nothing breaks, but it is almost always left over from a debugging session.

Bad:

```yaml
fabric: {debug: INFO}
```

Good:

```yaml
fabric: {debug: WARN}
# or, while debugging:
debug: true
```

In a script:

Bad in a script:

```bash
#!/bin/bash
export NCCL_DEBUG=INFO
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, DataPath, Edit, Fix, Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules._env import lookup
from jobc.lint.rules.base import Meta, Repair
from jobc.spec.context import Context

META = Meta(
    code="JC404",
    name="nccl-debug-info",
    severity=Severity.WARNING,
    summary="NCCL_DEBUG=INFO outside `debug: true`",
    remediation="Use fabric.debug: WARN, or set debug: true for a debugging run.",
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True
FIX = Repair(
    Applicability.UNSAFE,
    "sets NCCL_DEBUG to WARN (a log level someone chose: applied only when asked)",
    "specs and scripts",
)

_VERBOSE = ("INFO", "TRACE")


def check(ctx: Context) -> Iterator[Hit]:
    if ctx.spec.debug:
        return
    found: tuple[DataPath, str, str] | None = None
    setting = lookup(ctx, "NCCL_DEBUG")
    if setting is not None:
        found = (setting.path, setting.text.strip().upper(), setting.where)
    elif ctx.spec.fabric.debug is not None:
        found = (("fabric", "debug"), ctx.spec.fabric.debug, "fabric.debug")
    if found is None or found[1] not in _VERBOSE:
        return
    path, level, where = found
    debugging = (
        "keep INFO for a debugging run" if words.in_script(ctx) else "set debug: true for a debugging run"
    )
    # no count when the world is not known (a script that asks Slurm for no GPUs): never "1 ranks"
    ranks = f"every one of the {ctx.world} ranks" if ctx.world > 1 else "every rank"
    yield Hit(
        path,
        f"{where} is {level}: {ranks} logs NCCL's whole setup "
        f"(topology, rings, channels, each communicator), burying real errors; use WARN, or {debugging}",
        fix=Fix.make("set NCCL_DEBUG to WARN", Edit(path, "WARN"), safe=False),
    )
