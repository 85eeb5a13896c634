"""What a batch script says, as records with positions: the one fact model lint and import read."""

from __future__ import annotations

from typing import Any

from jobc.core.diagnostics import Span
from jobc.core.record import field, record

# Variables that differ from rank to rank (or node to node): expanded in the batch shell, they
# take the first node's value (or none) for every rank.
PER_RANK = frozenset(
    {
        "SLURM_PROCID",
        "SLURM_NODEID",
        "SLURM_LOCALID",
        "SLURM_GTIDS",
        "SLURM_TASK_PID",
        "SLURMD_NODENAME",
        "RANK",
        "LOCAL_RANK",
        "NODE_RANK",
        "GROUP_RANK",
        "ROLE_RANK",
        "CUDA_VISIBLE_DEVICES",
    }
)


@record
class Directive:
    """One option of an `#SBATCH` line, by its long name (`N` → `nodes`)."""

    name: str
    value: str | None  # None for a bare flag (--exclusive, --requeue)
    span: Span  # the option as written
    honoured: bool  # before the first command: sbatch reads it
    text: str  # the option as written, for messages


@record
class Word:
    """One shell word of a command: its text after quote removal (when literal) and where it is."""

    text: str
    span: Span
    literal: bool  # no expansion, substitution or glob in it: `text` is exactly what runs
    raw: str  # as written in the script
    node: Any = field(default=None, compare=False)  # the syntax node, while the script is read
    # for a word assembled from variables: its parts, each with where it was written
    segs: Any = field(default=None, compare=False)
    placed: bool = field(default=False, compare=False)  # its span is where its parts were written


@record
class Expansion:
    """A per-rank variable read by a `$NAME`, `${NAME…}` or `$((… NAME …))`."""

    name: str
    span: Span
    shell: str  # "batch": expanded once in the batch shell; "step": inside a started task


@record
class Export:
    name: str
    value: str | None  # the literal value; None when computed ($(…), $VAR, …)
    raw: str  # the value as written
    span: Span  # the whole assignment
    value_span: Span
    exported: bool  # `export NAME=…` (or `export NAME` later), not a plain shell variable


@record
class Trap:
    action: str
    signals: tuple[str, ...]  # normalised: SIGTERM, SIGUSR1, EXIT, …
    span: Span
    function: str | None = None  # set inside this shell function: it traps once the function runs


@record
class Launcher:
    """torchrun, python -m torch.distributed.run, accelerate launch or deepspeed, with its options."""

    name: str  # torchrun | accelerate | deepspeed
    options: dict[str, Word]  # by normalised name (nnodes, nproc_per_node, rdzv_endpoint, …)
    flags: tuple[str, ...]  # options without a value (standalone, multi_gpu, …)
    span: Span
    # the rendezvous host and port, from their own options or the two halves of an endpoint
    host: Word | None = None
    port: Word | None = None


@record(frozen=False)
class Step:
    """A command that starts the training program: under srun, a launcher, or both."""

    span: Span
    text: str
    srun: dict[str, Word] | None  # srun's options by long name; None: not started by srun
    srun_flags: tuple[str, ...]
    launcher: Launcher | None
    python: str | None  # the interpreter as written: python, python3, /path/python, uv
    uv_sync: bool  # `uv run` without --no-sync
    program: Word | None
    module: Word | None
    args: list[Word]
    container: dict[str, Word]  # pyxis options of srun, by name without the leading --
    background: bool
    exec_: bool
    line: int  # the first line, for ordering against traps and other commands
    command: str = ""  # the command srun starts (its base name), when it is no program jobc reads
    syncs: Span | None = None  # `uv sync` (or `uv run`) inside the step's own shell: every task runs it


@record
class Command:
    """Any other command the batch shell runs (module loads, cd, echo, helper sruns, …)."""

    name: str
    text: str
    span: Span
    words: tuple[str, ...]


@record
class Problem:
    """A part of the script that could not be read."""

    message: str
    span: Span
    severity: str = "warning"


@record(frozen=False)
class ScriptFacts:
    file: str
    lines: list[str]
    shell: str  # bash, sh, csh, python, … (from the shebang; bash when none)
    readable: bool  # the body was parsed as a POSIX/bash shell script
    directives: list[Directive] = field(default_factory=list)
    first_command: Span | None = None
    exports: list[Export] = field(default_factory=list)
    traps: list[Trap] = field(default_factory=list)
    steps: list[Step] = field(default_factory=list)
    commands: list[Command] = field(default_factory=list)
    expansions: list[Expansion] = field(default_factory=list)
    functions: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # (where a value was written, the command that runs it): a finding on the value names both
    origins: list[tuple[Span, Span]] = field(default_factory=list)
    crlf: int | None = None  # the first line that ends in \r\n (sbatch refuses DOS line breaks)
    crlf_lines: tuple[int, ...] = ()  # every line that ends in \r\n, for the repair
    # per-rank names the script gives values itself (`NODE_RANK=1`, `for NODE_RANK in …`): its own
    # variables, not the ones Slurm or a launcher sets for each rank
    own: frozenset[str] = frozenset()
    # each assigned variable's value where the batch shell reaches its step, as far as the script
    # says it (None: unknown there, set differently on two paths, or unset again)
    final: dict[str, str | None] = field(default_factory=dict)

    def honoured(self) -> dict[str, Directive]:
        """The directives sbatch reads, by name; a later one wins, as in sbatch."""
        out: dict[str, Directive] = {}
        for d in self.directives:
            if d.honoured:
                out[d.name] = d
        return out

    @property
    def main_step(self) -> Step | None:
        """The step that runs the training: the last launcher; else the last srun step that is no
        helper (a one-task download, `srun hostname`); else the last program; else the last step."""
        steps = self.steps
        for step in reversed(steps):
            if step.launcher is not None:
                return step
        for want_program in (True, False):
            for step in reversed(steps):
                known = step.program is not None or step.module is not None
                if step.srun is not None and known == want_program and not _helper(step):
                    return step
        for step in reversed(steps):
            if step.program is not None or step.module is not None:
                return step
        return steps[-1] if steps else None


# commands a helper step runs: never the training
_HELPERS = frozenset(
    {
        "hostname",
        "nvidia-smi",
        "echo",
        "mkdir",
        "rm",
        "cp",
        "rsync",
        "ls",
        "true",
        "sleep",
        "date",
        "env",
        "printenv",
        "pip",
        "uv",
        "tar",
        "df",
        "free",
        "ibstat",
        "nproc",
        "touch",
        "cat",
        "scontrol",
    }
)
_HELPER_PROGRAM = (
    "prep",
    "preprocess",
    "download",
    "convert",
    "tokeni",
    "setup",
    "install",
    "fetch",
    "stage",
)


def _helper(step: Step) -> bool:
    """A step that prepares or inspects rather than trains: a command from the helper list, or a
    single task running a program named for preparing data."""
    if step.command in _HELPERS:
        return True
    target = step.program or step.module
    if target is None or step.srun is None:
        return False
    name = target.text.rsplit("/", 1)[-1].lower()
    single = any(w.text == "1" for k, w in step.srun.items() if k in ("ntasks", "nodes"))
    return single and name.startswith(_HELPER_PROGRAM)
