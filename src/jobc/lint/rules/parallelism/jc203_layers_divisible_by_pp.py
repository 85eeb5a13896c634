"""Pipeline parallelism gives each stage the same number of transformer layers: `model.layers`
must be divisible by `pp`, and with an interleaved schedule by `pp × vpp` (each pipeline rank
holds vpp chunks of equal size).

Megatron-LM asserts this at start-up unless the first and last stages are given explicit,
uneven layer counts; if the program does that, suppress the finding on that line
(`# jobc: ignore[JC203]`). Uses the model's `layers`: the explicit field, else the preset or
`hf_config`.

Bad:

```yaml
model: {layers: 30}
parallelism: {pp: 4}
```

Good:

```yaml
model: {layers: 32}
parallelism: {pp: 4, vpp: 2}    # 8 virtual stages of 4 layers
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.parallelism._layout import divisors, nearest, suggest
from jobc.spec.context import Context

META = Meta(
    code="JC203",
    name="layers-divisible-by-pp",
    severity=Severity.ERROR,
    summary="Model layers not divisible by pp (× vpp)",
    remediation="Choose pp (and vpp) so that pp × vpp divides model.layers.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("model",),)


def _layers(ctx: Context) -> int | None:
    """Transformer layers: the explicit field, else the preset or config."""
    if ctx.spec.model is None:
        return None
    from jobc.memory.context import dims

    return dims(ctx).layers


def check(ctx: Context) -> Iterator[Hit]:
    layers = _layers(ctx)
    p = ctx.spec.parallelism
    if layers is None:
        return
    if layers % p.pp:
        better = nearest([d for d in divisors(layers) if d <= max(p.pp * 2, 2)], p.pp)
        yield Hit(
            ("parallelism", "pp"),
            f"model.layers {layers} is not divisible by pp {p.pp}: the stages would hold "
            f"{_split(layers, p.pp)} layers, and Megatron-LM requires equal stages"
            f"{suggest('pp', better)}",
        )
        return
    vpp = p.vpp or 1
    if vpp > 1 and (layers // p.pp) % vpp:
        per_stage = layers // p.pp
        better = nearest([d for d in divisors(per_stage) if d > 1], vpp) or [1]
        yield Hit(
            ("parallelism", "vpp"),
            f"model.layers {layers} over pp {p.pp} × vpp {vpp} = {p.pp * vpp} virtual stages does "
            f"not divide: each pipeline rank holds {per_stage} layers, which do not split into "
            f"{vpp} equal chunks{suggest('vpp', better)}",
        )


def _split(layers: int, stages: int) -> str:
    """The most even split: ``8, 8, 7, 7``; for many stages ``3 on 4 stages and 2 on 12``."""
    base, extra = divmod(layers, stages)
    if stages <= 8:
        return ", ".join(str(base + (1 if i < extra else 0)) for i in range(stages))
    return f"{base + 1} on {extra} stages and {base} on {stages - extra}"
