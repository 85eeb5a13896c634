"""Expert parallelism must split the experts evenly and tile the world.

Each expert-parallel rank holds `experts / ep` routed experts, so `ep` must divide
`model.moe.experts`. The expert layers are laid out over their own grid, world = etp · ep · edp · pp
(`etp`, the expert tensor-parallel size, is `tp` unless set), so `ep · etp · pp` must divide the
world too, or there is no whole expert-data-parallel size and Megatron-Core refuses to build its
process groups.

Bad:

```yaml
resources: {nodes: 3, gpus_per_node: 8}     # world 24
parallelism: {tp: 2, ep: 8}                 # ep·etp·pp = 16
model: {moe: {experts: 64, top_k: 2}}
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}     # world 32 = 16 · edp 2
parallelism: {tp: 2, ep: 8}
model: {moe: {experts: 64, top_k: 2}}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.parallelism._layout import divisors, nearest, suggest, world_text
from jobc.spec.context import Context

META = Meta(
    code="JC204",
    name="expert-parallel-fit",
    severity=Severity.ERROR,
    summary="experts not divisible by ep, or ep·etp·pp does not divide the world",
    remediation="Choose ep dividing model.moe.experts such that ep × etp × pp divides nodes × gpus_per_node.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("parallelism", "ep"), ("parallelism", "etp"))


def _experts(ctx: Context) -> int | None:
    """Routed experts per MoE layer: model.moe, else the preset or config."""
    if ctx.spec.model is None:
        return None
    from jobc.memory.context import dims

    return dims(ctx).experts


def check(ctx: Context) -> Iterator[Hit]:
    p = ctx.spec.parallelism
    experts = _experts(ctx)
    etp = ctx.etp
    world = ctx.world
    if world == 0 or (p.ep == 1 and not ctx.given("parallelism", "etp")):
        return
    grid = p.ep * etp * p.pp

    def fits(ep: int) -> bool:
        return (experts is None or experts % ep == 0) and world % (ep * etp * p.pp) == 0

    room = world // (etp * p.pp) if world % (etp * p.pp) == 0 else 0
    better = nearest([e for e in divisors(room) if e > 1 and fits(e)], p.ep) if room else []
    fix = suggest("ep", better)
    if experts is not None and experts % p.ep:
        yield Hit(
            ("parallelism", "ep"),
            f"model.moe.experts {experts} is not divisible by ep {p.ep}: each expert-parallel rank "
            f"must hold the same number of whole experts{fix}",
        )
        return
    if world % grid:
        where = ("parallelism", "ep") if p.ep > 1 else ("parallelism", "etp")
        yield Hit(
            where,
            f"ep·etp·pp = {grid} (ep {p.ep} × etp {etp}{'' if p.etp else ' from tp'} × pp {p.pp}) "
            f"does not divide world {world_text(ctx)}, so there is no whole expert-data-parallel "
            f"size{fix or '; change the node count, etp or pp'}",
        )
