"""A constraint names a feature, or `resources.gpu` a GPU, that no node of the live partition
has (`jobc lint --live`).

A `--constraint` feature that no node of the partition offers makes sbatch refuse the job
("Invalid feature specification") or leaves it pending for ever. The GPU type is compared with
the GRES types of the partition's nodes (`gpu:a100:4` → a100): a spec planned for H100s that
lands on A100s has its memory estimate and CUDA settings wrong. Slurm names GPUs by GRES type,
not by the GPU catalogue's key, so the check is on the model (`h100` in `h100-80gb`); nodes whose
GPUs have no type are not checked.

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
from jobc.lint.rules.topology._live import feature_words, target
from jobc.spec.context import Context

META = Meta(
    code="JC122",
    name="live-feature-gpu",
    severity=Severity.ERROR,
    summary="A constraint's feature or the GPU type is on no node of the live partition (--live)",
    remediation="Use a feature `sinfo -o '%P %f'` lists for the partition, and the GPU its nodes have.",
)
# Only `jobc lint --live` has a cluster to compare with; without it lint does not load the rule.
LIVE = True
# a script's partition, time, nodes, constraint, account and QOS meet the same cluster
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    t = target(ctx)
    if t is None or not t.nodes:
        return
    constraint = ctx.spec.slurm.constraint
    if constraint:
        have = sorted({f for n in t.nodes for f in n.features})
        for word in dict.fromkeys(feature_words(constraint)):
            if word in have:
                continue
            elsewhere = sorted({p for n in t.cluster.nodes if word in n.features for p in n.partitions})
            where = f" (nodes of {', '.join(elsewhere)} have it)" if elsewhere else ""
            listed = ", ".join(have) if have else "none"
            yield Hit(
                ("slurm", "constraint"),
                f"feature {word!r} is on no node of {t.label}{where}; the features there are: {listed}",
            )
    gpu = ctx.gpu
    types = sorted({k for n in t.nodes for k in n.gpu_types})
    if gpu is None or not types:
        return
    family = gpu.key.split("-", 1)[0].lower()
    if any(family in kind.lower() for kind in types):
        return
    yield Hit(
        ctx.gpu_path,
        f"{words.name(ctx, ctx.gpu_path, f'{ctx.gpu_path[0]}.gpu')} asks for {gpu.key}, but the GPUs of "
        f"{t.label} are of type {', '.join(types)}: the memory and CUDA settings planned for "
        f"{gpu.key} would be wrong there",
        severity=Severity.WARNING,
    )
