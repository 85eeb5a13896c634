"""What each shell variable holds at each point of the walk, and how branches change it.

Every change is written to a journal with the value before it: a branch is undone and merged from
the journal, so an `if` costs what its branches set, not the number of variables the script has.
"""

from __future__ import annotations

import os

from jobc.core.lazyre import lazy
from jobc.core.numbers import ascii_int, is_digits
from jobc.script import values as _values

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

UNSET: Any = object()  # a variable the script never set
# the shell's working directory, followed as a variable no shell name can clash with: a `cd` in a
# branch or a subshell is undone and merged like any assignment. Unset: the directory the job
# started in (the submit directory, or #SBATCH --chdir); "." after `cd "$SLURM_SUBMIT_DIR"`
CWD = " cwd"
# a file the script writes (`cat > run.sh <<EOF … EOF`), followed the same way: its text, under a
# name no shell variable can have
_FILE = " file:"
# a path under a variable's directory, the rest written out: `$wd/run.sh`, `${OUT}/x/run.sh`
_UNDER_VARIABLE = lazy(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))(/[\w.+/-]+)")
# exported variables a step's snapshot holds at most: past this, the values at the step are not
# kept (the import then reads each export's last value, said so)
_MAX_SNAPSHOT = 2000
# arms of an `if`/`case` whose values of a variable are kept each, to read a command once per arm
_MAX_ARMS = 4


class Frame:
    """The positional parameters of a function being followed."""

    __slots__ = ("args",)

    def __init__(self, args: list[_values.Field] | None) -> None:
        self.args = args  # None: the script's own arguments, which are not known


class Branches:
    """An `if`/`case`/loop: what each of its branches set, to merge at its end."""

    __slots__ = ("arms", "complete", "mark", "never", "reads", "results")

    def __init__(self, mark: int, complete: bool) -> None:
        self.mark = mark  # where the journal stood before the first branch
        self.complete = complete  # one branch always runs (an `else` or a `*)` case)
        self.results: list[dict[str, Any]] = []  # per branch: the variables it set, as it left them
        self.never: set[int] = set()  # branches the script's own values say never run
        # the arms as the steps are marked with them (an `if` of the batch shell itself): a
        # variable each arm sets to a value of its own is kept with each arm's value (`alts`)
        self.arms: list[Any] | None = None
        # what the variables read before the branches (`Variables.reads`): a variable only an arm
        # that never runs sets still reads it after them
        self.reads: dict[str, str] = {}


class Variables:
    """The shell's variables, functions' arguments and exports as the walk reaches each statement."""

    def __init__(self, size: int) -> None:
        self.vars: dict[str, _values.Value | None] = {}  # None: set, but to something unknown
        # every change of a variable, with the value before it
        self.journal: list[tuple[str, Any]] = []
        # variables set differently on two paths, each time to srun options or nothing
        # (`AUTO_RESUME=""; if …; then AUTO_RESUME="--auto-resume=1"; fi`): unknown, but an
        # option wherever they stand among srun's options
        self.optionish: set[str] = set()
        self.frames: list[Frame] = [Frame(None)]
        # variables the batch shell set, outside any branch, to nothing but another variable's
        # value (`NGPU=${SLURM_GPUS_ON_NODE:-1}`): unknown to the walk, but a condition on them
        # reads the other variable (`jobc.script.decide`)
        self.reads: dict[str, str] = {}
        self.exported: set[str] = set()
        self.bodies: dict[str, tuple[_values.Src, Any]] = {}  # function name → its definition
        self.allexport = False  # `set -a`: every variable set from here on is exported
        # statements followed through calls, eval and sourced files: bounded by the script's size
        self.budget = 50_000 + 20 * size
        # characters of values copied into the words that use them, and how many may be
        self.spent = 0
        self.allowance = 4 * _values.MAX_VALUE + 8 * size
        self.depth = 0  # branches (if, case, loops, lists) the walk is inside of
        # variables an `if`/`case` of the batch shell set to a value of its own in each arm, which
        # the paths do not share (`header="srun torchrun …"` or `header="torchrun …"`): unknown,
        # but each arm's value with its arm, so that a command that runs the variable is read once
        # for each (`jobc.script.flow`)
        self.alts: dict[str, list[tuple[Any, _values.Value]]] = {}
        self._version = 0  # changes since the last snapshot of the exported variables
        self._snapshot: tuple[int, dict[str, str | None] | None] = (-1, None)

    def setvar(self, name: str, value: _values.Value | None) -> None:
        self.optionish.discard(name)
        self.alts.pop(name, None)
        self.reads.pop(name, None)
        self.journal.append((name, self.vars.get(name, UNSET)))
        self.vars[name] = value
        self._version += 1

    def export(self, name: str) -> None:
        if name not in self.exported:
            self.exported.add(name)
            self._version += 1

    def unexport(self, name: str) -> None:
        """`export -n NAME`, `declare +x NAME`: the variable keeps its value, and the commands
        started from here on no longer see it; in a branch, whether they do is not known (its value
        is then not known either, so that a step's environment does not claim it)."""
        if name not in self.exported:
            return
        if self.depth == 0:
            self.exported.discard(name)
            self._version += 1
        else:
            self.setvar(name, None)

    def unset(self, name: str) -> None:
        """`unset NAME`: no value from here on; outside any branch, no longer exported either (in
        a branch it may or may not be: the merge makes its value unknown)."""
        self.alts.pop(name, None)
        if name in self.vars:
            self.journal.append((name, self.vars[name]))
            del self.vars[name]
        if self.depth == 0:
            self.exported.discard(name)
        self._version += 1

    def export_all(self) -> None:
        """`set -a`: every variable set from here on is exported."""
        self.allexport = True
        self._version += 1

    def exported_now(self) -> dict[str, str | None] | None:
        """The exported variables and their values as the walk stands (None: a value not known
        here); None when there are too many to keep for every step."""
        version, snapshot = self._snapshot
        if version == self._version:
            return snapshot
        names = self.vars if self.allexport else self.exported
        out: dict[str, str | None] | None = None
        if len(names) <= _MAX_SNAPSHOT:
            out = {}
            for name in names:
                if name not in self.vars or name.startswith(" "):
                    continue  # the directory and written files are no variables
                value = self.vars[name]
                known = value is not None and len(value) == 1 and _values.literal(value[0])
                out[name] = _values.text(value[0]) if known and value is not None else None
        self._snapshot = (self._version, out)
        return out

    def undo(self, mark: int) -> dict[str, Any]:
        """Undo the changes since ``mark``; what each changed variable held before the undo."""
        changed: dict[str, Any] = {}
        journal = self.journal
        while len(journal) > mark:
            name, old = journal.pop()
            if name not in changed:
                changed[name] = self.vars.get(name, UNSET)
            if old is UNSET:
                self.vars.pop(name, None)
            else:
                self.vars[name] = old
        self._version += 1
        return changed

    def merge(self, state: Branches) -> None:
        """After branches: a value every way through agrees on, else unknown."""
        self.depth -= 1
        arms = state.arms if state.arms is not None and len(state.arms) == len(state.results) else None
        if arms is not None and state.never:
            arms = [a for i, a in enumerate(arms) if i not in state.never]
        if state.never:
            state.results = [r for i, r in enumerate(state.results) if i not in state.never]
        names: dict[str, None] = {}
        for result in state.results:
            names.update(dict.fromkeys(result))
        for name in names:
            before = self.vars.get(name, UNSET)
            ways = [r.get(name, before) for r in state.results]
            if not state.complete or not state.results:
                ways.append(before)
            first = ways[0]
            # the same text either way is the same value, wherever each way wrote it
            key = _values.key(first) if first is not UNSET else UNSET
            agree = key is not UNSET and all(w is not UNSET and _values.key(w) == key for w in ways[1:])
            merged = first if agree else None
            tails_options = False
            if not agree and not name.startswith(" "):  # a directory or a file: known or not
                merged, tails_options = alternatives(name, ways, optionish=name in self.optionish)
            if merged is not before:
                self.setvar(name, merged)
            if merged is None and arms is not None and state.complete and self.depth == 0:
                self._keep_arms(name, arms, ways)
            if not agree and (tails_options or all(w is UNSET or options_only(w) for w in ways)):
                self.optionish.add(name)
        for name, read in state.reads.items():
            if name not in names and name not in self.reads and self.vars.get(name, UNSET) is None:
                self.reads[name] = read

    def _keep_arms(self, name: str, arms: list[Any], ways: list[Any]) -> None:
        """Each arm's own value of a variable they all set, known in each (at most a few arms)."""
        if len(ways) != len(arms) or not 1 < len(arms) <= _MAX_ARMS or name.startswith(" "):
            return
        if any(w is UNSET or w is None or not w or not _starts_known(w) for w in ways):
            return
        self.alts[name] = list(zip(arms, ways, strict=True))

    def lookup(self, name: str, index: str | None) -> Any:
        """A variable's fields (all its elements for `@`/`*`), None when unknown, UNSET if unset."""
        if is_digits(name) or name in ("@", "*"):
            args = self.frames[-1].args
            if args is None:
                return None
            if name in ("@", "*"):
                return tuple(args)
            n = ascii_int(name)
            if not n:
                return None  # $0, or a position past any count: not followed
            return (args[n - 1],) if n <= len(args) else UNSET
        if name in ("#", "?", "$", "!", "-", "_"):
            return None
        if name not in self.vars:
            return UNSET
        value = self.vars[name]
        if value is None:
            return None
        if index in ("@", "*"):
            return value
        if index is None:
            return value[:1]
        if (at := ascii_int(index)) is not None:
            return (value[at],) if at < len(value) else UNSET
        return None

    def step_shell(self) -> tuple[Any, ...]:
        """Enter a step's own shell: it sees the exported variables only, and its arguments are not
        followed. Returns what `leave` restores."""
        saved = self.vars, self.frames, self.journal
        names = self.vars if self.allexport else self.exported
        inherited = {k: self.vars[k] for k in names if k in self.vars}
        for name, value in self.vars.items():
            if name.startswith(" "):
                # the step starts where the batch shell stands, and sees the files it wrote
                inherited[name] = value
        self.vars = inherited
        self.frames, self.journal = [Frame(None)], []
        self._version += 1
        return saved

    def leave(self, saved: tuple[Any, ...]) -> None:
        self.vars, self.frames, self.journal = saved
        self._version += 1


def _starts_known(value: _values.Value) -> bool:
    """A value whose first word is written in the script (`torchrun --nnodes=$N …`): the command
    it runs is known, whatever the rest computes."""
    words = _values.split(value[0]) if len(value) == 1 else list(value)
    return bool(words) and _values.literal(words[0])


def file_name(path: str) -> str:
    """The name a written file's text is kept under (`./run.sh` and `run.sh` are one file)."""
    return _FILE + os.path.normpath(path)


def file_name_as_written(raw: str) -> str | None:
    """The name a file written under a variable's directory (`cat > $wd/run.sh`, `"${OUT}/run.sh"`)
    is kept under: the variable's name and the rest as written, so that the same words read it
    again (`bash $wd/run.sh`); None for any other computed path."""
    m = _UNDER_VARIABLE.fullmatch(raw.strip('"'))
    if m is None:
        return None
    return file_name("$" + (m.group(1) or m.group(2)) + m.group(3))


def alternatives(name: str, ways: list[Any], *, optionish: bool = False) -> tuple[_values.Value | None, bool]:
    """A string built differently on two paths (`CMD+=" --container-image=…"` in an `if` or a
    loop): the words every path starts with, then one unknown word for the rest; and whether what
    follows them on every path is options only (srun's or a launcher's; ``optionish``: the
    variable's unknown rest from an inner branch was), so the rest reads as options wherever it
    stands. An array built so (`A=(srun --mpi=pmix); if …; then A+=(--container-mounts=$M); fi`)
    is read the same way, element by element. None when the paths share no first word."""
    if any(way is UNSET or way is None for way in ways):
        return None, False
    split: list[list[_values.Field]] = []
    array = any(len(way) != 1 for way in ways)
    for way in ways:
        # an array's elements are its words as they stand; a string's words are what it splits into
        split.append(list(way) if array else _values.split(way[0]))
    common: list[_values.Field] = []
    for words in zip(*split, strict=False):
        if any(_values.key((w,)) != _values.key((words[0],)) for w in words[1:]):
            break
        common.append(words[0])
    tails = [words[len(common) :] for words in split]
    if common and not any(tails):
        # the same words on every path, only the blanks between them differ (`CMD="$CMD $EXTRA"`
        # with EXTRA empty): one value wherever it is split or run as a command
        return (tuple(common) if array else (_values.join(common),)), False
    # the command the paths share must be written (a computed value after it, `--addr=$(hostname)`,
    # is a word of the command like any other)
    if not common or not _values.literal(common[0]):
        return None, False
    # an option is a word written with its leading `-` (its value may be computed: `--image=$IMG`)
    rest: _values.Seg = (f"${{{name}}}", -1, -1, False)  # the words some paths add: not known
    # ... and the words an inner branch (a loop inside an `if`) added, options only, stay so
    options = all(
        (w and w[0][3] and w[0][0].startswith("-")) or (optionish and w == (rest,))
        for tail in tails
        for w in tail
    )
    if array:
        return (*common, (rest,)), options
    return (_values.join([*common, (rest,)]),), options


def options_only(value: Any) -> bool:
    """A variable's value that is nothing or srun options only (`""`, `--auto-resume=1`)."""
    return isinstance(value, tuple) and all(
        _values.literal(f) and (not _values.text(f) or _values.text(f).startswith("-")) for f in value
    )
