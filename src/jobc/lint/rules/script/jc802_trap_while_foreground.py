"""A trap in the batch shell for the warning signal, while the step runs in the foreground.

`#SBATCH --signal=B:SIGUSR1@120` sends the signal to the batch shell only. bash runs a trap only
between commands: while `srun …` runs in the foreground, the trap waits until the step has ended,
which is after the time limit killed it. The checkpoint the trap was meant to trigger never
happens. Start the step in the background and `wait` for it: `wait` returns when a trapped
signal arrives, so the trap runs at once (and can forward the signal to the step).

Bad:

```bash
#SBATCH --signal=B:USR1@120
trap 'scancel --signal=USR1 "$SLURM_JOB_ID"' USR1
srun python train.py
```

Good:

```bash
#SBATCH --signal=B:USR1@120
trap 'kill -USR1 "$step"' USR1
srun python train.py &
step=$!
wait "$step"
```
"""

import re
from collections.abc import Iterator

from jobc.core.diagnostics import Applicability, Edit, Fix, Hit, Severity, Span
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import at, facts
from jobc.script import signals
from jobc.script.facts import Step
from jobc.spec.context import Context

META = Meta(
    code="JC802",
    name="trap-while-foreground",
    severity=Severity.ERROR,
    summary="A batch-shell trap for a B: signal while the step runs in the foreground",
    remediation="Start the step with `&` and `wait` for it, so the trap runs when the signal arrives.",
)
FIX = Repair(
    Applicability.SAFE,
    "starts the step with `&` and waits for it, again after each trapped signal, and ends "
    "with the step's own exit status",
    "scripts",
)
# A trapped signal ends `wait` early (with 128 + the signal); the step still runs, so it is
# waited for again, and the line ends with the step's status as the foreground step's would.
# `|| …` keeps `set -e` from ending the script at the early return.
_WAIT = (
    "jobc_step=$!",
    "jobc_status=0",
    'wait "$jobc_step" || jobc_status=$?',
    'while kill -0 "$jobc_step" 2>/dev/null; do jobc_status=0; wait "$jobc_step" || jobc_status=$?; done',
    '(exit "$jobc_status")',
)


def check(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    sent = signals.sent_by(f)
    if sent is None or not sent.batch:
        return
    d, name = sent.directive, sent.signal
    # `trap "" SIG` ignores the signal: there is no action for the foreground step to delay
    traps = [t for t in f.traps if name in t.signals and t.function is None and t.action]
    if not traps:
        return
    trap = traps[0]
    main = f.main_step
    for step in f.steps:
        if step.line <= trap.span.line or step.background or step.exec_:
            continue
        if step is not main and step.launcher is None and step.program is None and step.module is None:
            # a helper step before the main one (`srun uv sync`, `srun mkdir …`) ends by itself and
            # the trap runs after it; the steps that must not hold the trap back run the work
            continue
        yield Hit(
            at(step.span),
            f"{d.text} sends {name} to the batch shell, which traps it (line {trap.span.line}), but "
            "this step runs in the foreground: bash runs the trap only after the step has ended, "
            "when the time limit has already killed it; start the step with `&` and `wait` for it",
            fix=_background(step, f.lines),
        )


def _background(step: Step, lines: list[str]) -> Fix | None:
    """`srun …` alone on its lines → `srun … &` and the waiting lines, at its indentation."""
    span = step.span
    if span.end_line > len(lines):
        return None
    first, last = lines[span.line - 1], lines[span.end_line - 1]
    indent = first[: span.col - 1]
    # only a step that is a whole statement: not `if srun …`, `srun … || exit`, `srun … | tee`
    if indent.strip() or not re.fullmatch(r"[ \t]*(#.*)?", last[span.end_col - 1 :]) or "<<" in step.text:
        return None
    end = len(last) + 1
    waiting = "".join(f"\n{indent}{line}" for line in _WAIT)
    return Fix.make(
        "start the step with & and wait for it",
        Edit(Span(span.end_line, span.end_col, span.end_line, span.end_col), " &"),
        Edit(Span(span.end_line, end, span.end_line, end), waiting),
    )
