"""Expert parallelism on a dense model.

`ep` splits the routed experts of MoE layers; a model without them has nothing to split.
Megatron-LM refuses `--expert-model-parallel-size` above 1 without `--num-experts`, and a spec
that says `ep: 8` for a dense model most likely describes a different model than the one it
trains. The rule fires when the model is described by explicit fields (layers, hidden,
heads …) without a `moe` section, or by a preset or Hugging Face config of a dense model.

Bad:

```yaml
model: {layers: 32, hidden: 4096, heads: 32}
parallelism: {ep: 8}
```

Good:

```yaml
model: {layers: 32, hidden: 4096, heads: 32}
parallelism: {ep: 1}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC209",
    name="ep-without-moe",
    severity=Severity.ERROR,
    summary="ep > 1 for a model without MoE layers",
    remediation="Set parallelism.ep to 1, or describe the model's experts under model.moe.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("parallelism", "ep"),)

_ARCHITECTURE = ("layers", "hidden", "heads", "kv_heads", "ffn_hidden", "vocab")


def _dense(ctx: Context) -> bool:
    """Whether the model is known to have no MoE layers."""
    model = ctx.spec.model
    if model is None or model.moe is not None:
        return False
    if model.preset or model.hf_config:
        from jobc.memory.context import shape

        known = shape(ctx)
        return known is not None and known.moe is None
    return any(getattr(model, name) is not None for name in _ARCHITECTURE)


def _why(ctx: Context) -> str:
    model = ctx.spec.model
    if model is not None and (model.preset or model.hf_config):
        origin = f"preset {model.preset}" if model.preset else f"hf_config {model.hf_config}"
        return f"{origin} is a dense model"
    return "model.moe is not set"


def check(ctx: Context) -> Iterator[Hit]:
    ep = ctx.spec.parallelism.ep
    if ep > 1 and _dense(ctx):
        yield Hit(
            ("parallelism", "ep"),
            f"ep {ep} but the model has no MoE layers ({_why(ctx)}), so there are no "
            "experts to split and Megatron-LM refuses expert parallelism; set ep to 1 or add model.moe",
        )
