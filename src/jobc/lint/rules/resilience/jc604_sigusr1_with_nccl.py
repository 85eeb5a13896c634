"""`SIGUSR1` as the warning signal.

NCCL's proxy thread used SIGUSR1 to dump its state (NVIDIA/nccl#704), and in those releases the
signal never reached the program's handler, so the job was killed without a checkpoint;
submitit moved to SIGUSR2 for this reason. Current NCCL leaves SIGUSR1 alone unless
`NCCL_PROXY_DUMP_SIGNAL` is set, but containers with older NCCL are common, and other
libraries (Lightning's SLURMEnvironment among them) install their own SIGUSR1 handlers too.
SIGUSR2 or SIGTERM avoid all of it.

Warning: with a recent NCCL and no other handler, SIGUSR1 works.

In a script, `--signal=B:USR1` sends SIGUSR1 to the batch shell alone: when the shell's trap
hands the steps another signal (`scancel --signal=INT …`), no program ever sees SIGUSR1 and
nothing is said; when it passes SIGUSR1 on (`kill -USR1 "$pid"`), the warning stands.

Bad:

```yaml
resilience: {signal: SIGUSR1, requeue: true}
```

Good:

```yaml
resilience: {signal: SIGUSR2, requeue: true}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC604",
    name="sigusr1-with-nccl",
    severity=Severity.WARNING,
    summary="SIGUSR1 as the warning signal (some NCCL releases catch it)",
    remediation="Use resilience.signal: SIGUSR2 or SIGTERM.",
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("resilience", "signal"),)
# A batch script can have this pitfall in the same form: the rule runs on scripts too.
SCRIPTS = True


def check(ctx: Context) -> Iterator[Hit]:
    if ctx.spec.resilience.signal == "SIGUSR1" and _reaches_a_program(ctx):
        yield Hit(
            ("resilience", "signal"),
            "SIGUSR1 is caught by some NCCL releases (to dump their state) and by other libraries' "
            "handlers, so the program may never see it and is killed without a checkpoint; use "
            "SIGUSR2 or SIGTERM",
        )


def _reaches_a_program(ctx: Context) -> bool:
    """Whether SIGUSR1 reaches a program: always from a spec (the compiled script hands the
    signal on); from a script, unless it goes to the batch shell only (`B:`) and no trap of the
    shell passes SIGUSR1 itself on to the steps."""
    from jobc.lint.rules.script._facts import facts
    from jobc.lint.rules.script._fixes import hands_on
    from jobc.script.signals import batch_traps, sent_by

    f = facts(ctx)
    if f is None:
        return True
    sent = sent_by(f)
    if sent is None or not sent.batch:
        return True
    return any(hands_on(f, t, "SIGUSR1") for t in batch_traps(f) if "SIGUSR1" in t.signals)
