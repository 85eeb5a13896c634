"""A mixture-of-experts model with `ep: 1` keeps every expert on every GPU.

That can be intended (a small MoE that fits, or a data-parallel fine-tune), so this is
information: expert parallelism divides the experts' weights, gradients and optimizer state by
`ep`, usually the largest memory item of a MoE model, at the price of all-to-all traffic. The
finding lists the ep values that divide the experts and fit the world
(`ep · etp · pp` must divide it).

Bad:

```yaml
resources: {nodes: 1, gpus_per_node: 8}
model: {moe: {experts: 64, top_k: 8}}
parallelism: {ep: 1}
```

Good:

```yaml
resources: {nodes: 1, gpus_per_node: 8}
model: {moe: {experts: 64, top_k: 8}}
parallelism: {ep: 8}       # 8 experts per GPU
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.parallelism._layout import alternatives, divisors
from jobc.spec.context import Context

META = Meta(
    code="JC210",
    name="moe-without-ep",
    severity=Severity.INFO,
    summary="A MoE model with ep 1 holds all experts on every GPU",
    remediation="Consider parallelism.ep > 1 (dividing the experts) to spread the experts over GPUs.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("model",),)


def _experts(ctx: Context) -> int | None:
    """Routed experts per MoE layer: model.moe, else the preset or config."""
    if ctx.spec.model is None:
        return None
    from jobc.memory.context import dims

    return dims(ctx).experts


def check(ctx: Context) -> Iterator[Hit]:
    experts = _experts(ctx)
    p = ctx.spec.parallelism
    if experts is None or p.ep > 1 or experts == 1:
        return
    rest = ctx.etp * p.pp
    if ctx.world == 0 or ctx.world % rest:
        return
    options = [e for e in divisors(ctx.world // rest) if e > 1 and experts % e == 0]
    if not options:
        return
    shown = options if len(options) <= 4 else [*options[:3], options[-1]]
    per_gpu = [experts // e for e in shown]
    yield Hit(
        _where(ctx),
        f"ep is 1, so every GPU holds all {experts} experts of each MoE layer; ep "
        f"{alternatives(shown)} would hold {alternatives(per_gpu)} per GPU",
    )


def _where(ctx: Context) -> DataPath:
    if ctx.given("parallelism", "ep"):
        return ("parallelism", "ep")
    for source in ("preset", "hf_config"):
        if not ctx.given("model", "moe") and ctx.given("model", source):
            return ("model", source)
    return ("model", "moe", "experts")
