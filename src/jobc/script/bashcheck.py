"""Whether bash itself reads a text: the referee when jobc's bash grammar stumbles.

tree-sitter-bash misreads a few valid constructs (escaped brackets inside `${…}` patterns among
them). Before telling a user their script cannot be read, ask bash: `bash -n` parses without
executing anything, the text goes in on standard input (never through a shell), with no rc files
and an empty environment, and a timeout bounds it.
"""

from __future__ import annotations

import shutil
import subprocess

_TIMEOUT_S = 10


def accepts(text: str) -> bool | None:
    """True when bash parses the text, False when it does not, None when no bash can tell."""
    bash = shutil.which("bash")
    if bash is None or "\0" in text:
        return None
    try:
        done = subprocess.run(
            [bash, "--norc", "--noprofile", "-n"],
            input=text.encode("utf-8", "surrogateescape"),
            capture_output=True,
            timeout=_TIMEOUT_S,
            env={},
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.returncode == 0
