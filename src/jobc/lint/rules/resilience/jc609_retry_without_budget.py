"""`resilience.retry_on` with `max_restarts: 0`.

`max_restarts` is the one budget for every restart of the job: preemption, the time limit, a
node failure and each retry of `retry_on`. With a budget of 0 the first failure the spec asks to
retry stops the job instead: the retries can never happen.

Error: the spec contradicts itself.

Bad:

```yaml
resilience:
  requeue: true
  max_restarts: 0
  retry_on: [node_fail]
```

Good:

```yaml
resilience:
  requeue: true
  max_restarts: 3
  retry_on: [node_fail]
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC609",
    name="retry-without-budget",
    severity=Severity.ERROR,
    summary="resilience.retry_on is set but max_restarts is 0, so no retry is allowed",
    remediation="Give resilience.max_restarts the retries you want (3 is common), or drop retry_on.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "retry_on"),)


def check(ctx: Context) -> Iterator[Hit]:
    res = ctx.spec.resilience
    if res.retry_on and res.max_restarts == 0:
        yield Hit(
            ("resilience", "max_restarts"),
            "resilience.max_restarts is 0, but retry_on asks for retries: the budget covers every "
            "restart, so none of them can happen; raise max_restarts",
        )
