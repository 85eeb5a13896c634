"""`--mpi=pmix` for a job that runs in a pyxis container.

With PMIx, Slurm's plugin talks to a PMIx server inside every task; in a container that needs
the container's PMIx to match the host's and enroot's PMIx hook to be set up, and on many
clusters it is not: steps fail with PMIx errors, or hang in `MPI_Init`, while `pmi2` works.
torch.distributed does not use PMI at all (ranks come from Slurm's variables and rendezvous
over TCP), so a PyTorch job needs neither.

Info: on clusters whose enroot is configured for PMIx it works, and MPI-based programs need it.

Bad:

```yaml
container: {image: "nvcr.io#nvidia/pytorch:25.01-py3"}
env: {SLURM_MPI_TYPE: pmix}
```

Good:

```yaml
container: {image: "nvcr.io#nvidia/pytorch:25.01-py3"}
# no SLURM_MPI_TYPE: torch.distributed needs no PMI
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.core.lazyre import lazy
from jobc.lint.rules._env import lookup
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit
from jobc.spec.context import Context

META = Meta(
    code="JC505",
    name="pmix-with-container",
    severity=Severity.INFO,
    summary="--mpi=pmix with a pyxis container (fails on many clusters; PyTorch needs no PMI)",
    remediation="Drop --mpi=pmix / SLURM_MPI_TYPE=pmix, or use pmi2 if the program needs PMI.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("container",),)

_PMIX_LINE = lazy(r"--mpi[= ]+pmix|SLURM_MPI_TYPE=['\"]?pmix")
_WHY = (
    "PMIx inside a pyxis container must match the host's and fails or hangs on many clusters, and "
    "torch.distributed uses no PMI; drop it, or use pmi2 if the program needs PMI"
)


def check(ctx: Context) -> Iterator[Hit]:
    if ctx.spec.container is None:
        return
    setting = lookup(ctx, "SLURM_MPI_TYPE")
    if setting is not None and setting.text.strip().lower().startswith("pmix"):
        yield Hit(setting.path, f"{setting.where} makes srun start tasks with PMIx: {_WHY}")
    for i, line in enumerate(ctx.spec.launch.setup):
        if _PMIX_LINE.search(line):
            yield Hit(("launch", "setup", i), f"setup line {i + 1} uses PMIx: {_WHY}")


def check_script(ctx: Context) -> Iterator[Hit]:
    """In a script: an `srun --mpi=pmix` step that runs in a pyxis container, or SLURM_MPI_TYPE
    exported for a script whose steps run in one."""
    f = facts(ctx)
    if f is None or not any(step.container for step in f.steps):
        return
    setting = lookup(ctx, "SLURM_MPI_TYPE")
    if setting is not None and setting.text.strip().lower().startswith("pmix"):
        yield Hit(setting.path, f"{setting.where} makes srun start tasks with PMIx: {_WHY}")
    for step in f.steps:
        mpi = (step.srun or {}).get("mpi")
        if step.container and mpi is not None and mpi.text.strip().lower().startswith("pmix"):
            yield hit(mpi.span, f"srun --mpi={mpi.text} starts this containered step with PMIx: {_WHY}")
