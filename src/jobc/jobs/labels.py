"""Who wrote a log line: the labels the compiled script puts on every line.

`srun --label` puts the task number first (`3: `, padded to the width of the largest); in the
torchrun launch there is one task per node, so that number is the node's, and torchrun's own
prefix (`[rank5]:` from the compiled script's template, `[default1]:` for torchrun's default,
which names the local rank) names the rank.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SRUN = re.compile(r"^\s*(\d+): ")
_TORCHRUN = re.compile(r"^\[(rank|[A-Za-z_]+?)(\d+)\]:")


@dataclass(frozen=True)
class Line:
    task: int | None  # srun's task number
    rank: int | None  # the global rank, when the label says it
    local_rank: int | None  # torchrun's default prefix names only the local rank
    text: str  # the line without its labels


def parse(raw: str) -> Line:
    task = rank = local = None
    text = raw
    m = _SRUN.match(text)
    if m:
        task = int(m.group(1))
        text = text[m.end() :]
    # torchrun's prefix, then torch's own `[rankN]: ` on the lines of an uncaught exception
    for _ in range(3):
        t = _TORCHRUN.match(text)
        if t is None:
            break
        if t.group(1) == "rank":
            rank = int(t.group(2))
        else:
            local = int(t.group(2))
        text = text[t.end() :]
        if text.startswith(" "):
            text = text[1:]
    return Line(task, rank, local, text)


def rank_of(line: Line, torchrun: bool, per_node: int | None) -> int | None:
    """The global rank that wrote the line, when the labels tell it."""
    if line.rank is not None:
        return line.rank
    if torchrun:
        if line.local_rank is not None and line.task is not None and per_node:
            return line.task * per_node + line.local_rank
        return None  # the node's agent, not a rank
    return line.task
