"""Triage's causality stage: the explains table, first causes, failures the job survived."""

from __future__ import annotations

from jobc.jobs.causality import EXPLAINS, SCOPES, explain, first_causes, survived
from jobc.jobs.findings import Finding


def _f(cls: str, order: float, **kw: object) -> Finding:
    role = kw.pop("role", "cause")
    kind = str(kw.pop("kind", cls))
    return Finding(kind=kind, summary=cls, cause=role == "cause", order=order, cls=cls, role=str(role), **kw)  # type: ignore[arg-type]


def test_every_row_is_well_formed() -> None:
    for row in EXPLAINS:
        assert row.scope in SCOPES
        assert row.order in ("after", "any")
        assert row.why


def test_a_watchdog_timeout_explains_its_own_ranks_abort_and_report() -> None:
    timeout = _f("collective_timeout", 1, role="symptom", rank=2, strength=1)
    abort = _f("signal", 2, rank=2, signal="SIGABRT", report=True, strength=2)
    other = _f("signal", 3, rank=5, signal="SIGABRT", report=True, strength=2)
    v = explain([timeout, abort, other])
    assert v[id(abort)].explained_by is timeout
    assert v[id(other)].explained_by is None  # another rank's abort is not this rank's timeout's


def test_a_watchdog_timeout_explains_the_abort_of_the_local_rank_of_its_number() -> None:
    # torchrun's report names local ranks only (`failed (exitcode: -6) local_rank: 7`): after the
    # watchdog of [Rank 7] timed out, it is that rank's abort on a one-node job (discoscene#5)
    timeout = _f("collective_timeout", 1, role="symptom", rank=7, strength=1)
    abort = _f("signal", 2, local_rank=7, signal="SIGABRT", report=True, strength=2)
    v = explain([timeout, abort])
    assert v[id(abort)].explained_by is timeout
    # near miss: another local rank's abort may be another process's
    other = _f("signal", 2, local_rank=3, signal="SIGABRT", report=True, strength=2)
    v = explain([timeout, other])
    assert v[id(other)].explained_by is None


def test_a_reported_end_explains_rays_later_word_that_a_worker_died() -> None:
    # Lightning's `[rank: 1] Child process … terminated with code 1`, then the raylet's `A worker
    # died or was killed` (neuralforecast#1291): the reported end is what happened
    end = _f("exit_code", 1, rank=1, report=True, strength=1)
    died = _f("signal", 2, report=True, strength=2, kind="ray-worker-died")
    v = explain([end, died])
    assert v[id(died)].explained_by is end
    assert first_causes([end, died], v) == [end]
    # near miss: a worker that died before the end was reported is not its echo
    early = _f("signal", 0, report=True, strength=2, kind="ray-worker-died")
    v = explain([end, early])
    assert v[id(early)].explained_by is None


def test_a_failure_explains_the_others_sigterm_and_the_cancel_but_not_an_earlier_crash() -> None:
    crash = _f("signal", 1, rank=1, signal="SIGSEGV", report=True, strength=2)
    exc = _f("exception", 2, rank=3, strength=3)
    term = _f("signal", 3, rank=0, signal="SIGTERM", report=True, strength=2)
    cancel = _f("cancelled", 4, strength=3)
    v = explain([crash, exc, term, cancel])
    assert v[id(term)].explained_by is exc
    assert v[id(cancel)].explained_by is exc
    assert v[id(crash)].explained_by is None
    assert first_causes([crash, exc, term, cancel], v) == [exc, crash]


def test_preemption_explains_a_bare_cancelled_before_it() -> None:
    cancel = _f("cancelled", 1, strength=3)
    preempt = _f("preempted", 2, strength=3)
    v = explain([cancel, preempt])
    assert v[id(cancel)].explained_by is preempt
    assert first_causes([cancel, preempt], v) == [preempt]


def test_host_oom_explains_a_sigkill_on_its_node_only() -> None:
    oom = _f("host_oom", 2, node="n1", strength=3)
    kill = _f("signal", 1, node="n1", signal="SIGKILL", report=True, strength=2)
    far = _f("signal", 3, node="n2", signal="SIGKILL", report=True, strength=2)
    v = explain([oom, kill, far])
    assert v[id(kill)].explained_by is oom
    assert v[id(kill)].row is not None
    assert v[id(kill)].row.cause == "host_oom"
    # a kill on another node after it is the teardown's (a failure explains the kills after it)
    row = v[id(far)].row
    assert row is not None
    assert row.cause == "failure"


def test_an_error_followed_by_progress_is_survived_and_no_first_cause() -> None:
    early = _f("exception", 10, rank=0, strength=3)
    limit = _f("time_limit", 5000, strength=3)
    progress = [(100, None, 0), (2000, None, 0), (4000, None, 0)]
    assert survived(early, progress, [early, limit])
    v = explain([early, limit], progress)
    assert first_causes([early, limit], v) == [limit]
    # other ranks' last steps after a rank's error are no progress of that rank
    assert not survived(early, [(100, None, 1), (2000, None, 1)], [early, limit])
    # a last breath right after the error is no progress either
    assert not survived(early, [(12, None, 0), (14, None, 0)], [early, limit])


def test_the_strongest_unexplained_finding_is_first_then_the_earliest() -> None:
    guess = _f("unknown", 1, strength=1)
    report = _f("exit_code", 2, report=True, strength=2, exit_code=1, rank=4)
    failure = _f("nccl_error", 3, strength=3, rank=4)
    v = explain([guess, report, failure])
    assert first_causes([guess, report, failure], v)[0] is failure


def test_a_signal_a_process_received_explains_its_teardown_after_it() -> None:
    got = _f("signal", 1, rank=0, signal="SIGTERM", code="L205", strength=3)
    teardown = _f("exception", 2, rank=0, strength=3)  # its SIGTERMException
    other = _f("exception", 3, rank=1, strength=3)  # another rank's error is its own
    before = _f("exception", 0.5, rank=0, strength=3)  # an error before the signal is no teardown
    v = explain([got, teardown, other, before])
    assert v[id(teardown)].explained_by is got
    assert v[id(other)].explained_by is not got
    assert v[id(before)].explained_by is not got


def test_in_a_one_process_log_a_line_that_names_nobody_is_that_process() -> None:
    got = _f("signal", 1, rank=0, signal="SIGTERM", code="L205", strength=3)
    unlabelled = _f("exception", 2, strength=3)
    assert explain([got, unlabelled])[id(unlabelled)].explained_by is None
    v = explain([got, unlabelled], solo=True)
    assert v[id(unlabelled)].explained_by is got
    assert first_causes([got, unlabelled], v) == [got]


def test_a_weaker_line_does_not_explain_a_later_stated_failure() -> None:
    bare = _f("exception", 1, strength=2)  # an exception line without its traceback
    stated = _f("import_error", 2, strength=3)  # a traceback's ModuleNotFoundError
    v = explain([bare, stated])
    assert v[id(stated)].explained_by is None
    assert first_causes([bare, stated], v)[0] is stated
    # of equal strength, the first explains the later one
    first = _f("exception", 1, strength=3)
    v = explain([first, stated])
    assert v[id(stated)].explained_by is first


def test_two_findings_that_explain_each_other_leave_the_earlier_a_cause() -> None:
    got = _f("signal", 1, rank=0, signal="SIGTERM", code="L205", strength=3)
    error = _f("nccl_error", 2, rank=0, strength=3)  # explains SIGTERMs; the SIGTERM explains it
    v = explain([got, error])
    assert v[id(got)].explained_by is None
    assert v[id(error)].explained_by is got


def test_three_findings_that_explain_each_other_round_a_loop_leave_the_earliest_a_cause() -> None:
    # the agent's line of a SIGKILL, torchrun's table of it, and a CANCELLED after both: the
    # table speaks for the line, the cancel explains the kill, the kill explains the cancel
    line = _f("signal", 1, rank=1, signal="SIGKILL", report=True, strength=2)
    table = _f("signal", 2, rank=1, signal="SIGKILL", report=True, code="L202", strength=2)
    cancel = _f("cancelled", 3, strength=3)
    findings = [line, table, cancel]
    v = explain(findings)
    assert v[id(line)].explained_by is None
    assert first_causes(findings, v)[0] is line
