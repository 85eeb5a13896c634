"""From the events of a log to findings: first cause first, symptoms after, each with a class,
an action and advice that speaks the language of the job (a spec field only for a log jobc's
compiled script wrote)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from jobc.jobs import causality, identity
from jobc.jobs.confidence import grade
from jobc.jobs.findings import (
    EVIDENCE_CAP,
    SIGNAL_WORDS,
    Diagnosis,
    Event,
    Evidence,
    Facts,
    Finding,
    evidence_of,
    exit_class,
    parse_int,
    signal_of,
)
from jobc.jobs.signatures import ACTIONS, CLASSES, DEFAULT_ACTION, UNKNOWN, UNKNOWN_MEANING
from jobc.tables.contract import REQUEUE_EXIT_CODE, WATCHDOG_EXIT_CODE

#: Advice per class: (any log, a log of jobc's compiled script). {node} is filled in when known.
ADVICE: dict[str, tuple[str, str]] = {
    "exception": ("fix the program where it raised (the frames are shown)",) * 2,
    "cuda_oom": (
        "lower the micro-batch or sequence length, or shard the model over more GPUs "
        "(tensor/pipeline parallelism, FSDP or ZeRO)",
        "lower the micro-batch or sequence length, or raise parallelism.tp/pp in the spec "
        "(jobc plan shows the estimate per rank)",
    ),
    "gpu_error": (
        "resubmit without the node (sbatch --exclude={node}) and report the GPU to the admins",
        "resubmit without the node (slurm.extra: {{exclude: {node}}}) and report the GPU to the admins",
    ),
    "host_oom": (
        "ask for more host memory (#SBATCH --mem, or --mem=0 for the whole node), or use fewer "
        "data-loader workers per rank",
        "raise resources.mem (or mem_per_gpu), or use fewer data-loader workers per rank",
    ),
    "nccl_error": (
        "check the network settings (NCCL_SOCKET_IFNAME, NCCL_IB_HCA) with NCCL_DEBUG=INFO; if one "
        "node keeps failing, exclude it",
        "check the spec's fabric settings with NCCL_DEBUG=INFO; if one node keeps failing, exclude it",
    ),
    "collective_timeout": (
        "look at the ranks that did not join the collective: the cause is in their output",
    )
    * 2,
    "rendezvous": (
        "check that MASTER_ADDR:MASTER_PORT (or --rdzv-endpoint) resolves and is reachable from every "
        "node and that the first node's process listens there",
        "check launch.master_port and that the first node's process listens there (port, firewall, "
        "MASTER_ADDR resolving on every node)",
    ),
    "port_in_use": (
        "use a port no other job on the node takes (derive MASTER_PORT from SLURM_JOB_ID) or ask for "
        "whole nodes (#SBATCH --exclusive)",
        "set launch.master_port to a free port, or slurm.exclusive: true",
    ),
    "signal": ("resubmit; a crash signal (SIGSEGV, SIGABRT) points at the program or a library",) * 2,
    "time_limit": (
        "raise the time limit (#SBATCH --time) or checkpoint on the warning signal "
        "(#SBATCH --signal) and requeue",
        "raise slurm.time, or set resilience.signal so the job checkpoints and requeues",
    ),
    "node_fail": (
        "resubmit without the node (sbatch --exclude={node})",
        "resubmit without the node (slurm.extra: {{exclude: {node}}})",
    ),
    "preempted": (
        "resubmit, or let the job requeue itself (#SBATCH --requeue with a checkpoint on the signal)",
        "resubmit, or set resilience.requeue and resilience.signal so it requeues itself",
    ),
    "cancelled": ("resubmit if the cancel was not meant",) * 2,
    "import_error": (
        "install the package in the job's environment, or activate that environment in the batch script",
        "add the package to the project's dependencies (launch.uv_sync) or activate it in launch.setup",
    ),
    "missing_program": (
        "fix the command's path, or PATH in the batch script",
        "fix launch.program (or launch.python) in the spec",
    ),
    "disk_full": (
        "free space or ask for more quota (df -h, quota -s), or write checkpoints and outputs to a "
        "file system with room (not the home directory or /tmp of a node)",
    )
    * 2,
    "slurm_refused": (
        "ask for what the partition's nodes have (sinfo -o '%P %D %c %m %G'); a step (srun) inside a "
        "job may ask for at most the job's own nodes, tasks, CPUs, GPUs and memory",
        "compare the spec's resources with the partition's nodes (jobc lint --live); an srun of "
        "launch.setup may ask for at most the job's own nodes, tasks, CPUs, GPUs and memory",
    ),
    "exit_code": ("the process's own output before it ended says why",) * 2,
    "unknown": ("read the line shown and the output before it: triage does not know this failure's words",)
    * 2,
}
assert set(ADVICE) == set(CLASSES) | {UNKNOWN}
assert set(DEFAULT_ACTION.values()) <= set(ACTIONS)

_FORCE_TERMINATED = "S535"


def _without_force_terminated(findings: list[Finding]) -> list[Finding]:
    """srun's `Force Terminated` says only that Slurm ended the step from outside: any other line,
    the step's cancel or an error in words triage does not know, says more."""
    if any(f.code != _FORCE_TERMINATED for f in findings):
        return [f for f in findings if f.code != _FORCE_TERMINATED]
    return findings


_ECHO_CLASSES = frozenset(
    {"exception", "nccl_error", "collective_timeout", "rendezvous", "signal", "exit_code"}
)


def _event_findings(scanner: Facts, final: str | None) -> list[Finding]:
    """A finding for each event, with what host memory's end says of the signals."""
    events = list(scanner.events)
    host_oom = final == "OUT_OF_MEMORY" or any(e.cls == "host_oom" for e in events)
    # ... said by something else than a data-loader worker's SIGKILL, which it only suggests
    oom_said = final == "OUT_OF_MEMORY" or any(
        e.cls == "host_oom" and e.kind != "dataloader-worker-killed" for e in events
    )
    findings: list[Finding] = []
    for e in events:
        f = _finding(scanner, e)
        if f is None:
            continue
        if f.kind == "dataloader-worker-killed" and f.cls == "host_oom" and not oom_said:
            # SIGKILL is the OOM killer's signal, most often, but a kill from outside sends it too:
            # the class is read from the signal's name, at medium confidence
            f.worded = True
            f.summary += " (SIGKILL: most often the OOM killer; nothing else in the log says so)"
        if f.signal == "SIGKILL" and host_oom and f.cls in ("signal", "exit_code"):
            f.cls = "host_oom"
            f.summary += " (host memory: the OOM killer)"
        findings.append(f)
    return findings


def judge(scanner: Facts, final: str | None) -> list[Finding]:

    compiled = scanner.compiled
    findings = _without_force_terminated(_event_findings(scanner, final))

    if final == "NODE_FAIL" and not any(f.cls == "node_fail" for f in findings):
        findings.append(_state_finding("node_fail", "Slurm lost a node of the job (NODE_FAIL)", -1))
    if final == "TIMEOUT" and not any(f.cls == "time_limit" for f in findings):
        at = scanner.signals[0].line if scanner.signals else float("inf")
        findings.append(_state_finding("time_limit", "the job reached its time limit (TIMEOUT)", at))
    if final == "PREEMPTED" and not any(f.cls == "preempted" for f in findings):
        findings.append(_state_finding("preempted", "the job was preempted (PREEMPTED)", float("inf")))
    checkpointed = any(code == REQUEUE_EXIT_CODE for _, code in scanner.step_ends) or bool(scanner.requeues)
    if scanner.signals and not any(
        f.cls in ("time_limit", "preempted", "cancelled") and f.role == "cause" for f in findings
    ):
        ev = scanner.signals[0]
        summary = (
            f"{_banner_signal(ev)} reached the job's batch shell (preemption, the time limit's warning, "
            "or jobc cancel --checkpoint)"
        )
        if checkpointed:
            summary += "; it checkpointed and asked to be requeued"
        findings.append(_state_finding("signal", summary, ev.line, [ev, *scanner.requeues[:1]]))
    for f in findings:
        if f.cls in ("time_limit", "preempted", "cancelled") and scanner.signals:
            f.order = min(f.order, scanner.signals[0].line)
            f.evidence = [*f.evidence[:1], scanner.signals[0], *f.evidence[1:]][:EVIDENCE_CAP]
        if f.cls == "time_limit" and scanner.compiled:
            f.summary += _time_limit_ending(
                checkpointed, bool(scanner.signals), any(x.cls == "signal" for x in findings)
            )

    # slurmstepd's OOM count names no node; srun's report of the same kill does
    nodes = [f.node for f in findings if f.cls == "host_oom" and f.node]
    for f in findings:
        if f.cls == "host_oom" and f.node is None and nodes:
            f.node = nodes[0]
            f.summary = f.summary.replace(": a process", f": on {nodes[0]}", 1)
    _signals_at_end(scanner.signals_seen, findings)
    solo = len(scanner.labelled) <= 1 and len(scanner.nodes_seen) <= 1
    _causes(findings, scanner.progress, solo=solo, xtrace=scanner.xtrace)
    _requeue(scanner, findings)
    findings = _merge(findings)
    _place_unlabelled(findings)
    _jobs_ended_together(findings)
    causes = sorted((f for f in findings if f.cause), key=lambda f: (-f.strength, f.order))
    if causes:
        identity.borrow_node(causes[0], findings, solo=solo and not scanner.labelled)
        identity.borrow_abort_rank(causes[0], findings)

    if not any(f.cause for f in findings):
        # a signal the job received (Lightning's `Received SIGTERM`, torchrun's agent) and nothing else
        received = [f for f in findings if f.code in ("L203", "L205")]
        if received:
            received[0].cause, received[0].role = True, "cause"
    if not any(f.cause for f in findings):
        retry = [f for f in findings if f.cls == "rendezvous"]
        if retry:
            retry[0].cause, retry[0].role = True, "cause"
            retry[0].summary = "rendezvous never completed: " + retry[0].summary
        else:
            only = _nccl_failed_call(scanner, findings) or _only_symptoms(scanner, findings)
            if only is not None:
                findings.insert(0, only)
        bad = [(ev, code) for ev, code in scanner.step_ends if code != 0]
        if not any(f.cause for f in findings) and bad:
            ev, code = bad[-1]
            findings.append(
                _state_finding(
                    "exit_code", f"the step ended with exit code {code}: {_exit_text(code)}", ev.line, [ev]
                )
            )
    from jobc.tables.secrets import mask  # as JC702 masks them: one table of secret shapes

    for f in findings:
        _advise(f, compiled)
        f.summary = mask(f.summary)
        f.evidence = [Evidence(e.file, e.line, mask(e.text)) for e in f.evidence]
    findings.sort(
        key=lambda f: (
            0 if f.cause else (1 if f.kind == "only-symptoms" else 2 if f.cls != "unknown" else 3),
            -f.strength if f.cause else 0,
            f.order,
        )
    )
    grade(findings)
    return findings


#: Lines this close to slurmstepd's end of a job or step: the end reaching the program
_AT_END = 1


def _signals_at_end(seen: Sequence[Evidence], findings: list[Finding]) -> None:
    """A signal a program says reached it, on the lines beside slurmstepd's word that the job or
    a step ended (cancelled, its time limit, preempted), is that end as the program saw it: it is
    shown with the end, next to its statement."""
    if not seen:
        return
    for f in findings:
        if f.cls not in ("cancelled", "time_limit", "preempted") or not f.evidence:
            continue
        end = f.evidence[0]
        near = [ev for ev in seen if ev.file == end.file and 0 < abs(ev.line - end.line) <= _AT_END]
        fresh = [ev for ev in sorted(near, key=lambda ev: ev.line) if ev not in f.evidence]
        f.evidence = [*f.evidence[:1], *fresh, *f.evidence[1:]][:EVIDENCE_CAP]


def _banner_signal(ev: Evidence) -> str:
    from jobc.jobs import labels
    from jobc.tables import contract

    m = contract.SIGNAL_FORWARDED.pattern.match(labels.parse(ev.text).text)
    return f"SIG{m.group(1)}" if m else "a signal"


def _finding(scanner: Facts, e: Event) -> Finding | None:
    fx = e.fields
    if e.sig is not None and e.sig.code == BARRIER:
        return _barrier(scanner, e)
    who = identity.place(scanner, e)
    rank, local, task, count, node = who.rank, who.local, who.task, who.count, who.node
    tasks_text = fx.get("tasks")
    if tasks_text and fx.get("node") and task is not None:
        scanner.task_node.setdefault(task, fx["node"])
    code = _int_field(fx.get("exit_code"))
    sig = fx.get("signal")
    if sig in SIGNAL_WORDS:
        sig = SIGNAL_WORDS[sig]
    if sig is None and fx.get("signum") is not None:
        sig = signal_of(-(_int_field(fx.get("signum")) or 0) or None)
    if sig is None:
        sig = signal_of(code)
    cls, role = e.cls, e.role
    if cls == "exit_code" and sig is not None:
        cls = "signal"
    if e.kind == "dataloader-worker-killed" and sig is None:
        # `exited unexpectedly`: the worker is gone and how it ended is not said (a kill, a crash,
        # its own exit): the main process's exception, not a guess at host memory
        cls = "exception"
    if cls == "host_oom" and sig is not None and sig != "SIGKILL":
        # a data-loader worker ended by another signal than the OOM killer's: the teardown's
        # SIGTERM, or a crash (SIGBUS when /dev/shm is full, SIGSEGV): no host memory ran out
        cls = "signal"
    if e.sig is not None and e.sig.report and sig == "SIGTERM":
        role = "symptom"
    if code in (REQUEUE_EXIT_CODE, WATCHDOG_EXIT_CODE) and cls == "exit_code":
        role = "context"
    if code == 0 and cls == "exit_code":
        return None
    if (
        cls == "exit_code"
        and e.sig is not None
        and (
            (code in (1, 2) and e.sig.code in _PYTHON_WORKER_ENDS)
            or (code == 1 and e.sig.code in _MPI_RANK_ENDS and scanner.tracebacks > 0)
            or (code is None and e.sig.code in _PYTHON_ABORTS)
        )
    ):
        # torchrun's worker is a Python process, which exits with 1 on an exception it did not
        # catch (or by sys.exit(1)), and with 2 on a command line its argparse refuses: its class is
        # read from that code, at medium confidence; Paddle's launcher names an aborted trainer
        # without its code, whose reason is in its workerlog
        cls = "exception"
    summary = _summary(
        scanner, e, cls=cls, rank=rank, local=local, task=task, count=count, node=node, code=code, sig=sig
    )
    f = Finding(
        kind=e.kind,
        summary=summary,
        cause=role == "cause",
        rank=rank,
        node=node,
        order=e.ev.line + e.order[1] * 1e-9,
        evidence=evidence_of(e),
        cls=cls,
        role=role,
        code=e.sig.code if e.sig else "",
        strength=e.strength,
        local_rank=local,
        task=task,
        ranks=[rank] if rank is not None else [],
        exit_code=code,
        signal=sig,
        endpoint=fx.get("endpoint"),
        frame=fx.get("frame"),
        user_frame=fx.get("user_frame"),
    )
    f.ignored = bool(fx.get("ignored"))
    if f.ignored:
        f.summary = "printed and ignored, the process went on (`Exception ignored in`): " + f.summary
    # a line whose words name a process's end (an exit code, a signal) reports it, as srun does
    f.worded = (e.sig is None and e.cls != "unknown") or "worded" in fx
    f.report = bool(e.sig and e.sig.report) or (e.sig is None and e.cls in ("exit_code", "signal"))
    f.inferred = who.inferred
    at = fx.get("time") or fx.get("at")
    f.at = at if isinstance(at, str) and at[:4].isdigit() else None
    job = fx.get("job")
    f.job = job if isinstance(job, str) and job[:1].isdigit() else None
    return f


#: rank 0's monitored barrier names the ranks that missed it: the finding is theirs
BARRIER = "N411"


def _barrier(scanner: Facts, e: Event) -> Finding:
    """`[Rank 0]: Ranks 1, 2 failed to pass monitoredBarrier in 2000 ms`, printed by rank 0 about
    the others: the first rank named is the finding's, on its own node when the log places it."""
    culprits = sorted(
        {r for part in str(e.fields["culprits"]).split(", ") if (r := parse_int(part)) is not None}
    )
    rank = culprits[0] if culprits else None
    node = _node_of(scanner, rank, None)
    who = _who(rank, None, None, 1, node)
    more = f" (and rank(s) {_list(culprits[1:])})" if len(culprits) > 1 else ""
    summary = (
        f"{who}{more} did not reach the monitored barrier in {e.fields.get('ms', '?')} ms (rank 0 "
        "waited for it): it stopped, hung or ended before the barrier"
    )
    return Finding(
        kind=e.kind,
        summary=summary,
        cause=True,
        rank=rank,
        node=node,
        order=e.ev.line + e.order[1] * 1e-9,
        evidence=evidence_of(e),
        cls="collective_timeout",
        role="cause",
        code=BARRIER,
        ranks=culprits,
    )


def _int_field(value: Any) -> int | None:
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        return parse_int(value)
    return None


_node_of = identity.node_of


def _where(node: str | None) -> str:
    """Where a job's end was said: the scheduler's words (slurmstepd's, PBS's, LSF's) name a node or none."""
    return f"on {node}" if node else "no node named"


def _summary(
    scanner: Facts,
    e: Event,
    *,
    cls: str,
    rank: int | None,
    local: int | None,
    task: int | None,
    count: int,
    node: str | None,
    code: int | None,
    sig: str | None,
) -> str:
    fx = e.fields
    who = _who(rank, local, task, count, node)
    if fx.get("type"):
        text = f"{fx['type']}: {fx.get('message', '')}".strip().rstrip(":")
        where = f" in {fx['frame']}" if fx.get("frame") else ""
        mine = (
            f" (the program's own frame: {fx['user_frame']})"
            if fx.get("user_frame") and fx.get("user_frame") != fx.get("frame")
            else ""
        )
        then = f"; then {fx['then']}" if fx.get("then") else ""
        extra = ""
        if cls == "cuda_oom" and rank is not None and rank in scanner.coords:
            c = scanner.coords[rank]
            extra = " (" + ", ".join(f"{k} {c[k]}" for k in ("tp", "pp", "cp", "dp", "ep") if k in c) + ")"
        return f"{who}{extra} raised {text[:300]}{where}{mine}{then}"
    if e.kind == "torchrun-agent-signal" and sig is not None:
        hup = " (the terminal or session that started it went away: run it under sbatch, nohup or tmux)"
        return f"torchrun's agent{' on ' + node if node else ''} received {sig} and ended its workers" + (
            hup if sig == "SIGHUP" else ""
        )
    if e.kind == "torchrun-root-cause":
        # (a table cut before its `Root Cause` section: a failure it lists, maybe not the first)
        said = (
            "torchrun's table (cut before its root cause) lists a failure"
            if fx.get("listed")
            else "torchrun's first observed failure"
        )
        if code is not None:
            return f"{said}: {who} exited with {code} ({_exit_text(code)})"
        if sig is not None:
            return f"{said}: {who} ended by {sig}"
        # the table was cut off before its exitcode line (or never printed)
        return f"{said}: {who} failed; its exit code is not in the log"
    if cls == "time_limit":
        return f"the job reached its time limit ({_where(node)})"
    if cls == "preempted":
        return f"the job was preempted ({_where(node)})"
    if cls == "cancelled":
        return f"the job or step was cancelled ({_where(node)})"
    if cls == "node_fail":
        if e.kind == "prolog-failure":
            return (
                f"the prolog failed on node {node or 'not named'}: Slurm drains the node and revokes "
                "or requeues the job"
            )
        if node is None and fx.get("reporter"):
            # slurmstepd's own node survived: which node was lost, the log does not say
            return (
                f"a node failed: not named (slurmstepd on {fx['reporter']}, which reported it, survived; "
                f"sacct -j {fx.get('job') or 'JOB'} -o NodeList,State or slurmctld's log names the lost node)"
            )
        return f"a node failed: {node or 'not named'}"
    if cls == "slurm_refused":
        return _refused(e, node)
    named = _kind_summary(e, who, node)
    if named is not None:
        return named
    if e.sig is not None and e.sig.report:
        if rank is None and task is None and fx.get("job") and e.sig.code in _CONTROLLER:
            who = f"job {fx['job']}'s batch script" + (f" on {node}" if node else "")
        if sig is not None:
            return f"{who} ended by {sig}" + (f" (exit code {code})" if code is not None else "")
        return f"{who} exited with {code}: {_exit_text(code)}" if code is not None else f"{who} ended"
    what = fx.get("what") or fx.get("command") or fx.get("module") or ""
    if not what and sig is not None:
        what = f"{sig}" if e.sig is None or e.sig.code != "L205" else f"received {sig}"
    if cls == "collective_timeout" and fx.get("op"):
        what = f"collective {fx['op']} (SeqNum {fx.get('seq', '?')}) timed out"
    if fx.get("endpoint"):
        what += f" (endpoint {fx['endpoint']})"
        if cls == "rendezvous" and scanner.master and scanner.master != fx["endpoint"]:
            what += f"; the job's master is {scanner.master}"
    if cls == "missing_program" and fx.get("command"):
        # (execve's own reason when it gave one: a file that is there but not executable)
        what = f"{fx['command']}: {str(fx.get('why') or 'not found').lower()}"
    if cls == "gpu_error" and fx.get("xid"):
        what = f"GPU Xid {fx['xid']}"
    if fx.get("abort"):
        what = f"C++ abort: {what}"
    desc = CLASSES.get(cls, UNKNOWN_MEANING)
    return f"{desc}: {who}: {str(what)[:300]}" if what else f"{desc}: {who}"


def _launch_summary(e: Event, whose: str) -> str | None:
    """The words of a launcher that could not start the job's processes (mpirun, ssh)."""
    fx = e.fields
    what = str(fx.get("what", ""))[:300]
    if e.kind == "mpirun-layout-refused":
        return f"mpirun refused to start the job{whose}: {what} …; no rank ran"
    if e.kind == "launcher-ssh-failed":
        target = fx.get("target") or fx.get("target2") or "a node"
        return f"ssh could not reach {target}{whose}: {what}; nothing started there"
    if e.kind == "orte-daemons-not-started":
        return f"mpirun could not start its daemons on the other nodes{whose}; no rank ran"
    return None


def _kind_summary(e: Event, who: str, node: str | None) -> str | None:
    """The words of a failure whose signature says more than its class: a signal submitit let
    pass, a Ray worker's death, a container that never started, an R error, a command line a
    program refused."""
    fx = e.fields
    if e.kind == "submitit-signal-bypassed":
        return (
            f"submitit's handler let {fx.get('signal', 'a signal')} pass{' on ' + node if node else ''}: "
            "a signal reached the job (Slurm sends SIGCONT and SIGTERM at a cancel, SIGTERM at a time "
            "limit or a preemption), and the program went on"
        )
    if e.kind == "ray-worker-died":
        where = f" on {node}" if node else ""
        return f"a Ray worker process died{where}; how it ended is not in the log ({fx.get('what', '')})"
    whose = f" ({who})" if who != "a process" else ""
    launch = _launch_summary(e, whose)
    if launch is not None:
        return launch
    if e.kind == "container-start-failed":
        what = str(fx.get("what", ""))[:300]
        return f"the container could not be started{whose}: {what}; the program never ran"
    if e.kind == "r-error":
        said = f": {fx['message']}" if fx.get("message") else " (its message is on the next line)"
        return f"{who}: R stopped with an error in {str(fx.get('call', ''))[:200]}{said}"
    if e.kind == "dataloader-worker-killed" and not fx.get("signal"):
        return (
            f"DataLoader worker (pid(s) {str(fx.get('pid', '?')).strip()}) exited unexpectedly{whose}; "
            "how it ended is not in the log (a bus error above it is /dev/shm running out; a kill, "
            "host memory)"
        )
    if e.kind == "dataloader-worker-crashed":
        said = str(fx.get("signal", ""))
        return f"a data-loader worker{whose} died of {SIGNAL_WORDS.get(said, 'a signal')} ({said})"
    if e.kind == "gpu-container-setup-failed":
        what = str(fx.get("what", ""))[:300]
        return f"the container toolkit could not give the container the node's GPUs{whose}: {what}"
    if e.kind == "xla-device-exception":
        head, _, root = str(fx.get("message", "")).partition(" (0) ")
        said = f"{head[:150]}{' …' if len(head) > 150 else ''}" + (
            f"; its first error: {root[:300]}" if root else ""
        )
        return f"the process of device {fx.get('device', '?')}{whose} raised {said}"
    if e.kind == "msrun-worker-exception":
        return (
            "msrun: a worker ended on an exception, which is in that worker's own log (worker_N.log), "
            "not this one; msrun then killed the other workers"
        )
    if e.kind == "argparse-refused":
        what = str(fx.get("what", ""))[:300]
        return (
            f"{fx.get('command', 'a program')} refused its command line{whose}: {what}; it exits "
            "with 2 and runs nothing"
        )
    return None


def _refused(e: Event, node: str | None) -> str:
    """What Slurm refused, by the tool that asked: a step, a launch, a submission, an allocation."""
    fx = e.fields
    what = str(fx.get("what", "")).strip()[:300]
    if e.kind == "srun-step-refused":
        return f"srun could not start a step in job {fx.get('job', '?')}: {what}"
    if e.kind in ("srun-launch-credential", "srun-launch-layout"):
        return f"node {node or '?'} refused to launch step {fx.get('job', '?')}'s tasks: {what}"
    if e.kind == "srun-launch-incomplete":
        started = f" (started {fx['started']} of {fx['of']} tasks)" if "of" in fx else ""
        step = f"step {fx['job']}'s" if "job" in fx else "the step's"
        reason = f": {what}" if what else ""
        # (tasks that did start ran the program until srun ended them)
        never = "; the program never ran" if str(fx.get("started", "0")) == "0" else ""
        return f"srun could not launch {step} tasks{started}{reason}{never}"
    if "tool" not in fx and e.sig is None:
        return f"Slurm refused the request: {what}"  # (its words named the class: no tool read)
    tool = fx.get("tool", "srun")
    if e.kind == "slurm-controller-unreachable":
        if str(what).startswith("unable to status file"):
            return f"{tool} could not read Slurm's configuration: {what}"
        return f"{tool} could not reach the Slurm controller: {what}"
    if fx.get("expired"):
        # srun ran with the SLURM_JOB_ID of a job that had already ended (a stale environment, or a
        # step started after its job): the controller had no allocation left to give it
        return (
            f"{tool} found job {fx.get('ended', '?')} already ended: it was run with that job's SLURM_JOB_ID"
        )
    doing = "submit the job" if tool == "sbatch" else "get the job an allocation"
    said = str(fx.get("said", "")).strip()[:300]
    return f"{tool} could not {doing}: {what}" + (f" (it said before: {said})" if said else "")


#: slurmctld's reports of a job's end, which speak of its batch script
_CONTROLLER = frozenset({"S522", "S523"})


def _who(rank: int | None, local: int | None, task: int | None, count: int, node: str | None) -> str:
    parts = []
    if rank is not None:
        parts.append(f"rank {rank}")
    elif local is not None:
        parts.append(f"local rank {local}")
    if rank is None and task is not None:
        label = "tasks" if count > 1 else "task"
        more = f" (and {count - 1} more)" if count > 1 else ""
        parts.append(f"srun {label} {task}{more}")
    if node:
        parts.append(f"on {node}")
    if not parts or parts[0].startswith("on "):
        parts.insert(0, "a process")
    return " ".join(parts)


def _exit_text(code: int | None) -> str:
    return exit_class(code) if code is not None else "unknown"


def _state_finding(cls: str, summary: str, order: float, evidence: list[Evidence] | None = None) -> Finding:
    return Finding(
        kind=cls, summary=summary, cause=True, order=order, evidence=evidence or [], cls=cls, role="cause"
    )


def _causes(
    findings: list[Finding], progress: causality.Progress, *, solo: bool, xtrace: Sequence[int] = ()
) -> None:
    """The causal table's verdict: first causes stay causes, what they explain follows them."""
    verdicts = causality.explain(findings, progress, solo=solo, xtrace=xtrace)
    causes = causality.first_causes(findings, verdicts)
    strongest = causes[0].strength if causes else 0
    keep = {id(f) for f in causes if f.cls != "unknown" or f.strength >= strongest}
    for f in findings:
        v = verdicts[id(f)]
        if id(f) in keep:
            f.cause, f.role = True, "cause"
            continue
        if not f.cause:
            continue
        f.cause = False
        f.role = "context" if f.report or f.cls == "unknown" else "symptom"
        if v.survived:
            f.role = "context"
            f.summary = "the job went on after it: " + f.summary
        elif v.explained_by is not None and v.row is not None and v.row.then:
            f.summary = v.row.then.format(rank=v.explained_by.rank) + ": " + f.summary


def _symptom(f: Finding, summary: str | None = None) -> None:
    f.cause = False
    f.role = "symptom"
    if summary:
        f.summary = f"{summary}: {f.summary}"


# The exit code a process ends with after a first cause of each kind (Python's 1 otherwise): the
# errno slurmstepd exits the task with when execve fails (ENOENT, EACCES), CPython's 2 for a
# script it cannot open, the shell's 127 for a command it cannot find.
_EXIT_OF: dict[str, tuple[int, ...]] = {
    "execve-failed": (2, 13),
    "missing-script": (2,),
    # argparse exits 2 after its usage error
    "argparse-refused": (2,),
    "command-not-found": (127,),
    "command-not-found-localized": (127,),
    "shell-not-found": (127,),
    # the dynamic linker exits 127 when it cannot load a program or a symbol it needs
    "dynamic-linker-error": (127,),
    # Apptainer and Singularity exit 255 after FATAL; Docker and Podman 127
    "container-executable-not-found": (127, 255),
    "container-start-failed": (255,),
    # pyxis's failed container start fails the task's spank init: slurmstepd ends it with 1
    "enroot-exec-failed": (1,),
}
#: ... and of a class, when words named it and no signature did.
#: (a process the OOM killer ended exits by its SIGKILL, never with 1: the node's count is no rank's)
_EXIT_OF_CLASS: dict[str, tuple[int, ...]] = {"missing_program": (2, 13, 127), "host_oom": (137, -9)}


#: First causes whose srun tasks were a launcher's own processes, not ranks: mpirun's daemons
#: (orted), started by srun, one per node; which of them failed, the message does not say.
_LAUNCHER_TASKS = frozenset({"orte-daemon-failed-to-report"})

#: Reports that name the first process that failed, by its rank.
_FIRST_FAILED = frozenset({"torchrun-root-cause", "mpirun-first-nonzero-exit"})


def _place_unlabelled(findings: list[Finding]) -> None:
    """A first cause without labels, and one report that names who exited with its code: the same
    process.

    torchrun's table names the global rank and host of the first worker that failed; srun names the
    task and node of a task that exited with 1. When the log's first cause says nothing of who
    raised it and exactly one such report exists, the report says it."""
    # (the first cause as the causal stage ranks them, strongest first: an earlier weaker line, a
    # generic exception over the same error, is not the one a launcher's report is about)
    causes = sorted((f for f in findings if f.cause), key=lambda f: (-f.strength, f.order))
    if not causes or causes[0].report:
        return
    first = causes[0]
    if first.rank is not None or first.task is not None or first.local_rank is not None:
        return
    if first.kind in _LAUNCHER_TASKS:
        return
    codes = _EXIT_OF.get(first.kind) or _EXIT_OF_CLASS.get(first.cls, (1,))
    ones = [f for f in findings if f.report and f.exit_code in codes]
    # a launcher's word for the first process that failed: torchrun's table, Open MPI's `The first
    # process to do so was: Process name: [[J,S],RANK]`
    tables = [f for f in ones if f.kind in _FIRST_FAILED and f.rank is not None]
    sruns = [f for f in ones if f.kind == "srun-task-exit-code" and f.task is not None]
    if len({f.rank for f in tables}) == 1:
        source = tables[0]
    elif not tables and len({(f.task, f.node) for f in sruns}) == 1 and "(and " not in sruns[0].summary:
        source = sruns[0]
    elif (
        not tables
        and codes != (1,)
        and len({f.node for f in sruns}) == 1
        and sruns[0].node
        and not first.node
    ):
        # several tasks of one node exited with the code only this kind of failure gives (not
        # Python's 1, which any failure gives): the failure's node, and no rank
        first.node, first.inferred = sruns[0].node, True
        first.evidence = [*first.evidence, *sruns[0].evidence[:1]][: EVIDENCE_CAP + 1]
        return
    elif not tables and not sruns and len(workers := [f for f in ones if f.local_rank is not None]) == 1:
        source = workers[0]  # torchrun's or DeepSpeed's line: only the local rank
    else:
        return
    first.rank, first.local_rank, first.task = source.rank, source.local_rank, source.task
    said = f"a process on {first.node} " if first.node else "a process "  # (who it said before)
    first.node = first.node or source.node
    if first.summary.startswith(said):
        who = _who(first.rank, first.local_rank, first.task, 1, first.node)
        first.summary = f"{who} {first.summary.removeprefix(said)}"
    elif ": a process: " in first.summary:  # (a class's words, then who, then the line's)
        who = _who(first.rank, first.local_rank, first.task, 1, first.node)
        first.summary = first.summary.replace(": a process: ", f": {who}: ", 1)
    first.ranks = [source.rank] if source.rank is not None else first.ranks
    first.inferred = first.inferred or source.inferred
    first.evidence = [*first.evidence, *source.evidence[:1]][: EVIDENCE_CAP + 1]


def _jobs_ended_together(findings: list[Finding]) -> None:
    """Two jobs writing one file, ended by Slurm at the same second (`*** JOB 7 ON a CANCELLED AT
    T ***` and `*** JOB 9 ON b CANCELLED AT T ***`): the order of their lines is the order two
    slurmstepds wrote them, not the order of the events, so which job the log is about, and its
    node, is a choice the log does not make. The first cause keeps its class and says so."""
    causes = sorted((f for f in findings if f.cause), key=lambda f: (-f.strength, f.order))
    first = causes[0] if causes else None
    if first is None or first.job is None or first.at is None:
        return
    mine = first.job.split(".", 1)[0]
    others = [
        f
        for f in causes[1:]
        if f.job is not None and f.job.split(".", 1)[0] != mine and f.at == first.at and f.cls == first.cls
    ]
    if not others:
        return
    for f in (first, *others):
        f.inferred = True
    named = ", ".join(f"job {f.job}" + (f" on {f.node}" if f.node else "") for f in others[:3])
    first.summary += (
        f" (the log holds other jobs ended the same way at the same time, {named}: which one it is "
        "about, the log does not say)"
    )


def _requeue(scanner: Facts, findings: list[Finding]) -> None:
    if scanner.requeues or scanner.restart:
        findings.append(
            Finding(
                kind="requeue-chain",
                summary=f"requeued {len(scanner.requeues)} time(s) by the script; the log's last run is "
                f"restart {scanner.restart}",
                cause=False,
                order=scanner.requeues[0].line if scanner.requeues else float("inf"),
                evidence=scanner.requeues[:4],
                cls="preempted" if scanner.signals else "exit_code",
                role="context",
            )
        )
    if scanner.watchdog:
        findings.append(
            Finding(
                kind="runtime-watchdog",
                summary=f"the runtime's watchdog forced ranks out with code {WATCHDOG_EXIT_CODE}: they were "
                "still running after the grace period (the checkpoint may be partial)",
                cause=False,
                order=scanner.watchdog[0].line,
                evidence=scanner.watchdog[:4],
                cls="signal",
                role="symptom",
            )
        )


def _merge(findings: list[Finding]) -> list[Finding]:
    """One finding per failure: the same symptom on many ranks, the same exception on many."""
    out: list[Finding] = []
    index: dict[tuple[Any, ...], Finding] = {}
    for f in sorted(findings, key=lambda f: f.order):
        if f.role in {"symptom", "context"}:
            key: tuple[Any, ...] = (f.role, f.code or f.kind, f.cls)
        elif f.cls in ("rendezvous", "port_in_use", "host_oom"):
            key = ("cause", f.cls)
        elif f.kind in ("exception-line",) or f.code.startswith("P") or f.cls in ("import_error",):
            key = ("cause", f.cls, f.summary.split(" raised ", 1)[-1][:120])
        else:
            key = ("cause", id(f))
        known = index.get(key)
        if known is None:
            index[key] = f
            out.append(f)
            continue
        for r in f.ranks:
            if r not in known.ranks and len(known.ranks) < 4096:
                known.ranks.append(r)
        if known.role == "cause" and known.node in (None, f.node) and known.rank in (None, f.rank):
            # the same failure seen again with its prefix (srun's report of the kill slurmstepd
            # counted): who and where come from it, as an inference
            known.inferred = known.inferred or (known.node, known.rank) != (f.node, f.rank)
            known.node = known.node or f.node
            known.rank = known.rank if known.rank is not None else f.rank
        for ev in f.evidence:
            if len(known.evidence) < EVIDENCE_CAP and ev not in known.evidence:
                known.evidence.append(ev)
    for f in out:
        if f.role != "cause" and len(f.ranks) > 1:
            f.summary += f" (ranks {_list(sorted(f.ranks))})"
    return out


_COLLECTIVE = re.compile(r"collective ([A-Za-z_]{1,40}) \(SeqNum ([0-9]{1,18})\)")


#: A rank a timed-out peer names as the one it waited on: Gloo's monitored barrier on a rank other
#: than 0 (`… waiting for send/recv from rank 0. Please check rank 0 logs for faulty rank.`).
_FAULTY_RANK = re.compile(
    r"check rank ([0-9]{1,9}) logs for faulty rank|waiting for send/recv from rank ([0-9]{1,9})|"
    # the coordination service's lost task (N421): its index is the process's, the rank
    r"/task:([0-9]{1,9}) heartbeat timeout|\(stopped sending heartbeats\):\s{0,4}/job:[A-Za-z0-9_]{1,40}/"
    r"replica:[0-9]{1,6}/task:([0-9]{1,9})"
)


#: launchers' reports of a worker's end: torchrun's (its `failed (exitcode: N) local_rank: …` line,
#: its table's root cause), DeepSpeed's (`[…] exits with return code = N`) and Composer's (`Rank N
#: crashed with exit code N`): each worker runs the Python program
_PYTHON_WORKER_ENDS = frozenset({"L201", "L202", "L204", "L242"})
#: mpirun's report of the first rank that exited (Open MPI's `Process name: [[j,1],r]`): any program,
#: a Python one where the log shows Python's tracebacks (Horovod's ranks), whose exit with 1 is its
#: uncaught exception
_MPI_RANK_ENDS = frozenset({"L213"})
#: a launcher's word that a Python trainer it started aborted, with no exit code (Paddle's)
_PYTHON_ABORTS = frozenset({"L235"})
#: torch's words for an NCCL communicator's end that do not say whether a call failed or timed out
_FAILED_OR_TIMED_OUT = ("Some NCCL operations have failed or timed out", "NCCL communicator was aborted")


def _nccl_failed_call(scanner: Facts, findings: list[Finding]) -> Finding | None:
    """torch's "failed or timed out" where NCCL itself traced a call's failed return on one node
    (`NCCL INFO misc/socket.cc:829 -> 3`) and nothing says a collective timed out: the call failed.
    Medium confidence: the trace says that NCCL failed there, not why."""
    timeouts = [f for f in findings if f.cls == "collective_timeout"]
    first = scanner.nccl_failed_first
    if first is None or len(scanner.nccl_failed_on) != 1 or not timeouts:
        return None
    if not all(f.code == "N402" and any(w in f.summary for w in _FAILED_OR_TIMED_OUT) for f in timeouts):
        return None
    node = next(iter(scanner.nccl_failed_on))
    ranks = sorted({r for f in timeouts for r in f.ranks} | {f.rank for f in timeouts if f.rank is not None})
    return Finding(
        kind="nccl-failed-call",
        summary=(
            f"NCCL traced a failed call's return on {node} ({_nccl_result(first.text)}), and "
            f"{'rank(s) ' + _list(ranks) if ranks else 'a rank'} then took the communicator down: "
            "the call failed, nothing says it timed out"
        ),
        cause=True,
        node=node,
        order=first.line,
        evidence=[first, *timeouts[0].evidence[:1]],
        cls="nccl_error",
        role="cause",
        strength=2,
        action="fix_environment",
    )


#: NCCL's ncclResult_t values, as its traces return them (`… -> 3`)
_NCCL_RESULTS = {
    "1": "unhandled CUDA error",
    "2": "system error",
    "3": "internal error",
    "4": "invalid argument",
    "5": "invalid usage",
    "6": "remote error",
}


def _nccl_result(text: str) -> str:
    code = text.rstrip().rpartition("-> ")[2]
    return f"{code}: {_NCCL_RESULTS[code]}" if code in _NCCL_RESULTS else f"code {code[:4]}"


def _only_symptoms(scanner: Facts, findings: list[Finding]) -> Finding | None:
    """A log that holds only symptoms: say so, and name the ranks that did not time out."""
    timeouts = [f for f in findings if f.cls == "collective_timeout"]
    if not timeouts:
        return None
    waited = sorted({r for f in timeouts for r in f.ranks})
    op = ""
    for f in timeouts:
        m = _COLLECTIVE.search(f.summary)
        if m is not None:
            op = f" in {m.group(1)} (SeqNum {m.group(2)})"
            break
    suspects = ""
    if scanner.world and waited and scanner.world <= 65536:
        missing = [r for r in range(scanner.world) if r not in waited]
        suspects = f"; suspects: rank(s) {_list(missing)}, which did not time out" if missing else ""
    elif waited:
        suspects = "; suspects: the ranks not listed, which did not time out"
    who = f"rank(s) {_list(waited)} waited" if waited else "ranks waited"
    faulty = {
        int(next(g for g in m.groups() if g))
        for f in timeouts
        for e in f.evidence
        for m in _FAULTY_RANK.finditer(e.text[:2000])
    }
    blamed = faulty.pop() if len(faulty) == 1 else None
    if blamed is not None:
        suspects = f"; the waiting ranks name rank {blamed} as the faulty one (its own failure is not shown)"
    return Finding(
        kind="only-symptoms",
        summary=f"the first cause is not in the log: {who}{op} for a rank that never joined{suspects}",
        cause=False,
        order=timeouts[0].order,
        evidence=timeouts[0].evidence[:2],
        cls="collective_timeout",
        role="symptom",
        rank=blamed,
        ranks=waited,
    )


def _time_limit_ending(checkpointed: bool, trapped: bool, tasks_signalled: bool) -> str:
    """What jobc's own script says about the signal and the checkpoint at a time limit."""
    if checkpointed:
        return "; the signal arrived, it checkpointed and was requeued"
    if trapped:
        return "; the signal arrived but no checkpoint followed (no requeue code)"
    if tasks_signalled:
        # the tasks' own report of the signal, with no word from the batch shell's trap
        return (
            "; the time limit's signal ended the tasks before the batch shell's trap ran, "
            "so no checkpoint followed"
        )
    return "; no signal reached the batch shell before the end"


#: Slurm's error strings for a controller too busy to answer: the request itself may be fine
#: A file torch's shared-memory tensors live in (`</torch_4242_1234567>`, named in /dev/shm), or
#: /dev/shm itself: a full disk there is the node's shared memory, which a job's --mem bounds
_SHM_FILE = re.compile(r"</torch_[0-9]|/dev/shm\b")
#: NCCL's results that fault the call, not the network (ncclInvalidUsage, ncclInvalidArgument)
_NCCL_MISUSE = re.compile(
    r"invalid usage|invalid argument|InvalidUsage|InvalidArgument|INVALID_(?:USAGE|ARGUMENT)"
)

#: a bind to an address's port 0 (`bind on local address (10.4.1.3:0) failed`): any free port
_EPHEMERAL = re.compile(r"\(\[?[0-9A-Fa-f.:]{2,45}\]?:0\)")

_SLURM_BUSY = (
    "Socket timed out on send/recv operation",
    "Unable to contact slurm controller",
    "Zero Bytes were transmitted or received",
    "Resource temporarily unavailable",
)


#: A GPU error's action follows its words: the node's hardware (ECC, an Xid the driver logs for
#: a failing GPU, a GPU fallen off the bus) is excluded; an illegal access or a device-side
#: assertion is usually the program's (or a library kernel's) and fails again on any node; a GPU
#: the job did not get, or a CUDA build the node's driver cannot run, is the script's.
GPU_ACTIONS: tuple[tuple[re.Pattern[str], str, str], ...] = (
    (
        re.compile(
            r"no kernel image is available|NoBinaryForGpu|[Cc]ouldn't find binary for current devices|"
            r"invalid kernel file|invalid device function"
        ),
        "fix_spec_or_script",
        "the program's CUDA or ROCm build has no code for this GPU's architecture: install a build "
        "that has it (a torch wheel for the GPU's compute capability or gfx target; an extension "
        "built with TORCH_CUDA_ARCH_LIST or PYTORCH_ROCM_ARCH naming it), or ask for the GPU type it "
        "was built for (--gres=gpu:TYPE, --constraint)",
    ),
    (
        re.compile(r"[Dd]river/library version mismatch"),
        "exclude_node",
        "the node's NVIDIA kernel module and its driver libraries are at different versions (a driver "
        "upgraded without a reboot): resubmit without the node (sbatch --exclude={node}) and report "
        "it to the admins",
    ),
    (
        re.compile(
            r"device-side assert|_assert_async|: block: \[|illegal memory access|illegal address|"
            r"illegal instruction|misaligned address|unspecified launch failure|launch timed out|"
            r"Xid (?:13|31|43)\b"
        ),
        "fix_program",
        "an illegal access or a kernel's assertion is usually the program's (an index out of range, a "
        "wrong shape, a library kernel's bug): rerun with CUDA_LAUNCH_BLOCKING=1 to find the call; "
        "exclude the node only if the error follows it",
    ),
    (
        re.compile(
            r"no CUDA-capable device|invalid device ordinal|driver version is insufficient|"
            r"PTX JIT compilation|unsatisfied condition: cuda"
        ),
        "fix_spec_or_script",
        "ask for the GPUs the program uses (#SBATCH --gpus-per-node) and run a CUDA build the node's "
        "driver supports",
    ),
)


#: Advice of its own for a signature whose class's advice would mislead: code -> (action, advice)
CODE_ADVICE: dict[str, tuple[str, str]] = {
    "S536": (
        "investigate",
        (
            "the controller's prolog failed before the job ran: on a cloud cluster the nodes could "
            "not be created (check the quota and placement of the node type); elsewhere ask the "
            "admins what the site's PrologSlurmctld refused; resubmit once that is fixed"
        ),
    ),
    "N428": (
        "fix_spec_or_script",
        (
            "two ranks were on one GPU: give each rank of a node its own device "
            "(torch.cuda.set_device(LOCAL_RANK) before the process group starts, or one GPU per task: "
            "srun --gpus-per-task=1 or CUDA_VISIBLE_DEVICES per rank), with as many ranks per node as GPUs"
        ),
    ),
    "N427": (
        "fix_program",
        (
            "a process connected to the coordination service again as a new process: it restarted "
            "(its own log says why), or a process it forked or spawned (a data loader's worker) "
            "called jax.distributed.initialize again; initialise once, in the main process"
        ),
    ),
    "N419": (
        # the store was reached: what failed to meet was rank 0, at the group's first collective
        "fix_program",
        (
            "rank 0 never reached the group's first collective within the store's timeout: look at "
            "what rank 0 did before it (a hang, work only rank 0 does, a crash whose output is "
            "elsewhere), or at ranks creating their process groups in different orders"
        ),
    ),
    "S532": (
        "fix_spec_or_script",
        (
            "run Slurm's commands where Slurm's client is set up (a login node); check that the "
            "controller is up and reachable (scontrol ping), and for configless Slurm that the "
            "host resolves the controller's DNS SRV record (_slurmctld._tcp)"
        ),
    ),
    "S534": (
        "fix_spec_or_script",
        (
            "Slurm could not start the step's tasks: check that the --mpi plugin (pmix, pmi2) is the "
            "one the program's MPI was built for and that the nodes' slurmd logs show no launch error; "
            "if one node keeps failing, exclude it"
        ),
    ),
    "N426": (
        "fix_spec_or_script",
        "the store could not listen on its port: a port under 1024 needs privileges (errno 13), an "
        "address must be this node's own (errno 99); use a free port from 1024 to 65535 (derive it "
        "from SLURM_JOB_ID) on the node that runs rank 0",
    ),
    "B607": (
        "raise_limit",
        "Grid Engine killed the job for a limit: compare qacct's ru_wallclock with the h_rt asked "
        "(qsub -l h_rt=…) and its maxvmem with h_vmem, and raise the one it reached",
    ),
    "B608": (
        "raise_limit",
        "the node ran short of memory and the pod was evicted: give the container a memory request "
        "in the pod's spec equal to what it uses, or use less host memory per rank",
    ),
    "L244": (
        "fix_spec_or_script",
        (
            "ask mpirun for as many processes as the allocation has slots, and per node no more than "
            "a node's slots or cores (-n, -npernode, --map-by ppr:N:node, the hostfile's slots=), or "
            "ask the batch system for more"
        ),
    ),
    "L245": (
        "fix_spec_or_script",
        (
            "the launcher could not reach a node over ssh: write the hostfile's or --host's names as "
            "the nodes resolve them (`host:N` is Open MPI's slot count, not a port, in a hostfile "
            "`host slots=N`), and check that ssh to each node works without a password; under Slurm, "
            "let srun start the processes"
        ),
    ),
    "L246": (
        "fix_spec_or_script",
        (
            "mpirun could not start its daemons on the other nodes: check that Open MPI is installed "
            "at the same path there (or use --prefix), that the nodes accept ssh or the batch "
            "system's launch, and that they can connect back to mpirun's node"
        ),
    ),
    "L243": (
        "fix_spec_or_script",
        "check the image path and every bind path on the node, and that the node lets the container "
        "runtime mount images (loop devices, user namespaces); if only one node fails, exclude it "
        "and tell the admins",
    ),
    "N429": (
        "investigate",
        "Open MPI's TCP transport failed between two ranks: `Bad address` means the buffer given to "
        "the MPI call was not valid memory (check counts and buffers, or a GPU buffer without a "
        "CUDA-aware MPI); `Connection reset by peer` usually means the other rank died first (look "
        "for its error); otherwise restrict Open MPI to one working interface (--mca "
        "btl_tcp_if_include)",
    ),
    "L250": (
        "fix_program",
        "a process called MPI outside MPI_Init … MPI_Finalize: fix the order of the calls, or check "
        "that the MPI the program's libraries were built against (mpi4py's, a plugin's) is the one "
        "that runs it (`ldd`, `mpi4py.get_config()`)",
    ),
    "L249": (
        "raise_limit",
        "mpirun's own execution limit ended the job, not the scheduler's: raise or remove mpirun's "
        "--timeout (or MPIEXEC_TIMEOUT in the environment); if the job should have finished by then, "
        "look for the rank that hung",
    ),
    "L247": (
        "fix_spec_or_script",
        "the container runtime could not prepare the image for the GPUs: check the runtime's "
        "configuration (enroot's data and runtime paths, on a file system that allows sockets and "
        "devices) and the image; the node's GPUs are not what failed",
    ),
    "P109": (
        "fix_spec_or_script",
        "fix the command line the job gives the program (the script's or the launcher's arguments): "
        "the program's usage line above the error lists what it takes",
    ),
    "B609": (
        "free_space",
        "the node's local disk ran short and the pod was evicted: write checkpoints and data to a "
        "mounted volume, not the container's own disk, or give it an ephemeral-storage request",
    ),
}


def _shared_memory(f: Finding) -> bool:
    """Advice for /dev/shm that ran out, in each framework's words: a bus error there, a full
    /dev/shm, Paddle's reader that cannot map it again."""
    if f.signal == "SIGBUS" and any("shared memory" in e.text for e in f.evidence[:2]):
        advice = "shared memory (/dev/shm) ran out: give the job more (a container's --shm-size, the "
        advice += "job's memory) or use fewer data-loader workers"
    elif f.cls == "disk_full" and any(_SHM_FILE.search(e.text) for e in f.evidence[:2]):
        advice = "shared memory (/dev/shm) is full: torch's data-loader workers hand batches over through "
        advice += "it; give the job more (a container's --shm-size, the job's memory) or use fewer workers"
    elif f.kind == "paddle-reader-failed" and any("rebuild shared memory" in e.text for e in f.evidence[:1]):
        advice = "shared memory (/dev/shm) ran out: Paddle's data-loader workers hand batches over through "
        advice += "it; give the job more (a container's --shm-size, the job's memory) or use fewer workers"
    else:
        return False
    f.action, f.advice = "raise_limit", advice
    return True


def _advise(f: Finding, compiled: bool) -> None:
    action = DEFAULT_ACTION[f.cls]
    if f.cls in ("gpu_error", "nccl_error"):
        said = " ".join([f.summary, *(e.text for e in f.evidence[:2])])
        # (NCCL's or RCCL's failed CUDA call reads the same words: `Cuda failure 'invalid kernel
        # file'` is a build without this GPU's code, not the network)
        for words, act, advice in GPU_ACTIONS if f.cls == "gpu_error" else GPU_ACTIONS[:1]:
            if words.search(said):
                f.action, f.advice = act, advice.replace("{node}", f.node or "NODE")
                return
    if f.cls == "signal":
        action = (
            "fix_program" if f.signal in ("SIGSEGV", "SIGABRT", "SIGBUS", "SIGFPE", "SIGILL") else "resubmit"
        )
    if _shared_memory(f):
        return
    if f.kind == "dataloader-worker-killed" and f.cls == "exception":
        f.action = "investigate"
        f.advice = (
            "how the worker ended is not in this log: look at its own output above it (a bus error is "
            "/dev/shm running out), at the node's kernel log for an OOM kill, or rerun with "
            "num_workers=0 to see the error in the main process"
        )
        return
    if f.cls == "exception" and f.code in _PYTHON_WORKER_ENDS | {"L251"}:
        f.action = "fix_program"
        f.advice = (
            "the worker's own traceback says why: look above for its output, in the launcher's log "
            "directory (msrun's worker_N.log), or have torchrun keep it (torch.distributed.elastic's "
            "@record on main, or --log-dir with --tee 3)"
        )
        return
    if f.cls == "missing_program" and f.summary.endswith(": permission denied"):
        f.action = "fix_spec_or_script"
        f.advice = "the file is there but not executable: `chmod +x` it, or start it with its interpreter"
        return
    if f.code in CODE_ADVICE:
        f.action, f.advice = CODE_ADVICE[f.code]
        return
    if f.code == "N418" and f.cls == "rendezvous":
        f.action = "fix_spec_or_script"
        f.advice = (
            "MPI_Init could not reach the process manager (PMI): launch with the interface the MPI "
            "library was built for (srun --mpi=pmi2 or pmix, or the library's own mpirun), with "
            "matching PMI libraries on every node"
        )
        return
    if f.code == "S531" and "already ended" in f.summary:
        f.action = "fix_spec_or_script"
        f.advice = (
            "srun was run with the SLURM_JOB_ID of a job that had ended: start steps only inside a "
            "running job, and do not carry one job's SLURM_* variables into another job or a login shell "
            "(an MPI launcher started under srun may pass them on)"
        )
        return
    if f.code == "N403" and _NCCL_MISUSE.search(f.summary):
        # NCCL's verdict on the call it was given, not on the network under it
        f.action = "fix_program"
        f.advice = (
            "NCCL refused how it was called (invalid usage or argument): check that each rank uses "
            "its own GPU (torch.cuda.set_device(local_rank) before init_process_group), that every "
            "rank makes the same collectives in the same order with tensors on its own device, and "
            "run with NCCL_DEBUG=WARN to see NCCL's reason"
        )
        return
    if f.cls == "port_in_use" and f.evidence and _EPHEMERAL.search(f.evidence[0].text):
        # a bind to port 0 asks the kernel for any free port: none left is no port a job chose
        f.action = "fix_spec_or_script"
        f.advice = (
            "the node had no free local port left for a new connection (a bind to port 0 failed): "
            "use a transport that opens fewer sockets (InfiniBand/UCX rather than TCP between "
            "every pair of ranks) or fewer ranks per node, or ask the admins to widen "
            "net.ipv4.ip_local_port_range"
        )
        return
    if f.cls == "slurm_refused" and any(w in f.summary for w in _SLURM_BUSY):
        f.action = "resubmit"
        f.advice = "the controller did not answer in time; submit again (if it keeps failing, ask the admins)"
        return
    f.action = action
    text = ADVICE[f.cls][1 if compiled else 0]
    f.advice = text.replace("{node}", f.node or "NODE").replace("{{", "{").replace("}}", "}")


def _list(values: list[int]) -> str:
    if len(values) > 8:
        return ",".join(map(str, values[:8])) + f",… ({len(values)})"
    return ",".join(map(str, values))


def action_line(f: Finding) -> str:
    """The action's short name, then the finding's own advice: each said once (the advice already
    says what the action's meaning would repeat)."""
    advice = f.advice or ACTIONS[f.action]
    return f"    action ({f.action}): {advice}"


def render(d: Diagnosis) -> str:
    out = []
    head = f"job {d.job_id}" if d.job_id else ", ".join(d.logs)
    facts = [
        f"state {d.state}" if d.state else None,
        f"exit code {d.exit_code}" if d.exit_code else None,
        f"{d.mode} launch" if d.mode else None,
        f"master {d.master}" if d.master else None,
        f"restart {d.restarts}" if d.restarts else None,
    ]
    shown = [f for f in facts if f]
    out.append(head + (f" ({', '.join(shown)})" if shown else ""))
    if not d.findings:
        out.append("  no failure found in the log: nothing in it matches a known failure")
    for i, f in enumerate(d.findings):
        label = "cause" if f.cause else ("then" if f.role != "context" else "also")
        if i == 0 and f.cause:
            label = "first cause"
        if i == 0 and not f.cause:
            label = "no cause in the log"
        out.append(f"{label}: [{f.cls}] {f.summary}")
        if f.cause or i == 0:
            out.append(action_line(f))
        for ev in f.evidence:
            out.append(f"    {ev}")
    return "\n".join(out) + "\n"
