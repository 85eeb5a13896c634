"""The sequence length must split evenly over the ranks that share a sequence.

- Context parallelism (cp > 1) cuts each sequence into 2·cp chunks and gives every rank two of
  them (one early, one late) so that causal attention costs the same everywhere:
  `seq_length % (2·cp) == 0`.
- Sequence parallelism splits each rank's part of the sequence over the tp ranks:
  `(seq_length / cp) % tp == 0`.

Megatron-LM and Transformer Engine fail at the first step otherwise, after the job has waited
for its allocation.

Bad:

```yaml
parallelism: {tp: 4, cp: 2, sequence_parallel: true}
workload: {seq_length: 8190}
```

Good:

```yaml
parallelism: {tp: 4, cp: 2, sequence_parallel: true}
workload: {seq_length: 8192}
```
"""

from collections.abc import Iterator
from math import lcm

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.lint.rules.parallelism._layout import alternatives, multiples_around
from jobc.spec.context import Context

META = Meta(
    code="JC206",
    name="sequence-divisibility",
    severity=Severity.ERROR,
    summary="seq_length not divisible by 2·cp (context parallel) or by tp (sequence parallel)",
    remediation="Make workload.seq_length a multiple of 2·cp, and of tp·cp with sequence parallelism.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("workload", "seq_length"),)


def check(ctx: Context) -> Iterator[Hit]:
    seq = ctx.spec.workload.seq_length
    p = ctx.spec.parallelism
    if seq is None:
        return
    needs: list[tuple[int, str]] = []
    if p.cp > 1:
        needs.append((2 * p.cp, f"2·cp = {2 * p.cp} (context parallelism gives each rank 2 of 2·cp chunks)"))
    if p.sequence_parallel and p.tp > 1:
        split = f"tp {p.tp}" if p.cp == 1 else f"tp·cp = {p.tp * p.cp} (tp {p.tp} × cp {p.cp})"
        needs.append((p.tp * p.cp, f"{split} (sequence parallelism splits each part over the tp ranks)"))
    failed = [why for unit, why in needs if seq % unit]
    if not failed:
        return
    unit = lcm(*(u for u, _ in needs))
    yield Hit(
        ("workload", "seq_length"),
        f"seq_length {seq} is not divisible by {' nor by '.join(failed)}; use seq_length "
        f"{alternatives(multiples_around(seq, unit))}",
    )
