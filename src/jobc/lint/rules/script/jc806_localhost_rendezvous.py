"""MASTER_ADDR or the rendezvous endpoint is localhost in a multi-node job.

`localhost` (or `127.0.0.1`, or torchrun's `--standalone`) means each node's own loopback: every
node starts its own rendezvous and waits for the others there, so the nodes never meet and the
job hangs until its time limit. The address must be a host every node can reach: the first node
of the allocation.

Bad:

```bash
#SBATCH --nodes=2
export MASTER_ADDR=localhost
srun torchrun --nnodes=2 --rdzv_endpoint=localhost:29500 train.py
```

Bad, assembled from a variable (the finding points at the assignment):

```bash
#SBATCH --nodes=2
RDZV_HOST=localhost
srun torchrun --nnodes=2 --rdzv_backend=c10d --rdzv_endpoint="$RDZV_HOST:29500" train.py
```

Bad, no node count: the launcher's defaults are one node and a rendezvous on 127.0.0.1, so under
srun each node trains on its own (the same run twice):

```bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
srun torchrun --nproc_per_node=8 train.py
```

Good:

```bash
#SBATCH --nodes=2
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
srun torchrun --nnodes=2 --rdzv_endpoint="$MASTER_ADDR:29500" train.py
```
"""

from __future__ import annotations

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity, Span
from jobc.lint.rules.base import Meta
from jobc.lint.rules.script._facts import facts, hit, nodes
from jobc.spec.context import Context
from jobc.tables import launchers

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.script.facts import Export, Step, Word

META = Meta(
    code="JC806",
    name="localhost-rendezvous",
    severity=Severity.ERROR,
    summary="MASTER_ADDR or the rendezvous endpoint is localhost in a multi-node job",
    remediation=(
        'Use the first node of the allocation: scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1.'
    ),
)

_LOCAL = ("localhost", "127.0.0.1", "::1", "0.0.0.0")


def _local(text: str) -> bool:
    host = text.strip().strip("[]")
    host = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return host.lower() in _LOCAL or host.startswith("127.")


def _local_word(word: Word) -> bool:
    """A literal loopback host, or one whose host part is literal (`localhost:$PORT`)."""
    if word.literal:
        return _local(word.text)
    host = word.text.strip('"').split(":", 1)[0]
    return bool(host) and "$" not in host and _local(host)


def check_script(ctx: Context) -> Iterator[Hit]:
    from jobc.script.spec import step_nodes

    f = facts(ctx)
    if f is None:
        return
    count = nodes(f)
    if count < 2:
        return
    why = f"in a {count}-node job every node would rendezvous with itself, and the job hangs"
    alone: list[tuple[Span, str]] = []
    places: list[tuple[Span, str]] = [
        (e.value_span, f"{e.name}={e.raw}")
        for e in f.exports
        if e.name in ("MASTER_ADDR", "MAIN_PROCESS_IP") and e.value is not None and _local(e.value)
    ]
    for step in f.steps:
        launcher = step.launcher
        kind = launchers.entry(launcher.name) if launcher is not None else None
        if launcher is None or kind is None:
            continue
        if step.srun is not None and (step_nodes(f, step) or count) < 2:
            continue  # a one-node step inside the bigger job: its own loopback is right
        host = launcher.host
        if host is not None and _local_word(host):
            places.append((host.span, host.raw))
        for flag in kind.single_node:
            if flag in launcher.flags:
                # under srun on every node, each copy is its own one-node job
                places.append((launcher.span, f"{launcher.name} --{flag}"))
        if step.srun is not None and _one_node_by_default(step, kind, f.exports):
            alone.append((launcher.span, launcher.name))
    for span, what in places:
        yield hit(span, f"{what} is this node's loopback: {why}; use the first node of the allocation")
    for span, name in alone:
        said = (
            "torchrun is given no --nnodes, so it starts a one-node job"
            if name == "torchrun"
            else "accelerate launch is given no --num_machines, --machine_rank or --config_file, so it "
            "starts a one-machine job (or what its default config file says, the same machine rank on "
            "every node)"
        )
        yield hit(
            span,
            f"{said} with its rendezvous on this node's loopback: under srun on {count} nodes each node "
            "runs a job of its own and the nodes never meet; give it the node count, this node's rank "
            "and the first node's address",
        )


#: what a launcher reads its node count and rendezvous from besides its options (torchrun takes
#: each option from a PET_ variable)
_FROM_ENV = ("PET_NNODES", "PET_MASTER_ADDR", "PET_RDZV_ENDPOINT", "PET_STANDALONE")


def _one_node_by_default(step: Step, kind: launchers.Launcher, exports: list[Export]) -> bool:
    """torchrun or accelerate launch given no node count, node rank, rendezvous address or config
    file: its defaults are one node and a rendezvous on 127.0.0.1."""
    launcher = step.launcher
    if launcher is None or kind.name not in ("torchrun", "accelerate"):
        return False
    if any(i.kind in ("site-accelerate", "site-torchrun") for i in step.inner) or _subcommand(step.text):
        return False  # a site's command or a console script around it: it reads the sizes from Slurm
    given = set(launcher.options) | set(launcher.flags) | set(launcher.unknown)
    wanted = (*kind.nodes, *kind.node_rank, *kind.address, *kind.endpoint, *kind.config, *kind.single_node)
    if given & set(wanted):
        return False
    named = {e.name for e in exports} | {a.name for a in step.env}
    return kind.name != "torchrun" or not named & set(_FROM_ENV)


def _subcommand(text: str) -> bool:
    """`oumi distributed torchrun …`: a console script's subcommand that runs the launcher."""
    words = [w.rsplit("/", 1)[-1] for w in text.split()[:64]]
    return any(tool in words and sub in words for tool, sub, _ in launchers.SUBCOMMAND_LAUNCHERS)
