"""`resilience.requeue: true` with no `storage.checkpoints`.

A requeued job starts again from the beginning of its batch script. It resumes only if the
program finds its last checkpoint; jobc tells it where through `JOBC_CHECKPOINT_DIR`, taken
from `storage.checkpoints`. Without it the requeued job relies on every program to have the
right path built in, and a job that does not starts over from step 0, and may overwrite the
work of the run before it.

Warning: the program may well manage its checkpoint path itself.

Bad:

```yaml
resilience: {requeue: true, signal: SIGTERM}
```

Good:

```yaml
resilience: {requeue: true, signal: SIGTERM}
storage: {shared: [/lustre], checkpoints: "/lustre/ckpt/{name}"}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC605",
    name="requeue-without-checkpoints",
    severity=Severity.WARNING,
    summary="requeue is on but storage.checkpoints is not set",
    remediation="Set storage.checkpoints (on shared storage) so the requeued job knows where to resume.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "requeue"),)


def check(ctx: Context) -> Iterator[Hit]:
    res = ctx.spec.resilience
    # with retry_on, JC608 says the same of the retries, more precisely
    if res.requeue and not res.retry_on and ctx.spec.storage.checkpoints is None:
        yield Hit(
            ("resilience", "requeue"),
            "resilience.requeue is true but storage.checkpoints is not set, so the requeued job "
            "is not told where to resume (JOBC_CHECKPOINT_DIR) and may start over from step 0; "
            "set storage.checkpoints on shared storage",
        )
