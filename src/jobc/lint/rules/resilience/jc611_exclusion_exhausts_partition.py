"""Excluding failed nodes would leave the partition too small for the job.

With `exclude_failed_nodes`, every retry adds the node the failure named to the job's excluded
nodes. Slurm accepts an exclusion that leaves too few nodes, and the job then pends for ever
(reason `BadConstraints`); jobc stops the job instead. Either way, when the partition has no
node to spare (`cluster.partitions.<name>.nodes`, from the profile) no excluding retry can ever
run, and when it has fewer spares than `max_restarts`, the budget cannot be spent on excluding
retries.

Error when the partition has no node beyond the job's; warning when it has fewer spare nodes
than `max_restarts`.

Bad:

```yaml
cluster: {partitions: {batch: {nodes: 4}}}
slurm: {partition: batch, time: "04:00:00"}
resources: {nodes: 4, gpus_per_node: 8}
resilience:
  requeue: true
  retry_on: [node_fail, gpu_error]
```

Good:

```yaml
cluster: {partitions: {batch: {nodes: 4}}}
slurm: {partition: batch, time: "04:00:00"}
resources: {nodes: 4, gpus_per_node: 8}
resilience:
  requeue: true
  retry_on: [node_fail, gpu_error]
  exclude_failed_nodes: false
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC611",
    name="exclusion-exhausts-partition",
    severity=Severity.ERROR,
    summary="excluding failed nodes would leave the partition with fewer nodes than the job needs",
    remediation=(
        "Set resilience.exclude_failed_nodes: false (retry on the same nodes), use a larger "
        "partition, or ask for fewer nodes."
    ),
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "retry_on"),)


def check(ctx: Context) -> Iterator[Hit]:
    res = ctx.spec.resilience
    part = ctx.partition_limits
    if not (res.retry_on and res.exclude_failed_nodes) or part is None or part.nodes is None:
        return
    spare = part.nodes - ctx.nodes
    name = ctx.partition_name
    if spare <= 0:
        yield Hit(
            ("resilience", "exclude_failed_nodes"),
            f"partition {name} has {part.nodes} nodes and the job takes {ctx.nodes}: once a "
            "failed node is excluded the job can never start again; set exclude_failed_nodes: "
            "false to retry on the same nodes",
        )
    elif spare < res.max_restarts:
        yield Hit(
            ("resilience", "exclude_failed_nodes"),
            f"partition {name} has {part.nodes} nodes and the job takes {ctx.nodes}: after "
            f"{spare} excluded node{'s' if spare > 1 else ''} no node is left to replace the next, "
            f"so the job stops before it has used resilience.max_restarts {res.max_restarts}",
            severity=Severity.WARNING,
        )
