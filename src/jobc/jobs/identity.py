"""Triage's identity stage: which rank, local rank, srun task and node a finding is about.

Ranks, tasks and nodes are joined only through lines that pair them: a line's own prefixes
(`3: [rank3]:` pairs task 3 and rank 3; `node7: [rank5]:` rank 5 and node7), srun's reports (a
task list and the node that ran it), torchrun's table (a global rank, its local rank and host),
NCCL's `host:pid` and Ray's `ip=` (a node), jobc's banner (the node list, one task per node under
torchrun). Nothing is placed by arithmetic: `rank // gpus_per_node` is wrong under c10d
rendezvous, where node ranks follow arrival order.

Two readings are inferences, and a finding that rests on one says so (its confidence is at most
medium):

- an srun task is the global rank when srun starts the program itself, one task per process: the
  log shows srun's tasks and no launcher that starts the processes of a node (torchrun, DeepSpeed,
  accelerate, a local rank anywhere). jobc's own srun launch says so in its banner (no inference);
- a failure that names no node takes the node of the other findings of its class when they all
  name the same one (the same failure, seen again with its prefix).
"""

from __future__ import annotations

from collections.abc import Sequence

from jobc.jobs.findings import Facts, Finding

#: Signatures of launchers that start the processes of a node themselves: under them an srun task
#: is a node, never a rank.
NODE_LAUNCHERS = frozenset({"L201", "L202", "L204", "L206", "L207", "L208", "L216"})
#: Words of a fed line that show such a launcher (its traceback frames, its logger's name).
LAUNCHER_WORDS = ("torchrun", "distributed/run.py", "elastic", "deepspeed", "DeepSpeed", "accelerate")


def tasks_are_ranks(facts: Facts) -> bool:
    """Whether an srun task is the global rank in this log (jobc's srun launch says so; any other
    log shows it by what it lacks: a launcher that starts a node's processes)."""
    if facts.torchrun:
        return False
    if facts.compiled:
        return True
    return not facts.launcher_seen


def rank_of_task(facts: Facts, rank: int | None, task: int | None, count: int) -> tuple[int | None, bool]:
    """The rank a finding is about, and whether it was inferred from its srun task."""
    if rank is not None or task is None or count != 1 or not tasks_are_ranks(facts):
        return rank, False
    return task, not facts.compiled


def rank_of_process(facts: Facts, pid: object, writer: str | None) -> tuple[int | None, bool]:
    """The global rank of a process the log pairs with one: torchrun's table names the pid of a
    rank (certain); NCCL's communicator lines name a host:pid's rank in the largest communicator
    it joined (inferred: the log may not show the world's)."""
    if isinstance(pid, str) and pid in facts.pid_rank:
        return facts.pid_rank[pid], False
    if writer is not None and writer in facts.writer_rank:
        return facts.writer_rank[writer][0], True
    return None, False


def node_of(facts: Facts, rank: int | None, task: int | None) -> str | None:
    """A rank's node as the log says it: srun's task lines, host prefixes, torchrun's table,
    and in jobc's torchrun launch the task (one per node) and the banner's node list."""
    if task is None and rank is not None:
        task = facts.rank_task.get(rank)
    if task is not None and task in facts.task_node:
        return facts.task_node[task]
    if rank is not None and rank in facts.rank_node:
        return facts.rank_node[rank]
    if task is not None and facts.torchrun and facts.nodelist:
        return nth_host(facts.nodelist, task)
    return None


def borrow_node(first: Finding, findings: Sequence[Finding]) -> None:
    """A first cause that names no node (or no rank) takes them from the other findings of its
    class, when those all name the same one (the same failure, seen again with a prefix: srun's
    report of the OOM kill slurmstepd counted), as an inference."""
    if first.cls in ("unknown", "time_limit", "preempted", "cancelled"):
        return
    same = [f for f in findings if f is not first and f.cls == first.cls]
    nodes = {f.node for f in same if f.node}
    ranks = {f.rank for f in same if f.rank is not None}
    if first.node is None and len(nodes) == 1 and (first.rank is None or ranks <= {first.rank}):
        first.node = nodes.pop()
        first.inferred = True
    if (
        first.rank is None
        and len(ranks) == 1
        and (first.node is None or {f.node for f in same if f.rank in ranks} <= {first.node, None})
    ):
        first.rank = ranks.pop()
        first.inferred = True


def nth_host(nodelist: str, index: int) -> str | None:
    """The index-th host of a Slurm node list (`gpu[01-04,07],login1`), without expanding it."""
    depth = 0
    parts: list[str] = []
    start = 0
    for i, ch in enumerate(nodelist):
        if ch == "[":
            depth += 1
        elif ch == "]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(nodelist[start:i])
            start = i + 1
    parts.append(nodelist[start:])
    for part in parts:
        prefix, bracket, rest = part.partition("[")
        if not bracket:
            if index == 0:
                return part
            index -= 1
            continue
        inner, _, suffix = rest.partition("]")
        for piece in inner.split(","):
            lo, dash, hi = piece.partition("-")
            if not (lo.isascii() and lo.isdigit() and len(lo) <= 9):
                return None
            top = hi if dash else lo
            if not (top.isascii() and top.isdigit() and len(top) <= 9):
                return None
            n = int(top) - int(lo) + 1
            if index < n:
                return f"{prefix}{str(int(lo) + index).zfill(len(lo))}{suffix}"
            index -= n
    return None
