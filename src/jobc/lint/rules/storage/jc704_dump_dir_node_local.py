"""Hang dumps written to node-local storage, where nobody reads them after the job.

When a rank hangs, the hang watchdog of `jobc.runtime` has every rank write its flight-recorder
trace and its threads' stacks into the job's dump directory (`monitoring.dump_dir`, default
beside the logs), and `jobc triage` reads them all together to name the rank that parted from
the others. A node-local directory (`/tmp`, `/dev/shm`, `/local`, `$TMPDIR`, …) scatters the
dumps over the nodes' disks, often wiped when the job ends: triage sees one node's ranks at best,
and the rank that caused the hang is usually on another.

A multi-node job gets a warning; one node is left alone (its dumps are all on that node, if it
keeps them). A directory outside `storage.shared`, when that is listed, counts as not shared.
Relative paths and paths that start with other variables are not judged.

Bad:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
storage: {shared: [/lustre], logs: /lustre/logs}
monitoring: {dump_dir: /tmp/dumps}
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
storage: {shared: [/lustre], logs: /lustre/logs}
monitoring: {dump_dir: /lustre/dumps}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.tables.paths import place

META = Meta(
    code="JC704",
    name="dump-dir-node-local",
    severity=Severity.WARNING,
    summary="Hang dumps (flight recorder, stacks) go to node-local storage on a multi-node job",
    remediation="Set monitoring.dump_dir under a storage.shared prefix (or leave it to the log directory).",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("monitoring", "dump_dir"),)


def check(ctx: Context) -> Iterator[Hit]:
    monitoring = ctx.spec.monitoring
    value = monitoring.dump_dir
    if value is None or not ctx.multinode or not (monitoring.hang_s or monitoring.flight_recorder):
        return
    where = place(value, ctx.spec.storage.shared)
    if where.kind not in ("local", "outside"):
        return
    yield Hit(
        ("monitoring", "dump_dir"),
        f"monitoring.dump_dir {value!r}: {where.reason}, so each of the {ctx.nodes} nodes keeps "
        "its own ranks' hang dumps there and triage cannot line them up; put them on shared storage",
    )
