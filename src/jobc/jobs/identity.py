"""Triage's identity stage: which rank, local rank, srun task and node a finding is about.

Ranks, tasks and nodes are joined only through lines that pair them: a line's own prefixes
(`3: [rank3]:` pairs task 3 and rank 3; `node7: [rank5]:` rank 5 and node7), srun's reports (a
task list and the node that ran it), torchrun's table (a global rank, its local rank and host),
NCCL's `host:pid` and Ray's `ip=` (a node), jobc's banner (the node list, one task per node under
torchrun), and what a message says in words (`… on rank: 0`, `on node cn7`, `NodeList=c014`).
Nothing is placed by arithmetic: `rank // gpus_per_node` is wrong under c10d
rendezvous, where node ranks follow arrival order.

Three readings are inferences, and a finding that rests on one says so (its confidence is at
most medium):

- an srun task is the global rank when srun starts the program itself, one task per process: the
  log shows srun's tasks and no launcher that starts the processes of a node (torchrun, DeepSpeed,
  accelerate, a local rank anywhere). jobc's own srun launch says so in its banner (no inference);
- a failure that names no node takes the node of the other findings of its class when they all
  name the same one (the same failure, seen again with its prefix);
- a local rank a launcher reports without its node (spawn's process index) ran on the log's one
  node, and is the global rank where that node holds rank 0.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from jobc.jobs.findings import Event, Facts, Finding, first_task, parse_int
from jobc.jobs.prefixes import is_host

#: Signatures of launchers that start the processes of a node themselves: under them an srun task
#: is a node, never a rank.
NODE_LAUNCHERS = frozenset({"L201", "L202", "L204", "L206", "L207", "L208", "L216"})
#: What a line shows of such a launcher: its command, its modules (a traceback's frames, its
#: logger's name), DeepSpeed's launcher logging as launch.py. A program that only names one
#: (`DeepSpeed config: ds.json`, deepspeed's accelerator setup, `--deepspeed` passed to a script
#: srun started) shows no launcher: srun may still start every process.
LAUNCHER_LINE = re.compile(
    r"\btorchrun\b|torch/distributed/(?:run|launch)\.py|torch\.distributed\.(?:run|launch)\b|"
    r"distributed[/.]elastic|deepspeed[/.]launcher|\[launch\.py:[0-9]{1,6}:|"
    r"accelerate[/.]commands|\baccelerate launch\b|(?:^|\s)deepspeed (?:--|[^\s]{1,200}\.py\b)|"
    # a launcher as the program srun runs: `execve(): accelerate: No such file`, `torchrun: command`
    r"\b(?:torchrun|accelerate|deepspeed): |"
    # Hydra's tags (MPICH's, Intel MPI's mpiexec): its proxy starts a node's processes, and srun,
    # when Hydra uses it to start the proxies, runs one proxy a node (`[proxy:0:2@cpu-55] `,
    # `[mpiexec@cpu-53] `)
    r"^\[(?:proxy:[0-9]{1,6}:[0-9]{1,6}|mpiexec)@[A-Za-z0-9]"
)
#: Classes that are the job's, no process's: no rank is read for them.
JOB_CLASSES = frozenset({"time_limit", "preempted", "cancelled", "node_fail"})
#: A rank a message names as its own: `… store based barrier on rank: 0`, `[PG 0 (default_pg) Rank 12]`,
#: a launcher's report of how a rank ended (MPICH2's mpd: `Exit status of rank 0: killed by signal 9`).
#: A process group's rank is the world's only in the default group (`[PG 0 …]`, `[PG ID 0 …]`): in
#: another (`[PG 134 Rank 1]`, a tensor-parallel group's) it is the rank within that group.
_RANK_IN_MESSAGE = re.compile(
    r"\bon rank:? ?(?P<a>[0-9]{1,9})\b|\[(?:PG (?:ID )?0\b[^\]]{0,80}? )?Rank (?P<b>[0-9]{1,9})\]|"
    r"\b(?:[Ee]xit status|[Rr]eturn code) of rank (?P<c>[0-9]{1,9})\b|"
    # an inference engine's word for its worker that died: vLLM's `Worker proc VllmWorker-2 died
    # unexpectedly`, its Ray executor's `RayWorkerProc rank=[2]`, SGLang's `Rank 2 scheduler is dead`
    r"\bVllmWorker-(?P<d>[0-9]{1,9}) died\b|\bRayWorkerProc rank=\[(?P<e>[0-9]{1,9})\] died\b|"
    r"\bRank (?P<f>[0-9]{1,9}) scheduler is dead\b|"
    # JAX's (TensorFlow's) coordination service names a task by its process index, the rank:
    # `/job:jax_worker/replica:0/task:1 unexpectedly tried to connect with a different incarnation`,
    # `Task /job:jax_worker/replica:0/task:37 heartbeat timeout`
    r"/job:[A-Za-z0-9_]{1,40}/replica:[0-9]{1,6}/task:(?P<g>[0-9]{1,9})"
    r"(?= unexpectedly tried to connect| heartbeat timeout)"
)
_NAME = r"[A-Za-z][A-Za-z0-9_.\-]{0,62}"
#: A node a message names in words: `on node cn7`, `host: gpu-a07`, `NodeList=c014`, slurmstepd's
#: older `*** on sh-2-3`, ColossalAI's `… on GPU01`.
_NODE_IN_MESSAGE = re.compile(
    rf"\b(?:on|ON|at) (?:node|host) (?P<a>{_NAME})|\b(?:node|host)(?:name)?[=:] ?(?P<b>{_NAME})|"
    rf"\bNodeList=(?P<c>{_NAME})(?![\[,\w])|\*\*\* on (?P<d>{_NAME})|"
    rf"\*\*\* (?:JOB|STEP) [^\s]{{1,40}} ON (?P<e>{_NAME})|"
    # torchrun's rendezvous names an agent `HOST_PID_N` (its node descriptor): `The node
    # 'node04.localdomain_3882442_0' has failed to shutdown the rendezvous`
    r"\b[Tt]he node '(?P<f>[A-Za-z0-9][A-Za-z0-9.\-]{0,200})_[0-9]{1,10}_[0-9]{1,6}'|"
    # ssh's own words for the host it could not reach, and a launcher's ssh command (DeepSpeed's
    # pre-check `ssh -o PasswordAuthentication=no HOST hostname`): options with their values, then
    # the host (an option's value taken for the host names none: it is rarely host-shaped)
    rf"\bconnect to host (?P<g>{_NAME}) port|[Cc]ould not resolve hostname (?P<h>{_NAME}): |"
    rf"'ssh (?:-[A-Za-z]{{1,3}} (?:[^\s'-][^\s']{{0,200}} )?){{0,8}}(?P<i>{_NAME}) "
    # slurmctld's words for the node it lost (job_mgr.c, step_mgr.c): `Killing JobId=77 on failed
    # node n02`, `Killing StepId=77.0 due to failed node n02`, `Removing failed node n02 from
    # JobId=77`, and a requeue's `due to failure of node n02`
    rf"|\b(?:on|due to|[Rr]emoving) failed node (?P<j>{_NAME})|\bfailure of node (?P<k>{_NAME})"
    # and its node that stopped answering: `error: Nodes cn2 not responding, setting DOWN` (one node)
    rf"|\bNodes? (?P<o>{_NAME}) not responding\b"
    # PBS's mother superior naming a sister node by its index and name: `job killed: node 18 (n314)
    # requested job terminate`
    rf"|\bnode [0-9]{{1,6}} \((?P<p>{_NAME})\)"
    # Hydra's proxy (MPICH's, Intel MPI's) tags its own lines with the node it runs on:
    # `[proxy:1:1@node2] HYD_spawn (…): execvp error on file …`
    rf"|\[proxy:[0-9]{{1,6}}(?::[0-9]{{1,6}})?@(?P<l>{_NAME})\]"
    # and its mpiexec, the node it runs on (`[mpiexec@sh02-01n06.int] check_exit_codes (…): unable
    # to run bstrap_proxy`): a failure mpiexec says is its own
    rf"|^\[mpiexec@(?P<q>{_NAME})\]"
    # DAPL's debug prefix `host:PROVIDER:pid:tid: ` (`nid06489:SCM:22fc4:aab49500: … open_hca: failed`)
    rf"|^(?P<m>{_NAME}):[A-Z]{{2,5}}:[0-9a-f]{{1,12}}:[0-9a-f]{{1,12}}: "
)
#: `on NAME`, read only for a name the log shows as a node elsewhere.
_ON_NAME = re.compile(rf"\bon (?P<n>{_NAME})")


@dataclass
class Who:
    """Who a finding is about: its rank, local rank, srun task (and how many the report names),
    node, and whether any of them was inferred rather than read."""

    rank: int | None
    local: int | None
    task: int | None
    count: int
    node: str | None
    inferred: bool


def place(facts: Facts, e: Event) -> Who:
    """The rank, local rank, task and node of an event: its own fields and prefixes first, then
    what other lines pair them with, then what its message names."""
    fx, line = e.fields, e.line
    rank = _int(fx.get("rank"))
    rank = line.rank if rank is None else rank
    local = _int(fx.get("local_rank"))
    local = line.local_rank if local is None else local
    task, count = line.task, 1
    if fx.get("tasks"):
        task, count = first_task(str(fx["tasks"]))
    text = (e.statement or e.ev).text
    # (a local rank read from another line's report, spawn's process index, is an inference)
    inferred = local is not None and bool(fx.get("local_inferred"))
    # (a failure a table lists, its `Root Cause` cut off: which rank failed first is not said)
    inferred = inferred or bool(fx.get("listed"))
    if rank is None:
        rank, by_process = rank_of_process(facts, fx.get("pid"), line.writer)
        inferred = inferred or by_process
    if e.cls not in JOB_CLASSES:  # the job's end, no rank's
        if rank is None and (e.sig is None or e.sig.code not in MESSAGE_NAMES_OTHERS):
            rank = rank_in_message(text)
        rank, by_task = rank_of_task(facts, rank, task, count)
        inferred = inferred or by_task
        if rank is None and local is not None and one_node_launch(facts):
            rank, inferred = local, True  # one node's launcher: its local ranks are the world's
        if rank is None and local is not None and _one_global(facts, local) is not None:
            # the log's lines with both prefixes pair this local rank with one global rank only
            rank, inferred = _one_global(facts, local), True
        if rank is None and local is not None and _labels_one_rank(facts) == local:
            # the log's workers' lines name one global rank only (`[rank0]:`), the launcher's failed
            # local rank's number: that process's output, on the first node (another node's would
            # name its own ranks, `[rank8]:`)
            rank, inferred = local, True
    if e.sig is not None and e.sig.code in REPORTED_BY_A_SURVIVOR:
        # the line's prefixes and the node it names are the node that printed it, which survived:
        # the lost node is named only where the log says which (another finding, by borrow_node)
        return Who(None, None, None, 1, None, inferred)
    if e.kind == "torchrun-root-cause":
        # the table's host is the agent's own name for itself (often not Slurm's): the labels first
        node = node_of(facts, rank, task) or fx.get("node")
    else:
        node = fx.get("node") or line.node or node_of(facts, rank, task)
    if node is None and rank is not None and task is None and tasks_are_ranks(facts):
        node = facts.task_node.get(rank)  # srun's report of the task that is this rank
        inferred = inferred or node is not None
    if node is None and rank is not None and rank in facts.slot_node:
        node, inferred = facts.slot_node[rank], True  # where the launcher's host list placed it
    if node is None and line.writer is not None and line.writer.startswith("pid "):
        node = facts.pid_node.get(line.writer[4:]) or None  # the host another prefix pairs it with
    if node is None and str(fx.get("job")) in facts.job_nodes:
        node = _one_node(facts.job_nodes[str(fx.get("job"))])  # the nodes slurmctld allocated it
    if node is None and "" in facts.job_nodes:
        # the hosts PBS's or LSF's report says the log's one job ran on: its end's node, and every
        # process's when it is one host
        node = _one_node(facts.job_nodes[""])
        if node is not None and not {n.split(".")[0] for n in facts.nodes_seen} <= {node.split(".")[0]}:
            node = None  # the log's prefixes name other nodes: the job ran on more than that one
    if node is None:
        node = node_in_message(text, facts.nodes_seen)
    if node is None and e.cls == "nccl_error" and len(facts.nccl_failed_on) == 1:
        # (NCCL's trace of its failed call's return names one node: the NCCL error, unlabelled, is
        # that call's, as its framework raised it)
        node, inferred = next(iter(facts.nccl_failed_on)), True
    if node is None and rank is None and task is None and facts.kernel_prompts:
        node = _kernel_host(facts, e)
    if node is None and rank is None and task is None and (only := one_node_of_tasks(facts)) is not None:
        node, inferred = only, True  # srun ran every task the log shows on one node: this one's too
    if node is None and rank is None and task is None and local is not None:
        node, rank = local_on_the_one_node(facts, local)
        inferred = inferred or node is not None
    if node is None and task is None and facts.run_prompts and not facts.task_node:
        node, rank, by_prompt = _run_host(facts, e, rank, local)
        inferred = inferred or by_prompt
    if rank is None and task is None and (placed := launch_rank(facts, local)) is not None:
        rank, inferred = placed, True
    if node is not None and REDACTED.match(node):
        node = None  # a paste that hid the node's name (`on node xxxxxxxx`) names no node
    return Who(rank, local, task, count, node, inferred)


#: docker's default hostname for a container, its id (12 hex digits, or all 64)
_CONTAINER_ID = re.compile(r"[0-9a-f]{12}|[0-9a-f]{64}")


def _run_host(
    facts: Facts, e: Event, rank: int | None, local: int | None
) -> tuple[str | None, int | None, bool]:
    """The host of the last prompt before a line whose command ran the program there (`user@pc:~$
    ./run.sh`; the one host of the file's prompts when none is before it), when the log names no
    other host; and on that one host a local rank is the
    world's, unless a launcher's command line says more nodes. Both are inferences."""
    hosts = [h for path, at, h in facts.run_prompts if path == e.ev.file and at < e.ev.line]
    if not hosts:
        # a paste that shows the error first and the session it came from below: its prompts'
        # one host
        hosts = sorted({h for path, _, h in facts.run_prompts if path == e.ev.file})
        hosts = hosts if len(hosts) == 1 else []
    if not hosts or not {n.split(".")[0] for n in facts.nodes_seen} <= {hosts[-1].split(".")[0]}:
        return None, rank, False
    if _CONTAINER_ID.fullmatch(hosts[-1]):
        return None, rank, False  # a container's own name (docker's id): which node it ran on is not said
    if rank is None and local is not None and facts.launch_nodes <= {"1", "1:1"}:
        rank = local
    return hosts[-1], rank, True


#: slurmstepd's words for the whole job's end (the batch step's, on the job's first node), not a step's.
#: (older slurmstepd wrote it without `error: `: `slurmstepd: *** JOB 5019 ON dev1 CANCELLED AT …`)
_JOB_END = re.compile(r"\bslurmstepd[^:]{0,80}: (?:error: )?\*\*\* JOB [0-9]")
#: A name a paste put in place of a real one: a run of x's or asterisks, `<node>`, `...`, `HOSTNAME`.
REDACTED = re.compile(r"^(?:[xX]{3,}|\*{2,}|\.{3,}|<[^>]{0,40}>|(?:HOST|NODE)(?:NAME)?|hostname|nodename)$")


#: Signatures of a node's loss written by a node that survived it (slurmstepd's `*** JOB 77 ON cn1
#: CANCELLED … DUE TO NODE FAILURE ***`): neither the line's node nor its prefix is the lost node;
#: and a process's word that it failed because another did (P106: Horovod shut down by another
#: rank, vLLM's engine after its worker): the writer is not the process that failed.
REPORTED_BY_A_SURVIVOR = frozenset({"S509", "P106"})
#: Signatures whose message names ranks other than its writer's (rank 0's monitored barrier).
MESSAGE_NAMES_OTHERS = frozenset({"N411"})


def rank_in_message(text: str) -> int | None:
    m = _RANK_IN_MESSAGE.search(text[:2000])
    return parse_int(next(g for g in m.groups() if g is not None)) if m else None


def node_in_message(text: str, known: set[str] | frozenset[str] = frozenset()) -> str | None:
    """A node a message names in words (a host-shaped name), or `on NAME` for a known node."""
    for m in _NODE_IN_MESSAGE.finditer(text[:2000]):
        name = next(g for g in m.groups() if g is not None).rstrip(".-_")
        if is_host(name) or name in known:
            return name
    for m in _ON_NAME.finditer(text[:2000]):
        name = m.group("n").rstrip(".-_")
        if name in known:
            return name
    return None


def _kernel_host(facts: Facts, e: Event) -> str | None:
    """The host whose kernel log a line is: the last prompt before it that printed that log."""
    hosts = [h for path, at, h in facts.kernel_prompts if path == e.ev.file and at < e.ev.line]
    return hosts[-1] if hosts and is_host(hosts[-1]) else None


def _one_global(facts: Facts, local: int) -> int | None:
    """The one global rank the log pairs a local rank with (`[default0]:[rank0]:`), when every
    local rank it pairs is paired with one global rank: the output of one node's launcher, where
    a local rank is one process (on any node of the job: `[default0]:[rank8]:` on the second).
    Several nodes' output in one file pairs a local rank with several: none is taken then."""
    if not facts.local_global or any(len(g) != 1 for g in facts.local_global.values()):
        return None
    got = facts.local_global.get(local)
    return next(iter(got)) if got else None


def _labels_one_rank(facts: Facts) -> int | None:
    """The one global rank every labelled line of the log names, and nothing else; None when the
    labels name none, several, or another task, local rank or node besides."""
    ranks = {who[1] for who in facts.labelled}
    if len(ranks) != 1 or any(who[0] is not None or who[2] is not None or who[3] for who in facts.labelled):
        return None
    return next(iter(ranks))


def _one_node(nodelist: str) -> str | None:
    """The node of a node list of one node; None for several (which one is not said)."""
    return None if any(c in nodelist for c in "[],") or not is_host(nodelist) else nodelist


def _int(value: object) -> int | None:
    if isinstance(value, int):
        return value
    return parse_int(value) if isinstance(value, str) else None


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


def one_node_of_tasks(facts: Facts) -> str | None:
    """The one node of a step, when srun's reports place several tasks and every node the log
    names (its reports, its prefixes) is that node: a process the log does not place ran there
    too. One task's report says nothing of where the others ran."""
    if len(facts.task_node) < 2:
        return None
    nodes = set(facts.task_node.values()) | facts.nodes_seen
    if len(nodes) != 1:
        return None
    only = next(iter(nodes))
    return only if is_host(only) else None


def local_on_the_one_node(facts: Facts, local: int) -> tuple[str | None, int | None]:
    """The node and global rank of a local rank a launcher reports without its node (spawn's
    `process 0 terminated with signal SIGKILL`): the log's one node, when its prefixes name exactly
    one and srun reports none; and the local rank is the global one when that node holds rank 0 (a
    launcher numbers each node's processes in one block, and the block of the node that holds rank 0
    starts at 0). Both are inferences."""
    if len(facts.nodes_seen) != 1 or facts.task_node:
        return None, None
    node = next(iter(facts.nodes_seen))
    if not is_host(node):
        return None, None
    return node, (local if facts.rank_node.get(0) == node else None)


def launch_rank(facts: Facts, local: int | None) -> int | None:
    """The global rank of a process of the one node whose torchrun command line the log shows
    (`--node_rank=K --nproc_per_node=N`, both numbers, the only command line): K·N plus its local
    rank, and K when N is 1 (the node's one process). Only where the log names at most one node
    and no srun task (a log of that node's launch)."""
    if len(facts.launch_place) != 1 or len(facts.nodes_seen) > 1 or facts.task_node:
        return None
    node_rank, nproc = next(iter(facts.launch_place))
    if node_rank < 0 or nproc < 1:
        return None
    if nproc == 1:
        return node_rank
    return node_rank * nproc + local if local is not None and local < nproc else None


def one_node_launch(facts: Facts) -> bool:
    """Whether the log's torchrun command lines all start one node (`--nnodes=1`, `1:1`,
    `--standalone`, or no `--nnodes`), and DeepSpeed's launcher says one node (`nnodes=1`, or its
    lines carry no node's name and no srun task): there a local rank is the global rank."""
    return bool(facts.launch_nodes) and facts.launch_nodes <= {"1", "1:1"}


def rank_of_process(facts: Facts, pid: object, writer: str | None) -> tuple[int | None, bool]:
    """The global rank of a process the log pairs with one: torchrun's table names the pid of a
    rank (certain); NCCL's communicator lines name a host:pid's rank in the largest communicator
    it joined (inferred: the log may not show the world's)."""
    if isinstance(pid, str) and pid in facts.pid_rank:
        return facts.pid_rank[pid], False
    if writer is not None and writer in facts.writer_rank:
        return facts.writer_rank[writer][0], True
    if writer is not None and facts.ring_rank.get(writer) is not None and not facts.writer_rank:
        return facts.ring_rank[writer], True  # (no communicator line in the log says a size)
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
    if rank is not None and facts.writer_rank:
        return _nccl_node(facts, rank)
    return None


def _nccl_node(facts: Facts, rank: int) -> str | None:
    """A rank's node from NCCL's communicator lines: the host of the process (`host:pid`) that
    is that rank in the largest communicator the log shows (a smaller one numbers its own ranks);
    none when two hosts claim it (two jobs' communicators, one log)."""
    largest = max(size for _, size in facts.writer_rank.values())
    hosts = {
        writer.split(":", 1)[0]
        for writer, (r, size) in facts.writer_rank.items()
        if r == rank and size == largest and ":" in writer
    }
    host = hosts.pop() if len(hosts) == 1 else None
    return host if host is not None and is_host(host) else None


def borrow_node(first: Finding, findings: Sequence[Finding], solo: bool = False) -> None:
    """A first cause that names no node (or no rank) takes them from the other findings of its
    class, when those all name the same one (the same failure, seen again with a prefix: srun's
    report of the OOM kill slurmstepd counted), as an inference. In the log of one unlabelled
    process (`solo`: the batch script's output), slurmstepd's end of the whole job (`*** JOB N ON
    agpu4 CANCELLED`) names the node the batch script, and so that process, ran on."""
    if first.cls in ("unknown", "time_limit", "preempted", "cancelled"):
        return
    if solo and first.node is None and first.rank is None and first.task is None:
        ends = {
            f.node
            for f in findings
            if f.cls in JOB_CLASSES and f.node and any(_JOB_END.search(e.text) for e in f.evidence[:1])
        }
        named = {f.node for f in findings if f.node}
        if len(ends) == 1 and named == ends:
            first.node = ends.pop()
            first.inferred = True
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
    elif first.rank is None and first.task is None and first.node is not None and len(ranks) > 1:
        # the same failure on several nodes (srun's report of each task's segfault): the one
        # rank of its node that ended the same way is the first cause's process
        here = {
            f.rank for f in same if f.rank is not None and f.node == first.node and f.signal == first.signal
        }
        if len(here) == 1:
            first.rank = here.pop()
            first.inferred = True


#: MPI's words that a rank ended the job (Open MPI's `MPI_ABORT was invoked on rank N`, MPICH's
#: `application called MPI_Abort(…) - process N`): the rank that failed calls it (mpi4py's hook
#: on an uncaught exception does)
_ABORTS = frozenset({"L237", "L238"})


def borrow_abort_rank(first: Finding, findings: Sequence[Finding]) -> None:
    """A program's exception that names no process, followed by MPI's word that one rank called
    MPI_Abort (and no other rank): that rank raised it, as an inference."""
    if first.cls != "exception" or first.rank is not None or first.task is not None:
        return
    if first.local_rank is not None:
        return
    aborts = [f for f in findings if f.code in _ABORTS and f.order > first.order]
    ranks = {f.rank for f in aborts}
    if len(ranks) == 1 and None not in ranks:
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


#: A launcher's host list with each host's slots: Horovod's `horovodrun -np 8 -H a:4,b:4`, Open
#: MPI's `mpirun -H a:4,b:4` (`--host`), MPICH's `mpiexec -hosts a:4,b:4`
_HOST_SLOTS = re.compile(
    r"(?:^|\s)(?:-H|--hosts?|-hosts?)[ =](?P<hosts>[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}:[0-9]{1,4}"
    r"(?:,[A-Za-z0-9][A-Za-z0-9_.\-]{0,200}:[0-9]{1,4}){0,255})(?=\s|$)"
)
_HOST_LAUNCHER = re.compile(r"(?:^|[\s/])(?:horovodrun|mpirun|mpiexec(?:\.hydra)?|orterun)\s")
#: Options that place ranks otherwise than host by host (round robin over nodes, a rank file,
#: so many per node): the host list says nothing of which rank is where
_OTHER_MAPPING = re.compile(
    r"--map-by[ =](?:node|ppr)|-npernode\b|--npernode\b|-rf\b|--rankfile\b|-bynode\b|-rr\b"
)
MAX_SLOTS = 65536


def slot_hosts(text: str) -> dict[int, str]:
    """The host of each rank a launcher's command line places by its host list (`horovodrun -np 8
    -H gpu1:4,gpu2:4 python train.py`: ranks 0 to 3 on gpu1, 4 to 7 on gpu2, as Horovod, Open
    MPI and Hydra fill each host's slots in turn); none when the line maps ranks otherwise."""
    if _HOST_LAUNCHER.search(text) is None or _OTHER_MAPPING.search(text) is not None:
        return {}
    m = _HOST_SLOTS.search(text)
    if m is None:
        return {}
    placed: dict[int, str] = {}
    for item in m.group("hosts").split(","):
        host, _, slots = item.rpartition(":")
        for _ in range(int(slots)):
            if len(placed) >= MAX_SLOTS:
                return placed
            placed[len(placed)] = host
    return placed
