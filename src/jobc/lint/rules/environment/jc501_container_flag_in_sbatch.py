"""A pyxis container flag (`container-image`, `container-mounts`, `no-container-mount-home`, …)
given as an sbatch option in `slurm.extra`.

Pyxis adds its `--container-*` flags to `srun`: they describe the container each task of a job
step runs in. As `#SBATCH` lines they are rejected by an sbatch without pyxis, or, where pyxis
also registers them for sbatch, they put the batch script itself into the container, where
`srun`, `scontrol` and the Slurm environment the script needs are missing. jobc writes these
flags on the `srun` line from the `container` section.

Error: the job fails at submission or at its first step.

Bad:

```yaml
slurm:
  extra: {container-image: "nvcr.io#nvidia/pytorch:25.01-py3", no-container-mount-home: true}
```

Good:

```yaml
container:
  image: "nvcr.io#nvidia/pytorch:25.01-py3"
  mount_home: false
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.tables.slurm_options import is_pyxis

META = Meta(
    code="JC501",
    name="container-flag-in-sbatch",
    severity=Severity.ERROR,
    summary="A pyxis --container-* flag given as an sbatch option",
    remediation="Move it to the container section; jobc puts pyxis flags on srun.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("slurm", "extra"),)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True

_FIELD = {
    "container-image": "container.image",
    "container-mounts": "container.mounts",
    "container-workdir": "container.workdir",
    "container-mount-home": "container.mount_home",
    "no-container-mount-home": "container.mount_home",
    "container-remap-root": "container.remap_root",
    "no-container-remap-root": "container.remap_root",
    "container-env": "container.env",
}


def check(ctx: Context) -> Iterator[Hit]:
    for name in ctx.spec.slurm.extra:
        if not is_pyxis(name):
            continue
        field = _FIELD.get(name)
        if words.in_script(ctx):
            fix = f"pass it to srun instead (srun --{name}…)"
        else:
            fix = f"set {field} instead" if field else "it belongs on the srun line, which jobc writes"
        yield Hit(
            ("slurm", "extra", name),
            f"--{name} is a pyxis flag of srun, not an sbatch option: as an #SBATCH line it is "
            f"rejected, or runs the batch script itself in the container without srun; {fix}",
            at_value=False,
        )
