"""Sequence parallelism splits the activations of norms and dropout over the tensor-parallel
ranks; with `tp: 1` there is nothing to split.

Warning, not error: Megatron-LM turns the flag off with a warning and the job runs, but the spec
then promises an activation-memory saving the job does not get (and memory estimates that trust
it are too low).

Bad:

```yaml
parallelism: {tp: 1, sequence_parallel: true}
```

Good:

```yaml
parallelism: {tp: 4, sequence_parallel: true}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC207",
    name="sequence-parallel-needs-tp",
    severity=Severity.WARNING,
    summary="sequence_parallel without tensor parallelism (tp 1) does nothing",
    remediation="Remove parallelism.sequence_parallel, or use tp > 1.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("parallelism", "sequence_parallel"),)


def check(ctx: Context) -> Iterator[Hit]:
    p = ctx.spec.parallelism
    if p.sequence_parallel and p.tp == 1:
        yield Hit(
            ("parallelism", "sequence_parallel"),
            "sequence_parallel is on but tp is 1: it splits activations over the tensor-parallel "
            "ranks, so there is nothing to split (Megatron-LM turns it off with a warning); remove "
            "it or use tp > 1",
        )
