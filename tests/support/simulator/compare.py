"""What differs between two simulated runs of a script, in words.

`compare(a, b, ignore)` lines up two simulations scenario by scenario: whether sbatch refused
the script, the options it read, the events of the job's life, the batch shell's exit status, its
output, the files left in the job's directory, and every process the stubs recorded (kind, name,
host, argv, environment, working directory, signals received, exit status). Processes are compared
as a multiset: the order in which parallel tasks start is not behaviour. `Ignore` says what may
differ — what a fix's finding names, or what an import cannot carry — and an empty list means the
two scripts did the same.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from tests.support.simulator.run import Process, Run, Simulation

# Never compared: bash's own bookkeeping, and numbers that differ from run to run (pids, ports of
# srun's own, the order in which parallel steps got their ids).
ALWAYS = frozenset(
    {
        "_",
        "SHLVL",
        "BASH_ENV",
        "SLURM_TASK_PID",
        "SLURM_STEP_ID",
        "SLURM_STEPID",
        "SLURM_STEP_LAUNCHER_PORT",
        "SLURM_SRUN_COMM_PORT",
    }
)
# What tells one task of a step from another on the same node, and the counts of tasks (the
# allocation's too): with `per_node`, a step is compared by what each node runs
TASK_IDENTITY = frozenset(
    {
        "SLURM_PROCID",
        "SLURM_LOCALID",
        "SLURM_GTIDS",
        "SLURM_NTASKS",
        "SLURM_NPROCS",
        "SLURM_TASKS_PER_NODE",
        "SLURM_NTASKS_PER_NODE",
        "SLURM_STEP_NUM_TASKS",
        "SLURM_STEP_TASKS_PER_NODE",
        "SLURM_JOB_CPUS_PER_NODE",
        "SLURM_CPUS_ON_NODE",
    }
)
_LINE = re.compile(r"\bline \d+\b|(?<=^/var/spool/slurmd/job04242/slurm_script: )\d+(?=: )")
# bash's complaint about a script it cannot parse quotes the token and the line it stopped at; a
# fix may edit that text (move a directive out of an unclosed string) while bash stops at the same
# place: where it stops (the line, after _LINE) and that it stops are compared, not what it quotes
_SYNTAX = re.compile(
    r"(: line N: (?:syntax error near unexpected token |unexpected EOF while looking for matching )?)`.*'$"
)
# what bash's `time` prints: how long it took, which no two runs share
_TIMES = re.compile(r"^(real|user|sys)\t\d+m\d+\.\d+s$")
# a process id bash quotes in `wait`'s and `kill`'s refusal (`wait: \`12srun': not a pid or valid job
# spec`): which number a process got is the system's, and a fix that starts one more process
# before it (a step in the background) shifts it
_PID_WORD = re.compile(r"(: `)\d+(?=[^']*': not a pid or valid job spec$)")
# a shell's builtin that could not write into a pipe (`echo $S|URM_PROCID`, `export|H…`, whose
# reader is a command that does not exist): whether the reader was gone by the time the builtin
# wrote is a race inside the script itself, decided anew on every run, so the complaint (dash's
# `echo: I/O error`, bash's `export: write error: Broken pipe`) is not compared
_PIPE_WRITE = re.compile(r": [a-z]{2,10}: (?:[a-z]{2,10}: )?(?:I/O error|write error: Broken pipe)$")
# a variable never compared (ALWAYS) printed by the script (`env`, `printenv`, `export -p`, with
# srun's `--label`): its value is bash's bookkeeping there too (SHLVL is one less in a command
# bash execs in the subshell of a `… &` than in the foreground)
_BOOKKEEPING = re.compile(
    r"^((?:\d+: )?(?:declare -x )?(?:" + "|".join(sorted(map(re.escape, ALWAYS))) + r")=).*$"
)


@dataclass(frozen=True)
class Ignore:
    """What may differ between the two runs."""

    env: Collection[str] = ()  # variables not compared (`NAME`, or `PREFIX*`)
    only_env: Collection[str] | None = None  # compare only these variables (None: every one)
    kinds: Collection[str] = ()  # process kinds not compared: run, step, call
    names: Collection[str] = ()  # commands not compared (`hostname`, `scontrol`)
    allocation: Collection[str] = ()  # sbatch options not compared; "*": none of them
    per_node: bool = False  # a step's tasks on one node count once (tasks per node may differ)
    # which signal a program got may differ, not when (at the warning, the time limit, …)
    which_signal: bool = False
    # the second run may do more (processes, output lines) than the first, not less or otherwise
    additions: bool = False
    # (pattern, replacement) for every text compared; a replacement may be a function of the match
    replace: Sequence[tuple[str, str | Callable[[re.Match[str]], str]]] = ()
    output: bool = False
    # bash's `set -x` trace lines (`+ …`) are not compared: they trace the script's text
    trace: bool = False
    status: bool = False
    # the batch shell's status of a step whose program could not start, as srun gives it (2, from
    # slurmstepd's execve) and as a step's shell does (126, 127): one failure, when each run
    # prints a line the `replace` rules turned into `<unstarted> …`
    unstarted_status: bool = False
    events: bool = False
    files: bool = False
    scenarios: Collection[str] = ()  # scenarios not compared

    def text(self, value: str) -> str:
        for pattern, replacement in self.replace:
            value = re.sub(pattern, replacement, value)
        return value

    def env_kept(self, name: str) -> bool:
        if name in ALWAYS or (self.per_node and name in TASK_IDENTITY):
            return False
        if self.only_env is not None and name not in self.only_env:
            return False
        return not any(name == e or (e.endswith("*") and name.startswith(e[:-1])) for e in self.env)


Key = tuple[object, ...]

# Two runs cut alike (each started as many processes as a run may: a loop that never ends) stop
# at a point that depends on how the machine scheduled them. What each did a countable number of
# times is compared as it is; what each did RECURRING times or more is the loop's work, which
# both did without end (how many times before the cut is no behaviour of the script's), and it
# must be the same work, line for line and process for process. How a process still running at
# the cut would have ended is not known (_ends_unknown).
RECURRING = 3
T = TypeVar("T", bound=Hashable)


def _unstarted_alike(a: Run, b: Run, ignore: Ignore) -> bool:
    """Whether both runs end with the status of a program that could not start, in the words of
    srun (2) and of a shell (126, 127), and each says which program it was (see Ignore)."""
    if not ignore.unstarted_status or {a.status, b.status} - {2, 126, 127}:
        return False
    said = [{ignore.text(line) for line in run.output.splitlines()} for run in (a, b)]
    return all(any(x.startswith("<unstarted> ") for x in lines) for lines in said) and bool(
        {x for x in said[0] if x.startswith("<unstarted> ")} & said[1]
    )


def _interleaved(a: Counter[str], b: Counter[str]) -> bool:
    """Whether lines one run printed and the other did not are the same characters cut into
    lines otherwise: two processes of one task that write at once (`sh -c 'cd /x & cmd'`, each
    failure written in two writes, its prefix and its message) interleave their writes as the
    scheduler runs them, which differs from run to run of one script. Each run prints each
    character as often; only where the lines break differs."""
    if not a or not b:
        return False
    return Counter("".join(a.elements()).replace(" ", "")) == Counter("".join(b.elements()).replace(" ", ""))


def _cut_alike(a: Counter[T], b: Counter[T]) -> tuple[Counter[T], Counter[T]]:
    a, b = Counter(a), Counter(b)
    for k in set(a) & set(b):
        if a[k] >= RECURRING and b[k] >= RECURRING:
            a[k] = b[k] = RECURRING
    # a loop that counts (`for ((i=1; …; i++))`, which never ends) does its work once per value of
    # its counter: lines and processes each done fewer than RECURRING times that differ only in
    # their numbers, RECURRING of them or more in each run, are the loop's work, however far each
    # got before the cut (what a run did RECURRING times itself is compared as it is above)
    sa: Counter[object] = Counter(_shape(k) for k, n in a.items() if n < RECURRING)
    sb: Counter[object] = Counter(_shape(k) for k, n in b.items() if n < RECURRING)
    loops = {s for s in set(sa) & set(sb) if sa[s] >= RECURRING and sb[s] >= RECURRING}
    if not loops:
        return a, b
    out: list[Counter[T]] = []
    for c in (a, b):
        kept: Counter[T] = Counter({k: n for k, n in c.items() if n >= RECURRING or _shape(k) not in loops})
        for shape in loops:
            kept[("<loop>", shape)] = RECURRING  # type: ignore[index]
        out.append(kept)
    return out[0], out[1]


def _reached_alike(a: Counter[Key], b: Counter[Key]) -> tuple[Counter[Key], Counter[Key]]:
    """Two runs cut alike, where a loop starts a step on each turn (`srun … python step.py --rank $i
    &`): both started the loop's steps RECURRING times or more, but how many of those steps had
    started their own program when the cut came depends on the machine (bash forks the next step
    sooner than a step starts its program; under load none may have). A program whose steps each
    run started RECURRING times or more is the loop's work in both, however often it started."""

    def programs(counts: Counter[Key]) -> Counter[object]:
        out: Counter[object] = Counter()
        for k, n in counts.items():
            if k[0] == "run":
                out[_shape((k[1], *k[3]))] += n  # type: ignore[misc]
        return out

    def launched(counts: Counter[Key], program: tuple[object, ...]) -> int:
        return sum(
            n
            for k, n in counts.items()
            if k[0] == "step" and tuple(_shape(k[3]))[-len(program) :] == program  # type: ignore[arg-type]
        )

    pa, pb = programs(a), programs(b)
    loops = set()
    for shape in set(pa) | set(pb):
        if not isinstance(shape, tuple) or not (pa[shape] >= RECURRING or pb[shape] >= RECURRING):
            continue
        if min(launched(a, shape), launched(b, shape)) >= RECURRING:
            loops.add(shape)
    if not loops:
        return a, b
    out: list[Counter[Key]] = []
    for c in (a, b):
        kept = Counter({k: n for k, n in c.items() if k[0] != "run" or _shape((k[1], *k[3])) not in loops})
        for shape in loops:
            kept[("<loop>", shape)] = RECURRING
        out.append(kept)
    return out[0], out[1]


def _shape(value: object) -> object:
    """A line or a process's key with every number in its text as `#`."""
    if isinstance(value, str):
        return re.sub(r"[0-9]+", "#", value)
    if isinstance(value, tuple):
        return tuple(_shape(v) for v in value)
    return value


def _ended(key: Key) -> bool:
    """Whether the process ended (its key's last field: its exit status, or with `which_signal`
    whether it has one)."""
    return key[-1] is not None and key[-1] is not False


def _ends_unknown(a: Counter[Key], b: Counter[Key]) -> tuple[Counter[Key], Counter[Key]]:
    """The processes of two cut runs, each with its end left out (`?`) where the runs do not
    both know how such a process ends: one that was still running at the cut may have ended any
    way, so how many started is compared, and how they ended where each run saw some end."""

    def ends(counts: Counter[Key]) -> dict[Key, set[object]]:
        out: dict[Key, set[object]] = {}
        for k in counts:
            out.setdefault(k[:-1], set())
            if _ended(k):
                out[k[:-1]].add(k[-1])
        return out

    ea, eb = ends(a), ends(b)

    def folded(counts: Counter[Key]) -> Counter[Key]:
        out: Counter[Key] = Counter()
        for k, n in counts.items():
            seen = ea.get(k[:-1], set()), eb.get(k[:-1], set())
            alike = seen[0] == seen[1] or not seen[0] or not seen[1]
            out[(*k[:-1], "?") if alike else k] += n
        return out

    return folded(a), folded(b)


def _key(p: Process, ignore: Ignore) -> Key:
    env = tuple(sorted((k, ignore.text(v)) for k, v in p.env.items() if ignore.env_kept(k)))
    argv = tuple(ignore.text(a) for a in p.argv)
    if ignore.which_signal:
        # when the first signal came; the exit status says which it was
        return (p.kind, p.name, p.host, argv, env, ignore.text(p.cwd), p.phases[:1], p.exit is not None)
    return (p.kind, p.name, p.host, argv, env, ignore.text(p.cwd), tuple(sorted(set(p.signals))), p.exit)


def _label(key: Key) -> str:
    kind, name, host, argv, env = key[0], key[1], key[2], key[3], dict(key[4])
    rank = env.get("SLURM_PROCID")
    where = f"on {host}" + (f", task {rank}" if rank is not None and "SLURM_STEP_NUM_TASKS" in env else "")
    shown = " ".join(str(a) for a in argv)  # type: ignore[attr-defined]
    return f"{kind} `{name} {shown[:160]}` {where}"


def _fields(a: Key, b: Key) -> list[str]:
    out = []
    names = ("kind", "name", "host", "argv", "env", "cwd", "signals", "exit")
    for i, field in enumerate(names):
        if a[i] == b[i]:
            continue
        if field == "env":
            ea, eb = dict(a[i]), dict(b[i])  # type: ignore[call-overload]
            for k in sorted(set(ea) | set(eb)):
                if ea.get(k) != eb.get(k):
                    out.append(f"env {k}: {ea.get(k)!r} -> {eb.get(k)!r}")
        else:
            out.append(f"{field}: {a[i]!r} -> {b[i]!r}")
    return out


def _processes(a: Run, b: Run, ignore: Ignore) -> list[str]:
    def keys(run: Run) -> Counter[Key]:
        kept = [p for p in run.processes if p.kind not in ignore.kinds and p.name not in ignore.names]
        counted = Counter(_key(p, ignore) for p in kept)
        return Counter(dict.fromkeys(counted, 1)) if ignore.per_node else counted

    ka, kb = keys(a), keys(b)
    if a.unfinished and b.unfinished:
        ka, kb = _cut_alike(*_reached_alike(*_ends_unknown(ka, kb)))
    only_a = list((ka - kb).elements())
    only_b = list((kb - ka).elements())
    out = []
    # pair what differs by command, host and rank, to say which of its fields changed (with
    # `additions`, what the second run did besides is no difference, but what it did otherwise is)
    for x in list(only_a):
        match = next((y for y in only_b if y[:3] == x[:3] and _rank(y) == _rank(x)), None)
        if match is None:
            match = next((y for y in only_b if y[:2] == x[:2]), None)
        if match is None:
            continue
        only_a.remove(x)
        only_b.remove(match)
        out.append(f"{_label(x)} differs: " + "; ".join(_fields(x, match)))
    out += [f"only before: {_label(x)}" for x in only_a]
    if not ignore.additions:
        out += [f"only after: {_label(y)}" for y in only_b]
    return out


def _rank(key: Key) -> str | None:
    return dict(key[4]).get("SLURM_PROCID")  # type: ignore[call-overload, no-any-return]


def _line_number(m: re.Match[str]) -> str:
    """bash's `line 7` and dash's `slurm_script: 7:` in error messages: a fix that moves a line
    moves the number"""
    return "line N" if m.group().startswith("line") else "N"


def _output(run: Run, ignore: Ignore) -> Counter[str]:
    return _text_lines(run.output, ignore)


def _allocation(run: Run, ignore: Ignore) -> dict[str, str | None]:
    if "*" in ignore.allocation:
        return {}
    return {k: v for k, v in run.allocation.items() if k not in ignore.allocation}


def _files(a: Run, b: Run, ignore: Ignore) -> list[str]:
    """The files left in the job's directory: the same names, and the same contents; a text file
    (a log the steps' output was piped into) is compared as the output is, line by line with what
    the fix may change taken out, as its lines are what the steps printed."""
    if sorted(a.files) != sorted(b.files):
        return [f"files in the job's directory: {sorted(a.files)} -> {sorted(b.files)}"]
    out = []
    for name in sorted(a.files):
        if a.files[name] == b.files[name]:
            continue
        if name in a.texts and name in b.texts:
            if ignore.output:
                continue
            ta, tb = _text_lines(a.texts[name], ignore), _text_lines(b.texts[name], ignore)
            if a.unfinished and b.unfinished:
                ta, tb = _cut_alike(ta, tb)
            out += [f"{name}: only before: {line!r}" for line in sorted((ta - tb).elements())]
            if not ignore.additions:
                out += [f"{name}: only after: {line!r}" for line in sorted((tb - ta).elements())]
        else:
            out.append(f"{name}: its content differs")
    return out


def _untraced(text: str) -> list[str]:
    """The lines of ``text`` but bash's `set -x` trace: each `+ …` line, and the lines a word it
    quotes goes on over (`+ srun bash -c 'torchrun …` and the rest of the string)."""
    out: list[str] = []
    quoted = False
    for line in text.splitlines():
        if quoted or line.startswith("+"):
            # bash quotes a traced word in single quotes, an inner one as '\'' (even either way)
            if len(re.findall(r"(?<!\\)'", line)) % 2:
                quoted = not quoted
            continue
        out.append(line)
    return out


#: how the simulator says a job has more tasks than it runs (run.py)
TOO_LARGE = "too large to simulate: "

#: what an ignore's replacement writes for a line that is not compared at all
DROPPED = "\x00dropped"


def _text_lines(text: str, ignore: Ignore) -> Counter[str]:
    lines = Counter(
        _BOOKKEEPING.sub(
            r"\1…",
            _SYNTAX.sub(
                r"\1`…'",
                _TIMES.sub(
                    r"\1\tTIME", _PID_WORD.sub(r"\1<pid>", _LINE.sub(_line_number, ignore.text(line)))
                ),
            ),
        )
        for line in (_untraced(text) if ignore.trace else text.splitlines())
        if ignore.text(line) != DROPPED and not _PIPE_WRITE.search(line)
    )
    # per node, what tasks print counts once however many tasks print it
    return Counter(dict.fromkeys(lines, 1)) if ignore.per_node else lines


def compare_runs(a: Run, b: Run, ignore: Ignore | None = None) -> list[str]:
    """The differences between two runs of one scenario, each one line; [] when none."""
    ignore = ignore or Ignore()
    out = []
    if a.refused is not None and a.refused.startswith(TOO_LARGE):
        # the first run was never simulated (more tasks than the simulator runs): there is
        # nothing to compare the second with (the other way round, a change made the job larger)
        return out
    if a.refused != b.refused:
        out.append(f"sbatch refuses: {a.refused!r} -> {b.refused!r}")
    if a.refused and b.refused:
        return out  # nothing ran either time
    aa, ab = _allocation(a, ignore), _allocation(b, ignore)
    if aa != ab:
        for k in sorted(set(aa) | set(ab)):
            if aa.get(k, "<absent>") != ab.get(k, "<absent>"):
                out.append(f"#SBATCH --{k}: {aa.get(k, '<absent>')!r} -> {ab.get(k, '<absent>')!r}")
    if not ignore.events and a.events != b.events:
        out.append(f"events: {a.events} -> {b.events}")
    if not ignore.status and a.status != b.status and not _unstarted_alike(a, b, ignore):
        out.append(f"exit status of the batch shell: {a.status} -> {b.status}")
    if not ignore.output:
        oa, ob = _output(a, ignore), _output(b, ignore)
        if a.unfinished and b.unfinished:
            oa, ob = _cut_alike(oa, ob)
        if _interleaved(oa - ob, ob - oa):
            oa = ob  # the same writes, interleaved otherwise by processes that ran at once
        out += [f"output only before: {line!r}" for line in sorted((oa - ob).elements())]
        if not ignore.additions:
            out += [f"output only after: {line!r}" for line in sorted((ob - oa).elements())]
    if not ignore.files:
        out += _files(a, b, ignore)
    out += _processes(a, b, ignore)
    return out


def compare(a: Simulation, b: Simulation, ignore: Ignore | None = None) -> list[str]:
    """The differences between two simulations, scenario by scenario (`[signal] …`); [] when the
    two scripts behaved the same in every scenario both ran."""
    ignore = ignore or Ignore()
    out = []
    for scenario, run in a.runs.items():
        if scenario in ignore.scenarios or scenario not in b.runs:
            continue
        out += [f"[{scenario}] {d}" for d in compare_runs(run, b.runs[scenario], ignore)]
    return out


def merged(*ignores: Ignore) -> Ignore:
    """One Ignore that lets differ what any of ``ignores`` lets differ."""

    def union(values: list[Collection[str]]) -> frozenset[str]:
        return frozenset().union(*values) if values else frozenset()

    only = [i.only_env for i in ignores if i.only_env is not None]
    return Ignore(
        env=union([i.env for i in ignores]),
        only_env=frozenset.intersection(*map(frozenset, only)) if only else None,
        kinds=union([i.kinds for i in ignores]),
        names=union([i.names for i in ignores]),
        allocation=union([i.allocation for i in ignores]),
        per_node=any(i.per_node for i in ignores),
        which_signal=any(i.which_signal for i in ignores),
        additions=any(i.additions for i in ignores),
        replace=tuple(r for i in ignores for r in i.replace),
        output=any(i.output for i in ignores),
        trace=any(i.trace for i in ignores),
        status=any(i.status for i in ignores),
        unstarted_status=any(i.unstarted_status for i in ignores),
        events=any(i.events for i in ignores),
        files=any(i.files for i in ignores),
        scenarios=union([i.scenarios for i in ignores]),
    )


def env_of(process: Process, names: Collection[str]) -> Mapping[str, str]:
    """The named variables of a process's environment (for a test's own asserts)."""
    return {k: v for k, v in process.env.items() if k in names}
