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
from jobc.core.lazyre import lazy
from jobc.lint.rules.base import Meta, Repair
from jobc.lint.rules.script._facts import facts, hit
from jobc.lint.rules.script._fixes import background, hand_on
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
    "removes `exec` and starts the step with `&`, waiting for it (again after each trapped signal) "
    "and then exiting with its status, so that the traps live on while nothing after the step runs "
    "that did not run before; unsafe when an EXIT trap then runs at the end, or when the finding is "
    "about the lines after the step (they then run: in `exec srun …; echo failed; exit 1` every job "
    "would end in failure)",
    "scripts",
)

# this check speaks only of a script that has one of these (`ScriptFacts` members), here
# a step run with exec: lint neither imports nor runs the rule for a script without
FACTS = ("execs",)


def check_script(ctx: Context) -> Iterator[Hit]:
    f = facts(ctx)
    if f is None:
        return
    for step in f.steps:
        if not step.exec_:
            continue
        traps = [t for t in f.traps if t.span.line < step.line and t.function is None]
        last = _arm_end(step, f)
        after = [c.span.line for c in f.commands if step.span.end_line < c.span.line <= last]
        after += [s.line for s in f.steps if step.span.end_line < s.line <= last]
        if traps:
            why = f"the trap on line {traps[0].span.line} dies with the shell and never runs"
        elif after and last < len(f.lines):
            why = f"line {min(after)} and the rest of its branch (to line {last}) are never reached"
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


# a line that ends the arm a step sits in (`fi`, `else`, `elif`, `esac`, a case arm's `;;`)
_ARM_END = lazy(r"^\s*(?:fi|else|elif|esac)\b|;;\s*(?:#.*)?$")


def _arm_end(step: Step, f: ScriptFacts) -> int:
    """The last line an exec'd step keeps from running: the script's end, or, for a step in an
    `if`/`case` arm, the end of that arm. After it is the path the script takes when the arm does
    not run (`if [ "$NNODES" -eq 1 ]; then exec srun …; fi` and the multi-node path below), not a
    cleanup the exec skips, even where this allocation makes the arm run (sbatch -N 2 changes
    that). A nested statement's end ends the reading early: fewer lines, never a wrong one."""
    if not step.arms:
        return len(f.lines)
    for number in range(step.span.end_line + 1, len(f.lines) + 1):
        if _ARM_END.search(f.lines[number - 1]):
            return number - 1
    return len(f.lines)


def _drop_exec(step: Step, f: ScriptFacts) -> Fix | None:
    traps = [t for t in f.traps if t.span.line < step.line and t.function is None]
    edits: list[Edit] = []
    sent = signals.sent_by(f)
    if sent is not None and sent.batch:
        # with exec, srun is the batch shell and forwards the B: signal to the step; without it,
        # bash gets it: bash would die of it (JC808), or a trap must hand it on
        trapped = [t for t in traps if sent.signal in t.signals and t.action]
        if not trapped:
            return None
        for trap in trapped:  # each: a later one replaces an earlier one
            handed = hand_on(f, trap, sent.signal)
            if handed is None:
                return None
            edits += handed
    lines = f.lines
    span = step.span
    text = lines[span.line - 1][span.col - 1 :] if span.line <= len(lines) else ""
    match = re.match(r"exec[ \t]+", text)
    at_exit = any("EXIT" in t.signals for t in traps)
    # with a trap to free, nothing after the step runs (as after exec); for the lines after alone,
    # the repair is that they run, which changes what the job does
    jobs = {s.line for s in f.steps if s.background and s.line > span.end_line}
    waiting = background(step, lines, then_exit=bool(traps), jobs=jobs)
    if match is None or waiting is None:
        return None
    end = span.col + match.end()
    edits += [Edit(Span(span.line, span.col, span.line, end), ""), *waiting]
    if traps and not at_exit:
        return Fix.make("drop exec; start the step with & and wait for it, then exit with its status", *edits)
    if traps:
        what = "then exit with its status: the EXIT trap then runs when the script ends"
    else:
        what = "the lines after the step then run (they never did)"
    return Fix.make(f"drop exec; start the step with & and wait for it; {what}", *edits, safe=False)
