"""The warning signal of a script: what `--signal` sends, to which processes, and who traps it.

`#SBATCH --signal=USR1@90` sends the signal to the processes of the job steps and never to the
batch shell; `--signal=B:USR1@90` sends it to the batch shell and to nothing else. A trap in the
batch shell therefore runs only for a `B:` signal, and a `B:` signal that the batch shell does not
trap ends the shell (bash's default for every signal `--signal` is used with, INT aside).
"""

from __future__ import annotations

from jobc.core.record import record
from jobc.script.facts import Directive, ScriptFacts, Trap

_NUMBERS = {
    "0": "EXIT",
    "1": "SIGHUP",
    "2": "SIGINT",
    "3": "SIGQUIT",
    "10": "SIGUSR1",
    "12": "SIGUSR2",
    "14": "SIGALRM",
    "15": "SIGTERM",
}
# A non-interactive bash dies of these when nothing traps them. SIGINT is left out: bash waits
# for its foreground child and goes on when the child did not die of it.
FATAL = frozenset({"SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGALRM", "SIGTERM"})
# Signals only a sender means: no one but `--signal` (or a person with scancel) sends them.
USER = frozenset({"SIGUSR1", "SIGUSR2"})


def normalise(name: str) -> str:
    """`usr1`, `SIGUSR1` and `10` → `SIGUSR1`; `0` and `EXIT` → `EXIT`."""
    up = name.upper()
    if up in _NUMBERS:
        return _NUMBERS[up]
    if up == "EXIT" or up.startswith("SIG"):
        return up
    return f"SIG{up}"


@record
class Sent:
    """What `#SBATCH --signal` asks Slurm to send."""

    signal: str  # normalised: SIGUSR1
    batch: bool  # `B:`: the batch shell only; otherwise the job steps only
    grace: str  # seconds before the time limit, as written ("" for sbatch's default of 60)
    directive: Directive

    @property
    def fixed(self) -> str:
        """The directive's value with `B:`, for a message that says what to write."""
        short = self.signal.removeprefix("SIG")
        return f"--signal=B:{short}@{self.grace or 60}"


def sent_by(facts: ScriptFacts) -> Sent | None:
    """The signal the honoured `--signal` directive sends before the time limit, if any."""
    d = facts.honoured().get("signal")
    if d is None or not d.value:
        return None
    flags, sep, rest = d.value.partition(":")
    if not sep:
        flags, rest = "", d.value
    name, _, grace = rest.partition("@")
    if not name.strip():
        return None
    return Sent(normalise(name.strip()), "B" in flags.upper(), grace.strip(), d)


def batch_traps(facts: ScriptFacts) -> list[Trap]:
    """Traps the batch shell sets: its own, and those of the functions it calls itself."""
    called = {c.name for c in facts.commands}
    return [t for t in facts.traps if t.function is None or t.function in called]


def trapped(facts: ScriptFacts, signal: str) -> bool:
    """Whether any trap of the script, in a function or not, names ``signal``."""
    return any(signal in t.signals for t in facts.traps)


# commands that take a signal's name without trapping it
_NAMES_ONLY = frozenset({"echo", "printf", "kill", "pkill", "killall", "scancel", "scontrol"})


def delegated(facts: ScriptFacts) -> frozenset[str]:
    """The signals the batch shell hands, by name, to a command a file it sourced defines
    (`. /usr/common/…/setup.sh; requeue_job func_trap USR1`, NERSC's variable-time jobs): that
    command may set the trap, in code the script does not hold, so whether it does is not known."""
    sourced = [c.span.line for c in facts.commands if c.name in (".", "source")]
    if not sourced:
        return frozenset()
    out: set[str] = set()
    for c in facts.commands:
        if c.span.line <= min(sourced) or c.name in facts.functions or c.name in _NAMES_ONLY:
            continue
        for word in c.text.split()[1:]:
            name = word.strip("'\"")
            if name[:1].isalpha() and name.isalnum() and normalise(name) in FATAL:
                out.add(normalise(name))  # a name (USR1, SIGUSR1), never a number: `sleep 10`
    return frozenset(out)


@record
class Missed:
    """A batch-shell trap that waits for a signal Slurm never sends to the batch shell."""

    trap: Trap
    signal: str
    sent: Sent | None  # the --signal directive, when it sends this signal (to the steps)


def missed(facts: ScriptFacts) -> list[Missed]:
    """Batch-shell traps for the warning signal sent without `B:`, or for USR1/USR2 nothing sends."""
    sent = sent_by(facts)
    out = []
    for trap in batch_traps(facts):
        if sent is not None and sent.batch and sent.signal in trap.signals:
            continue  # it catches the warning; another signal it names is only a spare
        for name in trap.signals:
            if sent is not None and sent.signal == name:
                out.append(Missed(trap, name, sent))
                break
            if name in USER:
                out.append(Missed(trap, name, None))
                break
    return out
