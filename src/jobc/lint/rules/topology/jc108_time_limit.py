"""The job's wall-time limit (`slurm.time`): missing on a multi-node job, unlimited, malformed, or
longer than the partition allows.

Without `--time` a job gets the partition's default limit, which is often its maximum: the
backfill scheduler cannot fit the job into gaps, so a multi-node job waits far longer than it
needs to, and the preemption signal cannot be planned. `UNLIMITED` (or `INFINITE`, `-1`, `0`)
asks for the same thing explicitly. A limit above the partition's `max_time` is refused at
submission or leaves the job pending forever (reason `PartitionTimeLimit`); the limit is the live
cluster's MaxTime with `jobc lint --live`, else the cluster profile's. Slurm's forms are
`MM`, `MM:SS`, `HH:MM:SS`, `D-HH`, `D-HH:MM`, `D-HH:MM:SS`, or minutes as a YAML number.

Bad:

```yaml
cluster: {partitions: {batch: {max_time: "48:00:00"}}}
slurm: {partition: batch, time: "3-00:00:00"}
resources: {nodes: 4, gpus_per_node: 8}
```

Good:

```yaml
cluster: {partitions: {batch: {max_time: "48:00:00"}}}
slurm: {partition: batch, time: "1-12:00:00"}
resources: {nodes: 4, gpus_per_node: 8}
```

In a script (with a cluster profile that gives the partition's `default_time`, `jobc lint
--fix --unsafe-fixes` adds it):

Bad in a script:

```bash
#!/bin/bash
#SBATCH --nodes=2
#SBATCH --partition=batch
srun python train.py
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.topology._partition import View, view
from jobc.spec.context import Context
from jobc.spec.slurmtime import FORMS, TimeLimitError, describe, parse_time

META = Meta(
    code="JC108",
    name="time-limit",
    severity=Severity.ERROR,
    summary="Time limit missing on a multi-node job, unlimited, malformed, or over the partition's limit",
    remediation='Set slurm.time to a quoted limit such as "24:00:00", within the partition\'s max_time.',
)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True
FIX = Repair(
    Applicability.UNSAFE,
    "writes the partition's default limit, when the cluster profile gives it "
    "(`cluster.partitions.NAME.default_time`), as `#SBATCH --time` after a script's directives or "
    "as `time:` in a spec's `slurm:` section (added when the spec has none); otherwise the finding "
    "stays",
    "scripts, and specs",
)


def check(ctx: Context) -> Iterator[Hit]:
    slurm = ctx.spec.slurm
    if slurm.time is None:
        if ctx.multinode:
            # a missing key: the locator falls back to the spec's own `slurm:` (or its top), never
            # to a profile's `slurm:` section, which is not where the limit belongs
            time = words.setting(ctx, ("slurm", "time"), "24:00:00", 'slurm.time, e.g. "24:00:00"')
            without = "#SBATCH --time" if words.in_script(ctx) else "slurm.time"
            yield Hit(
                ("slurm", "time"),
                f"a {ctx.nodes}-node job needs a time limit: without {without} it gets the "
                f"partition's default and cannot be backfilled; add {time}",
                at_value=False,
                fix=_default_time(ctx),
            )
        return
    where = ("slurm", "time")
    try:
        seconds = parse_time(slurm.time)
    except TimeLimitError as exc:
        yield Hit(where, f"{words.name(ctx, where, 'slurm.time')} {exc}")
        return
    v = view(ctx)
    limit, limit_problem = _partition_limit(v)
    if limit_problem:
        yield limit_problem
    if v is None or limit is None:
        limit = None
    if seconds is None:
        cap = f"; {v.label} allows at most {v.max_time!r}" if v is not None and limit is not None else ""
        said = words.name(ctx, where, f"slurm.time {slurm.time!r}")
        yield Hit(
            where,
            f"{said} asks for no time limit: the job cannot be backfilled and "
            f"may pend forever on a partition with a maximum{cap}; give a real limit, "
            'e.g. "24:00:00"',
        )
        return
    if v is not None and limit is not None and seconds > limit:
        said = words.name(ctx, where, f"slurm.time {slurm.time!r}")
        yield Hit(
            where,
            f"{said} ({describe(seconds)}) is over the limit of {v.label}, {v.max_time!r} "
            f"({describe(limit)}), so the job would be refused or pend forever (PartitionTimeLimit); "
            f"use at most {v.max_time!r} and resume from a checkpoint, or pick a partition with a "
            "longer limit",
        )


def _default_time(ctx: Context) -> Fix | None:
    """The partition's default limit written as slurm.time, when the cluster profile gives it."""
    part = ctx.partition_limits
    default = getattr(part, "default_time", None) if part is not None else None
    if not default:
        return None  # the limit is the user's to choose
    import json  # a fix's text only: a clean lint does not import it

    return Fix.make(
        f"ask for the partition's default time limit, {default}",
        Edit(("slurm",), f"time: {json.dumps(default)}", insert=True),
        safe=False,
    )


def _partition_limit(v: View | None) -> tuple[int | None, Hit | None]:
    """The chosen partition's time limit in seconds (None: unknown or unlimited), from the live
    cluster or the profile, or why the profile's is unreadable (a live MaxTime jobc cannot read
    is no limit it knows)."""
    if v is None or v.max_time is None:
        return None, None
    try:
        return parse_time(v.max_time), None
    except TimeLimitError:
        if v.live:
            return None, None
        path = ("cluster", "partitions", v.name, "max_time")
        return None, Hit(path, f"max_time {v.max_time!r} is not a Slurm time limit; write one of {FORMS}")
