"""`exec srun …` (or `exec torchrun`, `exec python`) in a script that set a trap or has commands after it.

`exec` replaces the batch shell with the step. Traps die with the shell, so a signal handler set
earlier never runs, and every line after the `exec` (cleanup, a requeue, a final copy of the
logs) is never reached.

Bad:

```bash
trap 'touch "$CKPT/stop"' USR1
exec srun python train.py
rm -rf "$TMPDIR/cache"
```

Good:

```bash
trap 'touch "$CKPT/stop"' USR1
srun python train.py &
wait $!
rm -rf "$TMPDIR/cache"
```
"""

import re
from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.lint.rules.script._fixes import background
from jobc.script import signals
from jobc.script.facts import ScriptFacts, Step
from jobc.spec.context import Context

META = Meta(
    code="JC803",
    name="exec-skips-cleanup",
    severity=Severity.ERROR,
    summary="`exec` replaces the batch shell although the script set a trap or has cleanup after it",
    remediation="Drop `exec`: run the step in the background and `wait` for it.",
)
FIX = Repair(
    Applicability.SAFE,
    "removes `exec` and starts the step with `&`, waiting for it (again after each trapped signal) and "
    "ending with its exit status, so the batch shell, its traps and the lines after the step live on",
    "scripts",
)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    for step in f.steps:
        if not step.exec_:
            continue
        traps = [t for t in f.traps if t.span.line < step.line and t.function is None]
        after = [c.span.line for c in f.commands if c.span.line > step.span.end_line]
        after += [s.line for s in f.steps if s.line > step.span.end_line]
        if traps:
            why = f"the trap on line {traps[0].span.line} dies with the shell and never runs"
        elif after:
            why = f"line {min(after)} and everything after it is never reached"
        else:
            continue
        yield hit(
            step.span,
            f"exec replaces the batch shell with this step, so {why}; drop exec, start the step "
            "with `&` and `wait` for it",
            fix=_drop_exec(step, f),
        )


def _drop_exec(step: Step, f: ScriptFacts) -> Fix | None:
    sent = signals.sent_by(f)
    if sent is not None and sent.batch and not signals.trapped(f, sent.signal):
        # with exec, srun is the batch shell and forwards the B: signal to the step; without it,
        # bash would die of the signal (JC808): the repair is the user's to choose
        return None
    lines = f.lines
    span = step.span
    text = lines[span.line - 1][span.col - 1 :] if span.line <= len(lines) else ""
    match = re.match(r"exec[ \t]+", text)
    waiting = background(step, lines)
    if match is None or waiting is None:
        return None
    end = span.col + match.end()
    return Fix.make(
        "drop exec; start the step with & and wait for it",
        Edit(Span(span.line, span.col, span.line, end), ""),
        *waiting,
    )
