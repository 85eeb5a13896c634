"""Asking bash itself whether it reads a text: `bash -n` parses and runs nothing.

Two places need bash's own verdict: the script reader, before it calls a script unreadable where
tree-sitter-bash stumbles on a construct bash accepts (an escaped `]` inside a `${…}` pattern),
and JC509, which checks `launch.setup`. The text goes in on standard input (never through a
shell), with no rc files, no BASH_ENV or ENV, untranslated messages, and a timeout.
"""

from __future__ import annotations

import os
import re

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:  # a script lint asks bash only for a text tree-sitter stumbles on
    import subprocess

TIMEOUT_S = 10.0  # bash parses megabytes in milliseconds


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


def parse(
    text: str, shell: str | None = None, *, numbered: bool = False
) -> subprocess.CompletedProcess[bytes] | None:
    """bash's `-n` run over the text (exit code and complaints), or None when bash cannot be asked.

    ``numbered``: bash reads the text as the file `/dev/stdin`, so each complaint names its line
    (`/dev/stdin: line 3: syntax error near unexpected token `fi'`)."""
    shell = shell or bash()
    if shell is None:
        return None
    import subprocess

    try:
        return subprocess.run(
            [shell, "--norc", "--noprofile", "-n", *(["/dev/stdin"] if numbered else [])],
            input=text.encode("utf-8", "replace"),
            capture_output=True,
            env={"LC_ALL": "C"},  # -n runs nothing, so no PATH is needed
            timeout=TIMEOUT_S,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None


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


_COMPLAINT = re.compile(r"^[^:\n]*: line (\d+): (.*)$", re.MULTILINE)


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
