"""The allocation the directives ask for, read once for the import, the lint and the reader that
decides a branch on it: a count as Slurm reads it, GPUs per node, tasks per node. Its own module
so that the reader (flow, decide) can ask it without importing the import's spec builder."""

from __future__ import annotations

from jobc.core.diagnostics import Span
from jobc.core.numbers import SLURM_MAX, ascii_int
from jobc.script.facts import Directive, ScriptFacts, Step, Word
from jobc.tables import launchers


def slurm_int(text: str | None, minimum: int = 0) -> int | None:
    """A count as Slurm reads it (`--nodes=2-4`: the least sbatch may give); None when Slurm would
    refuse it (JC809 says why): not ASCII digits, below ``minimum`` or past a C int."""
    if text is None:
        return None
    value = ascii_int(text.split("-")[0].split(",")[0])
    return value if value is not None and minimum <= value <= SLURM_MAX else None


def gres_gpus(value: str) -> tuple[int, str | None] | None:
    """The GPUs per node a `--gres` value asks for, with the type it names (`gpu` → 1, `gpu:4`,
    `gpu:a100:8(S:0-1)`, `gpu:a100` → 1 of that type); None when it asks for none."""
    for part in value.split(","):
        bits = part.strip().split("(")[0].split(":")  # gpu:a100:8(S:0-1): sockets follow
        if bits[0] != "gpu" or len(bits) > 3:
            continue
        if len(bits) == 1:
            return 1, None
        if len(bits) == 2:
            n = ascii_int(bits[1])
            return (n, None) if n is not None else (1, bits[1])
        if (n := ascii_int(bits[2])) is not None:
            return n, bits[1]
    return None


def gpus_over_nodes(total: int, nodes: int | None) -> int | None:
    """`--gpus=N` (`-G N`) counts the GPUs of the whole job (or step): the GPUs per node when they
    part evenly over its nodes; None when they do not (Slurm places them unevenly) or the node
    count is not known."""
    if not nodes or total % nodes:
        return None
    return total // nodes


def implied_nodes(honoured: dict[str, Directive]) -> tuple[int, Directive, Directive] | None:
    """Without `--nodes`, the nodes `--ntasks` over `--ntasks-per-node` fill, as sbatch allocates
    them (`--ntasks=2 --ntasks-per-node=1` is two nodes; `--ntasks` takes precedence and the tasks
    per node is the most a node runs), with the two directives; None when they do not say it."""
    total, per = honoured.get("ntasks"), honoured.get("ntasks-per-node")
    if "nodes" in honoured or total is None or per is None:
        return None
    tasks, each = slurm_int(total.value, 1), slurm_int(per.value, 1)
    if tasks is None or each is None:
        return None
    return -(-tasks // each), total, per


def fewer_tasks_than_nodes(honoured: dict[str, Directive]) -> tuple[int, Directive] | None:
    """`--nodes=4 --ntasks=1`: sbatch cannot run fewer tasks than nodes and sets the nodes to the
    tasks ("can't run 1 processes on 4 nodes, setting nnodes to 1"): the task count, and its
    directive; None when the directives do not ask for fewer tasks than nodes."""
    nodes_d, total = honoured.get("nodes"), honoured.get("ntasks")
    if nodes_d is None or total is None:
        return None
    nodes, tasks = slurm_int(nodes_d.value, 1), slurm_int(total.value, 1)
    return (tasks, total) if nodes is not None and tasks is not None and tasks < nodes else None


def job_nodes(facts: ScriptFacts) -> int | None:
    """The nodes the directives give the job: `--nodes` (the least of a range), else the nodes its
    tasks fill (`implied_nodes`), else sbatch's one when `--ntasks` asks for at most one task a
    node; None when sbatch leaves the count to Slurm (`--ntasks=24` alone) or refuses it."""
    honoured = facts.honoured()
    if "nodes" in honoured:
        nodes = slurm_int(honoured["nodes"].value, 1)
        fewer = fewer_tasks_than_nodes(honoured)
        return fewer[0] if fewer is not None else nodes
    if (implied := implied_nodes(honoured)) is not None:
        return implied[0]
    total = honoured.get("ntasks")
    return 1 if total is None or slurm_int(total.value) == 1 else None


def gpus_per_node(facts: ScriptFacts) -> tuple[int | None, str | None, Directive | None]:
    """GPUs per node the directives ask for, the GPU type named, and the directive that said it."""
    honoured = facts.honoured()
    nodes = slurm_int(honoured["nodes"].value) if "nodes" in honoured else (job_nodes(facts) or 1)
    for key in ("gpus-per-node", "gres", "gpus"):
        d = honoured.get(key)
        if d is None or d.value is None:
            continue
        if key == "gres":
            found = gres_gpus(d.value)
            if found is not None:
                return found[0], found[1], d
            continue
        kind, _, count = d.value.rpartition(":")
        n = slurm_int(count)
        if n is not None and key == "gpus":
            n = gpus_over_nodes(n, nodes)
        if n is None:
            continue
        return n, kind or None, d
    d = honoured.get("gpus-per-task")
    if d is not None and d.value is not None:
        # --gpus-per-task=N (or TYPE:N) times the tasks each node runs
        kind, _, count = d.value.rpartition(":")
        n = slurm_int(count)
        tasks = directive_tasks(honoured, nodes or 1)
        if n is not None and tasks is not None:
            return n * tasks, kind or None, d
    return None, None, None


def directive_tasks(honoured: dict[str, Directive], nodes: int) -> int | None:
    """Tasks per node the directives ask for: --ntasks-per-node, or --ntasks spread evenly."""
    per = honoured.get("ntasks-per-node")
    if per is not None and (n := slurm_int(per.value)) is not None:
        return n
    total = honoured.get("ntasks")
    if total is not None and (n := slurm_int(total.value)) is not None and nodes and n % nodes == 0:
        return n // nodes
    if total is None:
        return 1  # sbatch's default: one task per node
    return None


def launcher_tasks(facts: ScriptFacts, step: Step | None, nodes: int) -> tuple[int, Directive] | None:
    """The ranks per node a launcher that reaches the nodes itself inside the allocation (mpirun,
    run by the batch shell) starts, when they are the tasks per node the directives ask for and
    every count it is given agrees (`mpirun -n 8 -npernode 4` or `mpirun -n 8` on 2 nodes of 4
    tasks; `mpirun python x.py` starts one rank a task), with the directive that asks for them.
    None when no directive asks for tasks, the launcher is another or a count differs or is not
    known before the job runs: then its counts, not the request, are what differs (JC804)."""
    if step is None or step.srun is not None or step.launcher is None:
        return None
    kind = launchers.entry(step.launcher.name)
    if kind is None or not kind.reaches_always:
        return None
    honoured = facts.honoured()
    d = honoured.get("ntasks-per-node") or honoured.get("ntasks")
    tasks = directive_tasks(honoured, nodes) if d is not None else None
    if d is None or tasks is None:
        return None
    for keys, want in ((kind.procs_per_node, tasks), (kind.procs_total, tasks * nodes)):
        for key in keys:
            word = step.launcher.options.get(key)
            if word is not None and (not word.literal or ascii_int(word.text) != want):
                return None
    return tasks, d


def step_option(step: Step | None, *names: str) -> Word | None:
    if step is None or step.srun is None:
        return None
    for name in names:
        if name in step.srun:
            return step.srun[name]
    return None


UNKNOWN_TASKS = "the step's task count, computed when the job runs"


def spread_by_slurm(facts: ScriptFacts, step: Step | None, nodes: int) -> int | None:
    """The task total of a step given as a total over several nodes (`--nodes=2 --ntasks=8`, no
    tasks per node anywhere), more tasks than nodes: Slurm places them by each node's free CPUs
    (7 and 1 on nodes with 8 CPUs), not evenly, so the tasks per node are not in the text. None
    when the text gives them (tasks per node, or one task a node)."""
    if step_option(step, "ntasks-per-node") is not None or "ntasks-per-node" in facts.honoured():
        return None
    total = step_option(step, "ntasks")
    if total is not None:
        if not total.literal:
            return None
        step_nodes = step_option(step, "nodes")
        if step_nodes is not None and not step_nodes.literal:
            return None
        n = slurm_int(step_nodes.text, 1) if step_nodes is not None else nodes
        count = slurm_int(total.text, 1)
    else:
        d = facts.honoured().get("ntasks")
        count, n = (slurm_int(d.value, 1) if d is not None else None), nodes
    return count if count is not None and n is not None and n > 1 and count > n else None


def capped_by_total(facts: ScriptFacts, step: Step, nodes: int, per: int) -> tuple[int, Span, str] | None:
    """`#SBATCH --ntasks 1` beside `#SBATCH --ntasks-per-node 4` (the step asks for neither): the
    total wins and the tasks per node are only a cap (sbatch's rule), so the step starts fewer
    tasks a node than ``per`` where the total, spread evenly, is less. None where it is not
    (or Slurm spreads it unevenly, which the text does not say)."""
    if step.srun is None or any(k in step.srun for k in ("ntasks", "ntasks-per-node", "nodes")):
        return None
    total = facts.honoured().get("ntasks")
    count = slurm_int(total.value, 1) if total is not None else None
    if total is None or count is None or not nodes or count >= per * nodes or count % nodes:
        return None
    return (
        count // nodes,
        total.span,
        f"#SBATCH {total.text} (it wins over --ntasks-per-node: drop or raise it)",
    )


def tasks_per_node(
    facts: ScriptFacts, step: Step | None, nodes: int
) -> tuple[int | None, Span | None, str | None]:
    """Tasks per node the main step gets, and the option that set it."""
    per = step_option(step, "ntasks-per-node")
    if per is not None and (count := slurm_int(per.text, 1)) is not None:
        return count, per.span, per.raw
    total = step_option(step, "ntasks")
    if any(w is not None and not w.literal for w in (per, total)):
        return None, None, UNKNOWN_TASKS  # `srun -n "$SLURM_NNODES"`: sized when the job runs
    step_nodes = step_option(step, "nodes")
    if total is not None and (count := slurm_int(total.text, 1)) is not None:
        n: int | None = slurm_int(step_nodes.text, 1) if step_nodes is not None else nodes
        return (count // n if n and count % n == 0 else count), total.span, total.raw
    honoured = facts.honoured()
    d = honoured.get("ntasks-per-node")
    if d is not None and (count := slurm_int(d.value, 1)) is not None:
        return count, d.span, f"#SBATCH {d.text}"
    d = honoured.get("ntasks")
    if d is not None and (total_count := slurm_int(d.value, 1)) is not None:
        count = total_count
        return (count // nodes if nodes and count % nodes == 0 else count), d.span, f"#SBATCH {d.text}"
    return None, None, None
