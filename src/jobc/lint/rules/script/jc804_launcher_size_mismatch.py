"""Launcher sizes written as numbers that differ from what the script allocates.

`torchrun --nnodes=4` in a 2-node job waits for two nodes that never come (the rendezvous times
out); `--nproc_per_node=4` on 8-GPU nodes leaves half the GPUs idle; `srun -N 1` inside a 2-node
allocation runs the whole step on the first node. The numbers are written twice, in the
`#SBATCH` lines and on the launch line, and edited in one place only. Derive them from Slurm
(`$SLURM_NNODES`, `$SLURM_GPUS_ON_NODE`) or let jobc write both.

Bad:

```bash
#SBATCH --nodes=2
#SBATCH --gpus-per-node=8
srun --ntasks-per-node=1 torchrun --nnodes=4 --nproc_per_node=8 train.py
```

Bad, assembled in an array (the finding points at the element, the srun line is related):

```bash
#SBATCH --nodes=2
#SBATCH --gres=gpu:a100:4
DIST_ARGS=(--nnodes="$SLURM_NNODES" --nproc_per_node=8)
srun --ntasks-per-node=1 python -m torch.distributed.run "${DIST_ARGS[@]}" train.py
```

Good:

```bash
#SBATCH --nodes=2
#SBATCH --gpus-per-node=8
srun --ntasks-per-node=1 torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=8 train.py
```

`mpirun`'s counts are compared with the tasks the job asks for: when they agree and only the
GPU request differs, that request is what to fix, and JC101 says so at it.

Fewer processes than GPUs on purpose, each process spanning several GPUs (a model split over
the GPUs of one process), is no mismatch where the program's arguments say so:
`--nproc_per_node=2 … train.py --gpus-per-process 2` on 4-GPU nodes uses all four.
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit, nodes
from jobc.spec.context import Context
from jobc.tables import launchers

# a program option giving each process its GPUs (`--gpus-per-process 2`, `--devices_per_rank=2`)
_PER_PROCESS = lazy(r"(?:n_?|num_)?(?:gpus?|devices?)_per_(?:proc|process|rank|worker|replica|model)")
# `--jobid $SLURM_JOBID`, `--jobid="${SLURM_JOB_ID}"`: the step runs in the job's own allocation
_OWN_JOB = lazy(r'--jobid[= ]"?\$(\{SLURM_JOB_?ID\}|SLURM_JOB_?ID)"?')

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.script.facts import Launcher, ScriptFacts, Step

META = Meta(
    code="JC804",
    name="launcher-size-mismatch",
    severity=Severity.ERROR,
    summary="--nnodes, --nproc_per_node or srun -N/-n hard-coded differently from the allocation",
    remediation="Use $SLURM_NNODES and the allocation's GPU count, or write the sizes once in a spec.",
)


def _number(text: str | None) -> int | None:
    # ASCII digits of a size a count can have; anything else is JC809's to report
    return ascii_int(text)


def _packed(f: ScriptFacts, step: Step) -> bool:
    """Independent steps packed into one allocation (`srun -N 1 -n 1 … &` several times, then
    `wait`), or a step placed on named nodes: each is sized on purpose to a part of the job."""
    if step.srun is not None and {"nodelist", "w"} & set(step.srun):
        return True  # placed on named nodes (`srun --nodelist=$NODE -n 1`, one per node in a loop)
    if not step.background:
        return False
    sized = [
        s for s in f.steps if s.background and s.srun is not None and ({"nodes", "ntasks"} & set(s.srun))
    ]
    return len(sized) >= 2


def _spans(step: Step, processes: int, gpus: int) -> bool:
    """Whether the program's arguments give each of the ``processes`` the node's other GPUs
    (`--gpus-per-process 2` with 2 processes on 4 GPUs): fewer processes than GPUs on purpose."""
    args = step.args
    for i, word in enumerate(args):
        name, eq, value = word.text.partition("=")
        if not word.literal or not name.startswith("-"):
            continue
        if not _PER_PROCESS.fullmatch(name.lstrip("-").replace("-", "_").lower()):
            continue
        target = value if eq else (args[i + 1].text if i + 1 < len(args) and args[i + 1].literal else None)
        each = _number(target)
        if each is not None and each > 1 and each * processes == gpus:
            return True
    return False


def _trainer_sizes(step: Step, nodes: int, gpus: int | None) -> Iterator[Hit]:
    """`srun python train.py --trainer.num_nodes 4`: the Trainer's sizes against the allocation."""
    entry = launchers.LIGHTNING
    args = step.args
    for i, word in enumerate(args):
        name, eq, value = word.text.partition("=")
        key = name.lstrip("-").replace("-", "_")
        if not word.literal or key not in (*entry.nodes, *entry.procs_per_node):
            continue
        target = word if eq else (args[i + 1] if i + 1 < len(args) else None)
        if target is None or not target.literal:
            continue
        n = _number(value if eq else target.text)
        want = nodes if key in entry.nodes else gpus
        if n is not None and want and n != want:
            what = "node(s)" if key in entry.nodes else "GPUs per node"
            yield hit(
                target.span,
                f"{name} {n} but the job has {want} {what}: the Trainer waits for ranks that never "
                f"start (or leaves GPUs idle); use {want}",
            )


def _launcher_sizes(
    step: Step, launcher: Launcher, kind: launchers.Launcher, sizes: tuple[int, int], gpus: int | None
) -> Iterator[Hit]:
    """The launcher's own counts (nodes, processes per node, processes in all) against the nodes
    the step runs on (``sizes``: the step's and the job's) and the GPUs per node."""
    on_nodes, want_nodes = sizes
    for key in kind.nodes:
        word = launcher.options.get(key)
        if word is not None and (n := _number(word.text)) is not None and n != on_nodes:
            where = "the job allocates" if on_nodes == want_nodes else "the step runs on"
            yield hit(
                word.span,
                f"{word.raw} but {where} {on_nodes} node(s): the rendezvous waits for "
                f'{n} and times out (or starts on part of the job); use "$SLURM_NNODES"',
            )
    for key in kind.procs_per_node:
        word = launcher.options.get(key)
        if (
            word is not None
            and gpus
            and (n := _number(word.text)) is not None
            and n != gpus
            and not _spans(step, n, gpus)
        ):
            yield hit(
                word.span,
                f"{word.raw} but each node has {gpus} GPUs allocated: "
                + (f"{gpus - n} GPUs per node stay idle" if n < gpus else "ranks share GPUs or fail")
                + f"; use {gpus}",
            )
    for key in kind.procs_total:
        word = launcher.options.get(key)
        all_gpus = gpus * on_nodes if gpus else 0
        if word is not None and all_gpus and (n := _number(word.text)) is not None and n != all_gpus:
            yield hit(
                word.span,
                f"{word.raw} but the job has {all_gpus} GPUs ({on_nodes} nodes × {gpus}); use {all_gpus}",
            )


def check_script(ctx: Context) -> Iterator[Hit]:
    from jobc.script.allocation import launcher_tasks
    from jobc.script.facts import other_component
    from jobc.script.spec import gpus_per_node, step_nodes

    f = facts(ctx)
    if f is None:
        return
    step = f.main_step
    if step is None:
        return
    jobid = step.srun.get("jobid") if step.srun is not None else None
    if not f.honoured() or (jobid is not None and not _OWN_JOB.fullmatch(jobid.raw)):
        # no #SBATCH line sizes the job (salloc, or sizes given to sbatch on its command line),
        # or the step joins another job's allocation: there is no allocation here to compare with
        # (`srun --jobid $SLURM_JOBID` names the job's own: it is compared)
        return
    if _packed(f, step) or other_component(step):
        # sized on purpose to a part of the job, or run in another component of a heterogeneous
        # job, whose request is not the one the directives read as the job's
        return
    want_nodes = nodes(f)
    # a step sized on purpose (srun -N 2, or --ntasks with --ntasks-per-node) inside a bigger
    # allocation: its launcher is compared with the step, not with the allocation
    on_nodes = step_nodes(f, step) or want_nodes
    gpus, _, _ = gpus_per_node(f)
    launcher = step.launcher
    kind = launchers.entry(launcher.name) if launcher is not None else None
    if launcher_tasks(f, step, want_nodes) is not None:
        # mpirun's counts are the tasks the job asks for: the GPU request is what differs (JC101)
        kind = None
    if launcher is not None and kind is not None:
        yield from _launcher_sizes(step, launcher, kind, (on_nodes, want_nodes), gpus)
    if step.srun is None:
        return
    if launcher is None:
        yield from _trainer_sizes(step, on_nodes, gpus)
    word = step.srun.get("nodes")
    # a launcher told the same node count sized the step on purpose
    told = launcher is not None and any(k in launcher.options for k in (kind.nodes if kind else ()))
    if (
        word is not None
        and (n := _number(word.text)) is not None
        and n != want_nodes
        and not step.background
        and not told
    ):
        yield hit(
            word.span,
            f"srun {word.raw} but the job allocates {want_nodes} node(s): the step runs on {n}; drop "
            "it (srun uses the whole allocation)",
        )
    word = step.srun.get("ntasks")
    if word is None or "ntasks-per-node" in step.srun or step.background:
        # the step says how its tasks spread: sized on purpose, not copied from the allocation
        return
    honoured = f.honoured()
    expected = None
    per = honoured.get("ntasks-per-node")
    total = honoured.get("ntasks")
    if total is not None and (count := _number(total.value)) is not None:
        expected = count
    elif per is not None and (count := _number(per.value)) is not None:
        expected = count * want_nodes
    elif (kind is None or not kind.per_node) and gpus:
        expected = gpus * want_nodes
    if expected is not None and (n := _number(word.text)) is not None and n != expected:
        yield hit(
            word.span,
            f"srun {word.raw} but the allocation holds {expected} tasks; drop it (srun starts the "
            "allocation's tasks) or make the two agree",
        )
