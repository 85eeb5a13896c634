"""`resilience.requeue: true` without a `resilience.signal`.

Slurm does not requeue a job that reaches its time limit: the job has to checkpoint and requeue
itself before the limit, which is what jobc's batch shell does when the program exits with the
"checkpointed, please requeue" code after the warning signal. Without a signal the program
never learns that the limit is near; it is killed mid-step, the work since its last periodic
checkpoint is lost, and nothing requeues it. `--requeue` alone still covers node failures and
preemption where the site requeues preempted jobs.

Warning: requeue on node failure and preemption still works.

Bad:

```yaml
resilience: {requeue: true}
```

Good:

```yaml
resilience: {requeue: true, signal: SIGTERM, grace_s: 180}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules import _words as words
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC601",
    name="requeue-without-signal",
    severity=Severity.WARNING,
    summary="requeue is on but no signal warns the program before the time limit",
    remediation="Set resilience.signal (SIGTERM or SIGUSR2) and a grace_s long enough to save a checkpoint.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "requeue"),)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    res = ctx.spec.resilience
    if res.requeue and res.signal is None:
        if words.in_script(ctx):
            head = f"{words.name(ctx, ('resilience', 'requeue'))} but no #SBATCH --signal"
            fix = "add #SBATCH --signal=B:TERM@120 (or USR2) and trap it to checkpoint and requeue"
        else:
            head = "resilience.requeue is true but resilience.signal is null"
            fix = "set signal: SIGTERM (or SIGUSR2)"
        yield Hit(
            ("resilience", "requeue"),
            f"{head}: the program is never warned before the time limit, so it cannot checkpoint "
            f"and ask to be requeued, and Slurm does not requeue a job that times out; {fix}",
        )
