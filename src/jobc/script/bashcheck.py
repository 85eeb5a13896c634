"""Asking bash itself whether it reads a text: `bash -n` parses and runs nothing.

Two places need bash's own verdict: the script reader, before it calls a script unreadable where
tree-sitter-bash stumbles on a construct bash accepts (an escaped `]` inside a `${…}` pattern),
and JC509, which checks `launch.setup`. The text goes in on standard input (never through a
shell), with no rc files, no BASH_ENV or ENV, untranslated messages, and a timeout.
The reader's question is started ahead (`ahead`), so bash parses the script on another core
while the reader walks the tree, and its answer is taken when the reader asks.
"""

from __future__ import annotations

import os
import re

from jobc.core.lazyre import lazy

TIMEOUT_S = 10.0  # bash parses megabytes in milliseconds


class Done:
    """What bash said: its exit code (negative: the signal that ended it) and its stderr."""

    __slots__ = ("returncode", "stderr")

    def __init__(self, returncode: int, stderr: bytes) -> None:
        self.returncode, self.stderr = returncode, stderr


def bash() -> str | None:
    """The bash on PATH, or None."""
    return which("bash", os.environ.get("PATH", os.defpath))


def which(command: str, path: str) -> str | None:
    """`shutil.which(command, path=path)` on POSIX: the first file of that name in a directory of
    `path` that is executable and not a directory. Importing shutil, for every script a lint
    reads, brought zlib, bz2 and lzma along."""
    if not path:
        return None  # PATH='' matches nothing; PATH=':' looks in the current directory
    seen: set[str] = set()
    for directory in path.split(os.pathsep):
        normal = os.path.normcase(directory)
        if normal in seen:
            continue
        seen.add(normal)
        name = os.path.join(directory, command)
        if os.path.exists(name) and os.access(name, os.F_OK | os.X_OK) and not os.path.isdir(name):
            return name
    return None


def parse(text: str, shell: str | None = None, *, numbered: bool = False) -> Done | None:
    """bash's `-n` run over the text (exit code and complaints), or None when bash cannot be asked.

    ``numbered``: bash reads the text as the file `/dev/stdin`, so each complaint names its line
    (`/dev/stdin: line 3: syntax error near unexpected token `fi'`)."""
    shell = shell or bash()
    if shell is None:
        return None
    argv = _argv(shell, numbered)
    data = text.encode("utf-8", "replace")
    early = _AHEAD.pop((tuple(argv), data), None)
    if early is not None:
        return early.wait()  # the same command on the same bytes, started while the reader worked
    return run(argv, data, _ENV, TIMEOUT_S)


def _argv(shell: str, numbered: bool) -> list[str]:
    # -n runs nothing, so no PATH is needed
    return [shell, "--norc", "--noprofile", "-n", *(["/dev/stdin"] if numbered else [])]


_ENV = {"LC_ALL": "C"}
# `bash -n` runs started ahead of the question, by (argv, the bytes on its stdin)
_AHEAD: dict[tuple[tuple[str, ...], bytes], _Child] = {}


def ahead(text: str) -> None:
    """Start the `refusal(text)` question now, to be answered when it is asked.

    The script reader asks bash about every script it reads, once it has walked the parse tree;
    bash is a process of its own, so it can parse the script on another core while the reader
    walks the tree. `refusal` (and `parse`) with the same text and shell take this run's answer
    instead of starting bash again: the command, its input and its environment are the same, so
    the answer is too. What is never asked is reaped by `drop_ahead`."""
    if "\0" in text:
        return  # refusal asks nothing then
    shell = bash()
    if shell is None:
        return
    argv = _argv(shell, numbered=True)
    data = text.encode("utf-8", "replace")
    key = (tuple(argv), data)
    if key not in _AHEAD:
        child = spawn(argv, data, _ENV, TIMEOUT_S)
        if child is not None:
            _AHEAD[key] = child


def ahead_of_script(data: bytes) -> None:
    """`ahead` with the text the script reader asks about for these bytes (its lines as bash
    counts them, `jobc.script.parse.split_lines`, joined), for a script the reader will parse:
    not larger than sbatch takes and without a NUL byte. A script the reader then leaves
    unparsed (another shell's, or one of too many words) leaves a run nobody asks for, which
    `drop_ahead` reaps."""
    if len(data) > _MAX_SCRIPT or b"\0" in data:
        return
    text = data.decode("utf-8", "surrogateescape")
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    if "\r" in text:
        lines = [line.removesuffix("\r") for line in lines]
    ahead("\n".join(lines) + "\n")


_MAX_SCRIPT = 4 << 20  # jobc.script.parse.MAX_BYTES: a larger script is not parsed


def drop_ahead() -> None:
    """Reap the runs started ahead that nothing asked for (their answers are not needed)."""
    while _AHEAD:
        _, child = _AHEAD.popitem()
        child.wait()


def run(argv: list[str], data: bytes, env: dict[str, str], timeout: float) -> Done | None:
    """`argv` with ``data`` on its standard input, its output discarded and its stderr kept; None
    when it cannot be started or outlives ``timeout`` seconds (it is killed then).

    What `subprocess.run(..., input=data, capture_output=True, timeout=...)` does, from `os`
    alone: every script lint asks bash once, and importing `subprocess` (with threading,
    selectors and signal) cost more than bash's own run."""
    child = spawn(argv, data, env, timeout)
    return None if child is None else child.wait()


def spawn(argv: list[str], data: bytes, env: dict[str, str], timeout: float) -> _Child | None:
    """`argv` started with ``data`` going to its standard input (as much as the pipe takes now,
    the rest in `_Child.wait`); None when it cannot be started."""
    try:
        stdin_r, stdin_w = os.pipe()  # not inheritable: only the dup2'd ends reach bash
    except OSError:
        return None
    err_r, err_w = os.pipe()
    try:
        pid = os.posix_spawn(
            argv[0],
            argv,
            env,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, stdin_r, 0),
                (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_DUP2, err_w, 2),
            ],
        )
    except OSError:
        for fd in (stdin_r, stdin_w, err_r, err_w):
            os.close(fd)
        return None
    os.close(stdin_r)
    os.close(err_w)
    os.set_blocking(stdin_w, False)
    return _Child(pid, stdin_w, err_r, data, timeout)


class _Child:
    """A started process: its pid, the pipes to its stdin and from its stderr, what is left to
    send, and when it must have finished."""

    def __init__(self, pid: int, stdin_w: int, err_r: int, data: bytes, timeout: float) -> None:
        import time

        self.pid, self.stdin_w, self.err_r, self.data = pid, stdin_w, err_r, data
        self.deadline = time.monotonic() + timeout
        self.sent = 0
        self.done_sending = not data
        if data:
            self._send()  # a script fits the pipe: bash has it all before anyone waits
        else:
            os.close(stdin_w)

    def _send(self) -> None:
        """Write what the pipe takes now; close it once everything is sent (or bash stopped reading)."""
        try:
            self.sent += os.write(self.stdin_w, self.data[self.sent : self.sent + 65536])
        except BlockingIOError:
            return
        except BrokenPipeError:  # bash stopped reading: it has its verdict
            self.sent = len(self.data)
        if self.sent >= len(self.data):
            self.done_sending = True
            os.close(self.stdin_w)

    def wait(self) -> Done | None:
        """Its exit code and stderr once it ends; None when it outlives its time (it is killed)."""
        import select
        import time

        chunks = []
        poller = select.poll()  # not select.select: it refuses a descriptor numbered over 1023
        poller.register(self.err_r, select.POLLIN)
        reading = True
        if not self.done_sending:
            poller.register(self.stdin_w, select.POLLOUT)
        try:
            while reading or not self.done_sending:
                left = self.deadline - time.monotonic()
                if left <= 0:
                    os.kill(self.pid, 9)  # SIGKILL, as subprocess's timeout does
                    os.waitpid(self.pid, 0)
                    return None
                for fd, _ in poller.poll(left * 1000):
                    if fd == self.err_r:
                        chunk = os.read(self.err_r, 65536)
                        if chunk:
                            chunks.append(chunk)
                        else:
                            poller.unregister(self.err_r)
                            reading = False
                    elif not self.done_sending:
                        self._send()
                        if self.done_sending:
                            poller.unregister(fd)
        finally:
            if not self.done_sending:
                os.close(self.stdin_w)
                self.done_sending = True
            os.close(self.err_r)
        _, status = os.waitpid(self.pid, 0)
        return Done(os.waitstatus_to_exitcode(status), b"".join(chunks))


def complained(stderr: bytes) -> bool:
    """True when bash named an error in the text, whatever its exit code.

    `bash -n` reports some syntax errors on stderr and still exits 0: a `[[` with nothing to test
    ("unexpected token `;' in conditional command"); running the text then skips that command and
    goes on. Only its warnings (an unclosed heredoc, which JC509 reports on its own) leave the
    text whole."""
    return any(
        line.strip() and "warning: " not in line for line in stderr.decode("utf-8", "replace").splitlines()
    )


def accepts(text: str) -> bool | None:
    """True when bash parses the text, False when it does not, None when no bash can tell."""
    if "\0" in text:
        return None  # bash drops NUL bytes while reading: its verdict would be on another text
    done = parse(text)
    return None if done is None else done.returncode == 0 and not complained(done.stderr)


_COMPLAINT = lazy(r"^[^:\n]*: line (\d+): (.*)$", re.MULTILINE)


def refusal(text: str) -> tuple[int, str] | None:
    """Where bash refuses to parse the text and what it says, or None (it parses, or no bash)."""
    found = refusal_stops(text)
    return None if found is None else found[:2]


def refusal_stops(text: str) -> tuple[int, str, bool] | None:
    """As `refusal`, and whether bash stops there when it runs the script: `bash -n` exits 2 at
    a syntax error it stops at, and 1 (or 0) for one it reports and runs on past, as it does
    when it runs the script (an error inside a compound assignment, `a=( $(…) s=($x)`, or a
    `[[` with nothing to test)."""
    if "\0" in text:
        return None
    done = parse(text, numbered=True)
    if done is None or (done.returncode == 0 and not complained(done.stderr)):
        return None
    said = done.stderr.decode("utf-8", "replace")
    match = _COMPLAINT.search(said)
    stops = done.returncode == 2
    if match is None:
        return 1, said.strip().splitlines()[0] if said.strip() else "syntax error", stops
    return int(match.group(1)), match.group(2).strip(), stops
