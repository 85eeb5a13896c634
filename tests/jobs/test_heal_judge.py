"""The judge of a self-healing job's attempts: how an attempt ended and what the job does next,
from the evidence the batch shell has (pure functions: no Slurm needed)."""

from __future__ import annotations

import pytest

from jobc.jobs.heal import judge
from jobc.jobs.triage import Diagnosis, Evidence, Finding

NODES = ["n1", "n2", "n3", "n4"]
POLICY = judge.Policy(
    retry_on=frozenset({"preflight", "node_fail", "gpu_error", "nccl_error", "hang"}),
    max_restarts=3,
    exclude=True,
    requeue=True,
)


def diagnosis(*findings: Finding) -> Diagnosis:
    return Diagnosis("7", None, None, ["job.out"], list(findings))


def cause(
    cls: str, summary: str, node: str | None = None, action: str = "fix_program", **kw: object
) -> Finding:
    return Finding(kind=cls, summary=summary, cause=True, node=node, cls=cls, action=action, **kw)  # type: ignore[arg-type]


def room(excluded: list[str]) -> str | None:
    return None


def decide(
    ending: judge.Ending, restart: int = 0, policy: judge.Policy = POLICY, status: int = 1
) -> judge.Decision:
    return judge.decide(ending, policy, restart, NODES, status=status, room=room)


# -- how the step ended --------------------------------------------------------------------------


def test_success_is_done() -> None:
    ending = judge.from_step(0, "", diagnosis(), NODES)
    assert (ending.state, ending.cls) == ("COMPLETED", None)
    d = decide(ending, status=0)
    assert (d.requeue, d.exit_code, d.decision) == (False, 0, "done")


@pytest.mark.parametrize(("status", "signal"), [(75, ""), (75, "TERM"), (143, "TERM")])
def test_a_checkpoint_on_the_signal_requeues_within_the_budget(status: int, signal: str) -> None:
    ending = judge.from_step(status, signal, diagnosis(), NODES)
    assert ending.cls == "preempted"
    assert decide(ending, restart=2, status=status).decision == "requeue"
    spent = decide(ending, restart=3, status=status)
    assert (spent.requeue, spent.exit_code, spent.decision) == (False, status, "stop")
    assert "restart 4 would exceed resilience.max_restarts 3" in spent.reason


def test_an_exception_is_never_retried() -> None:
    d = diagnosis(cause("exception", "rank 1 raised ValueError: bad batch", node="n2", rank=1))
    ending = judge.from_step(1, "", d, NODES)
    assert ending.cls == "exception"
    assert "ValueError: bad batch" in ending.cause
    everything = judge.Policy(frozenset({"exception"}), 3, True, True)  # even when asked for
    decision = decide(ending, policy=everything)
    assert (decision.requeue, decision.exit_code, decision.excluded) == (False, 1, [])
    assert decision.reason.startswith("not retried: a Python exception")


def test_a_gpu_error_excludes_the_node_it_names() -> None:
    d = diagnosis(cause("gpu_error", "Xid 79 on n3: fallen off the bus", node="n3", action="exclude_node"))
    decision = decide(judge.from_step(1, "", d, NODES))
    assert (decision.requeue, decision.decision, decision.excluded) == (True, "retry", ["n3"])


def test_a_node_outside_the_attempt_or_an_unsure_cause_is_not_blamed() -> None:
    elsewhere = diagnosis(cause("gpu_error", "GPU error", node="login1", action="exclude_node"))
    decision = decide(judge.from_step(1, "", elsewhere, NODES))
    assert (decision.requeue, decision.excluded) == (True, [])
    assert "names no node of this attempt" in decision.reason
    unsure = Finding("gpu_error", "maybe a GPU", True, node="n3", cls="gpu_error", action="exclude_node")
    unsure.__dict__["confidence"] = "low"  # triage's field, where its Finding has it
    low = judge.from_step(1, "", diagnosis(unsure), NODES)
    assert (low.cls, low.blamed) == ("unknown", [])
    assert "confidence is low" in low.cause
    assert not decide(low).requeue


def test_the_hang_watchdog_and_a_collective_timeout_are_a_hang() -> None:
    watchdog = cause("exit_code", "rank 2 exited with 86", exit_code=86, node="n2")
    assert judge.from_step(86, "", diagnosis(watchdog), NODES).cls == "hang"
    assert judge.from_step(86, "", diagnosis(), NODES).cls == "hang"
    timeout = cause("collective_timeout", "rank 0 timed out in all_reduce")
    hang = judge.from_step(1, "", diagnosis(timeout), NODES)
    assert hang.cls == "hang"
    decision = decide(hang)
    assert (decision.requeue, decision.excluded) == (True, [])  # no node named: none excluded


def test_an_unknown_cause_is_not_retried() -> None:
    ending = judge.from_step(3, "", diagnosis(), NODES)
    assert ending.cls == "unknown"
    decision = decide(ending, status=3)
    assert (decision.requeue, decision.exit_code) == (False, 3)
    assert "unknown cause is never taken for a node's fault" in decision.reason


def test_a_class_left_out_of_retry_on_is_not_retried() -> None:
    only_preflight = judge.Policy(frozenset({"preflight"}), 3, True, True)
    d = diagnosis(cause("nccl_error", "NCCL WARN NET/IB", node="n1"))
    decision = decide(judge.from_step(1, "", d, NODES), policy=only_preflight)
    assert decision.reason == "not retried: nccl_error is not in resilience.retry_on"


def test_retries_need_requeue_and_a_budget() -> None:
    ending = judge.from_step(
        1, "", diagnosis(cause("gpu_error", "ECC", node="n1", action="exclude_node")), NODES
    )
    no_requeue = judge.Policy(POLICY.retry_on, 3, True, False)
    assert "resilience.requeue is false" in decide(ending, policy=no_requeue).reason
    assert "the restart budget is spent" in decide(ending, restart=3).reason
    assert decide(ending, restart=2).requeue


def test_exclusion_is_off_when_the_spec_says_so() -> None:
    keep = judge.Policy(POLICY.retry_on, 3, False, True)
    ending = judge.from_step(
        1, "", diagnosis(cause("gpu_error", "ECC", node="n1", action="exclude_node")), NODES
    )
    decision = decide(ending, policy=keep)
    assert (decision.requeue, decision.excluded) == (True, [])


def test_no_retry_when_the_partition_could_not_hold_the_job() -> None:
    ending = judge.from_step(
        1, "", diagnosis(cause("gpu_error", "ECC", node="n1", action="exclude_node")), NODES
    )
    decision = judge.decide(ending, POLICY, 0, NODES, status=1, room=lambda ex: f"without {ex[0]} too few")
    assert (decision.requeue, decision.reason) == (False, "not retried: without n1 too few")


# -- the preflight -------------------------------------------------------------------------------

REPORT = """\
0: jobc: preflight n1 ok
1: jobc: preflight n2 failed gpus: 1 GPUs are visible (CUDA_VISIBLE_DEVICES=0), 2 expected
3: jobc: preflight n4 ok
2: jobc: preflight n9 ok
"""


def test_a_node_that_fails_or_does_not_report_failed_its_preflight() -> None:
    ending = judge.from_preflight(REPORT, NODES)
    assert ending is not None
    # n3 wrote nothing, and a line about n9 (not in the allocation) does not count
    assert (ending.cls, ending.blamed, ending.node) == ("preflight", ["n2", "n3"], "n2")
    assert "n2 (gpus: 1 GPUs are visible" in ending.cause
    assert "n3 (no report within the timeout)" in ending.cause
    decision = decide(ending)
    # two of four at once: more than max(1, 4 // 4) suggests a shared cause; none excluded
    assert (decision.requeue, decision.excluded) == (True, [])
    assert "points at a shared cause" in decision.reason


def test_one_failing_node_is_excluded() -> None:
    report = "0: jobc: preflight n1 ok\n1: jobc: preflight n2 failed command: exited with 3\n"
    ending = judge.from_preflight(report, ["n1", "n2"])
    assert ending is not None
    decision = judge.decide(ending, POLICY, 0, ["n1", "n2"], status=1, room=room)
    assert (decision.requeue, decision.excluded) == (True, ["n2"])


def test_every_node_failing_the_same_check_is_the_spec_not_a_node() -> None:
    report = "".join(
        f"{i}: jobc: preflight {n} failed paths: /lustre is missing\n" for i, n in enumerate(NODES)
    )
    ending = judge.from_preflight(report, NODES)
    assert ending is not None
    decision = decide(ending)
    assert not decision.requeue
    assert "every node failed the same check (paths)" in decision.reason


def test_a_preflight_that_reports_from_no_node_blames_none() -> None:
    ending = judge.from_preflight("srun: error: Unable to create step\n", NODES)
    assert ending is not None
    assert (ending.cls, ending.blamed) == ("unknown", [])
    assert not decide(ending).requeue


def test_a_clean_preflight_is_no_ending() -> None:
    report = "".join(f"{i}: jobc: preflight {n} ok\n" for i, n in enumerate(NODES))
    assert judge.from_preflight(report, NODES) is None


# -- an attempt that could not judge itself --------------------------------------------------------


def test_a_lost_attempt_from_accounting_and_the_log() -> None:
    srun = cause("node_fail", "Slurm lost n2", node="n2", action="exclude_node")
    srun.evidence = [Evidence("job.out", 7, "srun: error: Node failure on n2")]
    # slurmstepd reports the failure from the node that is still alive: not the lost one
    stepd = cause("node_fail", "Slurm lost a node", node="n1", action="exclude_node")
    stepd.evidence = [
        Evidence(
            "job.out", 8, "slurmstepd-n1: error: *** JOB 7 ON n1 CANCELLED AT 2026 DUE TO NODE FAILURE ***"
        )
    ]
    named = diagnosis(srun, stepd)
    ending = judge.from_accounting("NODE_FAIL", named, NODES, [])
    assert (ending.state, ending.cls, ending.blamed) == ("NODE_FAIL", "node_fail", ["n2"])
    assert "the log names n2" in ending.cause
    down = judge.from_accounting("NODE_FAIL", diagnosis(), NODES, ["n1"])
    assert (down.blamed, down.node) == (["n1"], "n1")
    assert "Slurm has n1 down now" in down.cause
    unknown = judge.from_accounting("NODE_FAIL", None, NODES, [])
    assert (unknown.cls, unknown.blamed) == ("node_fail", [])


def test_a_lost_attempt_without_a_node_failure_is_unknown() -> None:
    assert judge.from_accounting("PREEMPTED", None, NODES, []).cls == "preempted"
    assert judge.from_accounting("REQUEUED", None, NODES, []).cls == "unknown"
    lost = judge.from_accounting(None, diagnosis(), NODES, [])
    assert lost.cls == "unknown"
    assert judge.why_not(lost, POLICY) is not None


def test_after_a_lost_attempt_the_run_goes_on_unless_the_spec_does_not_retry_it() -> None:
    named = judge.from_accounting("NODE_FAIL", None, NODES, ["n2"])
    go_on = judge.after_lost(named, POLICY, NODES)
    assert (go_on.requeue, go_on.decision, go_on.excluded) == (True, "retry", ["n2"])
    no_node_fail = judge.Policy(frozenset({"preflight"}), 3, True, True)
    stop = judge.after_lost(named, no_node_fail, NODES)
    assert (stop.requeue, stop.reason) == (False, "not retried: node_fail is not in resilience.retry_on")
    # Slurm (or an administrator) restarted it for a reason nobody recorded: nothing is excluded
    unknown = judge.after_lost(judge.from_accounting("REQUEUED", None, NODES, ["n2"]), POLICY, NODES)
    assert (unknown.requeue, unknown.excluded) == (True, [])
    assert "its cause is unknown" in unknown.reason
    everything_down = judge.from_accounting("NODE_FAIL", None, NODES, NODES)
    assert judge.after_lost(everything_down, POLICY, NODES).excluded == []


def test_a_retryable_class_whose_action_is_to_fix_the_program_is_not_retried() -> None:
    assert_gpu = cause(
        "gpu_error", "rank 0 raised RuntimeError: CUDA error: device-side assert triggered", node="n1"
    )
    ending = judge.from_step(1, "", diagnosis(assert_gpu), NODES)
    assert (ending.cls, ending.blamed) == ("gpu_error", [])
    decision = decide(ending)
    assert (decision.requeue, decision.excluded) == (False, [])
    assert "fix_program" in decision.reason
    # the same class with the hardware's action is retried without its node
    ecc = cause("gpu_error", "uncorrectable ECC error encountered", node="n1", action="exclude_node")
    decision = decide(judge.from_step(1, "", diagnosis(ecc), NODES))
    assert (decision.requeue, decision.excluded) == (True, ["n1"])
