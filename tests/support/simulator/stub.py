"""The commands a batch script runs, as the simulator stands them in (srun, torchrun, python, …).

One program for every stub: the simulator links each name (`srun`, `torchrun`, `python3`, …) to
this file in the sandbox's `bin/`, first on PATH, and the name it is run by says what it does.
Every stub writes a record of how it was run (argv, environment, working directory, host) to the
sandbox's `records/`, then:

- `srun` fans out tasks as Slurm would (SLURM_PROCID, SLURM_LOCALID, SLURM_NODEID, the step's
  counts), each task in a process group of its own and, on another node than the caller's, in a
  UTS namespace named after that node; it forwards the signals srun forwards, passes each
  task's output on a whole line at a time (`Relay`), waits for its tasks and exits with the
  highest exit status;
- a program (python with a script or module, torchrun, accelerate, deepspeed, mpirun, `uv run`,
  a container run) exits at once (scenario `complete`, status 0; `fail`, status 1), or, in the
  scenario `signal`, runs until a signal comes, records it and exits with 128 + its number;
  torchrun first reads its line as its own parser does (`launchers.py`) and refuses, with
  exit status 2 and starting nothing, a line that parser refuses;
- `scontrol show hostnames`, `hostname`, `sbatch`, `scancel --signal` answer as Slurm would;
  `sleep` returns at once (time passes in the controller, not here), and blocks for good after
  `MAX_SLEEPS` calls, so a polling loop ends at the time limit; `date` tells a fixed time;
- every other stub (module, conda, nvidia-smi, pip, …) records and succeeds.

It runs under the system's python3 (`-I -S`), with the standard library only.
"""

from __future__ import annotations

import _signal as signal  # the C module: `signal` imports `enum`, which costs as much as the rest
import fcntl
import marshal
import os
import select
import sys

# (few imports, and light ones: the stub starts for every command a job runs, on a busy machine;
# slurmlib, which needs `re`, is imported by the commands that use it)
HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)

from jsonl import dumps  # noqa: E402

SIM = os.path.dirname(HERE)
with open(os.path.join(SIM, "config.marshal"), "rb") as _f:
    CONFIG: dict[str, object] = marshal.load(_f)
RECORDS = os.path.join(SIM, "records")
STATE = os.path.join(SIM, "state")
TASKS = os.path.join(STATE, "tasks")
# the processes the stubs start in one run: a job that starts more runs a loop that does not end
# (the clock moves only when every process waits, and such a loop never does), and is cut there:
# every process stops where it is, the job is ended and the run said not to have finished
MAX_RECORDS = 500
MAX_SLEEPS = 30
CLONE_NEWUTS = 0x04000000

# signals a program records: what Slurm, srun, scancel or a trap's `kill` may send
CATCH = (
    signal.SIGHUP,
    signal.SIGINT,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
    signal.SIGTERM,
    signal.SIGXCPU,
)
# srun forwards these to its tasks
FORWARD = (
    signal.SIGHUP,
    signal.SIGINT,
    signal.SIGQUIT,
    signal.SIGUSR1,
    signal.SIGUSR2,
    signal.SIGALRM,
    signal.SIGTERM,
    signal.SIGCONT,
)
_NAMES = {
    signal.SIGHUP: "SIGHUP",
    signal.SIGINT: "SIGINT",
    signal.SIGQUIT: "SIGQUIT",
    signal.SIGUSR1: "SIGUSR1",
    signal.SIGUSR2: "SIGUSR2",
    signal.SIGALRM: "SIGALRM",
    signal.SIGTERM: "SIGTERM",
    signal.SIGXCPU: "SIGXCPU",
}
LAUNCHERS = {"torchrun", "accelerate", "deepspeed", "mpirun", "mpiexec", "horovodrun", "composer"}
CONTAINERS = {"singularity", "apptainer", "docker", "podman", "enroot"}
SLURM_QUIET = {"squeue", "sacct", "sinfo", "sstat", "sattach", "sacctmgr"}


def _counter(name: str, add: int = 1) -> int:
    """A count shared by every process of the sandbox (steps, records, sleeps)."""
    with open(os.path.join(STATE, name), "a+", encoding="ascii") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        f.seek(0)
        text = f.read().strip()
        value = int(text) if text.isdigit() else 0
        f.seek(0)
        f.truncate()
        f.write(str(value + add))
        return value


def _cut() -> None:
    """The job has started MAX_RECORDS processes: stop every process of the sandbox where it is
    (pid 1, the controller, is not one of them), so that what the job did up to here is what it
    did when the budget ran out, and tell the controller, which ends the job. This command runs
    nothing and leaves no record.

    One process stops the others: two that found the budget spent at once and each stopped
    the other before saying so would leave every process stopped and no word of the cut, and the
    controller would take that stillness for a job that waits and move its clock (a time limit in
    one run that a run of the same script, scheduled otherwise, never had). The first to claim the
    cut stops everyone; any other stops itself where it is, as the first's signal would have."""
    try:
        os.close(os.open(os.path.join(STATE, "cutting"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
    except FileExistsError:
        os.kill(os.getpid(), signal.SIGSTOP)  # the cut is under way: it ends this process too
        os._exit(126)
    try:  # noqa: SIM105 (contextlib would be one more import for every command a job runs)
        os.kill(-1, signal.SIGSTOP)
    except OSError:
        pass
    with open(os.path.join(STATE, "cut"), "a", encoding="ascii"):
        pass
    os._exit(126)


class Record:
    """One process's record: a JSON header line, then a line per signal, then its exit status."""

    def __init__(self, kind: str, name: str, argv: list[str]) -> None:
        if _counter("records") >= int(CONFIG.get("budget") or MAX_RECORDS):
            _cut()
        path = os.path.join(RECORDS, f"{os.getpid()}-{name[:40]}")
        n = 0
        while True:  # a pid is used again after an exec: each record gets a file of its own
            try:
                fd = os.open(f"{path}-{n}.jsonl", os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
                break
            except FileExistsError:
                n += 1
        self.file = os.fdopen(fd, "a", encoding="utf-8", errors="surrogateescape")
        head = {
            "kind": kind,
            "name": name,
            "argv": argv,
            "env": dict(os.environ),
            "cwd": _cwd(),
            "host": os.uname().nodename,
        }
        self.write(head)

    def write(self, item: dict[str, object]) -> None:
        self.file.write(dumps(item) + "\n")
        self.file.flush()

    def signal(self, signum: int) -> None:
        try:
            with open(os.path.join(STATE, "phase"), encoding="ascii") as f:
                phase = f.read().strip()
        except FileNotFoundError:
            phase = "run"
        self.write({"signal": _NAMES.get(signum, str(signum)), "phase": phase})

    def exit(self, status: int) -> None:
        self.write({"exit": status})


def _cwd() -> str:
    try:
        return os.getcwd()
    except OSError:
        return "?"


def _scenario() -> str:
    return str(CONFIG.get("scenario", "complete"))


def _status() -> int:
    return 1 if _scenario() == "fail" else 0


# --- programs ------------------------------------------------------------------------------------


def _runs_long(name: str, argv: list[str]) -> bool:
    """Whether the command is a program that runs (training, a launcher), not a quick check."""
    if name in LAUNCHERS or name in (CONFIG.get("executables") or ()):
        return True
    if name in CONTAINERS:
        return bool(argv) and argv[0] in ("exec", "run", "start")
    if name == "uv":
        return bool(argv) and argv[0] == "run"
    if name.startswith("python"):
        rest = [a for a in argv if a not in ("-u", "-B", "-O", "-OO", "-E", "-s", "-I")]
        if not rest or rest[0] in ("-c", "-V", "--version", "-h", "--help"):
            return False
        return not (rest[0] == "-m" and len(rest) > 1 and rest[1] in ("pip", "venv", "ensurepip", "site"))
    return False


def _torchrun_words(name: str, argv: list[str]) -> tuple[str, list[str]] | None:
    """torchrun's own command line (`torchrun …`, `python -m torch.distributed.run …` or
    `.launch`), and the name its parser calls itself by; None for any other program."""
    if name == "torchrun":
        return "torchrun", argv
    if not name.startswith("python"):
        return None
    i = 0
    while i < len(argv) and argv[i].startswith("-") and argv[i] not in ("-m", "-c", "-"):
        i += 2 if argv[i] in ("-W", "-X") else 1
    module = argv[i + 1] if argv[i : i + 1] == ["-m"] and i + 1 < len(argv) else ""
    if module in ("torch.distributed.run", "torch.distributed.launch"):
        return module.rsplit(".", 1)[1] + ".py", argv[i + 2 :]
    return None


def program(name: str, argv: list[str]) -> None:
    torchrun = _torchrun_words(name, argv)
    if torchrun is not None:
        # torchrun reads its line with its argparse parser before it starts anything, and refuses
        # a line it cannot read (launchers.py): an error, exit 2, no program
        from launchers import parse

        _, error = parse(torchrun[1])
        if error is not None:
            record = Record("call", name, argv)
            print(f"{torchrun[0]}: error: {error}", file=sys.stderr)
            record.exit(2)
            sys.stderr.flush()
            os._exit(2)
    refused = None
    if name.startswith("python"):
        from launchers import python_refuses

        refused = python_refuses(argv)
    if name == "uv" and argv[:1] == ["run"]:
        from launchers import uv_run_refuses

        unknown = uv_run_refuses(argv)
        if unknown is not None:
            # uv's argument parser refuses an option it does not have before it runs anything
            record = Record("call", name, argv)
            print(f"error: unexpected argument '{unknown}' found", file=sys.stderr)
            record.exit(2)
            sys.stderr.flush()
            os._exit(2)
    if refused is not None:
        # CPython's own option reader refuses a long option it does not have before it runs anything
        record = Record("call", name, argv)
        print(f"unknown option {refused}", file=sys.stderr)
        print(f"usage: {name} [option] ... [-c cmd | -m mod | file | -] [arg] ...", file=sys.stderr)
        record.exit(2)
        sys.stderr.flush()
        os._exit(2)
    long = _runs_long(name, argv)
    record = Record("run" if long else "call", name, argv)
    if long and _scenario() == "signal":
        _until_signalled(record)
    status = _status() if long else 0
    record.exit(status)
    sys.stdout.flush()
    os._exit(status)


def _until_signalled(record: Record) -> None:
    """Wait for a signal; record it (and any other already pending) and exit 128 + its number."""
    signal.pthread_sigmask(signal.SIG_BLOCK, CATCH)
    got = signal.sigwaitinfo(set(CATCH)).si_signo
    pending = sorted(signal.sigpending() & set(CATCH))
    for signum in sorted({got, *pending}):
        record.signal(signum)
    record.exit(128 + got)
    os._exit(128 + got)


# --- srun ---------------------------------------------------------------------------------------


def _tables() -> tuple[dict[str, str], set[str], dict[str, str]]:
    t = CONFIG["srun"]
    return dict(t["short"]), set(t["flags"]), dict(t["short_flags"])


class Step:
    """The geometry of one job step: its nodes, and tasks per node."""

    def __init__(self, options: dict[str, str | None], env: dict[str, str]) -> None:
        import slurmlib

        job_nodes = slurmlib.expand(env.get("SLURM_JOB_NODELIST") or env.get("SLURM_NODELIST") or "")
        if not job_nodes:
            job_nodes = [slurmlib.node_name(0)]
        job_counts = slurmlib.parse_counts(env.get("SLURM_TASKS_PER_NODE", "")) or []
        if len(job_counts) != len(job_nodes):
            job_counts = [1] * len(job_nodes)
        nodes = job_nodes
        wanted = options.get("nodelist")
        if wanted:
            listed = [n for n in slurmlib.expand(wanted) if n in job_nodes]
            nodes = listed or nodes
        excluded = set(slurmlib.expand(options.get("exclude") or ""))
        nodes = [n for n in nodes if n not in excluded] or nodes
        n_opt = slurmlib.number(options.get("ntasks"))
        big_n = slurmlib.number(options.get("nodes"))
        tpn_opt = slurmlib.number(options.get("ntasks-per-node"))
        given = n_opt is not None or big_n is not None or tpn_opt is not None or wanted
        if not given:
            self.nodes = job_nodes
            self.counts = job_counts
            return
        if big_n is None:
            big_n = len(nodes) if wanted or tpn_opt is not None else None
        if big_n is None:
            big_n = min(n_opt or len(nodes), len(nodes))
        big_n = max(1, min(big_n, len(nodes)))
        self.nodes = nodes[:big_n]
        tpn = tpn_opt if tpn_opt is not None else slurmlib.number(env.get("SLURM_NTASKS_PER_NODE"))
        if n_opt is None:
            n_opt = big_n * tpn if tpn else big_n
        capacity = max(job_counts) if job_counts else 1
        self.counts = slurmlib.distribute(n_opt, big_n, tpn, max(capacity, int(CONFIG.get("cpus", 64))))

    @property
    def ntasks(self) -> int:
        return sum(self.counts)


def _export(options: dict[str, str | None], env: dict[str, str]) -> dict[str, str]:
    """The environment srun hands its tasks: all of it (`--export=ALL`, the default), or only
    Slurm's variables and those named (`--export=NONE`, `--export=A,B=1`)."""
    spec = options.get("export")
    if spec is None:
        return dict(env)
    items = [i for i in spec.split(",") if i]
    base = (
        dict(env) if items and items[0] == "ALL" else {k: v for k, v in env.items() if k.startswith("SLURM")}
    )
    for item in items:
        if item in ("ALL", "NONE", "NIL"):
            continue
        name, eq, value = item.partition("=")
        if eq:
            base[name] = value
        elif name in env:
            base[name] = env[name]
    return base


def _task_env(base: dict[str, str], step: Step, step_id: int, where: tuple[int, int, int]) -> dict[str, str]:
    import slurmlib

    node, local, rank = where
    env = dict(base)
    name = step.nodes[node]
    first = sum(step.counts[:node])
    gtids = ",".join(str(first + i) for i in range(step.counts[node]))
    env.update(
        {
            "SLURM_STEP_ID": str(step_id),
            "SLURM_STEPID": str(step_id),
            "SLURM_STEP_NODELIST": slurmlib.compress(step.nodes),
            "SLURM_STEP_NUM_NODES": str(len(step.nodes)),
            "SLURM_STEP_NUM_TASKS": str(step.ntasks),
            "SLURM_STEP_TASKS_PER_NODE": slurmlib.counts_text(step.counts),
            "SLURM_NNODES": str(len(step.nodes)),
            "SLURM_NTASKS": str(step.ntasks),
            "SLURM_NPROCS": str(step.ntasks),
            "SLURM_TASKS_PER_NODE": slurmlib.counts_text(step.counts),
            "SLURM_PROCID": str(rank),
            "SLURM_LOCALID": str(local),
            "SLURM_NODEID": str(node),
            "SLURMD_NODENAME": name,
            "SLURM_TOPOLOGY_ADDR": name,
            "SLURM_GTIDS": gtids,
            "SLURM_DISTRIBUTION": "block",
            "SLURM_LAUNCH_NODE_IPADDR": slurmlib.node_address(0),
            "SLURM_SRUN_COMM_HOST": slurmlib.node_address(0),
        }
    )
    gpus = int(CONFIG.get("gpus_per_node", 0))
    if gpus:
        devices = ",".join(str(i) for i in range(gpus))
        env.update({"CUDA_VISIBLE_DEVICES": devices, "SLURM_STEP_GPUS": devices})
    for name in CONFIG.get("uniform") or ():
        # "what if every task ran where the batch shell does": the batch shell's value, or none
        if name in os.environ:
            env[name] = os.environ[name]
        else:
            env.pop(name, None)
    return env


def _srun_refuses(words: list[str]) -> str | None:
    """srun's complaint about the first long option among its own words it does not take: none of
    its options (pyxis's `--container-*` aside) begins so, or several do."""
    known = CONFIG["srun"].get("long") or ()
    for word in words:
        if not word.startswith("--") or word == "--":
            continue
        name = word[2:].partition("=")[0]
        if name in known or name.startswith(("container-", "no-container-")):
            continue
        begun = [o for o in known if o.startswith(name)]
        if len(begun) > 1:
            return f"option '{word}' is ambiguous"
        if not begun:
            return f"unrecognized option '{word}'"
    return None


def srun(argv: list[str]) -> None:
    import slurmlib

    short, flags, short_flags = _tables()
    options, command = slurmlib.parse_options(argv, short, flags, short_flags)
    record = Record("step", "srun", argv)
    refused = _srun_refuses(argv[: len(argv) - len(command)])
    if refused is not None:
        # srun's getopt refuses a long option it does not have (or a prefix of several) and
        # starts nothing (srun 22.05: `srun: unrecognized option '--x'`, exit 255)
        print(f"srun: {refused}", file=sys.stderr)
        print('Try "srun --help" for more information', file=sys.stderr)
        record.exit(255)
        os._exit(255)
    if not command:
        print("srun: fatal: No command given to execute.", file=sys.stderr)
        record.exit(1)
        os._exit(1)
    env = dict(os.environ)
    step = Step(options, env)
    step_id = _counter("steps")
    base = _export(options, env)
    cwd = options.get("chdir") or _cwd()
    here = os.uname().nodename
    groups: list[int] = []
    live: dict[int, int] = {}
    # each task's stdout and stderr come through a pipe of their own, passed on a line at a time
    relay = Relay(whole=step.ntasks > 1)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_r, False)
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda _s, _f: None)  # a task's end wakes the relay

    def forward(signum: int, _frame: object) -> None:
        for pgid in groups:
            _try(os.killpg, pgid, signum)

    for s in FORWARD:
        signal.signal(s, forward)
    if any(node != here for node in step.nodes):
        import ctypes  # noqa: F401  (once, before the tasks that name their node fork)
    sys.stdout.flush()
    sys.stderr.flush()
    given, reader = _stdin(options.get("input"), step_id)
    rank = 0
    for node, count in enumerate(step.counts):
        for local in range(count):
            env_t = _task_env(base, step, step_id, (node, local, rank))
            out_r, out_w = os.pipe()
            err_r, err_w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.dup2(out_w, 1)
                os.dup2(err_w, 2)
                stdin = given if reader in (None, rank) else os.devnull
                _task(command, env_t, cwd, step.nodes[node], here, stdin=stdin)
            os.close(out_w)
            os.close(err_w)
            relay.add(out_r, 1)
            relay.add(err_r, 2)
            _try(os.setpgid, pid, pid)  # the child does it too: whichever runs first
            groups.append(pid)
            live[pid] = rank
            os.makedirs(TASKS, exist_ok=True)
            with open(os.path.join(TASKS, str(pid)), "w", encoding="ascii") as f:
                f.write(f"{step_id}.{rank}")
            rank += 1
    status = 0
    while live:
        relay.wait(wake_r)
        while live:
            try:
                pid, code = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                live.clear()
                break
            if pid == 0:
                break
            if pid not in live:
                continue
            del live[pid]
            _try(os.unlink, os.path.join(TASKS, str(pid)))
            status = max(status, _code(code))
    relay.finish()
    record.exit(status)
    os._exit(status)


class Relay:
    """What srun does with its tasks' output: each task's stdout and stderr read from a pipe of
    their own and written to srun's, a whole line at a time, so that two tasks writing at once
    never run into each other's line (bash writes a message in pieces). ``whole``: a task's last
    line left unfinished is ended, so that it does not run into another task's."""

    def __init__(self, *, whole: bool) -> None:
        self.whole = whole
        self.pipes: dict[int, tuple[int, bytearray]] = {}  # read end: (fd written to, partial line)

    def add(self, fd: int, to: int) -> None:
        self.pipes[fd] = (to, bytearray())

    def wait(self, wake: int) -> None:
        """Pass on what the tasks write until a signal comes (a task may have ended)."""
        while True:
            ready, _, _ = select.select([wake, *self.pipes], [], [])
            for fd in ready:
                if fd != wake:
                    self.read(fd)
            if wake in ready:
                _drain(wake)
                return

    def read(self, fd: int) -> bool:
        """Pass on what the pipe holds; False when it holds nothing now or has no writer left."""
        to, partial = self.pipes[fd]
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return False
        if not data:
            if partial:
                self.write(to, bytes(partial) + (b"\n" if self.whole else b""))
            os.close(fd)
            del self.pipes[fd]
            return False
        partial += data
        end = partial.rfind(b"\n") + 1
        if end:
            self.write(to, bytes(partial[:end]))
            del partial[:end]
        return True

    @staticmethod
    def write(fd: int, data: bytes) -> None:
        # whole lines, in pieces within PIPE_BUF where a line allows: each written at once
        while data:
            cut = len(data) if len(data) <= 4096 else (data.rfind(b"\n", 0, 4096) + 1 or 4096)
            try:
                os.write(fd, data[:cut])
            except OSError:
                return  # no one reads srun's output any more: the rest is lost, as with srun
            data = data[cut:]

    def finish(self) -> None:
        """Every task has ended: pass on what their pipes hold. Where a process a task left running
        still holds a pipe, a process of srun's own goes on passing its lines, and srun ends with
        its tasks."""
        for fd in list(self.pipes):
            os.set_blocking(fd, False)
            while self.read(fd):
                pass
        if not self.pipes or os.fork() != 0:
            return
        for s in (*FORWARD, signal.SIGCHLD):
            signal.signal(s, signal.SIG_DFL)
        for fd in self.pipes:
            os.set_blocking(fd, True)
        while self.pipes:
            for fd in select.select(list(self.pipes), [], [])[0]:
                self.read(fd)
        os._exit(0)


def _drain(fd: int) -> None:
    try:
        while os.read(fd, 512):
            pass
    except BlockingIOError:
        return


def _code(wait_status: int) -> int:
    if os.WIFSIGNALED(wait_status):
        return 128 + os.WTERMSIG(wait_status)
    return os.WEXITSTATUS(wait_status)


def _stdin(mode: str | None, step_id: int) -> tuple[str, int | None]:
    """srun's standard input as its tasks get it: by default srun reads its own and hands every
    task all of it (`--input=all`; a heredoc `srun bash <<EOF` feeds each task the same text);
    `--input=none` gives them none, `--input=N` task N alone, `--input=FILE` each the file.
    Returns the file the tasks read, and the one rank that reads it (None: every rank)."""
    path = os.path.join(STATE, f"stdin.{step_id}")
    mode = (mode or "all").strip()
    if mode == "none":
        return os.devnull, None
    if mode != "all" and not mode.isdigit():
        return (mode if os.path.exists(mode) else os.devnull), None
    chunks = []
    while chunk := os.read(0, 1 << 16):
        chunks.append(chunk)
    os.makedirs(STATE, exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"".join(chunks))
    return path, (int(mode) if mode.isdigit() else None)


def _task(command: list[str], env: dict[str, str], cwd: str, node: str, here: str, *, stdin: str) -> None:
    """In the forked child: a process group of its own, the node's host name, then the command."""
    try:
        os.setpgid(0, 0)
        fd = os.open(stdin, os.O_RDONLY)
        os.dup2(fd, 0)
        os.close(fd)
        for s in FORWARD:
            signal.signal(s, signal.SIG_DFL)
        if node != here:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.unshare(CLONE_NEWUTS) == 0:
                raw = node.encode()
                libc.sethostname(raw, len(raw))
        try:
            os.chdir(cwd)
        except OSError as exc:
            print(f"slurmstepd: error: couldn't chdir to `{cwd}': {exc.strerror}", file=sys.stderr)
        found = _found(command[0], env.get("PATH", os.defpath))
        if found is not None and os.path.realpath(found) == os.path.join(HERE, "command.py"):
            _here(found, command, env)
        os.execvpe(command[0], command, env)
    except OSError as exc:
        print(f"slurmstepd: error: execve(): {command[0]}: {exc.strerror}", file=sys.stderr)
        sys.stderr.flush()
        os._exit(2)
    os._exit(2)


def _found(name: str, path: str) -> str | None:
    """The file execvp runs for ``name``: the name itself when it holds a `/`, else the first
    executable file of that name on ``path``."""
    if "/" in name:
        return name
    for folder in path.split(":"):
        candidate = os.path.join(folder or ".", name)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
    return None


def _here(found: str, command: list[str], env: dict[str, str]) -> None:
    """Run a stub in this forked task as exec would start it (no interpreter of its own to start,
    which is most of a step's cost): argv, environment, the descriptors exec closes closed, the
    signal dispositions Python starts with."""
    signal.set_wakeup_fd(-1)
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for entry in os.listdir("/proc/self/fd"):
        fd = int(entry)
        if fd > 2:
            try:
                if not os.get_inheritable(fd):
                    os.close(fd)
            except OSError:
                continue  # the listing's own descriptor, closed already
    os.environ.clear()
    os.environ.update(env)
    sys.argv = [found, *command[1:]]
    try:
        main()
    except SystemExit as exc:
        sys.stdout.flush()
        os._exit(exc.code if isinstance(exc.code, int) else 1)
    except BaseException:
        import traceback

        traceback.print_exc()
        sys.stderr.flush()
        os._exit(1)
    os._exit(0)


# --- Slurm's other commands -----------------------------------------------------------------------


def scontrol(argv: list[str]) -> None:
    import slurmlib

    record = Record("call", "scontrol", argv)
    words = [a for a in argv if not a.startswith("-")]
    if len(words) >= 2 and words[0] == "show" and words[1] in ("hostnames", "hostname"):
        hostlist = words[2] if len(words) > 2 else os.environ.get("SLURM_JOB_NODELIST", "")
        for name in slurmlib.expand(hostlist):
            print(name)
    elif len(words) >= 2 and words[0] == "show" and words[1] == "job":
        nodes = os.environ.get("SLURM_JOB_NODELIST", "")
        job = os.environ.get("SLURM_JOB_ID", "")
        print(f"JobId={job} JobName={os.environ.get('SLURM_JOB_NAME', '')} NodeList={nodes} BatchHost=node0")
    flush()
    record.exit(0)
    os._exit(0)


def scancel(argv: list[str]) -> None:
    """`scancel --signal=SIG [--batch|--full] JOB`: the signal to the batch shell, the steps' tasks or
    both; plain `scancel JOB` ends the job (the controller's time-limit path)."""
    import slurmlib

    record = Record("call", "scancel", argv)
    options, _ = slurmlib.parse_options(
        argv, {"s": "signal", "b": "batch", "f": "full"}, {"batch", "full"}, {"b": "batch", "f": "full"}
    )
    name = options.get("signal")
    if name is None:
        with open(os.path.join(STATE, "cancel"), "w", encoding="ascii") as f:
            f.write("scancel")
        record.exit(0)
        os._exit(0)
    signum = _signum(name)
    if signum is None:
        print(f"scancel: error: Invalid job signal: {name}", file=sys.stderr)
        record.exit(1)
        os._exit(1)
    to_batch = "batch" in options or "full" in options
    to_steps = "batch" not in options
    if to_batch:
        with open(os.path.join(STATE, "batch.pid"), encoding="ascii") as f:
            _try(os.kill, int(f.read() or 0), signum)
    if to_steps:
        for task in os.listdir(TASKS) if os.path.isdir(TASKS) else ():
            if task.isdigit():
                _try(os.killpg, int(task), signum)
    record.exit(0)
    os._exit(0)


def _try(call: object, *args: object) -> None:
    """A call whose target may be gone already (a task that ended, a file removed)."""
    try:
        call(*args)
    except OSError:
        return


def _signum(name: str) -> int | None:
    up = name.upper()
    if up.isdigit():
        return int(up) if 0 < int(up) < 65 else None
    # the names signal.Signals has (SIG_DFL and the like are none)
    name = up if up.startswith("SIG") else f"SIG{up}"
    number = getattr(signal, name, None) if not name.startswith("SIG_") else None
    return number if isinstance(number, int) else None


def sbatch(argv: list[str]) -> None:
    record = Record("call", "sbatch", argv)
    number = 2000 + _counter("submitted")
    print(number if "--parsable" in argv else f"Submitted batch job {number}")
    flush()
    record.exit(0)
    os._exit(0)


def hostname(argv: list[str]) -> None:
    import slurmlib

    record = Record("call", "hostname", argv)
    name = os.uname().nodename
    index = slurmlib.node_index(name)
    if any(a in ("-I", "-i", "--ip-address", "--all-ip-addresses") for a in argv):
        print(slurmlib.node_address(index or 0))
    else:
        print(name)
    flush()
    record.exit(0)
    os._exit(0)


def sleep(argv: list[str]) -> None:
    record = Record("call", "sleep", argv)
    if _counter("sleeps") >= MAX_SLEEPS:
        # time runs out: the controller sees everything waiting and ends the job
        signal.pthread_sigmask(signal.SIG_BLOCK, CATCH)
        got = signal.sigwaitinfo(set(CATCH)).si_signo
        record.exit(128 + got)
        os._exit(128 + got)
    record.exit(0)
    os._exit(0)


# the simulated clock's "now" (a fixed time, so that a script that prints the date prints the same
# in every run)
NOW = 1767225600  # 2026-01-01 00:00:00 UTC


def date(argv: list[str]) -> None:
    import time

    record = Record("call", "date", argv)
    formats = [a[1:] for a in argv if a.startswith("+")]
    stamp = time.gmtime(NOW)
    print(time.strftime(formats[0], stamp) if formats else time.strftime("%a %b %e %H:%M:%S UTC %Y", stamp))
    flush()
    record.exit(0)
    os._exit(0)


def nvidia_smi(argv: list[str]) -> None:
    record = Record("call", "nvidia-smi", argv)
    if "-L" in argv or "--list-gpus" in argv:
        for i in range(int(CONFIG.get("gpus_per_node", 0))):
            print(f"GPU {i}: Simulated GPU (UUID: GPU-{i:08d})")
    flush()
    record.exit(0)
    os._exit(0)


def flush() -> None:
    """A helper command's output written: a reader that took what it wanted and went away (`|
    head -n 1`, or a shell ended by a signal) leaves it to no one, as the real command's would be,
    with no traceback of the stub's."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


def quiet(name: str, argv: list[str]) -> None:
    record = Record("call", name, argv)
    record.exit(0)
    os._exit(0)


def main() -> None:
    name = os.path.basename(sys.argv[0])
    argv = sys.argv[1:]
    handlers = {
        "srun": srun,
        "scontrol": scontrol,
        "scancel": scancel,
        "sbatch": sbatch,
        "hostname": hostname,
        "sleep": sleep,
        "date": date,
        "nvidia-smi": nvidia_smi,
    }
    if name in handlers:
        handlers[name](argv)
    elif name in SLURM_QUIET:
        quiet(name, argv)
    else:
        program(name, argv)


if __name__ == "__main__":
    main()
