#!/usr/bin/python3 -IS
"""The simulated Slurm controller: process 1 of the sandbox a batch script runs in.

It gives the sandbox a file system of its own (fresh /tmp, /home, /run, /var/spool, an empty
/etc/profile), names the host `node0`, starts the batch script as slurmd would (its own session,
the job's environment, output to one file) and then plays the clock. Time passes only when every
process of the job waits (no thread of any process runnable or in an uninterruptible wait, their
states and counters unchanged over a few polls; a process sleeping for a while, or bash retrying
a fork that failed, looks the same): then the next event of the job's life comes — the `--signal`
warning (to the batch shell with `B:`, else to every task of every running step), then the time
limit (SIGTERM to every process), then SIGKILL. When the batch shell ends, whatever it left
running gets SIGTERM, then SIGKILL, as when a job completes. Each event is written to
`events.jsonl`, the batch shell's exit status last.

Standard library only; run as `python3 -IS init.py SIMDIR` under `unshare` (user, pid, mount,
net, uts and ipc namespaces).
"""

from __future__ import annotations

import _signal as signal  # the C module: `signal` imports `enum`
import ctypes
import marshal
import os
import resource
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from jsonl import dumps  # not `json`: this starts for every run, on a busy machine

MS_BIND = 4096
MS_REC = 16384
POLL = 0.01
STILL = 4  # polls in a row with nothing changed: every process waits
MAX_PIDS = 40_000  # processes a job may start before its time is up (a loop of commands)
# processes that may run at once (a loop that starts a program that waits on every turn, in the
# `signal` scenario): the job is cut there, as at the stubs' budget of starts (stub.MAX_RECORDS),
# well below the process limit (_limits), where a fork would fail (bash retries it, srun cannot
# start its tasks) at a point that depends on the machine
MAX_LIVE = 500


def _mount(libc: ctypes.CDLL, source: str, target: str, fstype: str | None, flags: int) -> None:
    if libc.mount(source.encode(), target.encode(), fstype.encode() if fstype else None, flags, None) != 0:
        raise OSError(ctypes.get_errno(), f"mount {source} on {target}")


def private_filesystem(sim: str, config: dict[str, object]) -> None:
    """The sandbox's own /run (the simulator), /home (the job's directory), /var/spool (the script
    where slurmd keeps it), /tmp, /var/tmp and /dev/shm, and an empty /etc/profile."""
    libc = ctypes.CDLL(None, use_errno=True)
    _mount(libc, "tmpfs", "/run", "tmpfs", 0)
    os.makedirs("/run/jobc-sim")
    _mount(libc, str(sim), "/run/jobc-sim", None, MS_BIND)
    # the stubs' directory, shared by every run: beside this file
    _mount(libc, os.path.dirname(os.path.realpath(__file__)), "/run/jobc-sim/bin", None, MS_BIND)
    _mount(libc, "tmpfs", "/home", "tmpfs", 0)
    work = config["workdir"]
    os.makedirs(work)
    _mount(libc, os.path.join(sim, "work"), work, None, MS_BIND)
    _mount(libc, "tmpfs", "/var/spool", "tmpfs", 0)
    script = str(config["script"])
    os.makedirs(os.path.dirname(script))
    _write(script, _read_file(os.path.join(sim, "script")))
    os.chmod(script, 0o755)
    for tmp in ("/tmp", "/var/tmp", "/dev/shm"):
        if os.path.isdir(tmp):
            _mount(libc, "tmpfs", tmp, "tmpfs", 0)
    for profile in ("/etc/profile", "/etc/bash.bashrc"):
        if os.path.exists(profile):
            _mount(libc, "/run/jobc-sim/empty", profile, None, MS_BIND)


def _read_file(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


def _write(path: str, data: bytes) -> None:
    with open(path, "wb") as f:
        f.write(data)


def _read(path: str) -> bytes:
    """A file of /proc, read with two system calls (this runs for every process, every poll)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 8192)
    finally:
        os.close(fd)


def _switches(status: bytes) -> tuple[str, ...]:
    return tuple(
        line.split()[1].decode("ascii", "replace") for line in status.splitlines() if b"ctxt_switches" in line
    )


def _threads(pid: str) -> list[tuple[str, ...]]:
    """The state and switch counts of every thread of a process that has more than one: the
    process's own lines are its first thread's, and a thread that runs or wakes while that one
    waits (a program that joins its workers) is a process that does not wait."""
    threads = []
    try:
        tids = sorted(os.listdir(f"/proc/{pid}/task"))
    except OSError:
        return []
    for tid in tids:
        try:
            stat = _read(f"/proc/{pid}/task/{tid}/stat")
            status = _read(f"/proc/{pid}/task/{tid}/status")
        except OSError:
            continue
        state = stat[stat.rfind(b")") + 2 :].split()[0].decode("ascii", "replace")
        threads.append((tid, state, *_switches(status)))
    return threads


class Clock:
    """Whether every process of the job waits: no thread runnable, nothing changed for STILL polls."""

    def __init__(self) -> None:
        self.last: dict[int, tuple[str, ...]] = {}
        self.still = 0

    def quiet(self) -> bool:
        now: dict[int, tuple[str, ...]] = {}
        busy = False
        for entry in os.listdir("/proc"):
            if not entry.isdigit() or entry == "1":
                continue
            try:
                stat = _read(f"/proc/{entry}/stat")
                status = _read(f"/proc/{entry}/status")
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2 :].split()
            state = fields[0].decode("ascii", "replace")
            if state in ("R", "D", "W"):
                busy = True
            now[int(entry)] = (
                state,
                fields[11].decode("ascii", "replace"),
                fields[12].decode("ascii", "replace"),
                *_switches(status),
            )
            if fields[17] != b"1":
                threads = _threads(entry)
                busy = busy or any(t[1] in ("R", "D", "W") for t in threads)
                now[int(entry)] += tuple(x for t in threads for x in t)
        if busy or now != self.last:
            self.last, self.still = now, 0
            return False
        self.still += 1
        return self.still >= STILL

    @staticmethod
    def others() -> list[int]:
        return [int(e) for e in os.listdir("/proc") if e.isdigit() and e != "1"]


def _limits() -> None:
    """A runaway script ends instead of holding the test: CPU seconds, file size, processes."""
    resource.setrlimit(resource.RLIMIT_CPU, (10, 15))
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 20, 64 << 20))
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))
    # counted in the sandbox's own user namespace: a fork bomb stops at its own limit
    resource.setrlimit(resource.RLIMIT_NPROC, (1000, 1000))
    resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))


def start(config: dict[str, object], sim: str) -> int:
    pid = os.fork()
    if pid:
        return pid
    try:
        os.setsid()
        null = os.open("/dev/null", os.O_RDONLY)
        out = os.open(os.path.join(sim, "output"), os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        _limits()
        os.chdir(config["cwd"])
        script = config["script"]
        argv = [config["interpreter"], script] if config.get("interpreter") else [script]
        os.execve(argv[0], argv, config["env"])
    except OSError as exc:
        os.write(2, f"simulator: cannot run the script: {exc}\n".encode())
    os._exit(127)


class Controller:
    def __init__(self, sim: str, config: dict[str, object]) -> None:
        self.sim = sim
        self.config = config
        self.events = open(os.path.join(sim, "events.jsonl"), "a", encoding="utf-8")  # noqa: SIM115
        self.state = os.path.join(sim, "state")
        self.clock = Clock()
        self.batch: int | None = None
        self.status: int | None = None
        self.warning = config.get("warning")  # {"signal": "SIGUSR1", "batch": true}
        self.stage = 0  # 0: before the warning, 1: before the time limit, 2: before SIGKILL

    def event(self, what: str, **more: object) -> None:
        self.events.write(dumps({"event": what, **more}) + "\n")
        self.events.flush()
        # what a program records beside a signal: when in the job's life it came (written before
        # the signal is sent, so that the program reads the new phase)
        phase = {"warning": "warning", "time-limit": "limit", "job-end": "end", "killed": "end"}.get(what)
        if phase is not None:
            _write(os.path.join(self.state, "phase"), phase.encode())

    def reap(self) -> None:
        while True:
            try:
                pid, code = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if pid == self.batch:
                self.status = os.WEXITSTATUS(code) if os.WIFEXITED(code) else 128 + os.WTERMSIG(code)
                self.event("batch-exit", status=self.status)

    def run(self) -> None:
        self.batch = start(self.config, self.sim)
        _write(os.path.join(self.state, "batch.pid"), str(self.batch).encode())
        while True:
            time.sleep(POLL)
            self.reap()
            if self.status is not None:
                self.finish()
                return
            if self._cut():
                return
            if os.path.exists(os.path.join(self.state, "cancel")):
                os.unlink(os.path.join(self.state, "cancel"))
                self.event("cancelled")
                self.stage = max(self.stage, 1)
                self.next_event()
                continue
            if self.clock.quiet():
                if self._claimed():
                    continue  # still is what a cut leaves: it ends the job, the clock does not move
                self.next_event()
            elif self._runaway():
                self.next_event()

    def _cut(self) -> bool:
        """Whether a stub found the job's process budget spent (stub.MAX_RECORDS) and stopped
        every process, or MAX_LIVE processes run at once: then the job ends here, unfinished.
        Every process is killed where it stopped and reaped before anything else is written, so
        that two runs cut alike end alike."""
        if not os.path.exists(os.path.join(self.state, "cut")):
            if len(Clock.others()) < MAX_LIVE:
                return False
            os.kill(-1, signal.SIGSTOP)  # as a stub does at its budget: everything stops where it is
            _write(os.path.join(self.state, "cut"), b"")
        self.event("unfinished", why="process budget spent")
        os.kill(-1, signal.SIGKILL)
        while True:
            try:
                pid, code = os.waitpid(-1, 0)
            except ChildProcessError:
                break
            if pid == self.batch and self.status is None:
                self.status = os.WEXITSTATUS(code) if os.WIFEXITED(code) else 128 + os.WTERMSIG(code)
                self.event("batch-exit", status=self.status)
        self.event("done")
        return True

    def _claimed(self) -> bool:
        """A stub claimed the cut (stub._cut) and every process is stopped: the claimant was
        stopped before it could say so (by the controller's own cut), so the cut is said here."""
        if not os.path.exists(os.path.join(self.state, "cutting")):
            return False
        _write(os.path.join(self.state, "cut"), b"")
        return True

    def _runaway(self) -> bool:
        try:
            last = int(_read("/proc/sys/kernel/ns_last_pid"))
        except (OSError, ValueError):
            return False
        if last > MAX_PIDS and self.stage < 1:
            self.event("runaway", pids=last)
            self.stage = 1
            return True
        return False

    def next_event(self) -> None:
        if self.stage == 0 and self.warning:
            self.stage = 1
            name = self.warning["signal"]  # SIGUSR1, … (run.py's _warning names only real ones)
            signum = getattr(signal, name)
            if self.warning["batch"]:
                self.event("warning", signal=name, to="batch")
                os.kill(self.batch or 0, signum)
            else:
                self.event("warning", signal=name, to="steps")
                self._signal_tasks(signum)
            return
        if self.stage <= 1:
            self.stage = 2
            self.event("time-limit")
            os.kill(-1, signal.SIGCONT)
            os.kill(-1, signal.SIGTERM)
            return
        self.event("killed")
        os.kill(-1, signal.SIGKILL)

    def _signal_tasks(self, signum: int) -> None:
        tasks = os.path.join(self.state, "tasks")
        for task in sorted(os.listdir(tasks)) if os.path.isdir(tasks) else ():
            try:
                os.killpg(int(task), signum)
            except (OSError, ValueError):
                continue  # the task has ended

    def finish(self) -> None:
        """The batch shell has ended. What it left running first runs until everything waits (a
        program takes no time unless it waits for a signal); what still waits then ends with the
        job: SIGTERM, then SIGKILL."""
        self._settle()
        if Clock.others() and self.stage < 2:
            self.event("job-end")
            self.stage = 2
            os.kill(-1, signal.SIGCONT)
            os.kill(-1, signal.SIGTERM)
            self._settle()
        if Clock.others():
            self.event("killed")
            os.kill(-1, signal.SIGKILL)
        while True:
            try:
                os.waitpid(-1, 0)
            except ChildProcessError:
                break
        self.event("done")

    def _settle(self) -> None:
        clock = Clock()
        while Clock.others() and not clock.quiet():
            time.sleep(POLL)
            self.reap()
            if self._cut():
                raise SystemExit(0)  # the job ended there: what is left was killed and reaped
        if Clock.others() and self._claimed() and self._cut():
            raise SystemExit(0)


def main() -> None:
    sim = sys.argv[1]
    config = marshal.loads(_read_file(os.path.join(sim, "config.marshal")))
    private_filesystem(sim, config)
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.sethostname(b"node0", 5) != 0:
        raise OSError(ctypes.get_errno(), "sethostname node0")
    # the paths the stubs and the script see from now on
    Controller("/run/jobc-sim", config).run()


if __name__ == "__main__":
    main()
