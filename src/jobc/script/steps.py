"""Launch steps: which commands start a step (srun, a launcher, a Python program) and what each
runs, from the words the expander gives. A new way of writing a launch is a change here: a wrapper
in `skip_wrappers`, an srun option in `srun_options`, a launcher in `jobc.tables.launchers`."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Iterator

from jobc.core.diagnostics import Span
from jobc.core.lazyre import lazy
from jobc.script import values as _values
from jobc.script.expand import Expander
from jobc.script.facts import Assign, Inner, Launcher, Step, Word
from jobc.script.tree import Positions, dash_c, descendants, field, runs, statements
from jobc.script.tree import parse as parse_tree
from jobc.script.variables import CWD, UNSET, Variables, file_name, file_name_as_written
from jobc.tables import launchers as _launchers
from jobc.tables.slurm_options import SRUN_FLAGS, SRUN_SHORT, SRUN_SHORT_FLAGS

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.core.paths import PathArg

# Commands that run the rest of their words as a command
_WRAPPERS = frozenset(
    {"nohup", "time", "command", "builtin", "setsid", "stdbuf", "taskset", "numactl", "nice"}
)
# launcher options without a value (normalised: no dashes, '-' → '_')
_LAUNCHER_FLAGS = frozenset(
    {
        "standalone",
        "no_python",
        "module",
        "m",
        "run_path",
        "multi_gpu",
        "use_deepspeed",
        "use_fsdp",
        "use_megatron_lm",
        "cpu",
        "debug",
        "quiet",
        "q",
        "no_local_rank",
        "force_multi",
        "autotuning",
        "elastic_training",
        "save_pid",
        "enable_each_rank_log",
        "bind_cores_to_rank",
        "dynamo_use_dynamic",
        "tee_output",
    }
)
# srun's other spellings of its options (its man page: `--tasks-per-node` is `--ntasks-per-node`)
_SRUN_ALIASES = {"tasks-per-node": "ntasks-per-node"}
# env's options that take the next word as their value (`env -u NAME`, `env -C DIR`); written
# together (`-uNAME`) or with `=` (`--unset=NAME`) they are one word
_ENV_VALUED = frozenset({"-u", "--unset", "-C", "--chdir", "-S", "--split-string"})
# `ipython train.py` runs the file as python does (IPython on top)
PYTHON = lazy(r"^i?python(\d+(\.\d+)?)?$")
# `launch.python: none`: a step's program is an executable run as it is, with no interpreter
NO_INTERPRETER = "none"
# interpreters of other languages that run a script file as python does (`Rscript train.R`, `julia
# --project=. train.jl`): the interpreter is launch.python, the file the program (the spec runs
# `PYTHON PROGRAM ARGS`); by name, with their options that take the next word
OTHER_INTERPRETERS = {
    "Rscript": frozenset(),
    "julia": frozenset({"-t", "--threads", "-p", "--procs", "-J", "--sysimage", "-L", "--load", "-C", "-O"}),
}
# their options that give code on the command line instead of a file
_CODE_OPTIONS = frozenset({"-e", "-E", "--eval", "--print"})
# commands that are no training program whatever srun starts them with: shells and interpreters,
# the shell's builtins, the tools a step's own shell runs before its program, and ray (its CLI
# starts services or submits jobs: the program is elsewhere)
_NOT_PROGRAM = frozenset(
    (  # noqa: SIM905 (a list of words, read as prose)
        "bash sh zsh dash ksh csh tcsh fish env exec eval source . cd export set unset shift trap wait "
        "test [ [[ true false read printf echo exit return ulimit umask alias type command builtin break "
        "continue local declare typeset readonly let getopts mapfile readarray kill pushd popd shopt hash "
        "disown jobs fg bg caller complete compgen enable help history logout times : perl ruby node java "
        "julia Rscript R lua php make cmake ninja git scp ssh rsync wget curl tee sed awk gawk grep find "
        "xargs ln mv chmod chown sort head tail wc cut tr module ml spack conda docker podman podman-hpc "
        "enroot singularity apptainer shifter ch-run charliecloud tune mamba micromamba pixi poetry pdm "
        "pip pip3 uv wandb huggingface-cli hf which whoami id sync ldd strace gdb valgrind watch timeout "
        "time srun sbatch salloc scontrol squeue sacct ray "
    ).split()
)
# an argument that names another program the command runs: it is a tool or an interpreter in front
_RUNS_OTHER = lazy(r"^(?:i?python[\d.]*|torchrun|accelerate|deepspeed|mpirun|srun)$|\.py$")
_WRAPPER_SCRIPT = (".sh", ".bash", ".slurm", ".sbatch", ".zsh", ".csh", ".pl", ".rb", ".R", ".jl", ".js")
# a console script the batch shell runs itself is the training only when its name or its
# subcommand says so (`llamafactory-cli train x.yaml`, `g4i-train cfg.yaml`)
_TRAINS = lazy(r"(?:^|[^a-z])(?:pre)?train|finetune|fine_tune|(?:^|[^a-z])sft(?:$|[^a-z])")
_ASSIGNMENT = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")
_PLAIN_VARIABLE = lazy(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
# a variable named for a Python interpreter: PY, PYTHON, PYTHON3, PYTHON_BIN, VENV_PY, PY_EXE, …
_PYTHON_VARIABLE = lazy(
    r"(?i)(?:[a-z0-9]+_)?(?:py|python[0-9.]*)(?:_?(?:bin|exe|cmd|path|interp|interpreter))?"
)
_NAME_PARTS = lazy(r"[_-]")
_MODULE_NAME = lazy(r"[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
# a variable, or a file under a variable's directory (`$BASE/launch.sh`): no command substitution
_VARIABLE_PATH = lazy(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?(?:/[\w.+/-]*)?")
# a command in a directory the script writes whose name is computed when the job runs
# (`/opt/env/bin/$(sed -n "${SLURM_ARRAY_TASK_ID}p" cmds.txt)`, `./bin/$TOOL`)
_COMPUTED_NAME = lazy(r"[\w.+~/-]*/(?:\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\([^()]*\)|`[^`]*`)")
_CONTAINER_EXEC = frozenset({"singularity", "apptainer"})
_CONTAINER_VALUED = frozenset(
    {
        "-B",
        "--bind",
        "-H",
        "--home",
        "--env",
        "--env-file",
        "--pwd",
        "-W",
        "--workdir",
        "-o",
        "--overlay",
        "--mount",
        # (their other options that take the next word: `--no-mount bind-paths`, `--app NAME`, …)
        "--no-mount",
        "--app",
        "-S",
        "--scratch",
        "--security",
        "--network",
        "--network-args",
        "--hostname",
        "--dns",
        "--apply-cgroups",
        "--add-caps",
        "--drop-caps",
        "--pem-path",
        "--fusemount",
        "--cwd",
    }
)
# `enroot start [options] NAME command …`: its options that take the next word
_ENROOT_VALUED = frozenset({"-c", "--conf", "-e", "--env", "-m", "--mount"})
# `docker|podman|podman-hpc run [options] IMAGE command …`: most of their options take a value;
# these do not (and short ones written together, `-it`, `-itd`)
_ENGINE_RUN = frozenset({"docker", "podman", "podman-hpc"})
_ENGINE_FLAGS = frozenset(
    {
        "--rm", "--init", "--privileged", "--read-only", "--interactive", "--tty", "--detach",
        "--publish-all", "--no-healthcheck", "--oom-kill-disable", "--gpu", "--mpi", "--nccl",
        "--cuda-mpi",
    }
)  # fmt: skip
_ENGINE_SHORT_FLAGS = frozenset("itdP")
_SHIFTER_VALUED = frozenset({"-V", "--volume", "-m", "--module", "-e", "--env", "--image", "-w", "--workdir"})
# nsys's options that take the next word (`-o FILE`, `-t cuda,nvtx`, `--force-overwrite true`)
_NSYS_VALUED = frozenset(
    {
        "-o", "--output", "-t", "--trace", "-s", "--sample", "-b", "--backtrace", "-c", "--capture-range",
        "-e", "--env-var", "-w", "--show-output", "-d", "--duration", "-f", "--force-overwrite", "-y",
        "--delay", "-n", "--inherit-environment", "-p", "--nvtx-capture", "-g", "--gpu-metrics-device",
        "--capture-range-end", "--cuda-memory-usage", "--stats", "--cpuctxsw", "--gpuctxsw",
        "--trace-fork-before-exec", "--kill", "--session-new", "--export", "--cudabacktrace",
    }
)  # fmt: skip
_ENV_RUN = frozenset({"conda", "mamba", "micromamba", "pixi", "poetry", "pdm"})
# (pixi's -e/--environment and --manifest-path; conda's -n, -p, --cwd)
_ENV_RUN_VALUED = frozenset(
    {"-n", "--name", "-p", "--prefix", "--cwd", "-e", "--environment", "--manifest-path"}
)
# GNU parallel's options that take the next word (`--jobs procfile`, `--joblog FILE`)
_PARALLEL_VALUED = frozenset(
    {
        "-j", "--jobs", "-P", "--max-procs", "--joblog", "--results", "--res", "-S", "--sshlogin",
        "--sshloginfile", "--slf", "--delay", "--timeout", "--retries", "--tmpdir", "--workdir", "--wd",
        "--env", "--halt", "--memfree", "--load", "-C", "--colsep", "-a", "--arg-file", "--basefile",
        "--tagstring", "--tag-string", "-N", "-n", "--max-args", "-L", "--max-lines", "-I", "--rpl",
        "--shebang-wrap", "--termseq", "--nice", "--sqlmaster", "--sqlworker",
    }
)  # fmt: skip
# xargs's options that take the next word (GNU findutils'; `-i`, `-e`, `-l` take theirs attached)
_XARGS_VALUED = frozenset(
    {
        "-a", "--arg-file", "-d", "--delimiter", "-E", "-I", "-L", "--max-lines", "-n", "--max-args",
        "-P", "--max-procs", "-s", "--max-chars", "--process-slot-var",
    }
)  # fmt: skip
# the commands that run a command once for each input, putting it in the command's words
_FILLERS = frozenset({"parallel", "xargs"})
# GNU parallel's replacement strings (`{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, `{1}`, `{2.}`,
# `{=perl=}`), xargs's usual `{}`
_REPLACEMENT = lazy(r"\{\d*(?:\.|/|//|/\.|#|%)?\}|\{=.*=\}")
# where the command ends and GNU parallel's argument lists begin
_PARALLEL_INPUTS = frozenset({":::", "::::", ":::+", "::::+"})
# a program's own option for its rendezvous port, which it reads as MASTER_PORT (OLCF's Frontier
# examples: `srun … python3 multinode.py --master_addr=$MASTER_ADDR --master_port=3442`); a bare
# `--port` may be any server's, and is not read
_PORT_OPTIONS = frozenset({"--master_port", "--master-port"})
# a program's own option for its rendezvous address as a URL, `tcp://HOST:PORT` (torch's
# init_process_group(init_method=…), as DETR, MoCo and DeiT take it); `env://` holds no port
_URL_OPTIONS = frozenset({"--dist-url", "--dist_url", "--init_method", "--init-method"})
# `$(which python)`, `$(command -v torchrun)`, `` `which python` ``: the command found on PATH
_WHICH = lazy(
    r"\$\(\s*(?:which|command\s+-v|type\s+-P)\s+([\w.+-]+)\s*\)|`\s*(?:which|command\s+-v)\s+([\w.+-]+)\s*`"
)
# options of a shell that reads its commands from standard input (`bash -s`, `bash -l`, `sh -ex`)
_SHELL_STDIN = lazy(r"^(-[slexuvi]+|--login|--norc|--noprofile)$")
_COMPUTED = lazy(r"[$`\"'\\]")  # an item of a computed --export value that is not written out
_ENV_NAME = lazy(r"^[A-Za-z_][A-Za-z0-9_]*$")
_CONFIG_KEYS = ("num_machines", "num_processes", "machine_rank", "main_process_ip", "main_process_port")


def command_name(word: Word) -> str:
    """The command a word names: its text, or for `$(which singularity)`, `$(command -v srun)`,
    `` `which python` `` the command of that name on PATH, as the name alone runs it. A computed
    word keeps its quotes in its text: `"$CONDA_PREFIX/bin/python"` names the command inside them."""
    if word.literal:
        return word.text
    which = _WHICH.fullmatch(word.raw.strip('"'))
    if which is not None:
        return which.group(1) or which.group(2)
    text = word.text
    return text[1:-1] if len(text) > 1 and text[0] == text[-1] == '"' and '"' not in text[1:-1] else text


def _is_uv(word: Word) -> bool:
    """uv by its name or by a path (`~/.local/bin/uv`, `$HOME/.local/bin/uv`, where its installer
    puts it off PATH): the same program whichever directory holds it."""
    return os.path.basename(command_name(word).strip("\"'")) == "uv"


def _no_walk(
    step: Step, src: _values.Src, items: list[tuple[Any, bool]], args: list[_values.Field] | None = None
) -> None:
    return


class Steps:
    """Reads the steps of one script: srun and its options, wrappers, launchers, programs."""

    def __init__(self, pos: Positions, state: Variables, expand: Expander, base: PathArg | None) -> None:
        self.pos = pos
        self.state = state
        self.expand = expand
        self.facts = pos.facts
        self.base = base  # the folder of the script: a launcher's config file is looked for there
        # the heredoc the command being read gets as its standard input (set by the control flow)
        self.stdin: _values.Field | None = None
        # the written file (by its name in the variables) the command `written` last read ran
        self.ran: str | None = None
        # walks the script a step runs in its own shell (set by the control flow, which owns the walk)
        self.walk_inside: Callable[
            [Step, _values.Src, list[tuple[Any, bool]], list[_values.Field] | None], None
        ] = _no_walk

    def step(
        self,
        words: list[Word],
        text: str,
        span: Span,
        background: bool,
        src: _values.Src,
        *,
        prefix: list[Assign] | None = None,
    ) -> Step | None:
        i, exec_ = 0, False
        i, exec_ = skip_wrappers(words, i)
        srun: dict[str, Word] | None = None
        srun_flags: tuple[str, ...] = ()
        container: dict[str, Word] = {}
        if i < len(words) and os.path.basename(command_name(words[i])) == "srun":
            srun, srun_flags, i = self.srun_options(words, i + 1, self.state.optionish)
            container = {k: v for k, v in srun.items() if k.startswith("container-")}
            for w in words[:i]:
                flag = w.text.removeprefix("--")
                if flag in srun_flags and flag.startswith(("container-", "no-container-")):
                    container[flag] = w
            i, _ = skip_wrappers(words, i)
        rest = words[i:]
        if any(os.path.basename(command_name(w)) == "parallel" for w in words[:i]):
            # GNU parallel's inputs (`::: a b`, `:::: file`) are not the command's words
            cut = next((k for k, w in enumerate(rest) if w.text in _PARALLEL_INPUTS), len(rest))
            rest = rest[:cut]
        rest = filled_in(words[:i], rest)
        xargs = next((w for w in words[:i] if os.path.basename(command_name(w)) == "xargs"), None)
        if xargs is not None and not any(w.text.startswith(("-I", "-i", "--replace")) for w in words[:i]):
            appended = True  # xargs puts its input's words after the command's own
        else:
            appended = False
        step = Step(
            span=span,
            text=text,
            srun=srun,
            srun_flags=srun_flags,
            launcher=None,
            python=None,
            uv_sync=False,
            program=None,
            module=None,
            args=[],
            container=container,
            background=background,
            exec_=exec_,
            line=span.line,
            command=_command(rest[0]) if rest else "",
            env=list(prefix or []) + env_assigns(words),
            exported=self.state.exported_now(),
        )
        step.inner += env_changes(words[:i]) + tools_around(words[:i])
        if appended and xargs is not None:
            step.inner.append(Inner(xargs.raw, xargs.span, "xargs-appends"))
        self.set_cwd(step, self.state.vars.get(CWD, UNSET), span)
        if srun is not None:
            self.srun_environment(step, srun)
        shell = _past_wrapper(rest, 0, shells=True) if rest else 0
        kind = "named-wrapper"
        if (
            not shell
            and _dash_c_at(rest, 1)
            and not rest[0].literal
            and _PLAIN_VARIABLE.fullmatch(rest[0].raw)
        ):
            # `srun $ENTRYPOINT bash -c "…"`: a word computed when the job runs (a wrapper, or
            # srun options); what runs is the shell's string either way
            shell, kind = 1, "wrapper"
        if shell and _dash_c_at(rest, shell):
            # `srun … /opt/entrypoint.sh bash -c "…"`: a script the container (or site) runs
            # first, which runs the shell after it; the shell's string is what the step runs
            first, last = rest[0], rest[shell - 1]
            at = first.span if first.placed or last.placed else _between(first, last)
            step.inner.append(Inner(" ".join(w.raw for w in rest[:shell]), at, kind))
            rest = rest[shell:]
        written = self.written(rest, words[:i])
        if written is not None:
            self.walk_text(step, written, span, None)
            if srun is not None and self.ran is not None:
                # `cat > run.sh <<EOF … EOF; srun bash run.sh`: every task runs what the batch
                # shell expanded once, when it wrote the file
                step.heredoc = self.expand.written_heredoc(self.ran)
        elif _dash_c_at(rest, 0):
            # `bash -c STRING NAME A B`: NAME is the shell's $0, A and B its "$@"
            self.inner_script(step, rest[2], span, [field(w) for w in rest[4:]] if len(rest) > 3 else None)
        elif _runscript_dash_c(words, i):
            # `apptainer run IMG -c "python train.py"`: the image's runscript hands its arguments
            # to a shell (`exec /bin/bash "$@"`), and `-c STRING` is that shell's command string
            step.inner.append(Inner(f"{words[i - 1].raw} {rest[0].raw}", rest[0].span, "runscript"))
            self.inner_script(step, rest[1], span, [field(w) for w in rest[3:]] if len(rest) > 2 else None)
        else:
            self.program(step, rest)
            self.relative(step)
        _srun_assignments(step, rest)
        known = step.launcher or step.program or step.module or step.code
        if srun is None and known is None:
            return step if _runs_another_file(step, rest, background) else None
        return step

    def set_cwd(self, step: Step, value: Any, span: Span) -> None:
        """The directory the step's program runs in, from the shell's directory as the walk holds
        it (UNSET: where the job started; None: not known before the job runs)."""
        if value is UNSET:
            step.cwd, step.unknown_cwd = None, None
        elif value is None or not value:
            step.cwd, step.unknown_cwd = None, span
        else:
            f = value[0]
            text = _values.text(f)
            if text == ".":
                step.cwd, step.unknown_cwd = None, None
                return
            literal = _values.literal(f)
            where = _values.place(f)
            at = self.pos.offsets(*where) if where is not None else span
            step.cwd = Word(text, at, literal, text, None, f, True)
            step.unknown_cwd = None if literal else span

    def program_port(self, step: Step) -> None:
        """The rendezvous port a program no launcher starts is given as an option of its own
        (`--master_port=3442`, `--dist-url tcp://HOST:3442`), placed at the port as written; a
        launcher's own port options are the launcher's (`Launcher.port`)."""
        if step.launcher is not None or (step.program is None and step.module is None):
            return
        args = step.args
        for k, w in enumerate(args):
            name, eq, _ = w.text.partition("=")
            if name not in _PORT_OPTIONS and name not in _URL_OPTIONS:
                continue
            if eq:
                value, said = self.part(w, len(name) + 1), w.raw
            elif k + 1 < len(args):
                value, said = args[k + 1], f"{w.raw} {args[k + 1].raw}"
            else:
                continue
            if name in _URL_OPTIONS:
                whole = _values.text(tuple(value.segs)) if value.segs is not None else value.text
                whole = whole.strip("\"'")
                colon = whole.rfind(":")
                if not whole.startswith("tcp://") or colon < len("tcp://"):
                    continue
                value = self.piece(value, colon + 1, len(whole))
            if not (value.literal and value.text.isdigit() and value.text.isascii()):
                continue
            span = value.span if value.placed else _within(value.span, w.raw if eq else value.raw, value.text)
            step.port = Word(value.text, span, True, said, None, value.segs, value.placed)
            return

    def relative(self, step: Step) -> None:
        """A program written as `$(pwd)/x.py` where the step runs in that same directory: x.py,
        relative to the workdir (whether or not the directory itself is known)."""
        program, cwd = step.program, step.cwd
        if program is None or program.segs is None:
            return
        segs = tuple(program.segs)
        here: tuple[Any, ...] = tuple(cwd.segs) if cwd is not None and cwd.segs is not None else ()
        if not here:
            return  # the directory the job started in: `$(pwd)` gave `./x.py` already
        n = len(here)
        if segs[:n] != here or len(segs) <= n:
            return
        rest = _values.cut(segs[n:], 0)
        text = _values.text(rest).lstrip("/")
        if not text or not _values.literal(rest):
            return
        step.program = Word(text, program.span, True, program.raw, program.node, rest, program.placed)

    def srun_environment(self, step: Step, srun: dict[str, Word]) -> None:
        """srun's --chdir (where the tasks start) and --export (what they see)."""
        chdir = srun.get("chdir")
        if chdir is not None:
            value = self.expand.directory([chdir]) if chdir.literal else None
            self.set_cwd(step, value, chdir.span)
        export = srun.get("export")
        if export is None:
            return
        # a value with parts computed when the job runs shows them as written (`A=$A`): the
        # items written out around them (`ALL`, `NCCL_DEBUG=INFO`) are read all the same
        items = [p for p in export.text.split(",") if p] if export.literal or export.segs else []
        if not any(p in ("ALL", "all") for p in items):
            # NONE, NIL or a list of names: the tasks see only those variables (and Slurm's)
            step.inner.append(
                Inner(
                    f"srun --export={export.raw.partition('=')[2] or export.text}", export.span, "srun-option"
                )
            )
        for item in items:
            name, eq, given = item.partition("=")
            if eq and _ENV_NAME.match(name) and (export.literal or not _COMPUTED.search(given)):
                step.env.append(Assign(name, given, f"--export={item}", export.span))

    def inner_script(self, step: Step, word: Word, span: Span, args: list[_values.Field] | None) -> None:
        """`bash -c '…'`: the string is parsed as a script the step runs, positions kept."""
        if word.literal and word.text in self.state.bodies:
            # `srun bash -c train_fn` after `export -f train_fn`: the step runs the function
            src, node = self.state.bodies[word.text]
            body = node.child_by_field_name("body")
            if body is not None:
                self.walk_inside(step, src, [(c, b) for c, b in statements(body) if runs(c)], None)
                again = _calls_itself(src, body, word.text)
                if again is not None:
                    step.recursive = self.pos.where(again, src).line
            return
        self.walk_text(step, field(word), span, args)

    def written(self, words: list[Word], front: list[Word] | None = None) -> _values.Field | None:
        """The text of a file the script wrote (`cat > run.sh <<EOF … EOF`) that ``words`` run:
        `bash run.sh`, `sh ./run.sh`, `./run.sh`, `bash $wd/run.sh` (the same words it was written
        to), `singularity exec -B "$wd:/workdir" IMG /workdir/run.sh` (through the container's bind,
        from the ``front`` words); or the heredoc a shell reads its commands from (`bash <<EOF …
        EOF`, `apptainer exec IMG bash -s <<EOF`). None for any other command."""
        self.ran = None
        i = 1 if words and os.path.basename(words[0].text) in ("bash", "sh") else 0
        if i and self.stdin is not None and all(_SHELL_STDIN.match(w.text) for w in words[1:]):
            # no script named, no -c: the shell reads its commands from its standard input
            return self.stdin
        if i >= len(words) or words[i].text.startswith("-"):
            return None
        path = words[i].text if words[i].literal else words[i].raw
        host = _through_binds(path, front or [])
        if not words[i].literal and host is None:
            name = file_name_as_written(path)
        elif host is not None:
            name = file_name(host) if "$" not in host else file_name_as_written(host)
        elif i == 0 and "/" not in path:
            return None  # a command by name is looked up on PATH, not in the directory
        else:
            name = file_name(path)
        if name is None:
            return None
        value = self.state.vars.get(name)
        if value is None or len(value) != 1:
            return None
        self.ran = name
        return value[0]

    def walk_text(self, step: Step, f: _values.Field, span: Span, args: list[_values.Field] | None) -> None:
        """A script the step runs given as text (a `bash -c` string, a file the script wrote):
        parsed, positions kept, and walked as the step's own shell."""
        if not any(s[3] for s in f):
            return  # all of it unknown: nothing to read
        src = _values.assemble(f)
        src.fallback = span
        tree = parse_tree(src.raw)
        # what is left to expand in the string is expanded by the step's own shell
        self.facts.expansions.extend(self.pos.expansions(tree.root_node, "step", src))
        self.walk_inside(step, src, [(c, b) for c, b in statements(tree.root_node) if runs(c)], args)

    def srun_options(
        self, words: list[Word], i: int, optionish: set[str] | frozenset[str] = frozenset()
    ) -> tuple[dict[str, Word], tuple[str, ...], int]:
        options: dict[str, Word] = {}
        flags: list[str] = []
        while i < len(words):
            w = words[i]
            text = w.text
            if (
                not w.literal
                and (m := _PLAIN_VARIABLE.fullmatch(w.raw))
                and (
                    m.group(1) in optionish
                    or (m.group(1) not in self.state.vars and _option_follows(words, i + 1))
                )
            ):
                # srun options on some paths, nothing on others; or a name the script sets
                # nowhere (set where the job is submitted), followed by more of srun's options
                # (`srun $SRUN_ARGS -u bash -c …`): kept as said, by its name
                flags.append(w.raw)
                i += 1
                continue
            if text == "--":
                return options, tuple(flags), i + 1
            if not w.literal and w.segs and w.segs[0][3] and w.segs[0][0].startswith("-"):
                # `"--cpus-per-task=$SLURM_CPUS_PER_TASK"`: an option whose name is written and
                # whose value is computed when the job runs (the word's text keeps its quotes)
                text = _values.text(tuple(w.segs))
            if text.startswith("--") and len(text) > 2:
                name, eq, value = text[2:].partition("=")
                name = _SRUN_ALIASES.get(name, name)
                if eq:
                    options[name] = self.part(w, len(text) - len(value))
                elif name in SRUN_FLAGS or i + 1 >= len(words):
                    flags.append(name)
                else:
                    options[name] = _joined(w, words[i + 1])
                    i += 1
            elif text.startswith("-") and len(text) > 1:
                letter = text[1]
                if letter in SRUN_SHORT_FLAGS:
                    flags.append(SRUN_SHORT_FLAGS[letter])
                elif len(text) > 2:
                    options[SRUN_SHORT.get(letter, letter)] = self.part(w, 2)
                elif i + 1 < len(words):
                    options[SRUN_SHORT.get(letter, letter)] = _joined(w, words[i + 1])
                    i += 1
            else:
                return options, tuple(flags), i
            i += 1
        return options, tuple(flags), i

    def launcher_options(
        self,
        words: list[Word],
        i: int,
        known_flags: frozenset[str] = frozenset(),
        kind: _launchers.Launcher | None = None,
        unknown: list[str] | None = None,
        *,
        written: dict[str, Word] | None = None,
    ) -> tuple[dict[str, Word], tuple[str, ...], int]:
        """The launcher's options up to its program; those ``kind`` does not have are added to
        ``unknown`` (normalised), and the words of such flags to ``written``."""
        options: dict[str, Word] = {}
        flags: list[str] = []
        while i < len(words):
            w = words[i]
            if not w.text.startswith("-") or w.text in ("-", "--"):
                if w.text == "--":
                    i += 1
                break
            name, eq, value = w.text.partition("=")
            if kind is not None and kind.names and _blank_written(w) and not kind.matches(name):
                # argparse takes a word with a blank that names none of its options for a positional
                # one (`"--rdzv_back_endpoint=a b"`, `"--x=$A b"`): the launcher's program, as written
                break
            key = _norm(name)
            if kind is not None and kind.names and name.startswith("--") and len(kind.matches(name)) == 1:
                key = _norm(kind.matches(name)[0])  # a unique prefix (`--nn 2`) is that option
            if kind is not None and unknown is not None and not _knows(kind, name):
                unknown.append(key)
            if (
                kind is not None
                and kind.names
                and not name.startswith("--")
                and len(name) > 2
                and w.text[:2] in kind.names
            ):
                # `-to`: argparse reads a letter's option and, in the same word, its value (or
                # more one-letter flags): the next word is not the option's
                letter = _norm(w.text[:2])
                if letter in kind.flags:
                    flags.append(letter)
                else:
                    options[letter] = self.part(w, 2)
                i += 1
                continue
            if eq:
                options[key] = self.part(w, len(w.text) - len(value))
            elif (
                key in known_flags
                or key in _LAUNCHER_FLAGS
                or i + 1 >= len(words)
                or words[i + 1].text.startswith("-")
                or (_starts_program(words[i + 1].text) and not _takes_value(kind, key))
            ):
                flags.append(key)
                if written is not None and unknown is not None and key in unknown:
                    written[key] = w
            else:
                options[key] = _joined(w, words[i + 1])
                i += 1
            i += 1
        return options, tuple(flags), i

    def part(self, w: Word, at: int) -> Word:
        """The value of `--name=value` (from character ``at``): where the value itself was written when
        it came from a variable, else the option as written."""
        if w.segs is None:
            value = w.text[at:]
            return Word(value, w.span, w.literal, w.raw)
        if w.literal:
            # a literal word's text is its segments' text: the value starts at the same character
            segs = _values.cut(tuple(w.segs), at)
        else:
            # a word with unknown parts shows them as written (its text is the raw word, quotes and all)
            name = w.text[:at]
            full = _values.text(tuple(w.segs))
            segs = _values.cut(tuple(w.segs), len(name) if full.startswith(name) else at)
        text = _values.text(segs)
        literal = _values.literal(segs)
        if w.placed:
            where = _values.place(segs)
            span = self.pos.offsets(*where) if where is not None else w.span
            return Word(text, span, literal, w.raw, None, segs, True)
        return Word(text, w.span, literal, w.raw, None, segs)

    def program(self, step: Step, words: list[Word]) -> None:
        """Fill the step's launcher, interpreter, program or module and arguments from ``words``.
        A `uv run` whose command is none of them (`uv run pythonexport X=1`, a command uv cannot
        find) is no interpreter of a program a later command of the step's shell runs."""
        before = (step.python, step.uv_sync)
        self._program(step, words)
        found = (step.program, step.module, step.launcher, step.code, step.recipe)
        if step.python == "uv" and before[0] != "uv" and all(x is None for x in found):
            step.python, step.uv_sync = before

    def _program(self, step: Step, words: list[Word]) -> None:
        i = _uv_run(step, words)
        if i >= len(words):
            return
        if (
            i + 2 < len(words)
            and not words[i].literal
            and _PLAIN_VARIABLE.fullmatch(words[i].raw.strip('"'))
            and words[i + 1].text == "-c"
            and self.code_torchrun(step, words, i + 2)
        ):
            # `"$VENV_PY" -c '…'`: an interpreter computed when the job runs, given Python code
            # that starts torchrun (code jobc parses as Python and finds torchrun's words in)
            return
        if self.python_by_name(step, words, i):
            return
        i = self.past_unknown(step, words, i)
        # `$(which python) train.py`: the command of that name on PATH, as a name alone runs
        first = command_name(words[i])
        base = os.path.basename(first)
        if base == "tune" and i + 1 < len(words) and words[i + 1].text == "run":
            self.tune_run(step, words, i)
            return
        found = _launchers.by_command(first, words[i + 1].text if i + 1 < len(words) else None)
        sub = (base, *(w.text for w in words[i + 1 : i + 3]))
        if found is None and sub in _launchers.SUBCOMMAND_LAUNCHERS:
            found = _launchers.SUBCOMMAND_LAUNCHERS[sub], 3  # `oumi distributed torchrun …`
        if found is None and site_torchrun(base, words[i + 1 :]):
            # `torchrun_jsc --nnodes=2 --nproc_per_node=gpu train.py`: a site's own command
            # around torchrun, given torchrun's options, starts torchrun with them
            step.inner.append(Inner(first, words[i].span, "site-torchrun"))
            found = _launchers.TORCHRUN, 1
        elif (
            found is None
            and "torchrun" in base
            and base != "torchrun"
            and words[i].literal
            and not base.endswith(_WRAPPER_SCRIPT)
        ):
            # `torchrun-hpc -N 2 -n 4 train.py`: a launcher of its own, with options jobc does not
            # know; the Python file after them is what it starts, how it starts it is not known
            k = _py_file_after(words, i + 1)
            if k is not None:
                step.started_by = words[i]
                step.program, step.args = words[k], words[k + 1 :]
                step.inner.append(Inner(" ".join(w.raw for w in words[i:k]), words[i].span, "own-launcher"))
                return
        elif found is None and site_accelerate(base, words[i + 1 :]):
            # IDRIS's `idr_accelerate train.py`: a site's command that builds accelerate's
            # configuration from Slurm's variables and starts `accelerate launch` on its node
            step.inner.append(Inner(first, words[i].span, "site-accelerate"))
            found = _launchers.ACCELERATE, 1
        if found is not None:
            kind, n = found
            self.launch(step, kind, words, i, i + n)
            return
        if PYTHON.match(base):
            self.interpreter(step, words, i, first, base)
            return
        if base in OTHER_INTERPRETERS:
            self.other_interpreter(step, words, i, first, OTHER_INTERPRETERS[base])
            return
        if words[i].literal and base in _PY_RUNNERS and _py_runner(step, words, i, _PY_RUNNERS[base]):
            return
        if first.endswith(".py") and words[i].literal:
            # `uv run train.py`, or an executable Python file (`srun ./train.py`) run by its `#!`
            if step.python != "uv" and step.started_by is None:
                step.inner.append(Inner(first, words[i].span, "executable"))
            step.program = words[i]
            step.args = words[i + 1 :]
            self.hydra(step)
        elif step.python is None and words[i].literal and executable(step, first, words[i + 1 :]):
            # a compiled binary or a console script run as it is (`srun ./train_gpt2cu -i …`,
            # `srun g4i-train config.yaml`): the program, with no interpreter in front
            step.python = NO_INTERPRETER
            step.program = words[i]
            step.args = words[i + 1 :]

    def interpreter(self, step: Step, words: list[Word], i: int, first: str, base: str) -> None:
        """`python [options] FILE|-m MODULE|-c CODE …`: the interpreter's options listed, then the
        program, module or code it runs (a launcher's module, `-m torch.distributed.run`, starts
        that launcher)."""
        if step.python is None:
            step.python = first
        j = i + 1
        while j < len(words) and words[j].text.startswith("-") and words[j].text not in ("-m", "-c", "-"):
            j += 2 if words[j].text in ("-X", "-W") else 1
        j = min(j, len(words))
        if (
            j + 1 < len(words)
            and not words[j].literal
            and _PLAIN_VARIABLE.fullmatch(words[j].raw)
            and words[j + 1].literal
            and words[j + 1].text.endswith(".py")
        ):
            # `python $DEBUG_CMD train.py`: options computed when the job runs (empty, or
            # `-m debugpy --listen …` that runs the file all the same), then the file
            j += 1
        if j > i + 1:
            # the interpreter's own options (-u, -O, -W error): no spec field holds them
            first_option, last_option = words[i + 1], words[j - 1]
            at = Span(
                first_option.span.line,
                first_option.span.col,
                last_option.span.end_line,
                last_option.span.end_col,
            )
            if at.end_line < at.line or first_option.placed != last_option.placed:
                at = first_option.span
            text = " ".join(w.raw for w in words[i + 1 : j])
            step.inner.append(Inner(f"{base} {text}", at, "python-option"))
        if j + 1 < len(words) and words[j].text == "-c":
            if self.code_torchrun(step, words, j + 1):
                return
            # code given on the command line: a spec runs a program file or a module
            step.code = words[j + 1]
            step.args = words[j + 2 :]
            return
        if j + 1 < len(words) and words[j].text == "-m":
            by_module = _launchers.by_module(words[j + 1].text)
            if by_module is not None:
                self.launch(step, by_module, words, i, j + 2)
                return
            step.module = words[j + 1]
            step.args = words[j + 2 :]
            self.hydra(step)
            return
        if j < len(words):
            step.program = words[j]
            step.args = words[j + 1 :]
            self.hydra(step)

    def code_torchrun(self, step: Step, words: list[Word], at: int) -> bool:
        """`python -c CODE` whose code starts torchrun: the command it builds (a list or a string
        of words, each it computes not known), or torch.distributed.run's entry point on the
        interpreter's own arguments (`python -c "from torch.distributed.run import main; main()"
        --nproc_per_node=4 train.py`). The code is parsed, never run; code the batch shell
        expands into (`"…$N…"`) gives torchrun and nothing more."""
        # (Python's parser is loaded only for a script that gives code with -c)
        from jobc.script import pycode as _pycode

        code = words[at]
        text = code.text if code.literal else code.raw[1:-1] if code.raw[:1] in "'\"" else code.raw
        built = _pycode.torchrun_command(text)
        if built is None:
            return False
        step.inner.append(Inner(f"python -c {code.raw}", code.span, "torchrun-code"))
        if isinstance(built, str):  # ARGV: torchrun's entry point on the interpreter's arguments
            self.launch(step, _launchers.TORCHRUN, words, at, at + 1)
        elif not code.literal:
            self.launch(step, _launchers.TORCHRUN, [code], 0, 1)
        else:
            inside = [Word(w, code.span, literal, w) for w, literal in built]
            self.launch(step, _launchers.TORCHRUN, [code, *inside], 0, 1)
        return True

    def other_interpreter(
        self, step: Step, words: list[Word], i: int, first: str, valued: frozenset[str]
    ) -> None:
        """`Rscript train.R`, `julia -t 8 train.jl`: the file after the interpreter's options is
        the program, the interpreter launch.python; code given with `-e` is no program file."""
        if step.python is None:
            step.python = first
        j = i + 1
        while j < len(words) and words[j].text.startswith("-") and words[j].text not in _CODE_OPTIONS:
            j += 2 if words[j].text in valued else 1
        j = min(j, len(words))
        if j > i + 1:
            # the interpreter's own options (`--vanilla`, `-t 8`): no spec field holds them
            text = " ".join(w.raw for w in words[i + 1 : j])
            step.inner.append(Inner(f"{os.path.basename(first)} {text}", words[i + 1].span, "python-option"))
        if j + 1 < len(words) and words[j].text in _CODE_OPTIONS:
            step.code = words[j + 1]
            step.args = words[j + 2 :]
        elif j < len(words):
            step.program = words[j]
            step.args = words[j + 1 :]

    def hydra(self, step: Step) -> None:
        """A Hydra program's launcher plugin, from its overrides (`-m hydra/launcher=torchrun
        hydra.launcher.nproc_per_node=8`). A plugin runs only in a multirun; the torchrun plugins
        are torchrun (one agent per node forks its workers), their keys torchrun's options, and
        the overrides that choose and size them leave the program's arguments: the spec's own
        torchrun starts the workers. In a multirun whose plugin the script does not name (its
        config chooses it) or names one jobc does not know, what starts the processes is not
        known. Without a multirun the program runs in its one process."""
        choice: Word | None = None
        keys: list[tuple[str, Word]] = []
        multirun = False
        for w in step.args:
            if not w.literal and w.segs is None:
                continue
            override = w.text.lstrip("+")
            if w.text in ("-m", "--multirun") or override.replace(" ", "") == "hydra.mode=MULTIRUN":
                multirun = True
            elif override.startswith("hydra/launcher="):
                choice = w
            elif override.startswith("hydra.launcher.") and "=" in override:
                keys.append((override[len("hydra.launcher.") : override.index("=")], w))
        if not multirun or (choice is None and not keys):
            return
        name = choice.text.partition("=")[2] if choice is not None else ""
        if name in _launchers.HYDRA_IN_PROCESS:
            return
        if name not in _launchers.HYDRA_TORCHRUN:
            step.own_launcher = choice if choice is not None else keys[0][1]
            return
        assert choice is not None  # a name in HYDRA_TORCHRUN came from the override
        options: dict[str, Word] = {}
        flags: list[str] = []
        for key, w in keys:
            value = self.part(w, w.text.index("=") + 1)
            if key == "standalone":
                if value.text.lower() == "true":
                    flags.append(key)
                continue
            options[key] = value
        host = options.get("master_addr")
        port = options.get("master_port")
        endpoint = options.get("rdzv_endpoint")
        if endpoint is not None and ":" in endpoint.text:
            whole = _values.text(tuple(endpoint.segs)) if endpoint.segs is not None else endpoint.text
            colon = whole.rfind(":")
            if colon >= 0:
                host = host or self.piece(endpoint, 0, colon)
                port = self.piece(endpoint, colon + 1, len(whole))
        step.launcher = Launcher("torchrun", options, tuple(flags), choice.span, host, port)
        taken = {id(choice), *(id(w) for _, w in keys)}
        step.args = [w for w in step.args if id(w) not in taken]
        step.inner.append(Inner(choice.raw, choice.span, "hydra-torchrun"))

    def python_by_name(self, step: Step, words: list[Word], i: int) -> bool:
        """`"$PY" -m sparc.cli.train`, `$PYTHON_BIN -m pkg.train`: a command computed when the job
        runs, held in a variable named for Python, given `-m` and a module name: only an
        interpreter takes those, so the module is the program (its interpreter not known: the
        spec runs `python` and says so). A launcher's name (`$LAUNCHER -m …`) is not read."""
        if i + 2 >= len(words) or words[i].literal or words[i + 1].text != "-m":
            return False
        found = _PLAIN_VARIABLE.fullmatch(words[i].raw.strip('"'))
        if found is None or not _PYTHON_VARIABLE.fullmatch(found.group(1)):
            return False
        if not (words[i + 2].literal and _MODULE_NAME.fullmatch(words[i + 2].text)):
            return False
        step.started_by = words[i]
        step.module, step.args = words[i + 2], words[i + 3 :]
        step.inner.append(Inner(words[i].raw, words[i].span, "python-by-name"))
        return True

    def past_unknown(self, step: Step, words: list[Word], i: int) -> int:
        """`$PROFILE_CMD python train.py`: words computed when the job runs (a profiler or wrapper
        set on some paths, empty on others) in front of an interpreter or launcher the script
        writes out. The program is the one written; the words before it are said not carried."""
        j = i
        while (
            j < len(words)
            and j - i < 2
            and not words[j].literal
            and (words[j].text.lstrip().startswith(("$", "JOBC")) or _wrapper_path(words, j))
        ):
            j += 1
        kind = "wrapper"
        if (
            j == i
            and i + 1 < len(words)
            and words[i].literal
            and words[i].text.endswith((".sh", ".bash"))
            and words[i + 1].literal
            and words[i + 1].text.endswith(".py")
        ):
            # `./launch.sh pretrain_gpt.py …`: a wrapper script the batch script does not hold,
            # given a Python file first (read below as the computed command before one is)
            j = i + 1
        elif j == i:
            j, kind = _past_wrapper(words, i), "named-wrapper"
        if j == i or j >= len(words):
            return i
        if kind == "wrapper":
            # `$LAUNCH apptainer exec IMG python train.py`: a container runner after the computed
            # words runs the interpreter or launcher that follows it
            k, _ = skip_wrappers(words, j)
            if k > j and k < len(words) and _starts_python_or_launcher(words, k):
                j = k
        after = words[j].text
        nxt = words[j + 1].text if j + 1 < len(words) else None
        if (
            kind == "wrapper"
            and step.srun is None
            and self.facts.unread_sources
            and _starts_python_or_launcher(words, j)
        ):
            # a file the script sources and jobc cannot read may set them (`source env.sh;
            # $SRUN_LAUNCH python train.py`): srun or nothing, what starts the program is not known
            step.started_by = words[i]
            step.sourced_from = self.facts.unread_sources[-1]
            kind = "started-by"
        elif (
            kind == "wrapper"
            and words[j].literal
            and after.endswith(".py")
            and (words[j - 1].literal or _VARIABLE_PATH.fullmatch(words[j - 1].raw.strip('"')))
        ):
            # `$LAUNCH_CMD train.py …`, `"$LAUNCH_SCRIPT" pretrain_gpt.py …`: whatever the computed
            # command is (an interpreter, a launcher with its options, a wrapper script), the
            # Python file after it is what it runs; what starts it is not known
            step.started_by = words[j - 1]
            kind = "started-by"
        elif not PYTHON.match(os.path.basename(after)) and _launchers.by_command(after, nxt) is None:
            return i
        first, last = words[i], words[j - 1]
        at = (
            first.span
            if first.placed or last.placed
            else Span(first.span.line, first.span.col, last.span.end_line, last.span.end_col)
        )
        if _site_wrapper(words[i], kind):
            kind = "site-wrapper"
        step.inner.append(Inner(" ".join(w.raw for w in words[i:j]), at, kind))
        return j

    def tune_run(self, step: Step, words: list[Word], at: int) -> None:
        """`tune run [torchrun options] RECIPE --config C key=value …` (torchtune): with any of
        torchrun's options it is torchrun, one per node, starting the recipe's workers; without
        them it runs the recipe in its own single process. A recipe given by name (not a `.py`
        file) is a file of the installed torchtune: no program jobc can name."""
        options, _, j = self.launcher_options(words, at + 2, _launchers.TORCHRUN.flags)
        if options or j > at + 2:
            self.launch(step, _launchers.TORCHRUN, words, at, at + 2)
        else:
            step.args = words[j + 1 :]
            step.program = words[j] if j < len(words) else None
        program = step.program
        if program is not None and not (program.literal and program.text.endswith(".py")):
            step.recipe, step.program = program, None
            step.inner.append(Inner(program.raw, program.span, "recipe"))

    def launch(self, step: Step, kind: _launchers.Launcher, words: list[Word], at: int, start: int) -> None:
        """A launcher from the table: its options, then the program or module it starts."""
        unknown: list[str] = []
        written: dict[str, Word] = {}
        options, flags, j = self.launcher_options(words, start, kind.flags, kind, unknown, written=written)
        for name in kind.config:
            if name in options and options[name].literal:
                self.config_options(options, options[name])
        host = next((options[k] for k in kind.address if k in options), None)
        port = next((options[k] for k in kind.port if k in options), None)
        for key in kind.endpoint:
            endpoint = options.get(key)
            if endpoint is not None and ":" in endpoint.text:
                # offsets in the text the pieces are cut from: the parts' text when the word was
                # assembled from variables (its own text may still hold the quotes as written)
                whole = _values.text(tuple(endpoint.segs)) if endpoint.segs is not None else endpoint.text
                colon = whole.rfind(":")
                if colon < 0:
                    continue
                host = host or self.piece(endpoint, 0, colon)
                port = self.piece(endpoint, colon + 1, len(whole))
        step.launcher = Launcher(
            kind.name, options, flags, words[at].span, host, port, tuple(unknown), written
        )
        self.target(step, words[j:], module_flag=any(f in flags for f in kind.module_flags))

    def piece(self, w: Word, start: int, end: int) -> Word:
        """Characters start..end of a word (an endpoint's host or port), placed where they were written
        when they came from a variable."""
        text = w.text[start:end].strip("\"'")
        if w.segs is None:
            return Word(text, w.span, w.literal and "$" not in text, w.raw, None, None, w.placed)
        segs = _values.cut(tuple(w.segs), start, end)
        where = _values.place(segs)
        span = self.pos.offsets(*where) if where is not None else w.span
        return Word(_values.text(segs), span, _values.literal(segs), w.raw, None, segs, True)

    def config_options(self, options: dict[str, Word], named: Word) -> None:
        """`accelerate launch --config_file FILE`: the sizes and rendezvous the file holds, where the
        command line does not say them itself. Values point at the --config_file option."""
        base = self.base
        if base is None or named.text.startswith("~"):
            return
        from pathlib import Path  # here: most scripts name no launcher config file

        path = Path(base) / named.text
        try:
            if not path.is_file() or path.stat().st_size > 1 << 20:
                return
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return
        for line in text.splitlines():
            key, sep, value = line.partition(":")
            key, value = key.strip(), value.split("#", 1)[0].strip().strip("'\"")
            top = not line.startswith((" ", "\t"))
            if sep and top and key in _CONFIG_KEYS and key not in options and value:
                options[key] = Word(value, named.span, True, f"{named.raw} ({key}: {value})")

    def target(self, step: Step, words: list[Word], *, module_flag: bool) -> None:
        if not words:
            return
        if not module_flag and step.launcher is not None and step.launcher.name == "mpirun":
            # `mpirun -n 8 singularity exec --nv IMG python3 train.py`: each process mpirun starts
            # is the command line after its options, a container runner or wrapper first
            k, _ = skip_wrappers(words, 0)
            if 0 < k < len(words):
                words = words[k:]
            if _dash_c_at(words, 0) and self.rank_shell(step, words):
                return
        if module_flag:
            step.module = words[0]
        elif PYTHON.match(os.path.basename(words[0].text)) and not (
            step.launcher is not None
            and step.launcher.name == "torchrun"
            and "no_python" not in step.launcher.flags
        ):
            # deepspeed/torchrun --no_python python train.py … (torchrun without --no-python runs
            # its own interpreter on the file `python`: that file is its program, as written)
            sub = Step(
                step.span, step.text, None, (), None, None, False, None, None, [], {}, False, False, step.line
            )
            self.program(sub, words)
            step.program, step.module, step.args = sub.program, sub.module, sub.args
            return
        else:
            step.program = words[0]
            if step.launcher is not None and "no_python" in step.launcher.flags:
                # `torchrun --no-python ./train_gpt2cu …`: the launcher runs it as it is
                step.python = NO_INTERPRETER
        step.args = words[1:]

    def rank_shell(self, step: Step, words: list[Word]) -> bool:
        """`mpirun … singularity exec IMG bash -c 'cd dir; python train.py'`: each process mpirun
        starts runs the shell's string, whose program is the step's, read as `srun bash -c` reads
        it. Whether it was: a string that starts a launcher of its own (or nothing jobc reads) is
        left as written, the shell for the program."""
        sub = Step(
            step.span, step.text, None, (), None, None, False, None, None, [], {}, False, False, step.line
        )
        self.inner_script(sub, words[2], step.span, [field(w) for w in words[4:]] if len(words) > 3 else None)
        if sub.launcher is not None or (sub.program is None and sub.module is None and sub.code is None):
            return False
        step.python, step.program, step.module = sub.python, sub.program, sub.module
        step.code, step.args = sub.code, sub.args
        step.cwd, step.unknown_cwd = sub.cwd, sub.unknown_cwd
        step.syncs, step.uv_sync = sub.syncs, sub.uv_sync
        step.env += sub.env
        step.inner += sub.inner
        return True


def _starts_python_or_launcher(words: list[Word], k: int) -> bool:
    """Whether ``words[k]`` is an interpreter or a launcher the script writes out."""
    first = command_name(words[k])
    nxt = words[k + 1].text if k + 1 < len(words) else None
    return PYTHON.match(os.path.basename(first)) is not None or _launchers.by_command(first, nxt) is not None


def site_torchrun(name: str, rest: list[Word]) -> bool:
    """Whether ``name`` is a site's wrapper of torchrun (JSC's `torchrun_jsc`, `torchrun-hpc`): a
    name with torchrun in it, other than torchrun, given options that are all torchrun's (at least
    one, each written out) up to a program file or module. Its own options (`torchrun-hpc -N 2 -n
    4`) say it is a launcher of its own, whose way of starting processes jobc does not know."""
    if name == "torchrun" or "torchrun" not in name or name.endswith(_WRAPPER_SCRIPT):
        return False
    torchrun = _launchers.TORCHRUN
    seen = False
    k = 0
    while k < len(rest):
        w = rest[k]
        if not w.text.startswith("-"):
            return (
                seen
                and w.literal
                and (w.text.endswith(".py") or PYTHON.match(os.path.basename(w.text)) is not None)
            )
        option, eq, _ = w.text.partition("=")  # (a value computed when the job runs is a value all the same)
        matched = torchrun.matches(option) if not _COMPUTED.search(option) else ()
        if len(matched) != 1:
            return False
        key = _norm(matched[0])
        if key in torchrun.module_flags:
            return seen or k + 1 < len(rest)
        seen = True
        k += 1 if eq or key in torchrun.flags else 2
    return False


# tools that run a Python file in an interpreter of their own (a profiler, a memory or energy
# monitor), after the subcommand that does: `perun monitor train.py`, `memray run train.py`
_PY_RUNNERS: dict[str, tuple[str, ...]] = {
    "perun": ("monitor",),
    "memray": ("run",),
    "coverage": ("run",),
    "scalene": (),
    "kernprof": (),
    "viztracer": (),
}
# ... their options that take no value (so the word after one is no value of it)
_PY_RUNNER_FLAGS = frozenset(
    {
        "-l", "--line-by-line", "-v", "--view", "-b", "--builtin", "-z", "--skip-zero",  # kernprof
        "--native", "--follow-fork", "--trace-python-allocators", "-f", "--force", "-q", "--quiet",
        "--live", "--aggregate",  # memray run
        "--cpu", "--gpu", "--memory", "--cli", "--html", "--json", "--reduced-profile",
        "--profile-all", "--no-browser",  # scalene
        "-p", "--parallel", "-a", "--append", "-L", "--pylib", "--branch", "--timid",  # coverage run
    }
)  # fmt: skip


def _py_file_after(words: list[Word], start: int, flags: frozenset[str] = frozenset()) -> int | None:
    """Where a Python file written out stands after a command's options (from ``start``); None
    when a word of the command's own comes first, or the file could be an option's value (an
    option not among ``flags``, which take none)."""
    k = start
    while k < len(words) and not (words[k].literal and words[k].text.endswith(".py")):
        before = words[k - 1].text
        after_option = before.startswith("-") and "=" not in before and before not in flags
        if not words[k].text.startswith("-") and not (k > start and after_option):
            return None  # a word of its own before any Python file: not read
        if words[k].text in ("-m", "--module"):
            return None  # a module it runs, not a file
        k += 1
    # (a file right after an option could be that option's value: not read)
    before = words[k - 1].text if k > start else ""
    ambiguous = before.startswith("-") and "=" not in before and before not in flags
    return k if k < len(words) and not ambiguous else None


def _py_runner(step: Step, words: list[Word], i: int, sub: tuple[str, ...]) -> bool:
    """`perun monitor train.py --lr 1`: the file is the program, its words after it the
    arguments; the tool around it is listed, not carried."""
    j = i + 1 + len(sub)
    if tuple(w.text for w in words[i + 1 : j]) != sub:
        return False
    k = _py_file_after(words, j, _PY_RUNNER_FLAGS)
    if k is None:
        return False
    step.program, step.args = words[k], words[k + 1 :]
    step.inner.append(Inner(" ".join(w.raw for w in words[i:k]), words[i].span, "py-runner"))
    return True


def site_accelerate(name: str, rest: list[Word]) -> bool:
    """Whether ``name`` is a site's command around accelerate (IDRIS's `idr_accelerate`): a name
    one of whose `_`/`-` parts is `accelerate`, other than accelerate itself or a wrapper script,
    given only options accelerate has, then a Python file written out."""
    if name == "accelerate" or name.endswith(_WRAPPER_SCRIPT) or "accelerate" not in _NAME_PARTS.split(name):
        return False
    accelerate = _launchers.ACCELERATE
    k = 0
    while k < len(rest):
        w = rest[k]
        if not w.text.startswith("-"):
            return w.literal and w.text.endswith(".py")
        option, eq, _ = w.text.partition("=")
        key = _norm(option)
        if _COMPUTED.search(option) or key not in accelerate.flags | accelerate.valued:
            return False
        k += 1 if eq or key in accelerate.flags else 2
    return False


def trains_by_name(text: str) -> bool:
    """Whether a command's name or its subcommand (its first two words) says it trains; the
    variables the command line sets in front of it (`FORCE_TORCHRUN=1 llamafactory-cli train`)
    are not its words."""
    words = text.split(None, 8)
    while len(words) > 1 and _ASSIGNMENT.match(words[0]):
        words.pop(0)
    return bool(_TRAINS.search(" ".join(words[:2]).lower()))


def may_run_as_is(name: str) -> bool:
    """Whether a command's name may be a program run as it is (no shell, interpreter, builtin,
    helper, container runner or wrapper script)."""
    from jobc.script.facts import helper_command

    base = os.path.basename(name)
    if not base or base in _NOT_PROGRAM or helper_command(base) or PYTHON.match(base):
        return False
    return not (base.endswith(_WRAPPER_SCRIPT) or "=" in base or base.startswith(("-", "$")))


def executable(step: Step, name: str, rest: list[Word]) -> bool:
    """Whether ``name``, run by the step as its command, is a program run as it is: a compiled
    binary or a console script, not a shell, an interpreter, a builtin, a helper or a wrapper
    script (`./run.sh`, whose program is in another file). srun's tasks (or a step's own shell)
    run it as the step; the batch shell itself only one whose name or subcommand says it trains."""
    if not may_run_as_is(name):
        return False
    if _launchers.by_command(name, None) is not None:
        return False
    if any(_RUNS_OTHER.search(os.path.basename(w.text)) for w in rest):
        # `tool input.csv python train.py`, `ipythonx train.py`: a tool in front of another
        # program, or an interpreter jobc does not know, is no program of its own
        return False
    if step.srun is not None:
        return True
    after = rest[0].text if rest and rest[0].literal else ""
    return trains_by_name(os.path.basename(name) + " " + after)


def step_words(step: Step, words: list[Word]) -> Iterator[Word]:
    """Every word of a step, those found inside a `bash -c` string included."""
    yield from words
    if step.srun is not None:
        yield from step.srun.values()
    if step.launcher is not None:
        yield from step.launcher.options.values()
        yield from (w for w in (step.launcher.host, step.launcher.port) if w is not None)
    for w in (step.program, step.module):
        if w is not None:
            yield w
    yield from step.args


def env_assigns(words: list[Word]) -> list[Assign]:
    """`env A=1 B=2 cmd …` among the commands in front of the program (`srun env A=1 python …`,
    `nohup env A=1 …`): the variables the program gets."""
    out: list[Assign] = []
    i = 0
    while i < len(words):
        name = os.path.basename(words[i].text)
        if name == "srun":
            i = _past_srun(words, i + 1)
        elif name == "env":
            i = past_env_options(words, i + 1)
            while i < len(words) and "=" in words[i].text and not words[i].text.startswith("-"):
                key, eq, given = words[i].text.partition("=")
                if eq and _ENV_NAME.match(key):
                    out.append(Assign(key, given if words[i].literal else None, words[i].raw, words[i].span))
                i += 1
        elif name == "exec" or name in _WRAPPERS:
            i += 1
        elif (inside := _container_env(words, i)) is not None:
            assigns, i = inside
            out += assigns
        else:
            return out
    return out


def _container_env(words: list[Word], i: int) -> tuple[list[Assign], int] | None:
    """`apptainer exec --env A=1 IMG …` (Singularity's too, `--env A=1,B=2`), `docker|podman run
    -e A=1 IMG …`, `enroot start -e A=1 NAME …`: the variables the image's command gets, and where
    that command starts; None when ``words[i]`` starts no container. (Apptainer's `-e` is its
    --cleanenv, no variable; a bare `-e A` passes the host's A, which the program gets anyway.)"""
    name = os.path.basename(words[i].text)
    verb = words[i + 1].text if i + 1 < len(words) else ""
    flags: tuple[str, ...]
    if name in _CONTAINER_EXEC and verb in ("exec", "run"):
        flags, valued = ("--env",), _CONTAINER_VALUED
    elif name in _ENGINE_RUN and verb == "run":
        flags, valued = ("-e", "--env"), frozenset()
    elif name == "enroot" and verb == "start":
        flags, valued = ("-e", "--env"), _ENROOT_VALUED
    else:
        return None
    out: list[Assign] = []
    j = i + 2
    while j < len(words):
        w = words[j]
        if not w.text.startswith("-"):
            if j + 1 < len(words) and _options_in_variable(w, words[j + 1]):
                j += 1  # a variable of options (`$EXTRA_FLAGS`)
                continue
            break
        option, eq, inline = w.text.partition("=")
        value = w if eq else (words[j + 1] if j + 1 < len(words) else None)
        if option in flags and value is not None:
            text = inline if eq else value.text
            for item in text.split(",") if name in _CONTAINER_EXEC else [text]:
                key, has, given = item.partition("=")
                if has and _ENV_NAME.match(key):
                    out.append(Assign(key, given if value.literal else None, f"{option} {item}", value.span))
        if name in _ENGINE_RUN:
            short_flags = not w.text.startswith("--") and set(w.text[1:]) <= _ENGINE_SHORT_FLAGS
            j += 1 if eq or w.text in _ENGINE_FLAGS or short_flags else 2
        else:
            j += 2 if (w.text in valued or option in flags) and not eq else 1
    return out, j + 1  # past the image


def env_changes(words: list[Word]) -> list[Inner]:
    """`env -u NAME`, `env -i`, `env -C DIR` among the commands in front of the program: what env
    changes besides the variables it sets (the program runs without NAME, in an empty environment,
    in DIR), which no spec field says: each listed as not carried."""
    out: list[Inner] = []
    for i, w in enumerate(words):
        if os.path.basename(w.text) != "env" or not w.literal:
            continue
        end = past_env_options(words, i + 1)
        if end > i + 1 and words[end - 1].text != "--":
            first, last = words[i + 1], words[end - 1]
            at = first.span if first.placed or last.placed else _between(first, last)
            out.append(Inner("env " + " ".join(x.raw for x in words[i + 1 : end]), at, "env-option"))
    return out


def past_env_options(words: list[Word], i: int) -> int:
    """Past env's own options (GNU coreutils'), from ``words[i]``: `-u NAME` and `-C DIR` take the
    next word as their value (`env -u CUDA_VISIBLE_DEVICES python …` unsets a variable, it does not
    run `CUDA_VISIBLE_DEVICES`); `-i`, `-0`, `-v`, `-` and the long options with `=` take none.
    `--` ends them."""
    while i < len(words):
        text = words[i].text
        if text == "--":
            return i + 1
        if text in _ENV_VALUED:
            i += 2
        elif text.startswith("-"):
            i += 1
        else:
            return i
    return i


def _through_binds(path: str, front: list[Word]) -> str | None:
    """The host path of ``path`` inside a singularity or apptainer container the ``front`` words
    start, through their binds (`-B "$wd:/workdir"`, `--bind a:/x,b:/y`): `/workdir/run.sh` is
    `$wd/run.sh`; None when no bind maps it."""
    if not path.startswith("/"):
        return None
    runner = next(
        (k for k, w in enumerate(front) if os.path.basename(command_name(w)) in _CONTAINER_EXEC), None
    )
    if runner is None:
        return None
    for k in range(runner + 1, len(front) - 1):
        if front[k].text not in ("-B", "--bind"):
            continue
        value = front[k + 1]
        for bind in (value.text if value.literal else value.raw.strip('"')).split(","):
            host, colon, inside = bind.partition(":")
            inside = inside.split(":", 1)[0].rstrip("/")
            if colon and inside and (path == inside or path.startswith(inside + "/")):
                return host.rstrip("/") + path[len(inside) :]
    return None


def filled_in(front: list[Word], rest: list[Word]) -> list[Word]:
    """The command GNU parallel or xargs (among the ``front`` words) runs, its words that hold a
    replacement string (`{}`, `{1}`, `{.}`, or the one `-I REPL` names) made not known: each run
    puts an input there, so the word as written is no argument (`python train.py --seed {1}` runs
    with `--seed 3`, `--seed 4` …)."""
    tool = next((k for k, w in enumerate(front) if os.path.basename(command_name(w)) in _FILLERS), None)
    if tool is None:
        return rest
    given: list[str] = []
    for k in range(tool + 1, len(front)):
        text = front[k].text
        if text in ("-I", "--rpl") and k + 1 < len(front):
            given.append(front[k + 1].text.split(" ", 1)[0] if text == "--rpl" else front[k + 1].text)
        elif text.startswith("--replace") or text.startswith("-i"):
            given.append(text.partition("=")[2] or text[2:] if text.startswith("-i") else "{}")
    out: list[Word] = []
    for w in rest:
        if w.literal and (_REPLACEMENT.search(w.text) or any(g and g in w.text for g in given)):
            # as a value computed when the job runs: shown as written, never as its text
            out.append(Word(w.text, w.span, False, w.raw, w.node, None, w.placed))
        else:
            out.append(w)
    return out


def _past_srun(words: list[Word], i: int) -> int:
    """Past srun's options (as `srun_options` reads them, without the values)."""
    while i < len(words):
        text = words[i].text
        if text == "--":
            return i + 1
        if text.startswith("--") and "=" not in text and text[2:] not in SRUN_FLAGS:
            i += 2
        elif text.startswith("-") and len(text) == 2 and text[1] not in SRUN_SHORT_FLAGS:
            i += 2
        elif text.startswith("-"):
            i += 1
        else:
            return i
    return i


# wrappers skip_wrappers reads past that change how the program runs (a profiler, a CPU or memory
# binding, a priority): the spec runs the program without them, which is said
_CHANGES_HOW = frozenset({"nsys", "taskset", "numactl", "nice"})


def tools_around(words: list[Word]) -> list[Inner]:
    """`srun nsys profile -o prof python train.py`, `numactl --cpunodebind=0 python …`: each such
    tool in front of the program, with its words up to the next command word read past."""
    out: list[Inner] = []
    for k, w in enumerate(words):
        if os.path.basename(command_name(w)) not in _CHANGES_HOW:
            continue
        end = k + 1
        while end < len(words) and os.path.basename(command_name(words[end])) not in _CHANGES_HOW | {"srun"}:
            end += 1
        out.append(Inner(" ".join(x.raw for x in words[k:end]), _between(w, words[end - 1]), "named-wrapper"))
    return out


def skip_wrappers(words: list[Word], i: int) -> tuple[int, bool]:
    """Past `exec`, `env A=b`, `nohup`, `time` …: where the real command starts, and whether exec."""
    exec_ = False
    while i < len(words):
        w = command_name(words[i])
        if w == "exec":
            exec_ = True
            i += 1
        elif w == "env":
            i = past_env_options(words, i + 1)
            while i < len(words) and "=" in words[i].text and not words[i].text.startswith("-"):
                i += 1
        elif w in _WRAPPERS:
            i += 1
            while i < len(words) and words[i].text.startswith("-"):
                i += 1
        elif (
            os.path.basename(w) in _CONTAINER_EXEC
            and i + 1 < len(words)
            and words[i + 1].text in ("exec", "run")
        ):
            # `singularity exec|run [options] IMAGE command …`: the command runs inside the image
            # (`run` hands it to the image's runscript, which runs it in the images people train in)
            i = _past_options(words, i + 2, _CONTAINER_VALUED)
            while i + 1 < len(words) and _options_in_variable(words[i], words[i + 1]):
                i = _past_options(words, i + 1, _CONTAINER_VALUED)
            i += 1  # the image
        elif os.path.basename(w) == "enroot" and i + 1 < len(words) and words[i + 1].text == "start":
            # `enroot start [options] NAME command …`: the command runs inside the container
            i = _past_options(words, i + 2, _ENROOT_VALUED) + 1
        elif os.path.basename(w) in _ENGINE_RUN and i + 1 < len(words) and words[i + 1].text == "run":
            # `docker run [options] IMAGE command …` (podman, NERSC's podman-hpc)
            i = _past_engine_options(words, i + 2) + 1
        elif os.path.basename(w) == "shifter":
            # `shifter --image=IMG -V a:b command …` (NERSC): the command runs inside the image
            i = _past_options(words, i + 1, _SHIFTER_VALUED)
        elif (
            os.path.basename(w) == "nsys"
            and i + 1 < len(words)
            and words[i + 1].text in ("profile", "launch")
        ):
            # `nsys profile [options] command …`: the command runs under the profiler
            i = _past_options(words, i + 2, _NSYS_VALUED)
        elif os.path.basename(w) in _ENV_RUN and i + 1 < len(words) and words[i + 1].text == "run":
            # `conda run -n ENV python …`
            i = _past_options(words, i + 2, _ENV_RUN_VALUED)
        elif os.path.basename(w) == "xargs" and i + 1 < len(words):
            # `xargs [options] command …`: the command runs with its input's words (in the place
            # of the replacement string with -I, else after its own words)
            i = _past_options(words, i + 1, _XARGS_VALUED)
        elif os.path.basename(w) == "parallel" and i + 1 < len(words):
            # GNU `parallel [options] command … ::: inputs`: the command runs once for each input,
            # in the shell that runs parallel (the step cuts it at the inputs)
            i = _past_options(words, i + 1, _PARALLEL_VALUED)
        else:
            break
    return i, exec_


# commands that start a program of their own, never a wrapper in front of one
_NOT_WRAPPERS = frozenset(
    {"bash", "sh", "zsh", "srun", "echo", "printf", "cat", "exec", "eval", "source", "."}
)
# how far past a wrapper's own words the interpreter or launcher it runs may be
_WRAPPER_WORDS = 8


def _dash_c_at(words: list[Word], i: int) -> bool:
    """Whether ``words[i:]`` is `bash -c STRING` (or sh's)."""
    return (
        len(words) >= i + 3
        and os.path.basename(words[i].text) in ("bash", "sh")
        and dash_c(words[i + 1].text)
    )


# `uv run`'s options that take a value (uv 0.13's `uv run --help`), and those that do not: uv
# refuses any other before it runs anything (`error: unexpected argument`, exit 2)
_UV_RUN_VALUED = frozenset(
    [
        "--extra",
        "--no-extra",
        "--group",
        "--no-group",
        "--only-group",
        "--no-editable-package",
        "--env-file",
        "-w",
        "--with",
        "--with-editable",
        "--with-requirements",
        "--package",
        "--python-platform",
        "--index",
        "--default-index",
        "-i",
        "--index-url",
        "--extra-index-url",
        "-f",
        "--find-links",
        "--index-strategy",
        "--keyring-provider",
        "-P",
        "--upgrade-package",
        "--upgrade-group",
        "--resolution",
        "--prerelease",
        "--prerelease-package",
        "--fork-strategy",
        "--exclude-newer",
        "--exclude-newer-package",
        "--no-sources-package",
        "--reinstall-package",
        "--link-mode",
        "-C",
        "--config-setting",
        "--config-settings-package",
        "--no-build-isolation-package",
        "--no-build-package",
        "--no-binary-package",
        "--cache-dir",
        "--refresh-package",
        "-p",
        "--python",
        "--color",
        "--allow-insecure-host",
        "--directory",
        "--project",
        "--config-file",
    ]
)
_UV_RUN_FLAGS = frozenset(
    [
        "--all-extras",
        "--no-dev",
        "--only-dev",
        "--no-default-groups",
        "--all-groups",
        "--no-editable",
        "--exact",
        "--no-env-file",
        "--isolated",
        "--active",
        "--no-sync",
        "--locked",
        "--frozen",
        "-s",
        "--script",
        "--gui-script",
        "--all-packages",
        "--no-project",
        "--no-index",
        "-U",
        "--upgrade",
        "--no-sources",
        "--reinstall",
        "--compile-bytecode",
        "--no-build-isolation",
        "--no-build",
        "--no-binary",
        "--require-build-hashes",
        "--no-require-build-hashes",
        "-n",
        "--no-cache",
        "--refresh",
        "--managed-python",
        "--no-managed-python",
        "--no-python-downloads",
        "-q",
        "--quiet",
        "-v",
        "--verbose",
        "--system-certs",
        "--offline",
        "--no-progress",
        "--no-config",
    ]
)


def uv_refuses(options: list[str]) -> str | None:
    """The first of `uv run`'s options as written that uv does not have (it refuses the line)."""
    i = 0
    while i < len(options):
        name = options[i].split("=", 1)[0]
        if name in _UV_RUN_VALUED:
            i += 1 if "=" in options[i] else 2
            continue
        if name not in _UV_RUN_FLAGS and not re.fullmatch(r"-[qv]+", name):
            return options[i]
        i += 1
    return None


def _uv_run(step: Step, words: list[Word]) -> int:
    """Past `uv run [options]` at the start of ``words`` (setting the step's interpreter to uv and
    whether it syncs): where the command uv runs starts; 0 without it. Options besides the sync
    ones are listed: launch.python uv runs `uv run --no-sync` after one sync, without them."""
    if not (len(words) > 1 and _is_uv(words[0]) and words[1].text == "run"):
        return 0
    step.python = "uv"
    i = 2
    no_sync = False
    listed: list[Word] = []
    while i < len(words) and words[i].text.startswith("-") and words[i].text != "--":
        opt = words[i].text
        no_sync = no_sync or opt in ("--no-sync", "--frozen")
        takes = opt.split("=", 1)[0] in _UV_RUN_VALUED and "=" not in opt
        if opt not in ("--no-sync", "--frozen"):
            listed.extend(words[i : i + (2 if takes else 1)])
        i += 2 if takes else 1
    if i < len(words) and words[i].text == "--":
        i += 1
    step.uv_sync = not no_sync
    if listed:
        first, last = listed[0], listed[-1]
        at = Span(first.span.line, first.span.col, last.span.end_line, last.span.end_col)
        if at.end_line < at.line or first.placed != last.placed:
            at = first.span
        step.inner.append(Inner("uv run " + " ".join(w.raw for w in listed), at, "uv-option"))
    return i


def _command(word: Word) -> str:
    """The name a step's first word runs: its file's name, or the part computed when the job runs
    (`/opt/env/bin/$(sed -n 3p ../cmds.txt)` runs `$(sed -n 3p ../cmds.txt)`, whatever slashes it holds)."""
    text = word.text
    if not word.literal:
        at = min((k for k in (text.find("$"), text.find("`")) if k >= 0), default=-1)
        if at > 0 and text[at - 1] == "/":
            return text[at:]
    return os.path.basename(text)


def _runs_another_file(step: Step, rest: list[Word], background: bool) -> bool:
    """A command the batch shell runs in the foreground whose program is in another file: `bash
    "$SCRIPT"`, or a command computed when the job runs (`"$SCRIPT_TO_RUN"`, `$RUN --cfg x`); a
    step of its own, whatever the file runs."""
    if background or not rest:
        return False
    if len(rest) >= 2 and step.command in ("bash", "sh") and not rest[1].text.startswith("-"):
        return True
    if rest[0].literal and "/" in rest[0].text and rest[0].text.endswith(_WRAPPER_SCRIPT):
        # `./run_train.sh --model x`: a script of the job's, run as a file
        return True
    raw = rest[0].raw.strip('"')
    return not rest[0].literal and bool(_VARIABLE_PATH.fullmatch(raw) or _COMPUTED_NAME.fullmatch(raw))


def _runscript_dash_c(words: list[Word], i: int) -> bool:
    """Whether ``words[i:]`` is `-c STRING` right after the image of `singularity|apptainer run`:
    the arguments the image's runscript gets, a shell's command string (no other program the
    runscript may be takes `-c` and a command line)."""
    if i + 1 >= len(words) or not dash_c(words[i].text) or words[i].text != "-c":
        return False
    for k in range(i - 2, -1, -1):
        if (
            os.path.basename(command_name(words[k])) in _CONTAINER_EXEC
            and words[k + 1].text == "run"
            and _past_options(words, k + 2, _CONTAINER_VALUED) + 1 == i
        ):
            return True
    return False


def _between(first: Word, last: Word) -> Span:
    return Span(first.span.line, first.span.col, last.span.end_line, last.span.end_col)


# commands that run the program after them as it is, changing only where or how it runs (a
# profiler, a binder, a timer): what runs is the program they are given
_TOOL_WRAPPERS = frozenset(
    {
        "numactl", "taskset", "nsys", "ncu", "nvprof", "rocprof", "omniperf", "stdbuf", "time",
        "nice", "ionice", "chrt", "timeout", "hwloc-bind", "likwid-pin", "valgrind", "perf",
        "strace", "ltrace", "gdb", "cuda-gdb", "unbuffer", "env", "nohup", "setsid", "caffeinate",
        "ddt", "map", "vtune", "scorep", "tau_exec", "hpcrun", "apptainer", "singularity",
    }
)  # fmt: skip


_ASSIGNMENT_WORD = lazy(r"[A-Za-z_][A-Za-z0-9_]*=")


def _srun_assignments(step: Step, rest: list[Word]) -> None:
    """`srun VAR=x python train.py`: srun runs its first word as the command (it is no shell, and
    sets no variable), so the step fails at `VAR=x`; the words are kept on the step, and what was
    read as a wrapper in front of the program is said to be this."""
    k = 0
    while step.srun is not None and k < len(rest) and _ASSIGNMENT_WORD.match(rest[k].raw.lstrip("\"'")):
        k += 1
    if not k:
        return
    step.assigned = tuple(rest[:k])
    # (a word after them that starts with `-` is no program for `env` in front: env reads it as
    # an option of its own)
    step.assigned_for = k < len(rest) and not rest[k].text.startswith("-")
    first = rest[0].raw
    step.inner = [
        Inner(item.text, item.span, "srun-assignment")
        if item.kind in ("named-wrapper", "site-wrapper", "wrapper") and item.text.startswith(first)
        else item
        for item in step.inner
    ]


def _wrapper_path(words: list[Word], j: int) -> bool:
    """`"$GW_HOME/bin/site-exec" python -m pkg.train`: a command by its path under a directory
    computed when the job runs, that is no interpreter or launcher itself, followed by one."""
    raw = words[j].raw.strip('"')
    if "/" not in raw or not _VARIABLE_PATH.fullmatch(raw) or j + 1 >= len(words):
        return False
    base = os.path.basename(raw)
    if PYTHON.match(base) or base in OTHER_INTERPRETERS or _launchers.by_command(base, words[j + 1].text):
        return False
    return _starts_python_or_launcher(words, j + 1)


def _site_wrapper(word: Word, kind: str) -> bool:
    """A command jobc cannot read in front of an interpreter or launcher: a script of the site's
    or the project's (`./wrap.sh`, `"$GW_HOME/bin/site-exec"`), not a known tool. The program
    after it is taken as the one that runs, which the wrapper may change: said so."""
    if kind == "named-wrapper":
        # a site's script named for the tool it runs (`/fsx/nsys-slurm-exec`) is that tool
        parts = re.split(r"[-_.]", os.path.basename(word.text))
        return not any(p in _TOOL_WRAPPERS for p in parts)
    return kind == "wrapper" and "/" in word.raw and bool(_VARIABLE_PATH.fullmatch(word.raw.strip('"')))


def _past_wrapper(words: list[Word], i: int, *, shells: bool = False) -> int:
    """`/fsx/nsys-slurm-exec torchrun …`, `ncu -o prof python train.py`, `numactl -N 0 accelerate
    launch …`: a command the script names, with only options (and their values) before an
    interpreter or a launcher it runs (with ``shells``, also `bash -c STRING`: a container's
    entrypoint script). Where that interpreter, launcher or shell starts; ``i`` when
    the words are no such wrapper (a word that is neither an option nor an option's value
    before it: the command's own argument, not a program it runs)."""
    first = words[i]
    base = os.path.basename(first.text)
    if (
        base in ("bash", "sh")
        and first.literal
        and i + 1 < len(words)
        and words[i + 1].literal
        and not words[i + 1].text.startswith("-")
    ):
        # `bash ./scripts/bind.sh --cpu=exclusive -- python3 main.py`: the shell runs a wrapper
        # script, which runs the program its arguments end in
        j = _past_wrapper(words, i + 1, shells=shells)
        return i if j == i + 1 else j
    if not first.literal or base in _NOT_WRAPPERS or PYTHON.match(base):
        return i
    if _launchers.by_command(first.text, words[i + 1].text if i + 1 < len(words) else None) is not None:
        return i
    j = i + 1
    while j < len(words) and j - i <= _WRAPPER_WORDS:
        text = words[j].text
        nxt = words[j + 1].text if j + 1 < len(words) else None
        if PYTHON.match(os.path.basename(text)) or _launchers.by_command(text, nxt) is not None:
            return j
        if shells and _dash_c_at(words, j):
            return j
        k, _ = skip_wrappers(words, j)
        if j < k < len(words):
            # `run_with_environment.sh singularity exec … IMG python train.py` (OLMo on LUMI): a
            # container runner or another wrapper jobc knows, between the script's and the program
            after = words[k].text
            following = words[k + 1].text if k + 1 < len(words) else None
            if PYTHON.match(os.path.basename(after)) or _launchers.by_command(after, following) is not None:
                return k
        previous = words[j - 1].text
        option_value = j > i + 1 and previous.startswith("-") and "=" not in previous
        if not text.startswith("-") and not option_value:
            return i
        j += 1
    return i


def _option_follows(words: list[Word], i: int) -> bool:
    """Whether an option follows an unknown `$NAME` among srun's words (`$PROG train.yaml`: the
    program with its arguments, not srun's options)."""
    return i < len(words) and words[i].text.startswith("-") and len(words[i].text) > 1


def _past_engine_options(words: list[Word], i: int) -> int:
    """Past `docker run`'s options: each takes the next word but the flags it has."""
    while i < len(words) and words[i].text.startswith("-"):
        text = words[i].text
        short_flags = not text.startswith("--") and set(text[1:]) <= _ENGINE_SHORT_FLAGS
        i += 1 if "=" in text or text in _ENGINE_FLAGS or short_flags else 2
    return i


def _options_in_variable(word: Word, after: Word) -> bool:
    """`apptainer exec --nv $EXTRA_FLAGS --env A=b $SIF …`: a variable a branch fills with options
    (or leaves empty), since an option follows it and none can follow the image (the command
    comes next, and a command is no option)."""
    return not word.literal and bool(_PLAIN_VARIABLE.fullmatch(word.raw)) and after.text.startswith("-")


def _past_options(words: list[Word], i: int, valued: frozenset[str]) -> int:
    while i < len(words) and words[i].text.startswith("-"):
        i += 2 if words[i].text in valued and "=" not in words[i].text else 1
    return i


def _knows(kind: _launchers.Launcher, option: str) -> bool:
    """Whether the launcher has ``option`` (as written, before any `=`): a short option may carry
    its value or more short flags in the same word (`-t3`, `-mq`), as argparse reads them."""
    if kind.names:
        return len(kind.matches(option)) == 1  # argparse's own reading, prefixes and all
    if option.startswith("--") or len(option) <= 2:
        return kind.knows(_norm(option))
    # `-num_machines` is no `--num_machines`: one dash, the first letter is the option
    return kind.knows(option[1])


def _norm(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


def _blank_written(w: Word) -> bool:
    """Whether a word holds a blank whatever its expansions give: written in it (quoted), not
    only in a value the batch shell computes."""
    if w.literal:
        return " " in w.text
    return w.segs is not None and any(seg[3] and " " in seg[0] for seg in w.segs)


def _takes_value(kind: _launchers.Launcher | None, key: str) -> bool:
    """Whether the launcher's parser surely gives this option the next word, whatever it looks like:
    argparse does for an option it has that takes a value (`--rdzv_endpoi train.py` makes
    train.py the endpoint, and the word after it the program)."""
    return kind is not None and kind.strict and key in kind.valued


def _starts_program(text: str) -> bool:
    """A word that is the program, not an option's value: an interpreter or a Python file."""
    return bool(PYTHON.match(os.path.basename(text))) or text.endswith(".py")


def _joined(option: Word, value: Word) -> Word:
    """`--name value` as one word: the value's text, the span and the spelling of both."""
    span = Span(option.span.line, option.span.col, value.span.end_line, value.span.end_col)
    if value.placed != option.placed or span.end_line < span.line:
        # the value was written elsewhere (a variable): it is the place to point at
        return Word(
            value.text, value.span, value.literal, f"{option.raw} {value.raw}", None, value.segs, True
        )
    return Word(value.text, span, value.literal, f"{option.raw} {value.raw}", None, value.segs, value.placed)


def _within(span: Span, raw: str, text: str) -> Span:
    """Where ``text``, the end of the word ``raw`` written at ``span``, stands in the line: the
    word's span when it is not written on one line as its own last characters."""
    stripped = raw.rstrip("\"'")
    if span.line != span.end_line or not text or not stripped.endswith(text):
        return span
    col = span.col + len(stripped) - len(text)
    return Span(span.line, col, span.line, col + len(text))


def _calls_itself(src: _values.Src, body: Any, name: str) -> Any:
    """The first command of a function's body that runs the function again: called by its name,
    or a shell's `-c NAME` (`srun bash -c train_fn` inside train_fn); None when none does."""
    for node in descendants(body):
        if node.type != "command":
            continue
        words = [
            src.raw[c.start_byte : c.end_byte].decode("utf-8", "replace").strip("'\"") for c in node.children
        ]
        if words[:1] == [name] or any(a == "-c" and b == name for a, b in itertools.pairwise(words)):
            return node
    return None
