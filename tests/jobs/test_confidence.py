"""Triage's confidence stage: high, medium, low; low is class unknown."""

from __future__ import annotations

from jobc.jobs.confidence import grade
from jobc.jobs.findings import Finding


def _f(cls: str, strength: int, **kw: object) -> Finding:
    return Finding(kind=cls, summary=cls, cause=True, cls=cls, strength=strength, **kw)  # type: ignore[arg-type]


def test_a_stated_failure_alone_is_high() -> None:
    f = _f("cuda_oom", 3)
    grade([f])
    assert f.confidence == "high"


def test_a_rival_of_another_class_or_an_inferred_rank_makes_it_medium() -> None:
    a, b = _f("cuda_oom", 3), _f("nccl_error", 3)
    grade([a, b])
    assert (a.confidence, b.confidence) == ("medium", "medium")
    c = _f("exception", 3, inferred=True)
    grade([c])
    assert c.confidence == "medium"


def test_a_report_is_medium_and_a_guess_is_low_and_unknown() -> None:
    r, g = _f("exit_code", 2, report=True), _f("unknown", 1)
    grade([r, g])
    assert (r.confidence, g.confidence, g.cls) == ("medium", "low", "unknown")
    weak = _f("signal", 0)
    grade([weak])
    assert (weak.confidence, weak.cls) == ("low", "unknown")


def test_a_generic_exception_no_signature_read_is_medium() -> None:
    generic = Finding(
        kind="exception-line",
        summary="rank 0 raised RuntimeError: boom",
        cause=True,
        code="P104",
        cls="exception",
    )
    signal = Finding(
        kind="exception-line",
        summary="a process raised x.SignalException: Process 1 got signal: 15",
        cause=True,
        code="P104",
        cls="exception",
    )
    specific = Finding(
        kind="exception-line",
        summary="rank 0 raised KeyError: 'labels'",
        cause=True,
        code="P104",
        cls="exception",
    )
    grade([generic, signal, specific])
    assert (generic.confidence, signal.confidence) == ("medium", "medium")
    assert specific.confidence == "high"
