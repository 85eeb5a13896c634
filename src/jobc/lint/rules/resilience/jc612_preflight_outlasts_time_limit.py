"""`resilience.preflight.timeout_s` is not shorter than the job's time limit.

The preflight runs at the start of every attempt, before the program, and a node may take up to
`timeout_s` to answer. A timeout as long as the job's time limit (`slurm.time`) lets one
hanging check use up the whole allocation without a step of training; the preflight is meant to
take seconds to minutes of a run of hours.

Error: a hanging node can take the whole job.

Bad:

```yaml
slurm: {time: "00:30:00"}
resilience:
  preflight: {command: ./check_node.sh, timeout_s: 3600}
```

Good:

```yaml
slurm: {time: "00:30:00"}
resilience:
  preflight: {command: ./check_node.sh, timeout_s: 120}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context
from jobc.spec.slurmtime import TimeLimitError, parse_time

META = Meta(
    code="JC612",
    name="preflight-outlasts-time-limit",
    severity=Severity.ERROR,
    summary="resilience.preflight.timeout_s is as long as the job's time limit or longer",
    remediation="Give the preflight a timeout of seconds to minutes, far below slurm.time.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "preflight"),)


def check(ctx: Context) -> Iterator[Hit]:
    preflight = ctx.spec.resilience.preflight
    time = ctx.spec.slurm.time
    if preflight is None or time is None:
        return
    try:
        limit = parse_time(time)
    except TimeLimitError:
        return  # JC108 says what is wrong with the limit
    if limit is not None and preflight.timeout_s >= limit:
        yield Hit(
            ("resilience", "preflight", "timeout_s"),
            f"resilience.preflight.timeout_s {preflight.timeout_s} s is not shorter than the time "
            f"limit slurm.time {time} ({limit} s): one hanging check can use up the whole "
            "allocation; use a timeout of seconds to minutes",
        )
