"""The world (nodes × gpus_per_node ranks) must split into whole tensor-, pipeline-, context- and
data-parallel groups: world = tp · pp · cp · dp.

When tp·pp·cp does not divide the world, Megatron-LM and torch's DeviceMesh refuse to start
(after the allocation has been granted and every node has loaded the container). A `dp`
written in the spec must equal the derived world / (tp·pp·cp); jobc exports the derived value as
`JOBC_DP`, so a different number in the spec is a wrong belief about the job.

Bad:

```yaml
resources: {nodes: 2, gpus_per_node: 6}     # world 12
parallelism: {tp: 2, pp: 4}                 # 8 does not divide 12
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 6}     # world 24 = 2 · 4 · 1 · dp 3
parallelism: {tp: 2, pp: 4}
```
"""

from collections.abc import Iterator
from math import gcd

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.parallelism._layout import alternatives, divisors, multiples_around, world_text
from jobc.spec.context import Context

META = Meta(
    code="JC201",
    name="world-divisibility",
    severity=Severity.ERROR,
    summary="world is not divisible by tp·pp·cp, or a given dp is not world/(tp·pp·cp)",
    remediation="Change the node count or tp/pp/cp so that tp·pp·cp divides the world; leave dp out.",
)


def check(ctx: Context) -> Iterator[Hit]:
    p = ctx.spec.parallelism
    world = ctx.world
    if world == 0:
        return
    model_parallel = p.tp * p.pp * p.cp
    sizes = f"tp·pp·cp = {model_parallel} (tp {p.tp} × pp {p.pp} × cp {p.cp})"
    if world % model_parallel:
        yield _indivisible(ctx, model_parallel, sizes)
        return
    dp = world // model_parallel
    if p.dp is not None and p.dp != dp:
        yield Hit(
            ("parallelism", "dp"),
            f"dp {p.dp} does not match world {world_text(ctx)} / {sizes} = {dp}; remove dp "
            f"(it is derived) or set it to {dp}",
        )


def _indivisible(ctx: Context, model_parallel: int, sizes: str) -> Hit:
    p = ctx.spec.parallelism
    world, gpus = ctx.world, ctx.gpus_per_node
    fixes: list[str] = []
    # node counts whose world tp·pp·cp divides: the multiples of this step
    step = model_parallel // gcd(model_parallel, gpus)
    fixes.append(f"use {alternatives(multiples_around(ctx.nodes, step))} nodes")
    # blame the largest factor: it is the one most likely chosen too big
    name, size = max((("tp", p.tp), ("pp", p.pp), ("cp", p.cp)), key=lambda f: f[1])
    rest = model_parallel // size
    if world % rest == 0:
        smaller = [s for s in divisors(world // rest) if s < size][-2:]
        if smaller:
            fixes.append(f"{name} {alternatives(smaller)}")
    return Hit(
        ("parallelism", name),
        f"world {world_text(ctx)} is not divisible by {sizes}; {', or '.join(fixes)}",
    )
