"""Regenerate the console blocks of README.md and docs/ by running the commands they show.

A fenced block is generated when an HTML comment right before it says how:

    <!-- run: jobc lint jobs/llama3-70b.yaml -->
    ```console
    $ jobc lint jobs/llama3-70b.yaml
    …what the command printed…
    ```

The command runs under bash (so `| head -n 12` works) in a scratch directory that holds the
repository's `specs/`, `schema/` and `golden/` and every block of the same page marked
`<!-- file: PATH -->`, written to PATH first; `jobc` is this checkout's. Standard output and
standard error are kept together, as a terminal shows them. A `console` block starts with
`$ COMMAND`; any other block (a script excerpt) is the output alone.

Commands that need a real Slurm cluster cannot run here; their blocks are marked
`<!-- illustrative: WHY -->` and left as written. Every `console` block carries one of the two
marks, so a new block cannot silently go stale. `tools/regen.py` rewrites the pages (`--check`
names the stale ones).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# What the scratch directory borrows from the checkout, read-only in spirit.
SHARED = ("specs", "schema", "golden")

MARK = re.compile(r"^<!--\s*(?P<kind>run|file|illustrative):\s*(?P<arg>.*?)\s*-->[ \t]*$")
MARKED = ("run", "illustrative")
FENCE = re.compile(r"^(?P<fence>```+|~~~+)(?P<info>[^`\n]*)$")


@dataclass(frozen=True)
class Block:
    """One fenced block: its info string, body lines [start, end) and the mark before it."""

    info: str
    start: int
    end: int
    kind: str | None
    arg: str

    @property
    def language(self) -> str:
        return self.info.split()[0] if self.info.split() else ""


def pages(root: Path = ROOT) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").glob("**/*.md"))]


def _closes(line: str, fence: str) -> bool:
    return line.startswith(fence) and not line.strip(fence[0]).strip()


def blocks(lines: Sequence[str]) -> Iterator[Block]:
    """The fenced blocks of a Markdown page, each with the mark on the line before it, if any."""
    i = 0
    while i < len(lines):
        opened = FENCE.match(lines[i])
        if opened is None:
            i += 1
            continue
        fence = opened["fence"]
        end = i + 1
        while end < len(lines) and not (
            lines[end].startswith(fence) and not lines[end].strip(fence[0]).strip()
        ):
            end += 1
        mark = MARK.match(lines[i - 1]) if i > 0 else None
        yield Block(
            info=opened["info"].strip(),
            start=i + 1,
            end=end,
            kind=mark["kind"] if mark else None,
            arg=mark["arg"] if mark else "",
        )
        i = end + 1


def unmarked(path: Path) -> list[int]:
    """Line numbers (1-based) of `console` blocks that are neither generated nor illustrative."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [
        b.start for b in blocks(lines) if b.language == "console" and b.kind not in ("run", "illustrative")
    ]


def _environment(scratch: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("JOBC_", "SLURM_", "SBATCH_"))}
    # This checkout's jobc first; the same interpreter that runs this module.
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.update(NO_COLOR="1", COLUMNS="100", LC_ALL="C.UTF-8", HOME=str(scratch), PYTHONHASHSEED="0")
    return env


def run(command: str, scratch: Path) -> str:
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-c", command],
        cwd=scratch,
        env=_environment(scratch),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=300,
        check=False,
    )
    # A path of the scratch directory would differ on every run; the reader's is the checkout.
    return done.stdout.replace(f"{scratch}/", "").replace(str(scratch), ".")


def _scratch(root: Path, lines: Sequence[str], found: Sequence[Block]) -> Path:
    scratch = Path(tempfile.mkdtemp(prefix="jobc-docs-"))
    for name in SHARED:
        if (root / name).exists():
            (scratch / name).symlink_to(root / name)
    for block in found:
        if block.kind == "file":
            target = scratch / block.arg
            if not target.resolve().is_relative_to(scratch.resolve()) or target.parts[0] in SHARED:
                raise ValueError(f"file mark {block.arg!r} must name a new path inside the scratch directory")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(
                "".join(f"{line}\n" for line in lines[block.start : block.end]), encoding="utf-8"
            )
    return scratch


def regenerate(text: str, root: Path = ROOT) -> str:
    """The page with every `run` block replaced by what its command prints now."""
    lines = text.splitlines()
    found = list(blocks(lines))
    if not any(b.kind == "run" for b in found):
        return text
    scratch = _scratch(root, lines, found)
    try:
        out: list[str] = []
        done = 0
        for block in found:
            if block.kind != "run":
                continue
            body = run(block.arg, scratch).rstrip("\n").splitlines()
            if block.language == "console":
                body = [f"$ {block.arg}", *body]
            out += lines[done : block.start]
            out += [line.rstrip() for line in body]
            done = block.end
        out += lines[done:]
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return "\n".join(out) + ("\n" if text.endswith("\n") else "")
