"""The compiled script's contract with whoever reads its log: the lines it prints, its exit codes.

The compiler (`jobc.compile`) writes each banner below as a `printf` format; triage (`jobc.jobs`)
reads it back with the pattern beside it. Keeping both in one record means a change of wording
changes the reader too, and `tests/jobs/test_contract.py` fills every format with sample values
and checks that its pattern reads them back.

The runtime (`jobc.runtime`) runs beside torch and imports nothing of jobc: it keeps its own copy
of the exit codes, and a test asserts that they equal these.

Patterns read ASCII digits only (`[0-9]`, never `\\d`, which also takes `²` and other digits that
`int()` refuses) and bound their numbers' length, so a hostile log cannot make a reader convert a
5000-digit integer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# sysexits.h EX_TEMPFAIL, "temporary failure, the user is invited to retry": the program
# checkpointed and asks to be requeued. Distinct from Python's 1, a signal death (128+n) and
# the watchdog's code.
REQUEUE_EXIT_CODE = 75
# The runtime's watchdog (coreutils `timeout`'s code): the program was still running after the
# grace period and was forced out; its checkpoint may be incomplete.
WATCHDOG_EXIT_CODE = 124
# The runtime's hang watchdog: no step completed for monitoring.hang_s (or a collective failed);
# every rank wrote its flight-recorder trace and stacks into the job's dump directory.
HANG_EXIT_CODE = 86

#: The prefix of every line the compiled script itself prints.
PREFIX = "jobc: "

# At most this many digits in a number a reader converts; longer is not a number the script wrote.
_N = "[0-9]{1,18}"


@dataclass(frozen=True)
class Banner:
    """One line the compiled script prints: its printf format and the pattern that reads it."""

    name: str
    printf: str  # the shell printf format, without its trailing newline
    pattern: re.Pattern[str]  # matches the printed line (labels removed), groups as named below
    groups: tuple[str, ...]  # what each group of the pattern holds

    def shell(self, *arguments: str) -> str:
        """The script line that prints it: `printf 'FORMAT\\n' ARG…` (arguments already quoted)."""
        return " ".join([f"printf '{self.printf}\\n'", *arguments])


JOB = Banner(
    "job",
    "jobc: %s job %s on %s nodes (%s)",
    re.compile(rf"^jobc: (\S+) job ([0-9_]{{1,40}}) on ({_N}) nodes \(([^()\s]*)\)"),
    ("spec name", "job id", "nodes", "node list"),
)
LAYOUT = Banner(
    "layout",
    "jobc: %s",
    re.compile(rf"^jobc: world ({_N}) = .{{0,200}}?, (srun|torchrun) launch$"),
    ("world size", "launch mode"),
)
MASTER = Banner(
    "master",
    "jobc: master %s:%s, restart %s",
    re.compile(rf"^jobc: master (\S+):({_N}), restart ({_N})"),
    ("master address", "master port", "restart count"),
)
SIGNAL_FORWARDED = Banner(
    "signal forwarded",
    "jobc: SIG%s received, forwarding it to the program of every task",
    re.compile(r"^jobc: SIG([A-Z0-9]{1,10}) received"),
    ("signal",),
)
SIGNAL_NOTED = Banner(
    "signal noted",
    "jobc: SIG%s received; Slurm sends it to every task itself",
    SIGNAL_FORWARDED.pattern,
    ("signal",),
)
STEP_END = Banner(
    "step end",
    "jobc: the step ended with exit code %s",
    re.compile(rf"^jobc: the step ended with exit code ({_N})"),
    ("exit code",),
)
REQUEUE = Banner(
    "requeue",
    "jobc: requeueing job %s: %s (restart %s of at most %s)",
    re.compile(rf"^jobc: requeueing job (\S+): (.*) \(restart ({_N}) of at most ({_N})\)$"),
    ("job id", "reason", "restart", "max restarts"),
)
AGENT_REQUEUE = Banner(
    "agent requeue",
    "jobc: torchrun's workers exited with the requeue code %d; so does the agent",
    re.compile(rf"^jobc: torchrun's workers exited with the requeue code ({_N})"),
    ("exit code",),
)
AGENT_HANG = Banner(
    "agent hang",
    "jobc: torchrun's workers exited with the hang code %d; so does the agent",
    re.compile(rf"^jobc: torchrun's workers exited with the hang code ({_N})"),
    ("exit code",),
)
#: Printed by the runtime (`jobc.runtime.signals`), which keeps its own copy of the wording.
RUNTIME_WATCHDOG = Banner(
    "runtime watchdog",
    "jobc.runtime: still running %s s after %s (JOBC_GRACE_S); forcing exit with code %s",
    re.compile(rf"jobc\.runtime: still running .{{0,200}}? forcing exit with code ({_N})"),
    ("exit code",),
)

BANNERS: tuple[Banner, ...] = (
    JOB,
    LAYOUT,
    MASTER,
    SIGNAL_FORWARDED,
    SIGNAL_NOTED,
    STEP_END,
    REQUEUE,
    AGENT_REQUEUE,
    AGENT_HANG,
    RUNTIME_WATCHDOG,
)

#: torchrun's log-line prefix in the torchrun launch (`TORCHELASTIC_LOG_LINE_PREFIX_TEMPLATE`):
#: every worker line starts with its global rank. `${rank}` is torchrun's template field.
TORCHRUN_LINE_PREFIX = "[rank${rank}]:"
