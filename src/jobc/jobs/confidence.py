"""Triage's confidence stage: how sure each finding is of its class (`high`, `medium`, `low`).

Precision first: a wrong first cause said with confidence costs a user more than "I am not sure".
A finding's confidence comes from what it rests on, not from a score:

- **high**: a line that states the failure in words a signature knows (strength 3), with no rival
  cause of another class that the causal table leaves unexplained;
- **medium**: a report that a process ended (an exit code, a signal: the *why* is elsewhere or
  missing), a stated failure with an unexplained rival of another class, a symptom whose cause is
  not in the log, a class read from a line's words rather than a signature (`jobc.jobs.lexicon`),
  or a rank or node the log gives only by inference;
- **low**: a line that only looks like an error (the fallback lexicon), whose class is `unknown`.
  The finding shows that line; it does not guess a class.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from jobc.jobs.causality import CHILD_DIED
from jobc.jobs.findings import Finding

LEVELS = ("high", "medium", "low")


def grade(findings: Sequence[Finding]) -> None:
    """Set every finding's confidence; a low one is of class `unknown`."""
    causes = [f for f in findings if f.cause]
    for f in findings:
        f.confidence = _level(f, causes)
        if f.confidence == "low" and f.cls != "unknown":
            f.cls = "unknown"


def _level(f: Finding, causes: Sequence[Finding]) -> str:
    if f.cls == "unknown" or f.strength <= 0:
        return "low"
    if f.strength == 1 or f.report or f.strength == 2:
        return "medium"
    if f.cls == "signal" and f.signal == "SIGABRT":
        # an abort is a process ending itself on something it found (a C++ exception, an assertion,
        # a watchdog's timeout): like a report of an end, the why is on other lines
        return "medium"
    if f.role == "symptom":
        # a symptom says what the others saw, not why: the cause is elsewhere, or not in the log
        # (a line no signature reads may be it)
        return "medium"
    rivals = [g for g in causes if g is not f and g.strength >= 3 and g.cls not in (f.cls, "unknown")]
    if f.cause and rivals:
        return "medium"
    if f.inferred or f.worded or _generic_exception(f):
        return "medium"
    return "high"


#: Exception types that wrap failures of every kind (C++ errors, NCCL's, a store's, a signal's):
#: when no signature reads their message, `exception` is a guess at the class.
GENERIC_TYPES = frozenset(
    {
        "RuntimeError",
        "Exception",
        "BaseException",
        "OSError",
        "SystemError",
        "Error",
        "DistError",
        # a report that another process ended (subprocess's, multiprocessing's): what failed is
        # that process, whose own output, when the log holds it, says why
        "CalledProcessError",
        "ProcessExitedException",
    }
)
#: Words of other classes in an exception's message: the program may not be at fault.
_OTHER_CLASS_WORDS = re.compile(
    r"[Ss]ignal|SIG[A-Z]{3,6}|[Tt]imed? ?out|NCCL|nccl|CUDA|[Cc]onnect|refused|reset by peer|[Mm]emory|"
    r"rendezvous|[Ss]tore|[Kk]illed|collective|[Hh]ost\b|[Nn]ode\b"
)


def _generic_exception(f: Finding) -> bool:
    """A Python exception no signature classified whose type or message leaves its class open."""
    if f.cls != "exception" or f.code not in ("P104", ""):
        return False
    head = f.summary.split(" raised ", 1)[-1]
    name = head.split(":", 1)[0].rpartition(".")[2].strip()
    message = head.split(":", 1)[1] if ":" in head else ""
    if CHILD_DIED.search(head) is not None:
        return True  # another process's end, reported: why it ended is that process's
    return name in GENERIC_TYPES or "Signal" in name or _OTHER_CLASS_WORDS.search(message) is not None
