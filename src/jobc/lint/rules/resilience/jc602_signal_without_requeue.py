"""A warning signal without `requeue`: the job saves and stops, and nothing restarts it.

With `resilience.signal` the program checkpoints before the time limit and exits with the
"please requeue" code; with `requeue: false` the batch shell then ends the job instead of
requeueing it. That is right for a job meant to stop cleanly, and a surprise for a long
training run that was expected to continue by itself.

Info: both intentions are common.

Bad:

```yaml
resilience: {signal: SIGTERM, grace_s: 180}    # saves, then stops for good
```

Good:

```yaml
resilience: {signal: SIGTERM, grace_s: 180, requeue: true, max_restarts: 5}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC602",
    name="signal-without-requeue",
    severity=Severity.INFO,
    summary="A warning signal without requeue: the job checkpoints and stops for good",
    remediation="Set resilience.requeue: true to continue automatically, or leave it to stop after the save.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "signal"),)


def check(ctx: Context) -> Iterator[Hit]:
    res = ctx.spec.resilience
    if res.signal is not None and not res.requeue:
        yield Hit(
            ("resilience", "signal"),
            f"on {res.signal} the program checkpoints and exits, and with requeue false nothing "
            "restarts it; set resilience.requeue: true if the run should continue by itself",
        )
