"""A batch-shell trap for a signal that Slurm never sends to the batch shell.

`#SBATCH --signal=USR1@90` without `B:` sends the signal to the processes of the job steps, and
never to the batch shell: a `trap … USR1` in the batch script does not run when the warning
comes, so the checkpoint or the requeue it was written for never happens. A trap for SIGUSR1 or
SIGUSR2 with no `--signal` asking for that signal at all waits for a signal nobody sends (unless
someone runs `scancel --batch --signal=USR1` by hand). Add `B:` and have the trap forward the
signal to the step, or drop the trap and let the program handle the signal the steps get.

Bad:

```bash
#SBATCH --signal=USR1@90
trap 'scontrol requeue "$SLURM_JOB_ID"' USR1
srun python train.py
```

Good:

```bash
#SBATCH --signal=B:USR1@90
trap 'kill -USR1 "$step"' USR1
srun python train.py &
step=$!
wait "$step"
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.lint.rules.script._fixes import background, hand_on, held
from jobc.script import signals
from jobc.script.bashcheck import accepts
from jobc.script.facts import ScriptFacts
from jobc.spec.context import Context

META = Meta(
    code="JC807",
    name="trap-without-batch-signal",
    severity=Severity.ERROR,
    summary="A batch-shell trap for a signal that --signal sends to the steps only, or that nothing sends",
    remediation="Write `--signal=B:SIG@SECONDS` and forward the signal to the step from the trap.",
)
FIX = Repair(
    Applicability.SAFE,
    "adds `B:` to the `--signal` directive, so the signal goes to the batch shell that traps it, and "
    "starts each step that runs work after the trap with `&` and waits for it, as JC802 does "
    "(Slurm signalled whichever step ran when the warning came); with `B:` the steps no longer get "
    "the signal from Slurm, so a trap that does not hand it on (`kill -SIG …`) first sends it to "
    "them as Slurm did (`scancel --signal=SIG $SLURM_JOB_ID`)",
    "scripts",
)

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a trap: lint neither imports nor runs the rule for a script without
FACTS = ("traps",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    sent = signals.sent_by(f)
    for m in signals.missed(f):
        if m.sent is not None:
            yield hit(
                m.trap.span,
                f"{m.sent.directive.text} sends {m.signal} to the job steps only, never to the batch "
                "shell, so this trap does not run when the warning comes; write "
                f"`{m.sent.fixed}` and forward the signal to the step from the trap (start the "
                "step with `&` and `wait` for it), or drop the trap and handle the signal in the "
                "program",
                fix=_fix(f, m.sent),
            )
            continue
        asked = f"{sent.directive.text} asks for {sent.signal}" if sent else "no --signal asks for one"
        yield hit(
            m.trap.span,
            f"nothing has Slurm send {m.signal} to the batch shell ({asked}), so this trap runs "
            "only when someone sends the signal by hand; add "
            f"`#SBATCH --signal=B:{m.signal.removeprefix('SIG')}@SECONDS`",
            severity=Severity.WARNING,
        )


def _fix(f: ScriptFacts, sent: signals.Sent) -> Fix | None:
    """B:, and every step that would hold the trap back then started with `&` and waited for: with
    B: alone, the trap would run only after a foreground step ended (JC802)."""
    edits = list(batch_edit(sent) or ())
    # the first trap that would run for it, as JC802 reads them
    traps = [t for t in f.traps if sent.signal in t.signals and t.function is None and t.action]
    lines = [t.span.line for t in traps]
    if not edits or not traps:
        return None
    if any(step.line < traps[0].span.line for step in f.steps):
        # a step that runs before the trap is set: with B: the signal would reach a batch shell
        # that does not trap it yet, and end it (the step got the signal before)
        return None
    # with B: the steps no longer get the signal from Slurm: the trap hands it on as Slurm did
    # (each trap for it: a later one replaces an earlier one)
    for trap in traps:
        if accepts(trap.action) is not True:
            # bash cannot read the trap's action (or no bash can tell): none of it runs, and
            # neither would the hand-on written into it
            return None
        handed = hand_on(f, trap, sent.signal)
        if handed is None:
            return None
        edits += handed
    # every step that runs work after the trap, not only the training step: with B: Slurm no
    # longer signals whichever of them runs when the warning comes, and a step in the foreground
    # would hold the trap that hands the signal on until the time limit
    later = held(f, min(lines), after_main=True) if lines else []
    for step in later:
        jobs = {s.line for s in f.steps if s.background and s.line > step.span.end_line}
        jobs |= {s.line for s in later if s.line > step.span.end_line}
        waiting = background(step, f.lines, jobs=jobs)
        if waiting is None:
            return None
        edits += waiting
    return Fix.make("send the signal to the batch shell (B:)", *edits)


def batch_edit(sent: signals.Sent) -> tuple[Edit] | None:
    """`--signal=USR1@90` → `--signal=B:USR1@90` (`R:` → `RB:`), at the value as written."""
    d = sent.directive
    span, value = d.span, d.value or ""
    if span.line != span.end_line or not d.text.endswith(value) or span.end_col - span.col != len(d.text):
        return None
    start = span.end_col - len(value)
    flags, sep, _ = value.partition(":")
    if sep and "@" not in flags:
        return (Edit(Span(span.line, start + len(flags), span.line, start + len(flags)), "B"),)
    return (Edit(Span(span.line, start, span.line, start), "B:"),)
