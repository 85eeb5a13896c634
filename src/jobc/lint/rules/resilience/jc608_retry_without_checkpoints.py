"""`resilience.retry_on` with no `storage.checkpoints` to resume from.

A retry starts the batch script again, on other nodes. It saves the hours already trained only
if the program finds its last checkpoint; jobc tells it where through `JOBC_CHECKPOINT_DIR`,
taken from `storage.checkpoints`. Without it every retry starts from step 0, and a node that
fails late in the run costs the whole run once more, up to `max_restarts` times.

Warning: the program may manage its checkpoint path itself. (This rule replaces JC605 for a
spec that asks for retries.)

Bad:

```yaml
resilience:
  requeue: true
  signal: SIGTERM
  retry_on: [node_fail, gpu_error]
```

Good:

```yaml
resilience:
  requeue: true
  signal: SIGTERM
  retry_on: [node_fail, gpu_error]
storage: {shared: [/lustre], checkpoints: "/lustre/ckpt/{name}"}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC608",
    name="retry-without-checkpoints",
    severity=Severity.WARNING,
    summary="resilience.retry_on is set but storage.checkpoints is not, so a retry may start from step 0",
    remediation="Set storage.checkpoints (on shared storage), and resume from it in the program.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "retry_on"),)


def check(ctx: Context) -> Iterator[Hit]:
    if ctx.spec.resilience.retry_on and ctx.spec.storage.checkpoints is None:
        yield Hit(
            ("resilience", "retry_on"),
            "resilience.retry_on retries on other nodes, but storage.checkpoints is not set, so a "
            "retry is not told where to resume (JOBC_CHECKPOINT_DIR) and may start over from step "
            "0; set storage.checkpoints on shared storage",
        )
