"""How an attempt ended, and what the job does next: pure functions of what the job saw.

The evidence, strongest first:

1. the preflight's own report, one line per node from the compiled script's check step: a node
   whose line says `failed`, or that wrote none, failed; the check is named;
2. Slurm's record: the job requeued or cancelled under the batch shell (the batch shell then
   judges nothing), an attempt accounting says ended `NODE_FAIL`;
3. the step's exit code: 0 is success, the requeue code 75 or a forwarded signal is a preemption
   or the time limit (requeued as before, within the same budget), 86 is the runtime's hang
   watchdog;
4. triage's first cause in the attempt's part of the log, with its class and the node it names.

Only a class in `resilience.retry_on` that `jobc.tables.heal` calls a node's fault is retried,
and never a finding whose action triage says is `fix_program` (a device-side assertion is a
`gpu_error` that is the program's); a cause triage cannot name is `unknown` and never retried.
A node is excluded only when the failure names it, and never more than `max(1, nodes // 4)` at
once: more nodes failing together points at a shared cause (a file system, the fabric), which
excluding them would not cure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from jobc.jobs.triage import Diagnosis, Finding
from jobc.tables.contract import HANG_EXIT_CODE, REQUEUE_EXIT_CODE
from jobc.tables.heal import NEVER, UNKNOWN, retryable


@dataclass(frozen=True)
class Policy:
    """What the spec allows: resilience.retry_on, max_restarts, exclude_failed_nodes, requeue."""

    retry_on: frozenset[str]
    max_restarts: int
    exclude: bool
    requeue: bool


@dataclass
class Ending:
    """How one attempt ended."""

    state: str  # COMPLETED, FAILED, PREEMPTED, NODE_FAIL, CANCELLED
    cls: str | None  # a class of jobc.tables.heal, "unknown", or None for a success
    cause: str  # one line, the cause in words
    node: str | None = None  # the node the failure names
    blamed: list[str] = field(default_factory=list)  # nodes the failure names as at fault
    shared: str | None = None  # why the failure is not any one node's (every node failed alike)
    program: str | None = None  # why a failure of a retryable class is the program's (triage's action)


@dataclass
class Decision:
    """What the job does after an attempt: requeue itself (without `excluded`), or end."""

    requeue: bool
    exit_code: int
    decision: str  # retry, requeue (preemption), stop, done
    reason: str
    excluded: list[str] = field(default_factory=list)  # nodes newly excluded after this attempt


def shared_limit(nodes: int) -> int:
    """The most nodes one failure may exclude: more failing at once suggests a shared cause."""
    return max(1, nodes // 4)


def _first_cause(d: Diagnosis) -> Finding | None:
    causes = d.causes
    return causes[0] if causes else None


def from_step(status: int, signal: str, d: Diagnosis, nodes: Sequence[str]) -> Ending:
    """The end of the program's step, from its exit code, the signal and triage's first cause."""
    if status == 0 and not signal:
        return Ending("COMPLETED", None, "the program finished (exit code 0)")
    if status == REQUEUE_EXIT_CODE or (signal and status != 0):
        why = (
            f"the program checkpointed and asked to be requeued (exit code {REQUEUE_EXIT_CODE})"
            if status == REQUEUE_EXIT_CODE
            else f"SIG{signal} arrived (preemption or the time limit) and the step ended with {status}"
        )
        return Ending("PREEMPTED", "preempted", why)
    first = _first_cause(d)
    if first is None:
        if status == HANG_EXIT_CODE:
            return Ending(
                "FAILED", "hang", f"the runtime's hang watchdog ended the step (exit code {status})"
            )
        return Ending("FAILED", UNKNOWN, f"the step ended with exit code {status}; the log names no cause")
    return _from_finding(first, nodes)


def _from_finding(f: Finding, nodes: Sequence[str]) -> Ending:
    cls = f.cls
    if (cls == "exit_code" and f.exit_code == HANG_EXIT_CODE) or cls == "collective_timeout":
        cls = "hang"
    # triage's `confidence` (high, medium, low), where its findings carry one
    confidence = getattr(f, "confidence", None)
    cause = f"{cls}: {f.summary}" if not f.summary.startswith(cls) else f.summary
    if confidence == "low":
        # triage itself is not sure: not a ground to call it a node's fault
        return Ending("FAILED", UNKNOWN, f"{cause} (triage's confidence is low)", f.node)
    if f.action == "fix_program" and retryable(f.cls):
        # a class a node's fault usually explains, said by triage to be the program's this time
        # (a device-side assertion is a gpu_error whose fix is the program's): it fails again anywhere
        why = f"triage's action for this {f.cls} is fix_program ({f.advice}): a retry would fail the same way"
        return Ending("FAILED", cls, cause, f.node, program=why)
    blamed = [f.node] if f.node and f.node in nodes and f.action == "exclude_node" else []
    return Ending("FAILED", cls, cause, f.node, blamed)


@dataclass(frozen=True)
class NodeReport:
    node: str
    ok: bool
    check: str = ""
    detail: str = ""


def read_preflight(text: str, nodes: Sequence[str]) -> dict[str, NodeReport]:
    """Each allocated node's preflight line (`jobc: preflight NODE ok`, `jobc: preflight NODE
    failed CHECK: DETAIL`, after srun's label); a node with no line is missing from the result.
    Lines naming a node outside the allocation are ignored: who a node is comes from Slurm."""
    wanted = set(nodes)
    found: dict[str, NodeReport] = {}
    for raw in text.splitlines()[:10_000]:
        _, sep, rest = raw.partition("jobc: preflight ")
        if not sep:
            continue
        node, _, verdict = rest.partition(" ")
        if node not in wanted or node in found:
            continue
        if verdict == "ok":
            found[node] = NodeReport(node, True)
        elif verdict.startswith("failed "):
            check, _, detail = verdict[len("failed ") :].partition(": ")
            found[node] = NodeReport(node, False, check[:40], detail[:400])
    return found


def from_preflight(text: str, nodes: Sequence[str]) -> Ending | None:
    """The preflight's verdict: None when every node passed."""
    reports = read_preflight(text, nodes)
    failed = [n for n in nodes if n not in reports or not reports[n].ok]
    if not failed:
        return None
    if not reports:
        return Ending(
            "FAILED",
            UNKNOWN,
            "the preflight step reported from no node (srun could not start it, or it timed out "
            "everywhere): no node can be blamed",
        )
    parts = []
    for node in failed:
        r = reports.get(node)
        parts.append(f"{node} ({r.check}: {r.detail})" if r else f"{node} (no report within the timeout)")
    cause = f"preflight failed on {len(failed)} of {len(nodes)} nodes: " + "; ".join(parts)
    shared = None
    checks = {reports[n].check if n in reports else "none" for n in failed}
    if len(failed) == len(nodes) and len(nodes) > 1 and len(checks) == 1:
        shared = (
            f"every node failed the same check ({checks.pop()}): the check or the spec is wrong, not a node"
        )
    return Ending("FAILED", "preflight", cause, failed[0], failed, shared)


def from_accounting(
    state: str | None, d: Diagnosis | None, nodes: Sequence[str], down: Sequence[str]
) -> Ending:
    """An attempt that ended without judging itself (its batch host was lost, or Slurm requeued
    the job under it), from Slurm's record of it, its part of the log and the nodes down now."""
    named = []
    if d is not None:
        # srun's "Node failure on NODE" names the lost node; slurmstepd's "JOB … ON NODE CANCELLED
        # … DUE TO NODE FAILURE" names the node that printed it, which is still alive
        named = [
            f.node
            for f in d.findings
            if f.cls == "node_fail"
            and f.node in nodes
            and any(f"Node failure on {f.node}" in e.text for e in f.evidence)
        ]
    if state == "NODE_FAIL" or named:
        blamed = list(dict.fromkeys(n for n in named if n)) or [n for n in nodes if n in down]
        where = (
            f"the log names {', '.join(blamed)}"
            if named
            else f"Slurm has {', '.join(blamed)} down now"
            if blamed
            else "no record names the node"
        )
        return Ending(
            "NODE_FAIL",
            "node_fail",
            f"node_fail: Slurm lost a node of the job ({where})",
            blamed[0] if blamed else None,
            blamed,
        )
    if state == "PREEMPTED":
        return Ending("PREEMPTED", "preempted", "Slurm preempted and requeued the job")
    if state in ("REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED"):
        return Ending(
            "REQUEUED", UNKNOWN, "the job was requeued from outside (scontrol requeue) before it said why"
        )
    said = f" (accounting says {state})" if state else ""
    return Ending(
        "FAILED", UNKNOWN, f"the attempt ended without a word{said}: its batch host may have been lost"
    )


def decide(
    ending: Ending,
    policy: Policy,
    restart: int,
    nodes: Sequence[str],
    *,
    status: int,
    room: Callable[[list[str]], str | None],
) -> Decision:
    """What to do after `ending` in restart `restart`. `room(excluded)` says why the partition
    could not hold the job without those nodes (None when it could)."""
    if ending.cls is None:
        return Decision(False, status, "done", "the program finished")
    if ending.cls == "cancelled":
        return Decision(False, status or 1, "stop", "the job was cancelled")
    budget = f"restart {restart + 1} would exceed resilience.max_restarts {policy.max_restarts}"
    if ending.cls == "preempted":
        if not policy.requeue:
            return Decision(False, status, "stop", "not requeued: resilience.requeue is false")
        if restart >= policy.max_restarts:
            return Decision(False, status, "stop", f"not requeued: the restart budget is spent ({budget})")
        return Decision(True, 0, "requeue", "requeued to resume from its checkpoint")
    code = status or 1
    refusal = why_not(ending, policy)
    if refusal is not None:
        return Decision(False, code, "stop", f"not retried: {refusal}")
    if restart >= policy.max_restarts:
        return Decision(False, code, "stop", f"not retried: the restart budget is spent ({budget})")
    excluded: list[str] = []
    note = ""
    if policy.exclude and ending.blamed:
        if len(ending.blamed) > shared_limit(len(nodes)):
            note = (
                f"; {len(ending.blamed)} of {len(nodes)} nodes failed at once, which points at a shared "
                "cause more than at so many bad nodes: none excluded"
            )
        else:
            excluded = list(ending.blamed)
            short = room(excluded)
            if short is not None:
                return Decision(False, code, "stop", f"not retried: {short}")
    elif policy.exclude and ending.cls in ("node_fail", "gpu_error", "preflight"):
        note = "; the failure names no node of this attempt, so none is excluded"
    what = f"retried without {', '.join(excluded)}" if excluded else "retried"
    return Decision(True, 0, "retry", what + note, excluded)


def why_not(ending: Ending, policy: Policy) -> str | None:
    """Why this ending is not retried, or None when it is."""
    cls = ending.cls or UNKNOWN
    if ending.shared is not None:
        return ending.shared
    if cls == UNKNOWN:
        return "the cause is unknown, and an unknown cause is never taken for a node's fault"
    if not retryable(cls):
        return NEVER.get(cls, f"{cls} is not a node's fault")
    if cls not in policy.retry_on:
        return f"{cls} is not in resilience.retry_on"
    if ending.program is not None:
        return ending.program
    if not policy.requeue:
        return "resilience.requeue is false, so the job cannot requeue itself"
    return None


def after_lost(ending: Ending, policy: Policy, nodes: Sequence[str]) -> Decision:
    """What follows an attempt Slurm restarted without its word (the restart has happened):
    go on, without the node a node failure names; or stop, when the spec does not retry that
    failure. A cause nobody can name excludes nothing, and the run Slurm started goes on."""
    if ending.cls == "node_fail":
        refusal = why_not(ending, policy)
        if refusal is not None:
            return Decision(False, 1, "stop", f"not retried: {refusal}")
        excluded = (
            ending.blamed if policy.exclude and len(ending.blamed) <= shared_limit(len(nodes) or 1) else []
        )
        what = f"requeued by Slurm; kept out of {', '.join(excluded)}" if excluded else "requeued by Slurm"
        return Decision(True, 0, "retry", what, list(excluded))
    if ending.cls == "preempted":
        return Decision(True, 0, "requeue", "requeued by Slurm")
    return Decision(True, 0, "requeue", "requeued by Slurm; its cause is unknown, so no node is excluded")
