"""Run a batch script under a simulated Slurm allocation and collect what it did.

`simulate(text)` reads the `#SBATCH` lines as sbatch does (only the block before the first
command), builds the job's environment, and runs the script with real bash in a sandbox (see
`init.py`): user, pid, mount, network, uts and ipc namespaces, the system's files read-only to it
(it runs as `nobody` when the tests run as root), a private /tmp and /home, and the stubs of
`stub.py` first on PATH. It returns one `Run` per scenario:

- `complete`: every program exits 0 at once;
- `fail`: every program exits 1 at once (error paths: `||`, `set -e`, `if srun …`);
- `signal`: programs run until a signal comes; when everything waits, the `--signal` warning is
  sent (to the batch shell with `B:`, else to the steps' tasks), then the time limit (SIGTERM to
  all), then SIGKILL.

Nothing here depends on jobc's reading of the script: the simulator is the referee of jobc's
fixes and imports, so it reads the directives and runs the script the way sbatch and bash do.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import marshal
import os
import posixpath
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, ClassVar

from jobc.tables import slurm_options as slurm
from tests.support.simulator import slurmlib

HERE = Path(__file__).resolve().parent
SCENARIOS = ("complete", "fail", "signal")
JOB_ID = 4242
WORKDIR = "/home/user/job"
SCRIPT = f"/var/spool/slurmd/job{JOB_ID:05d}/slurm_script"
STUB_BIN = "/run/jobc-sim/bin"
MAX_NODES = 16
MAX_TASKS = 128
# a node has the GPUs a job asks for, up to as many as the simulator runs tasks; a job asking for
# more is too large to simulate, as sbatch refuses a request no node of a cluster meets (a node
# given fewer than asked would run the job otherwise than a cluster does)
MAX_GPUS = MAX_TASKS
# a run that has not ended by then is killed and said so (a safety net, not a measure: a run
# takes well under a second)
SAFETY_S = 900
# training programs that are executables run as they are (a compiled binary, console scripts):
# each runs as a program does, until it ends or a signal comes
EXECUTABLES = ("train_gpt2cu", "g4i-train", "llamafactory-cli", "litgpt")
# every command the stubs stand in for
STUBS = (
    "srun",
    "scontrol",
    "scancel",
    "sbatch",
    "squeue",
    "sacct",
    "sinfo",
    "sstat",
    "sattach",
    "sacctmgr",
    "hostname",
    "sleep",
    "date",
    "nvidia-smi",
    "python",
    "python3",
    *(f"python3.{n}" for n in range(6, 15)),
    "torchrun",
    "accelerate",
    "deepspeed",
    "mpirun",
    "mpiexec",
    "horovodrun",
    "composer",
    "uv",
    "pip",
    "pip3",
    "conda",
    "mamba",
    "micromamba",
    "module",
    "ml",
    "singularity",
    "apptainer",
    "docker",
    "podman",
    "enroot",
    "git",
    "wandb",
    "huggingface-cli",
    "ssh",
    "pdsh",
    "ibstat",
    "ibv_devinfo",
    "ray",
    "jsrun",
    *EXECUTABLES,
)


class SimulatorUnavailable(RuntimeError):
    """This machine cannot run the sandbox (no user namespaces, no system python3)."""


@dataclass(frozen=True)
class Process:
    """One run of a stub: a program (`run`), a job step (`step`, srun) or another command (`call`)."""

    kind: str
    name: str
    argv: tuple[str, ...]
    env: Mapping[str, str]
    cwd: str
    host: str
    signals: tuple[str, ...] = ()
    exit: int | None = None
    # when in the job's life each signal came: run (before the warning), warning, limit, end
    phases: tuple[str, ...] = ()


@dataclass
class Run:
    """What a batch script did in one scenario."""

    scenario: str
    refused: str | None = None  # why sbatch refuses the script (then nothing ran)
    allocation: dict[str, str | None] = field(default_factory=dict)  # the options sbatch read
    status: int | None = None  # the batch shell's exit status (128 + N: killed by signal N)
    events: list[str] = field(default_factory=list)  # what the simulated Slurm did, in order
    processes: list[Process] = field(default_factory=list)
    output: str = ""  # the batch shell's stdout and stderr (tasks write there too)
    files: dict[str, str] = field(default_factory=dict)  # files left in the job's directory: sha256
    # the text of each small text file among them (a log `tee` wrote): compared as output is
    texts: dict[str, str] = field(default_factory=dict)

    def named(self, name: str) -> list[Process]:
        return [p for p in self.processes if p.name == name]

    @property
    def unfinished(self) -> bool:
        """Whether the job was cut when it had started as many processes as a run may (a loop
        that never ends): what it did is what it did up to there."""
        return any(e.startswith("unfinished") for e in self.events)


@dataclass
class Simulation:
    """A script's runs, one per scenario."""

    runs: dict[str, Run]

    def __getitem__(self, scenario: str) -> Run:
        return self.runs[scenario]


# --- sbatch's reading of the script -------------------------------------------------------------


def directives(text: str, *, accept: bool = False) -> tuple[list[tuple[str, str | None]], str | None]:
    """The options of the `#SBATCH` lines sbatch reads (up to the first command), in order, and
    why sbatch refuses the script when it does. ``accept``: a script without a `#!` line is read
    as if it had one above its first line."""
    lines = text.split("\n")
    if not text.startswith("#!") and not accept:
        return [], "the first line is not a #! line"
    if "\r\n" in text:
        return [], "DOS line breaks"
    out: list[tuple[str, str | None]] = []
    flags = set(slurm.SBATCH_FLAGS)
    for line in lines[1:] if text.startswith("#!") else lines:
        if line.startswith("#SBATCH"):
            words = sbatch_words(line[len("#SBATCH") :])
            if words is None:
                return out, f"unmatched quote in: {line.strip()}"
            words, why = _long_names(words)
            if why is not None:
                return out, why
            # getopt over the line's words: a word left over that is no option nor an option's value
            # makes sbatch stop ("Invalid directive found in batch script")
            options, rest = slurmlib.parse_options(
                words, slurm.SBATCH_SHORT, flags, _SHORT_FLAGS, slurm.SHORT_OPTIONAL
            )
            stray = [w for w in rest if w]
            if stray:
                return out, f"invalid directive: {stray[0]}"
            for name, value in options.items():
                allowed = slurm.FLAG_VALUES.get(name)
                if allowed is not None and value is not None and value.lower() not in allowed:
                    # sbatch: error: Invalid --no-kill specification (tried: `-k=40`, `-kx`)
                    return out, f"invalid --{name} specification: {value}"
            letters = [k for k in options if len(k) <= 1]
            if letters:
                # a letter that is no short option of sbatch's (`-s=1` is -s, then `-=`): getopt
                # says `invalid option -- '='` and sbatch stops
                return out, f"invalid option -- '{letters[0]}'"
            unknown = [k for k in options if len(k) > 1 and _unknown_option(k)]
            if unknown:
                # sbatch: unrecognized option '--frobnicate' (exit 255), tried on the test cluster
                return out, f"unrecognized option: --{unknown[0]}"
            out += [(slurm.ALIASES.get(k, k), v) for k, v in options.items()]
            continue
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            break
    return out, None


# sbatch's short options that take no value (`-H`, hold): getopt reads the next word on its own
_SHORT_FLAGS = {k: v for k, v in slurm.SBATCH_SHORT.items() if v in slurm.SBATCH_FLAGS}


def _long_names(words: list[str]) -> tuple[list[str], str | None]:
    """The words with each long option as getopt_long reads it: a unique prefix is its option
    (`--gpus-per-n=8`), a prefix of several makes sbatch refuse the script (tried with sbatch
    22.05.8: "option '--g' is ambiguous"), and a name of none is an unrecognized option. A word
    that is an option's value is not an option: a long option's value follows it unless written
    with `=`."""
    out: list[str] = []
    takes = False
    for word in words:
        if takes or not word.startswith("--") or word == "--":
            out.append(word)
            takes = False
            continue
        name, eq, value = word[2:].partition("=")
        found = slurm.long_options(name)
        if len(found) > 1:
            return out, f"ambiguous option: --{name}"
        if not found:
            return out, f"unrecognized option: --{name}"
        out.append(f"--{found[0]}{eq}{value}")
        takes = not eq and found[0] not in slurm.SBATCH_FLAGS and found[0] not in slurm.OPTIONAL_VALUE
    return out, None


def _unknown_option(name: str) -> bool:
    """A long option this simulated site's sbatch does not know (it has pyxis, and no other
    SPANK plugin)."""
    name = slurm.ALIASES.get(name, name)
    return name not in slurm.SBATCH_OPTIONS and not slurm.is_pyxis(name)


# the blanks C's isspace() knows, which sbatch's reader skips (Python's str.isspace() knows more:
# \x1c-\x1f, \x85, no-break and other Unicode spaces are no blanks to sbatch)
_BLANKS = " \t\n\v\f\r"


def sbatch_words(rest: str) -> list[str] | None:
    """The words of a directive as sbatch 22.05's `_get_argument` splits them: blanks separate,
    quotes group, a backslash takes the next character as it is, an unquoted `#` ends the line;
    None for an unmatched quote (sbatch refuses the script)."""
    words: list[str] = []
    i, n = 0, len(rest)
    while True:
        while i < n and rest[i] in _BLANKS:
            i += 1
        if i >= n or rest[i] == "#":
            return words
        word, quote = [], ""
        while i < n and (quote or rest[i] not in _BLANKS):
            ch = rest[i]
            i += 1
            if ch == "\\":
                if i < n:
                    word.append(rest[i])
                    i += 1
            elif quote:
                if ch == quote:
                    quote = ""
                else:
                    word.append(ch)
            elif ch in "\"'":
                quote = ch
            elif ch == "#":
                return [*words, "".join(word)] if word else words
            else:
                word.append(ch)
        if quote:
            return None
        words.append("".join(word))


@dataclass
class Allocation:
    options: dict[str, str | None]
    nodes: list[str]
    counts: list[int]
    gpus: int
    warning: dict[str, Any] | None
    too_large: str | None = None

    @classmethod
    def read(cls, options: dict[str, str | None], cpus: int) -> Allocation:
        nodes = slurmlib.number(options.get("nodes")) or 1
        asked = slurmlib.number(options.get("ntasks"))
        if asked is not None and 0 < asked < nodes:
            # sbatch: "can't run 1 processes on 4 nodes, setting nnodes to 1"
            nodes = asked
        if nodes > MAX_NODES:
            return cls(options, [], [], 0, None, f"{nodes} nodes (the simulator runs at most {MAX_NODES})")
        tpn = slurmlib.number(options.get("ntasks-per-node"))
        ntasks = slurmlib.number(options.get("ntasks"))
        if ntasks is None:
            ntasks = nodes * tpn if tpn else nodes
        if ntasks > MAX_TASKS:
            return cls(options, [], [], 0, None, f"{ntasks} tasks (the simulator runs at most {MAX_TASKS})")
        gpus = slurmlib.gpus_of(options)
        if gpus > MAX_GPUS:
            return cls(
                options,
                [],
                [],
                0,
                None,
                f"{gpus} GPUs per node (the simulator's nodes have at most {MAX_GPUS})",
            )
        counts = slurmlib.distribute(ntasks, nodes, tpn, cpus)
        names = [slurmlib.node_name(i) for i in range(nodes)]
        return cls(options, names, counts, gpus, _warning(options.get("signal")))


def _warning(value: str | None) -> dict[str, Any] | None:
    """`--signal=[B:|R:]SIG[@SECONDS]` → what the controller sends before the time limit."""
    if not value:
        return None
    flags, sep, rest = value.partition(":")
    if not sep:
        flags, rest = "", value
    name = rest.partition("@")[0].strip().upper()
    numbers = {"1": "HUP", "2": "INT", "3": "QUIT", "10": "USR1", "12": "USR2", "14": "ALRM", "15": "TERM"}
    name = numbers.get(name, name).removeprefix("SIG")
    if name not in {"HUP", "INT", "QUIT", "USR1", "USR2", "ALRM", "TERM", "CONT", "KILL"}:
        return None
    return {"signal": f"SIG{name}", "batch": "B" in flags.upper()}


def batch_env(alloc: Allocation, name: str, extra: Mapping[str, str]) -> dict[str, str]:
    """The batch shell's environment, as Slurm 22.05 sets it (seen on the test cluster)."""
    o = alloc.options
    counts = slurmlib.counts_text(alloc.counts)
    env = {
        "PATH": f"{STUB_BIN}:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/home/user",
        "USER": "user",
        "LOGNAME": "user",
        "SHELL": "/bin/bash",
        "LANG": "C.UTF-8",
        # every bash the job starts reads it first: $RANDOM is one fixed number in each run
        "BASH_ENV": "/run/jobc-sim/bash_env",
        "SLURM_JOB_ID": str(JOB_ID),
        "SLURM_JOBID": str(JOB_ID),
        "SLURM_JOB_NAME": o.get("job-name") or name,
        "SLURM_JOB_NODELIST": slurmlib.compress(alloc.nodes),
        "SLURM_NODELIST": slurmlib.compress(alloc.nodes),
        "SLURM_JOB_NUM_NODES": str(len(alloc.nodes)),
        "SLURM_NNODES": str(len(alloc.nodes)),
        "SLURM_TASKS_PER_NODE": counts,
        "SLURM_JOB_CPUS_PER_NODE": counts,
        "SLURM_CPUS_ON_NODE": str(alloc.counts[0]),
        "SLURM_NODEID": "0",
        "SLURM_PROCID": "0",
        "SLURM_LOCALID": "0",
        "SLURM_GTIDS": "0",
        "SLURMD_NODENAME": alloc.nodes[0],
        "SLURM_TOPOLOGY_ADDR": alloc.nodes[0],
        "SLURM_SUBMIT_DIR": WORKDIR,
        "SLURM_SUBMIT_HOST": "login0",
        "SLURM_CLUSTER_NAME": "sim",
        "SLURM_JOB_PARTITION": o.get("partition") or "batch",
        "SLURM_JOB_ACCOUNT": o.get("account") or "user",
        "SLURM_JOB_QOS": o.get("qos") or "normal",
        "SLURM_JOB_USER": "user",
    }
    if o.get("ntasks") is not None or o.get("ntasks-per-node") is not None:
        env["SLURM_NTASKS"] = env["SLURM_NPROCS"] = str(sum(alloc.counts))
    if o.get("ntasks-per-node") is not None:
        env["SLURM_NTASKS_PER_NODE"] = o["ntasks-per-node"] or ""
    if o.get("cpus-per-task") is not None:
        env["SLURM_CPUS_PER_TASK"] = o["cpus-per-task"] or ""
    if o.get("gpus-per-node") is not None:
        env["SLURM_GPUS_PER_NODE"] = o["gpus-per-node"] or ""
    if alloc.gpus:
        devices = ",".join(str(i) for i in range(alloc.gpus))
        env.update(
            {
                "SLURM_GPUS_ON_NODE": str(alloc.gpus),
                "SLURM_JOB_GPUS": devices,
                "CUDA_VISIBLE_DEVICES": devices,
                "GPU_DEVICE_ORDINAL": devices,
                "ROCR_VISIBLE_DEVICES": devices,
            }
        )
    if o.get("array"):
        first = slurmlib.number(o["array"]) or 0
        env.update(
            {
                "SLURM_ARRAY_JOB_ID": str(JOB_ID),
                "SLURM_ARRAY_TASK_ID": str(first),
                "SLURM_ARRAY_TASK_MIN": str(first),
                "SLURM_ARRAY_TASK_COUNT": "1",
            }
        )
    env.update(extra)
    return env


# --- the sandbox ---------------------------------------------------------------------------------


def system_python() -> str:
    """A python3 every user may run (the tests' own interpreter may live under /root)."""
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3", "/bin/python3"):
        if os.access(candidate, os.X_OK):
            return candidate
    raise SimulatorUnavailable("no system python3 (/usr/bin/python3) for the simulator's stubs")


# the modules the sandbox runs (the stubs, the controller and what they import)
_MODULES = ("command.py", "stub.py", "init.py", "slurmlib.py", "jsonl.py", "launchers.py")
# where the runs' directories go: memory (tmpfs) where the machine has it, as a run writes and
# removes a few dozen files
_SCRATCH = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK | os.X_OK) else None


class _Stubs:
    """The stubs' directory, made once per process and shared by every run (the controller binds it
    into each sandbox): making it, sixty links and four files, cost as much as a short run. It is
    read-only to a sandbox when the tests run as root (root owns it); otherwise a script could
    change it, so it is checked before each run and made again when anything in it changed."""

    path: ClassVar[Path | None] = None
    state: ClassVar[list[tuple[object, ...]]] = []

    @classmethod
    def get(cls) -> Path:
        if cls.path is not None and cls._state(cls.path) == cls.state:
            return cls.path
        if cls.path is not None:
            shutil.rmtree(cls.path.parent, ignore_errors=True)
        top = Path(tempfile.mkdtemp(prefix="jobc-sim-bin-", dir=_SCRATCH))
        top.chmod(0o755)
        bin_dir = top / "bin"
        bin_dir.mkdir()
        python = system_python()
        for module in _MODULES:
            text = (HERE / module).read_text(encoding="utf-8")
            (bin_dir / module).write_text(text.replace("#!/usr/bin/python3 -IS", f"#!{python} -IS", 1))
            (bin_dir / module).chmod(0o755)
        for name in STUBS:
            (bin_dir / name).symlink_to("command.py")
        # their bytecode, by the interpreter that runs them: a sandbox cannot write it there
        modules = [str(bin_dir / m) for m in _MODULES]
        subprocess.run([python, "-IS", "-m", "py_compile", *modules], check=True, capture_output=True)
        bin_dir.chmod(0o755)
        atexit.register(shutil.rmtree, top, True)
        cls.path, cls.state = bin_dir, cls._state(bin_dir)
        return bin_dir

    @staticmethod
    def _state(bin_dir: Path) -> list[tuple[object, ...]]:
        try:
            entries = sorted(os.scandir(bin_dir), key=lambda e: e.name)
            stats = [(e.name, e.stat(follow_symlinks=False)) for e in entries]
            return [(n, s.st_mode, s.st_size, s.st_mtime_ns, s.st_ino, s.st_uid) for n, s in stats]
        except OSError:
            return []


def _prepare(data: bytes, config: dict[str, Any]) -> Path:
    sim = Path(tempfile.mkdtemp(prefix="jobc-sim-", dir=_SCRATCH))
    for sub in ("bin", "records", "state", "work"):  # bin: where the stubs' directory is bound
        (sim / sub).mkdir()
    (sim / "empty").write_text("")
    # $RANDOM made an ordinary variable with a fixed value: seeded, it gave the same sequence in
    # one shell only, and a subshell (a step started with `&`, whose words bash expands after the
    # fork) reseeds it, so a fix that moves a step into the background changed `--rdzv_id $RANDOM`
    # though the job does the same (a random id either way)
    (sim / "bash_env").write_text("unset RANDOM; RANDOM=4242\n")
    (sim / "script").write_bytes(data)
    # read by every stub: marshal reads it without an import
    (sim / "config.marshal").write_bytes(marshal.dumps(config))
    if os.geteuid() == 0:
        nobody = pwd.getpwnam("nobody")
        for item in (sim, *sim.iterdir()):
            os.lchown(item, nobody.pw_uid, nobody.pw_gid)
    sim.chmod(0o755)
    return sim


def _command(sim: Path) -> list[str]:
    cmd: list[str] = []
    if os.geteuid() == 0:
        # nobody outside, root inside its own user namespace: the system's files stay read-only
        cmd += ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups"]
    cmd += ["unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount"]
    cmd += [
        "--mount-proc",
        "--net",
        "--uts",
        "--ipc",
        system_python(),
        "-IS",
        # init.py's compiled module, not the file compiled again as a script
        "-c",
        f"import sys; sys.path.insert(0, {str(_Stubs.get())!r}); import init; init.main()",
        str(sim),
    ]
    return cmd


@dataclass(frozen=True)
class Setting:
    """How the runs of one simulation are set up, beside the script."""

    name: str
    env: Mapping[str, str]
    cpus: int
    uniform: tuple[str, ...]
    interpreter: str | None
    budget: int | None = None  # processes the stubs start before the job is cut (stub.MAX_RECORDS)


def _one(data: bytes, scenario: str, alloc: Allocation, setting: Setting) -> Run:
    run = Run(scenario, allocation=dict(alloc.options))
    config = {
        "uniform": list(setting.uniform),
        "interpreter": setting.interpreter,
        "scenario": scenario,
        "script": SCRIPT,
        "workdir": WORKDIR,
        # sbatch --chdir is relative to the submit directory, as every path sbatch reads
        "cwd": posixpath.normpath(posixpath.join(WORKDIR, alloc.options.get("chdir") or ".")),
        "env": batch_env(alloc, setting.name, setting.env),
        "warning": alloc.warning,
        "gpus_per_node": alloc.gpus,
        "executables": list(EXECUTABLES),
        "cpus": setting.cpus,
        "budget": setting.budget,
        "srun": {
            "short": slurm.SRUN_SHORT,
            "flags": sorted(slurm.SRUN_FLAGS),
            "short_flags": slurm.SRUN_SHORT_FLAGS,
            "long": sorted(slurm.SRUN_OPTIONS),
        },
    }
    sim = _prepare(data, config)
    try:
        done = subprocess.run(
            _command(sim), stdin=subprocess.DEVNULL, capture_output=True, timeout=SAFETY_S, check=False
        )
        if done.returncode != 0 and not (sim / "events.jsonl").exists():
            raise SimulatorUnavailable(done.stderr.decode(errors="replace").strip()[-500:])
        _collect(sim, run)
    except subprocess.TimeoutExpired:
        run.events.append(f"did not end within {SAFETY_S} s")
    finally:
        shutil.rmtree(sim, ignore_errors=True)
    return run


def _collect(sim: Path, run: Run) -> None:
    for line in (sim / "events.jsonl").read_text(encoding="utf-8").splitlines():
        item = json.loads(line)
        what = item.pop("event")
        if what == "batch-exit":
            run.status = item["status"]
        elif what != "done":
            run.events.append(" ".join([what, *(f"{k}={v}" for k, v in sorted(item.items()) if k != "left")]))
    for path in sorted((sim / "records").iterdir()):
        process = _process(path)
        if process is not None:
            run.processes.append(process)
    run.output = (
        (sim / "output").read_text(encoding="utf-8", errors="surrogateescape")
        if (sim / "output").exists()
        else ""
    )
    work = sim / "work"
    for path in sorted(work.rglob("*")):
        if path.is_file() and not path.is_symlink():
            data = path.read_bytes()
            name = str(path.relative_to(work))
            run.files[name] = hashlib.sha256(data).hexdigest()[:16]
            if len(data) <= _TEXT_MAX and b"\0" not in data:
                run.texts[name] = data.decode("utf-8", "surrogateescape")


def run_was_cut(record: Path) -> bool:
    return (record.parent.parent / "state" / "cut").exists()


_TEXT_MAX = 1 << 20  # a file this small and without NUL is a log a step wrote: compared line by line


def _process(path: Path) -> Process | None:
    """A stub's record; None for one a job cut at its process budget stopped before it had
    written how it was run (it had not started its work)."""
    lines = path.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
    try:
        head = json.loads(lines[0])
    except (IndexError, json.JSONDecodeError):
        if run_was_cut(path):
            return None
        raise
    signals: list[str] = []
    phases: list[str] = []
    status = None
    for line in lines[1:]:
        try:
            item = json.loads(line)
        except json.JSONDecodeError:
            continue
        if "signal" in item:
            signals.append(item["signal"])
            phases.append(item.get("phase", "run"))
        elif "exit" in item:
            status = item["exit"]
    return Process(
        head["kind"],
        head["name"],
        tuple(head["argv"]),
        head["env"],
        head["cwd"],
        head["host"],
        tuple(signals),
        status,
        tuple(phases),
    )


def simulate(
    script: str | bytes,
    *,
    name: str = "job.sh",
    scenarios: Iterable[str] = SCENARIOS,
    options: Iterable[str] = (),
    env: Mapping[str, str] | None = None,
    cpus: int = 64,
    uniform: Iterable[str] = (),
    accept: bool = False,
    budget: int | None = None,
) -> Simulation:
    """Run ``script`` (its text or bytes) under a simulated allocation, once per scenario.

    ``options`` are sbatch command-line options, one an item (`--ntasks-per-node=1`): they override the
    script's `#SBATCH` lines, as on sbatch's command line. ``env`` is added to the batch shell's
    environment (as if exported before sbatch). ``cpus`` is the CPUs of a simulated node.

    Two settings answer "what if": ``uniform`` names per-task variables (`SLURM_NODEID`) that
    every task gets with the batch shell's value, as if each task ran where the batch shell does;
    ``accept`` runs a script without a `#!` line with /bin/bash instead of refusing it.

    A job that has started ``budget`` processes (the stubs' MAX_RECORDS unless given), or runs
    init.MAX_LIVE at once, runs a loop that does not end: it is cut there, every process stopped
    where it was and then killed, and the run says so (`Run.unfinished`, the event
    `unfinished`); the comparison holds two runs cut alike to having done the same up to there."""
    data = script.encode("utf-8", "surrogateescape") if isinstance(script, str) else script
    text = data.decode("utf-8", "surrogateescape")
    read, refused = directives(text, accept=accept)
    interpreter = "/bin/bash" if accept and not text.startswith("#!") else None
    setting = Setting(name, env or {}, cpus, tuple(uniform), interpreter, budget)
    merged = dict(read)
    for option in options:  # each one option, `--name=value` (a value is never the next item)
        merged.update(slurmlib.parse_options([option], slurm.SBATCH_SHORT, set(slurm.SBATCH_FLAGS), {})[0])
    runs: dict[str, Run] = {}
    alloc = Allocation.read(merged, cpus)
    for scenario in scenarios:
        if refused or alloc.too_large:
            runs[scenario] = Run(
                scenario, refused=refused or f"too large to simulate: {alloc.too_large}", allocation=merged
            )
            continue
        same = runs.get("complete")
        if same is not None and _alike(same):
            runs[scenario] = replace(
                same,
                scenario=scenario,
                allocation=dict(same.allocation),
                events=list(same.events),
                processes=list(same.processes),
                files=dict(same.files),
                texts=dict(same.texts),
            )
            continue
        runs[scenario] = _one(data, scenario, alloc, setting)
    return Simulation(runs)


def _alike(complete: Run) -> bool:
    """Whether every scenario runs as `complete` did: the scenario reaches a stub only through a
    program it runs (`run` records: it exits 1 in `fail`, waits for a signal in `signal`), so a
    script that started none did in each scenario what it did in `complete` (the same commands,
    the same events), and is not run again."""
    ended = not any(e.startswith("did not end") for e in complete.events)
    return ended and not any(p.kind == "run" for p in complete.processes)
