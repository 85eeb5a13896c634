"""`resilience.retry_on` without `resilience.requeue: true`.

A job retries itself by requeueing: after a failure it names, the batch shell runs
`scontrol requeue` on its own job id, and Slurm starts it again with the same id. Without
`resilience.requeue: true` the script carries `#SBATCH --no-requeue`, and Slurm refuses that
requeue ("Requested operation is presently disabled"): nothing in `retry_on` is ever retried.

Error: the retries the spec asks for cannot happen.

Bad:

```yaml
resilience:
  retry_on: [node_fail, gpu_error]
```

Good:

```yaml
resilience:
  requeue: true
  signal: SIGTERM
  retry_on: [node_fail, gpu_error]
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC607",
    name="retry-without-requeue",
    severity=Severity.ERROR,
    summary="resilience.retry_on is set but resilience.requeue is false, so the job cannot requeue itself",
    remediation="Set resilience.requeue: true, or drop retry_on.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "retry_on"),)


def check(ctx: Context) -> Iterator[Hit]:
    res = ctx.spec.resilience
    if res.retry_on and not res.requeue:
        yield Hit(
            ("resilience", "retry_on"),
            "resilience.retry_on asks for retries, but resilience.requeue is false: the script "
            "says --no-requeue and Slurm refuses the job's own requeue; set resilience.requeue: true",
        )
