"""A constraint names a feature, or `resources.gpu` a GPU, that no node of the partition has.

A `--constraint` feature that no node of the partition offers makes sbatch refuse the job
("Invalid feature specification") or leaves it pending for ever. The GPU type is compared with
the GRES types of the partition's nodes (`gpu:a100:4` → a100): a spec planned for H100s that
lands on A100s has its memory estimate and CUDA settings wrong. Slurm names GPUs by GRES type,
not by the GPU catalogue's key, so the check is on the model (`h100` in `h100-80gb`); nodes whose
GPUs have no type are not checked. The nodes' features and GPU types come from the live cluster
(`jobc lint --live`), or from the kinds of node the cluster profile lists for the partition.

Bad:

```yaml
# the partition's nodes have features a100, ib and GPUs gpu:a100:4
slurm: {constraint: h100}
resources: {gpu: h100-80gb}
```

Good:

```yaml
slurm: {constraint: a100}
resources: {gpu: a100-80gb}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.lint.rules.topology._partition import feature_words, holders, view
from jobc.spec.context import Context

META = Meta(
    code="JC122",
    name="partition-feature-gpu",
    severity=Severity.ERROR,
    summary="A constraint's feature or the GPU type is on no node of the partition",
    remediation="Use a feature `sinfo -o '%P %f'` lists for the partition, and the GPU its nodes have.",
)
# a script's partition, time, nodes, constraint, account and QOS meet the same cluster
SCRIPTS = True
# without --live, a profile's partitions and kinds of node tell it (with --live every check runs)
READS = (("cluster", "partitions"),)


def check(ctx: Context) -> Iterator[Hit]:
    v = view(ctx)
    if v is None or not v.kinds:
        return
    constraint = ctx.spec.slurm.constraint
    if constraint:
        have = sorted({f for kind in v.kinds for f in kind.features})
        for word in dict.fromkeys(feature_words(constraint)):
            if word in have:
                continue
            elsewhere = holders(ctx, word)
            where = f" (nodes of {', '.join(elsewhere)} have it)" if elsewhere else ""
            listed = ", ".join(have) if have else "none"
            yield Hit(
                ("slurm", "constraint"),
                f"feature {word!r} is on no node of {v.label}{where}; the features there are: {listed}",
            )
    gpu = ctx.gpu
    types = sorted({t for kind in v.kinds for t in kind.gpu_types})
    if gpu is None or not types:
        return
    family = gpu.key.split("-", 1)[0].lower()
    if any(family in kind.lower() for kind in types):
        return
    yield Hit(
        ctx.gpu_path,
        f"{words.name(ctx, ctx.gpu_path, f'{ctx.gpu_path[0]}.gpu')} asks for {gpu.key}, but the GPUs of "
        f"{v.label} are of type {', '.join(types)}: the memory and CUDA settings planned for "
        f"{gpu.key} would be wrong there",
        severity=Severity.WARNING,
    )
