"""`resilience.retry_on` holds a class that is not a node's fault.

A self-healing job retries an attempt by requeueing itself without the node the failure names.
That is worth its restart only when another node can do better: a node that failed its
preflight, that Slurm lost, whose GPU or NCCL link failed, or on which the ranks hung. A Python
exception, running out of GPU or host memory, a missing module or program, a full disk or a
refused request fail again on any node: a retry spends the restart budget and the allocation's
hours to fail the same way, and hides the bug behind a job that looks busy. jobc never retries
them, whatever the spec says: the entry is a mistake.

Error: the job would not do what the spec says.

Bad:

```yaml
resilience:
  requeue: true
  retry_on: [node_fail, exception, cuda_oom]
```

Good:

```yaml
resilience:
  requeue: true
  retry_on: [preflight, node_fail, gpu_error, nccl_error, hang]
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.tables.heal import NEVER, RETRYABLE

META = Meta(
    code="JC606",
    name="retry-on-bug",
    severity=Severity.ERROR,
    summary="resilience.retry_on names a failure that is not a node's fault, which jobc never retries",
    remediation=f"Keep retry_on to the node's faults ({', '.join(RETRYABLE)}); fix the cause of the others.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "retry_on"),)


def check(ctx: Context) -> Iterator[Hit]:
    for index, cls in enumerate(ctx.spec.resilience.retry_on):
        why = NEVER.get(cls)
        if why is not None:
            yield Hit(
                ("resilience", "retry_on", index),
                f"retry_on: {cls} is not a node's fault and is never retried: {why}",
            )
