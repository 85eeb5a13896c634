"""Launch steps: which commands start a step (srun, a launcher, a Python program) and what each
runs, from the words the expander gives. A new way of writing a launch is a change here: a wrapper
in `skip_wrappers`, an srun option in `srun_options`, a launcher in `jobc.tables.launchers`."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from jobc.core.diagnostics import Span
from jobc.script import values as _values
from jobc.script.expand import Expander
from jobc.script.facts import Launcher, Step, Word
from jobc.script.tree import Positions, argument_nodes, dash_c, descendants, field, parser
from jobc.script.variables import Variables
from jobc.tables import launchers as _launchers
from jobc.tables.slurm_options import SRUN_FLAGS, SRUN_SHORT, SRUN_SHORT_FLAGS

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
PYTHON = re.compile(r"^python(\d+(\.\d+)?)?$")
_PLAIN_VARIABLE = re.compile(r"\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?")
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
    }
)
_ENV_RUN = frozenset({"conda", "mamba", "micromamba"})
_ENV_RUN_VALUED = frozenset({"-n", "--name", "-p", "--prefix", "--cwd"})
_CONFIG_KEYS = ("num_machines", "num_processes", "machine_rank", "main_process_ip", "main_process_port")


class Steps:
    """Reads the steps of one script: srun and its options, wrappers, launchers, programs."""

    def __init__(self, pos: Positions, state: Variables, expand: Expander, base: Path | None) -> None:
        self.pos = pos
        self.state = state
        self.expand = expand
        self.facts = pos.facts
        self.base = base  # the folder of the script: a launcher's config file is looked for there

    def step(
        self, words: list[Word], text: str, span: Span, background: bool, src: _values.Src
    ) -> Step | None:
        i, exec_ = 0, False
        i, exec_ = skip_wrappers(words, i)
        srun: dict[str, Word] | None = None
        srun_flags: tuple[str, ...] = ()
        container: dict[str, Word] = {}
        if i < len(words) and os.path.basename(words[i].text) == "srun":
            srun, srun_flags, i = self.srun_options(words, i + 1, self.state.optionish)
            container = {k: v for k, v in srun.items() if k.startswith("container-")}
            for w in words[:i]:
                flag = w.text.removeprefix("--")
                if flag in srun_flags and flag.startswith(("container-", "no-container-")):
                    container[flag] = w
            i, _ = skip_wrappers(words, i)
        rest = words[i:]
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
            command=os.path.basename(rest[0].text) if rest else "",
        )
        if (
            rest
            and os.path.basename(rest[0].text) in ("bash", "sh")
            and len(rest) >= 3
            and dash_c(rest[1].text)
        ):
            self.inner_script(step, rest[2], span)
        else:
            self.program(step, rest)
        if srun is None and step.launcher is None and step.program is None and step.module is None:
            if (
                len(rest) >= 2
                and step.command in ("bash", "sh")
                and not rest[1].text.startswith("-")
                and not background
            ):
                # `bash "$SCRIPT"` in the foreground: a step of its own, whatever the file runs
                return step
            return None
        return step

    def inner_script(self, step: Step, word: Word, span: Span) -> None:
        """`bash -c '…'`: the string is parsed as a script the step runs, positions kept."""
        if word.literal and word.text in self.state.bodies:
            # `srun bash -c train_fn` after `export -f train_fn`: the step runs the function
            src, body = self.state.bodies[word.text]
            self.commands_of(step, body, src)
            return
        f = field(word)
        if not any(s[3] for s in f):
            return  # all of it unknown: nothing to read
        src = _values.assemble(f)
        src.fallback = span
        tree = parser().parse(src.raw)
        # what is left to expand in the string is expanded by the step's own shell
        self.facts.expansions.extend(self.pos.expansions(tree.root_node, "step", src))
        self.commands_of(step, tree.root_node, src)

    def commands_of(self, step: Step, root: Any, src: _values.Src) -> None:
        """The first command under ``root`` that runs a launcher or a program fills the step.

        The step's shell is a new one: it sees the exported variables only, and its own arguments
        are not followed."""
        saved = self.state.step_shell()
        try:
            self._commands_of(step, root, src)
        finally:
            self.state.leave(saved)

    def _commands_of(self, step: Step, root: Any, src: _values.Src) -> None:
        for cmd in descendants(root):
            if cmd.type != "command":
                continue
            words = self.expand.words(src, argument_nodes(cmd))
            i, _ = skip_wrappers(words, 0)
            rest = words[i:]
            if (
                len(rest) >= 2
                and rest[0].text == "uv"
                and rest[1].text in ("sync", "pip")
                and step.syncs is None
            ):
                # each task of the step syncs the environment before the program starts
                step.syncs = self.pos.where(cmd, src) if src.pieces is None else self.pos.span(cmd, src)
                continue
            self.program(step, rest)
            if step.launcher is not None or step.program is not None or step.module is not None:
                if step.uv_sync and step.syncs is None:
                    step.syncs = self.pos.span(cmd, src)
                break

    def srun_options(
        self, words: list[Word], i: int, optionish: set[str] | frozenset[str] = frozenset()
    ) -> tuple[dict[str, Word], tuple[str, ...], int]:
        options: dict[str, Word] = {}
        flags: list[str] = []
        while i < len(words):
            w = words[i]
            text = w.text
            if not w.literal and (m := _PLAIN_VARIABLE.fullmatch(w.raw)) and m.group(1) in optionish:
                # srun options on some paths, nothing on others: kept as said, by its name
                flags.append(w.raw)
                i += 1
                continue
            if text == "--":
                return options, tuple(flags), i + 1
            if text.startswith("--") and len(text) > 2:
                name, eq, value = text[2:].partition("=")
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
        self, words: list[Word], i: int, known_flags: frozenset[str] = frozenset()
    ) -> tuple[dict[str, Word], tuple[str, ...], int]:
        options: dict[str, Word] = {}
        flags: list[str] = []
        while i < len(words):
            w = words[i]
            if not w.text.startswith("-") or w.text in ("-", "--"):
                if w.text == "--":
                    i += 1
                break
            name, eq, value = w.text.partition("=")
            key = _norm(name)
            if eq:
                options[key] = self.part(w, len(w.text) - len(value))
            elif (
                key in known_flags
                or key in _LAUNCHER_FLAGS
                or i + 1 >= len(words)
                or words[i + 1].text.startswith("-")
                or _starts_program(words[i + 1].text)
            ):
                flags.append(key)
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
        """Fill the step's launcher, interpreter, program or module and arguments from ``words``."""
        i = 0
        if i < len(words) and words[i].text == "uv" and i + 1 < len(words) and words[i + 1].text == "run":
            step.python = "uv"
            i += 2
            no_sync = False
            while i < len(words) and words[i].text.startswith("-"):
                opt = words[i].text
                no_sync = no_sync or opt in ("--no-sync", "--frozen")
                takes = opt in (
                    "--with",
                    "--project",
                    "--directory",
                    "--python",
                    "-p",
                    "--extra",
                    "--group",
                    "--env-file",
                )
                i += 2 if takes and "=" not in opt else 1
            step.uv_sync = not no_sync
        if i >= len(words):
            return
        first = words[i].text
        base = os.path.basename(first)
        found = _launchers.by_command(first, words[i + 1].text if i + 1 < len(words) else None)
        if found is not None:
            kind, n = found
            self.launch(step, kind, words, i, i + n)
            return
        if PYTHON.match(base):
            if step.python is None:
                step.python = first
            j = i + 1
            while j < len(words) and words[j].text.startswith("-") and words[j].text != "-m":
                j += 2 if words[j].text in ("-X", "-W") else 1
            if j + 1 < len(words) and words[j].text == "-m":
                by_module = _launchers.by_module(words[j + 1].text)
                if by_module is not None:
                    self.launch(step, by_module, words, i, j + 2)
                    return
                step.module = words[j + 1]
                step.args = words[j + 2 :]
                return
            if j < len(words):
                step.program = words[j]
                step.args = words[j + 1 :]
            return
        if step.python == "uv" and first.endswith(".py"):
            step.program = words[i]
            step.args = words[i + 1 :]

    def launch(self, step: Step, kind: _launchers.Launcher, words: list[Word], at: int, start: int) -> None:
        """A launcher from the table: its options, then the program or module it starts."""
        options, flags, j = self.launcher_options(words, start, kind.flags)
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
        step.launcher = Launcher(kind.name, options, flags, words[at].span, host, port)
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
        path = base / named.text
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
        if module_flag:
            step.module = words[0]
        elif PYTHON.match(os.path.basename(words[0].text)):
            # deepspeed/torchrun --no_python python train.py …
            sub = Step(
                step.span, step.text, None, (), None, None, False, None, None, [], {}, False, False, step.line
            )
            self.program(sub, words)
            step.program, step.module, step.args = sub.program, sub.module, sub.args
            return
        else:
            step.program = words[0]
        step.args = words[1:]


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


def skip_wrappers(words: list[Word], i: int) -> tuple[int, bool]:
    """Past `exec`, `env A=b`, `nohup`, `time` …: where the real command starts, and whether exec."""
    exec_ = False
    while i < len(words):
        w = words[i].text
        if w == "exec":
            exec_ = True
            i += 1
        elif w == "env":
            i += 1
            while i < len(words) and ("=" in words[i].text or words[i].text.startswith("-")):
                i += 1
        elif w in _WRAPPERS:
            i += 1
            while i < len(words) and words[i].text.startswith("-"):
                i += 1
        elif os.path.basename(w) in _CONTAINER_EXEC and i + 1 < len(words) and words[i + 1].text == "exec":
            # `singularity exec [options] IMAGE command …`: the command runs inside the image
            i = _past_options(words, i + 2, _CONTAINER_VALUED)
            i += 1  # the image
        elif os.path.basename(w) in _ENV_RUN and i + 1 < len(words) and words[i + 1].text == "run":
            # `conda run -n ENV python …`
            i = _past_options(words, i + 2, _ENV_RUN_VALUED)
        else:
            break
    return i, exec_


def _past_options(words: list[Word], i: int, valued: frozenset[str]) -> int:
    while i < len(words) and words[i].text.startswith("-"):
        i += 2 if words[i].text in valued else 1
    return i


def _norm(option: str) -> str:
    return option.lstrip("-").replace("-", "_")


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
