"""The grace window (`resilience.grace_s`) is shorter than saving a checkpoint takes.

`--signal=B:<signal>@<grace_s>` asks Slurm to warn the job `grace_s` seconds before its time
limit; at the limit every task is killed. The program must, within that window, finish the step
in flight, agree with every other rank to stop, and write its checkpoint. Given
`resilience.checkpoint.size_gb` and `write_gbps`, the save alone takes size ÷ bandwidth.

Slurm delivers the signal *up to 60 s earlier* than asked (its event loop runs about once a
minute), never later. So the window is at least `grace_s` and sometimes up to 60 s longer: the
early delivery is extra time that cannot be counted on, not time lost, and jobc compares the
save time with `grace_s` alone. (At the limit, tasks get SIGTERM and then SIGKILL after the
site's `KillWait`, 30 s by default; that is not counted either.) An asynchronous checkpoint does
not help here: the last save must still be on disk before the program exits.

Error when the save alone is longer than the window: the last checkpoint is cut off by the kill,
and a resume that trusts it fails. Warning when less than 30 s is left for the step in flight
and the agreement to stop.

Bad:

```yaml
resilience:
  signal: SIGTERM
  grace_s: 120
  checkpoint: {size_gb: 1000, write_gbps: 5}     # 200 s to save
```

Good:

```yaml
resilience:
  signal: SIGTERM
  grace_s: 300
  checkpoint: {size_gb: 1000, write_gbps: 5}
```
"""

import math
from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC603",
    name="grace-too-short",
    severity=Severity.ERROR,
    summary="grace_s is shorter than saving the checkpoint takes (size ÷ write bandwidth)",
    remediation="Raise resilience.grace_s above the save time plus a margin for the step in flight.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "checkpoint", "size_gb"), ("resilience", "checkpoint", "write_gbps"))

# finishing the step in flight, the collective stop decision and the requeue call
STOP_MARGIN_S = 30


def check(ctx: Context) -> Iterator[Hit]:
    res = ctx.spec.resilience
    ck = res.checkpoint
    if res.signal is None or ck.size_gb is None or ck.write_gbps is None:
        return
    save = ck.size_gb / ck.write_gbps
    if not math.isfinite(save):
        return  # an infinite size or a vanishing bandwidth: no number to compare
    grace = res.grace_s
    suggest = math.ceil((save + STOP_MARGIN_S) / 30) * 30
    what = f"saving {ck.size_gb:g} GB at {ck.write_gbps:g} GB/s takes about {math.ceil(save)} s"
    if save > grace:
        yield Hit(
            ("resilience", "grace_s"),
            f"{what}, longer than resilience.grace_s {grace} s: the job is killed before the "
            f"checkpoint is written (the signal may come up to 60 s early, but only {grace} s are "
            f"guaranteed); use grace_s: {suggest} or more",
        )
    elif save + STOP_MARGIN_S > grace:
        yield Hit(
            ("resilience", "grace_s"),
            f"{what}, which leaves less than {STOP_MARGIN_S} s of resilience.grace_s {grace} s to "
            f"finish the step in flight and agree to stop; use grace_s: {suggest} or more",
            severity=Severity.WARNING,
        )
