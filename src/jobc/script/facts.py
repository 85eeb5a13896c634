"""What a batch script says, as records with positions: the one fact model lint and import read."""

from __future__ import annotations

import bisect

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy
from jobc.core.record import field, record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

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
    # an unquoted `#` inside its last word ended the line there (sbatch reads `--job-name=abc#def`
    # as `abc`): what sbatch reads is `value`, but the script meant something else
    cut: bool = field(default=False, compare=False)


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
    # given by `#SBATCH --export=ALL,NAME=value`: sbatch sets it in the job's environment before
    # the batch shell starts, so every step sees it unless a line changes it
    directive: bool = field(default=False, compare=False)

    @property
    def written(self) -> str:
        """How the script wrote it, for messages: `export A=1`, `#SBATCH --export=…,A=1`."""
        if self.directive:
            return f"#SBATCH --export=…,{self.name}={self.raw}"
        return f"export {self.name}={self.raw}"


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
    # options (as normalised in options or flags) the launcher does not have: it refuses them
    unknown: tuple[str, ...] = ()
    # the words of the flags among them, as written (`--rdzv_endpoint?"$ADDR"`)
    refused_flags: dict[str, Word] = field(default_factory=dict)


@record
class Assign:
    """A variable a step's command gives the program: `A=1 srun …`, `env A=1 …`,
    `srun --export=ALL,A=1`, or `export A=1` / `cd` inside the step's own `bash -c`."""

    name: str
    value: str | None  # the literal value; None when computed when the job runs
    raw: str  # as written (`A=1`, `--export=ALL,A=1`)
    span: Span


@record
class Inner:
    """Something a step's own shell (`srun bash -c '…'`) or its command line does besides starting
    the program: another command, a redirection, an interpreter option, a bound srun option."""

    text: str
    span: Span
    kind: str  # command | redirect | pipe | python-option | srun-option | export


@record
class Arm:
    """One arm of an `if` or `case` that a step sits in."""

    at: int  # where the `if`/`case` starts (bytes): the arms of one statement share it
    line: int  # the line of the `if`/`case`
    index: int  # which arm, the first 0 (an `else` or a `*)` last)
    kind: str  # if | case
    runs: bool | None  # surely runs, surely not, or not known before the job runs
    why: str  # the values that decide it (`1 GPU per node`), or the condition as written
    # the condition compares counts (GPUs, nodes, tasks): it sizes the launch rather than choosing
    # between jobs (`case "$STRATEGY"`, `[ "$1" = convert ]`)
    sizing: bool = False


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
    # variables the step's command line or its own shell sets for the program, in order
    env: list[Assign] = field(default_factory=list)
    # the exported variables as the batch shell starts the step, by name (None: unknown there); a
    # variable exported after the step started is not here, nor one unset before it
    exported: dict[str, str | None] | None = None
    # the directory the program runs in: None when nothing changed it (the submit directory, or
    # #SBATCH --chdir); a Word (its text relative to that directory, or absolute) when a `cd` the
    # shell surely runs, srun's --chdir or a `cd` in the step's own shell set it; `unknown_cwd` when
    # the directory is not known before the job runs (a `cd` in a branch, a computed path)
    cwd: Word | None = None
    unknown_cwd: Span | None = None
    code: Word | None = None  # `python -c CODE`: code no spec field holds
    # `tune run RECIPE`: a torchtune recipe by name, whose file the installed torchtune holds
    recipe: Word | None = None
    # the program starts its processes through a launcher of its own that jobc cannot read (a
    # Hydra multirun whose launcher plugin its config, or a plugin jobc does not know, chooses):
    # the word that says so; the launch mode is then not known
    own_launcher: Word | None = None
    # the program file is started by a command computed when the job runs (`$LAUNCH_CMD train.py`,
    # `"$WRAPPER" train.py`): an interpreter, a launcher or a wrapper script, the text does not
    # say which; the word that holds it
    started_by: Word | None = None
    # the file the script sources and jobc cannot read that may set started_by (`source env.sh;
    # $SRUN_LAUNCH python train.py`): srun or nothing, as written, with its line
    sourced_from: tuple[str, Span] | None = None
    # the unquoted heredoc srun's tasks read (`srun bash <<EOF … EOF`): its body, where it was
    # written, with the quotes a heredoc keeps as text blanked out, since the batch shell expands
    # it once, quotes and all, before any task reads it
    heredoc: tuple[Span, str] | None = None
    # what else the step does that a spec does not carry: commands in its own shell, redirections,
    # interpreter options, srun options
    inner: list[Inner] = field(default_factory=list)
    # the arms of `if`/`case` statements the step sits in, the outermost first
    arms: tuple[Arm, ...] = ()
    # how many of the batch shell's commands (`ScriptFacts.commands`) it ran before this step: a
    # `cd` on the step's own line (`cd /x && srun …`) or below a function that holds the step ran
    # before it
    after: int = 0
    # the line of the innermost loop (`for`, `while`, `until`) around the step: it may run once
    # for each time round, or never
    loop: int | None = None
    # `srun VAR=x python …`: the NAME=value words srun was given as its command, which it runs as
    # a command's name (srun is no shell: it sets no variable), so the step fails there
    assigned: tuple[Word, ...] = ()
    # whether a word follows those (the program the assignments were meant for): with none, `env`
    # in front would run env itself, which prints the environment
    assigned_for: bool = False
    # the line of the script's top-level command that runs the step (a function's call, for a
    # step in the function's body): where the batch shell reaches it
    reached: int = 0
    # why the batch shell never reaches this step: an `exec` step or an `exit` before it that the
    # shell surely runs (exec replaces the shell, or, failing, ends it), or a line before it bash
    # cannot parse
    ended: str | None = None
    # the rendezvous port a program no launcher starts is given as an option of its own, which it
    # reads as its MASTER_PORT (`python train.py --master_port=3442`, `--dist-url tcp://HOST:PORT`):
    # the port, where it is written, and the option as written
    port: Word | None = None
    # the line of a command in the function the step runs (`srun bash -c train_fn`) that starts
    # that function again (`srun bash -c train_fn` in its own body): each task starts more, without
    # end until the job's limits stop them
    recursive: int | None = None


@record
class Command:
    """Any other command the batch shell runs (module loads, cd, echo, helper sruns, …)."""

    name: str
    text: str
    span: Span
    words: tuple[str, ...]
    # every word is known before the job runs (`words` is what runs); kept for the commands an
    # import may carry (module loads, environment activation)
    known: bool = False
    # the batch shell surely runs it: not in a branch, a loop, the tail of a `&&`/`||` list or a
    # subshell
    sure: bool = True
    # the words that start with a `~` bash expands (`~/x`, `~user/x`, unquoted): written again, the
    # `~` must stay outside quotes
    tildes: tuple[int, ...] = ()


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
    # variables the batch shell sets by a form the reader does not evaluate (`read B`, `for B in
    # …`, `((B++))`), each with the line and the command's first line: unknown from there on
    unevaluated: list[tuple[str, int, str]] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # (where a value was written, the command that runs it): a finding on the value names both
    origins: list[tuple[Span, Span]] = field(default_factory=list)
    # the first line of the top-level command where bash stops, refusing to parse the script: bash
    # runs nothing from there on, so no repair there can change (or be shown to keep) what it does
    unrun_from: int | None = None
    # lines (first, last) the grammar read around, where it cannot read what bash accepts
    unread: tuple[int, int] | None = None
    # files the script sources that jobc cannot read (by an absolute or computed path, or not
    # beside the script), as written, with the line: what they set is not known
    unread_sources: list[tuple[str, Span]] = field(default_factory=list)
    crlf: int | None = None  # the first line that ends in \r\n (sbatch refuses DOS line breaks)
    crlf_lines: tuple[int, ...] = ()  # every line that ends in \r\n, for the repair
    # per-rank names the script gives values itself (`NODE_RANK=1`, `for NODE_RANK in …`): its own
    # variables, not the ones Slurm or a launcher sets for each rank
    own: frozenset[str] = frozenset()
    # each assigned variable's value where the batch shell reaches its step, as far as the script
    # says it (None: unknown there, set differently on two paths, or unset again)
    final: dict[str, str | None] = field(default_factory=dict)
    # the lines that part a heterogeneous job's components (`separators`), found once
    het: tuple[int, ...] | None = field(default=None, compare=False)

    def honoured(self) -> dict[str, Directive]:
        """The directives sbatch reads for the job, by name; a later one wins, as in sbatch. Of a
        heterogeneous job, the first component's: the ones after an `#SBATCH hetjob` line ask for
        another allocation, and are never mixed with the first (`component`)."""
        out: dict[str, Directive] = {}
        first = self.separators()[0] if self.separators() else None
        for d in self.directives:
            if d.honoured and (first is None or d.span.line < first):
                out[d.name] = d
        return out

    def separators(self) -> tuple[int, ...]:
        """The lines of an `#SBATCH hetjob` (or `packjob`, its old name) that part the components
        of a heterogeneous job, each alone on its line."""
        if self.het is None:
            self.het = tuple(n for n, line in enumerate(self.lines, 1) if _separator(line))
        return self.het

    def component(self, d: Directive) -> int:
        """The component of a heterogeneous job a directive asks for: 0 before the first
        separator, 1 after it, and so on."""
        return bisect.bisect(self.separators(), d.span.line)

    @property
    def main_step(self) -> Step | None:
        """The step that runs the training (see `choose`)."""
        return choose(self.steps)[0]

    # What a script rule's `FACTS` may name besides the fields above: each says whether the
    # script has a thing at all, so that lint neither imports nor runs a rule that reads it
    # when it has none (the registry's gate; `tests/lint/test_registry.py` holds each rule to
    # saying nothing without its facts).

    @property
    def late(self) -> bool:
        """A `#SBATCH` line below the first command, which sbatch does not read."""
        return any(not d.honoured for d in self.directives)

    @property
    def cut(self) -> bool:
        """A directive sbatch reads that an unquoted `#` cuts short."""
        return any(d.honoured and d.cut for d in self.directives)

    @property
    def asks_signal(self) -> bool:
        """An honoured `#SBATCH --signal` (which signal, and to whom, is the rules' to read)."""
        return "signal" in self.honoured()

    @property
    def srun_assigns(self) -> bool:
        """A step whose srun is given `VAR=value` as its command (`srun VAR=x python …`)."""
        return any(step.assigned for step in self.steps)

    @property
    def execs(self) -> bool:
        """A step the batch shell `exec`s."""
        return any(step.exec_ for step in self.steps)

    @property
    def bom(self) -> bool:
        """A byte-order mark before the first line."""
        return bool(self.lines) and self.lines[0].startswith("\ufeff")

    @property
    def no_shebang(self) -> bool:
        """The first line (after a byte-order mark) is not a `#!` line."""
        return not (self.lines[0].removeprefix("\ufeff") if self.lines else "").startswith("#!")

    @property
    def non_ascii(self) -> bool:
        """A character outside ASCII anywhere in the text (a typographic dash is one)."""
        return not all(line.isascii() for line in self.lines)


def choose(steps: list[Step]) -> tuple[Step | None, str]:
    """The step that runs the training, and why it was chosen.

    Each step is ranked, and the best one wins; of equals, the last (training comes after the
    set-up steps of a script):

    1. a step that starts a launcher (torchrun, accelerate, deepspeed, …);
    2. a Python program or module that srun starts (or `python -c` code that imports a module whose
       name says it trains: `from src.train import main; main(args)`);
    3. a Python program or module the batch shell starts itself, whose name says it trains
       (train, pretrain, finetune, sft, main, run);
    4. an srun step whose program is not written in the script (`srun ./run.sh`, `srun $CMD`);
    5. any other Python program or module the batch shell starts;
    6. a helper: a command from the helper list (`srun hostname`, `srun pkill python`,
       `nvidia-smi`), a service the program connects to (`srun ray start --block`, an inference
       server started in the background: `vllm serve M &`), other Python
       code given with `-c` (`python -c "import deepspeed"`), a program named for checking or
       preparing (`preflight_check.py`, a one-task `prepare_data.py`).

    Within one rank, a program whose name says it trains comes before one that says it
    evaluates or converts (eval, test, infer, convert, …).
    """
    best: tuple[int, int, int, int] | None = None
    chosen: Step | None = None
    for position, step in enumerate(steps):
        rank = _rank(step)
        # a step in an arm of an `if`/`case` that the script's own values say never runs is no
        # training step while any other step may run
        key = (rank[0] if runs(step) is not False else -1, rank[1], rank[2], position)
        if best is None or key > best:
            best, chosen = key, step
    if chosen is None or best is None:
        return None, "the script starts no step"
    why = _WHY[max(best[0], 0)]
    if chosen.python == "none":
        why = why.replace("Python program", "program run as it is (no interpreter)")
    return chosen, why


def runs(step: Step) -> bool | None:
    """Whether the step's `if`/`case` arms run: surely, surely not, or not known before the job runs
    (a step the batch shell never reaches, past an `exec`, an `exit` or a line bash cannot parse,
    never does)."""
    if step.ended is not None or any(arm.runs is False for arm in step.arms):
        return False
    if any(arm.runs is None for arm in step.arms):
        return None
    return True


def alternatives(steps: list[Step], chosen: Step, *, sizing: bool = True) -> list[tuple[Arm, Step]]:
    """Steps that may run instead of ``chosen``: in another arm of an `if`/`case` around it whose
    choice is not known before the job runs and compares counts (``sizing``; or, with
    ``sizing=False``, chooses by anything else), with that arm of it. A helper is no alternative, nor
    a program whose name says it does other work (converts, evaluates) where the chosen one's says
    it trains: such an `if` chooses between jobs, not between launches of one."""
    out: list[tuple[Arm, Step]] = []
    says = _name_says(chosen)
    for arm in chosen.arms:
        if arm.runs is not None or arm.sizing != sizing:
            continue
        for other in steps:
            if other is chosen or _helper(other) or runs(other) is False or _name_says(other) < says:
                continue
            theirs = next((a for a in other.arms if a.at == arm.at), None)
            if theirs is not None and theirs.index != arm.index:
                out.append((theirs, other))
    return out


_WHY = {
    6: "the last step that starts a launcher",
    5: "the last Python program srun starts",
    4: "the last Python program the batch shell starts whose name says it trains",
    3: "the last srun step whose program the script does not write",
    2: "the last Python program the batch shell starts",
    1: "the last step the batch shell starts whose program the script does not write",
    0: "the last step (every step looks like a helper)",
}


def _rank(step: Step) -> tuple[int, int, int]:
    """(kind of step, what its program's name says, whether srun starts it): higher trains."""
    srun = int(step.srun is not None)
    if _helper(step):
        return 0, 0, srun
    says = _name_says(step)
    if step.launcher is not None:
        return 6, says, srun
    if step.python == "none" and step.launcher is None and says != 2:
        # an executable whose name does not say it trains (`srun ray start …`): ranked as an srun
        # step whose program the script does not write, below a Python program that trains
        return (3 if srun else 1), says, srun
    if step.program is not None or step.module is not None or (step.code is not None and says == 2):
        if srun:
            return 5, says, srun
        return (4 if says == 2 else 2), says, srun
    return (3 if srun else 1), 0, srun


def helper(step: Step) -> bool:
    """A step that prepares, checks or cleans up rather than trains."""
    return _helper(step)


def quick(step: Step) -> bool:
    """A helper that ends by itself in moments: a helper command (`hostname`, `pkill`, `mkdir`),
    `python -c` code, an environment check (`preflight_check.py`); not a data preparation, which
    may run for hours."""
    if step.launcher is not None or (step.module is None and step.program is None):
        checks = step.code is not None and not _code_trains(step)
        return step.launcher is None and (step.command in _HELPERS or checks)
    target = step.program or step.module
    return target is not None and bool(_CHECK_PROGRAM.search(target.text.rsplit("/", 1)[-1].lower()))


_TRAINS = lazy(r"(?:^|[^a-z])(?:pre)?train|finetune|fine_tune|sft|(?:^|[/_.-])(?:main|run)(?:$|[_.-])")
_OTHER = lazy(r"eval|test|infer|predict|generat|bench|convert|export|plot|score|sample")


def _name_says(step: Step) -> int:
    target = step.module or step.program
    if target is None:
        return 2 if _code_trains(step) else 0
    name = target.text.rsplit("/", 1)[-1].lower()
    if _TRAINS.search(name):
        return 2
    return 0 if _OTHER.search(name) else 1


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
        "pkill",
        "kill",
        "killall",
        "rocm-smi",
        "lscpu",
        "numastat",
        "ulimit",
        "ip",
        "ifconfig",
        # a check that a file or a value is there (`srun … test -f "$DIR/STARTED"` while a service starts)
        "test",
        "[",
    }
)
# services a step starts for the program to connect to, which never end by themselves: a Ray
# cluster's head and workers (`srun -w $node ray start --block &`), whose work the driver the
# batch shell runs after them submits
_SERVICES = frozenset({"ray"})
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
# programs named for checking the environment before the real launch: never the training,
# whatever runs them
_CHECK_PROGRAM = lazy(r"preflight|sanity|check_env|env_check|checkenv|check_gpu|gpu_check|smoke")


# inference servers a script starts in the background for its program to query (`vllm serve M &`,
# then the training or evaluation client): by command and subcommand (None: any), or by module
_SERVERS = frozenset(
    {
        ("vllm", "serve"),
        ("trl", "vllm-serve"),
        ("sglang", "serve"),
        ("ollama", "serve"),
        ("lmdeploy", "serve"),
        ("text-generation-launcher", None),
        ("tritonserver", None),
    }
)
_SERVER_MODULES = ("vllm.entrypoints.", "sglang.launch_server", "lmdeploy.serve.", "trl.scripts.vllm_serve")


def server(step: Step) -> bool:
    """An inference server started in the background (`vllm serve M &`, `python -m
    vllm.entrypoints.openai.api_server … &`): it serves the program that follows and never ends
    by itself, so it is not the step that trains."""
    if not step.background or step.launcher is not None:
        return False
    if step.module is not None:
        return step.module.text.startswith(_SERVER_MODULES)
    name = step.command or (step.program.text if step.program is not None else "")
    name = name.rsplit("/", 1)[-1]
    sub = step.args[0].text if step.args and step.program is not None else None
    return (name, None) in _SERVERS or (name, sub) in _SERVERS


def service(step: Step) -> bool:
    """A step that starts a service the program connects to (`srun ray start --block`)."""
    return (
        step.command in _SERVICES and step.launcher is None and step.program is None and step.module is None
    )


def helper_command(name: str) -> bool:
    """Whether a command's name is one a helper step runs (`hostname`, `nvidia-smi`, `mkdir`)."""
    return name in _HELPERS


# modules Python runs as tools that install or set up an environment, never the training
_TOOL_MODULES = frozenset({"pip", "pip3", "ensurepip", "venv", "virtualenv", "uv", "pipx"})


def tool_module(name: str) -> bool:
    """Whether `python -m NAME` installs or sets up rather than runs a program of the job's."""
    return name in _TOOL_MODULES


def _code_trains(step: Step) -> bool:
    """Code given with `python -c` that imports a module whose name says it trains (`from
    src.train import main as app_main; app_main(args=params)`): the job's program, run through a
    few lines of code, not a check (`python -c "import torch; print(torch.cuda.is_available())"`)."""
    code = step.code
    if code is None or step.launcher is not None or step.program is not None or step.module is not None:
        return False
    # (Python's parser is loaded only for a script that gives code with -c)
    from jobc.script import pycode

    text = code.text if code.literal else code.raw[1:-1] if code.raw[:1] in "'\"" else code.raw
    for module in pycode.imported(text):
        name = module.rsplit(".", 1)[-1].lower()
        if not name.startswith("_") and _TRAINS.search(name):
            return True
    return False


def _helper(step: Step) -> bool:
    """A step that prepares or inspects rather than trains: a command from the helper list, code
    given with `python -c`, a program named for checking the environment, or a single task
    running a program named for preparing data."""
    if (
        (step.command in _HELPERS or step.command in _SERVICES)
        and step.launcher is None
        and step.program is None
        and step.module is None
    ):
        return True
    if (
        step.code is not None
        and step.launcher is None
        and step.program is None
        and step.module is None
        and not _code_trains(step)
    ):
        return True
    if server(step):
        return True
    if (
        step.launcher is None
        and step.program is None
        and step.module is not None
        and tool_module(step.module.text)
    ):
        return True
    target = step.program or step.module
    if target is None:
        return False
    name = target.text.rsplit("/", 1)[-1].lower()
    if _CHECK_PROGRAM.search(name):
        return True
    if step.srun is None:
        return False
    single = any(w.text == "1" for k, w in step.srun.items() if k in ("ntasks", "nodes"))
    return single and name.startswith(_HELPER_PROGRAM)


def _separator(line: str) -> bool:
    """`#SBATCH hetjob` (or `packjob`): the line that ends one component of a heterogeneous job."""
    if not line.startswith("#SBATCH"):
        return False
    words = line[7:].split("#", 1)[0].split()
    return len(words) == 1 and words[0].lower() in ("hetjob", "packjob")


def other_component(step: Step) -> bool:
    """Whether srun starts the step in a heterogeneous job's component other than the first
    (`srun --het-group=1`, or several: `--het-group=0,1`): the directives the rules read as the
    job's request are the first component's, which say nothing of that step's allocation."""
    if step.srun is None:
        return False
    word = step.srun.get("het-group") or step.srun.get("pack-group")
    return word is not None and not (word.literal and word.text == "0")
