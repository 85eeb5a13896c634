"""Asking bash itself whether it reads a text: `bash -n` parses and runs nothing.

Two places need bash's own verdict: the script reader, before it calls a script unreadable where
tree-sitter-bash stumbles on a construct bash accepts (an escaped `]` inside a `${…}` pattern),
and JC509, which checks `launch.setup`. The text goes in on standard input (never through a
shell), with no rc files, no BASH_ENV or ENV, untranslated messages, and a timeout.
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
    argv = [shell, "--norc", "--noprofile", "-n", *(["/dev/stdin"] if numbered else [])]
    # -n runs nothing, so no PATH is needed
    return run(argv, text.encode("utf-8", "replace"), {"LC_ALL": "C"}, TIMEOUT_S)


def run(argv: list[str], data: bytes, env: dict[str, str], timeout: float) -> Done | None:
    """`argv` with ``data`` on its standard input, its output discarded and its stderr kept; None
    when it cannot be started or outlives ``timeout`` seconds (it is killed then).

    What `subprocess.run(..., input=data, capture_output=True, timeout=...)` does, from `os`
    alone: every script lint asks bash once, and importing `subprocess` (with threading,
    selectors and signal) cost more than bash's own run."""
    import select
    import time

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
    deadline = time.monotonic() + timeout
    sent, chunks = 0, []
    poller = select.poll()  # not select.select: it refuses a descriptor numbered over 1023
    poller.register(err_r, select.POLLIN)
    open_fds = {err_r}
    if data:
        poller.register(stdin_w, select.POLLOUT)
        open_fds.add(stdin_w)
    else:
        os.close(stdin_w)
    try:
        while open_fds:
            left = deadline - time.monotonic()
            if left <= 0:
                os.kill(pid, 9)  # SIGKILL, as subprocess's timeout does
                os.waitpid(pid, 0)
                return None
            for fd, _ in poller.poll(left * 1000):
                if fd == stdin_w:
                    try:
                        sent += os.write(stdin_w, data[sent : sent + 65536])
                    except BlockingIOError:
                        continue
                    except BrokenPipeError:  # bash stopped reading: it has its verdict
                        sent = len(data)
                    if sent >= len(data):
                        poller.unregister(stdin_w)
                        open_fds.discard(stdin_w)
                        os.close(stdin_w)
                else:
                    chunk = os.read(err_r, 65536)
                    if chunk:
                        chunks.append(chunk)
                    else:
                        poller.unregister(err_r)
                        open_fds.discard(err_r)
    finally:
        if stdin_w in open_fds:
            os.close(stdin_w)
        os.close(err_r)
    _, status = os.waitpid(pid, 0)
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
    if "\0" in text:
        return None
    done = parse(text, numbered=True)
    if done is None or (done.returncode == 0 and not complained(done.stderr)):
        return None
    said = done.stderr.decode("utf-8", "replace")
    match = _COMPLAINT.search(said)
    if match is None:
        return 1, said.strip().splitlines()[0] if said.strip() else "syntax error"
    return int(match.group(1)), match.group(2).strip()
