"""A log line's labels, as `jobc logs --rank` and the flight-recorder reader ask for them.

The prefixes themselves are read by `jobc.jobs.prefixes` (the labellers and the per-file
inference); `parse` reads one line with no knowledge of the rest of its file, and `rank_of` says
which global rank wrote it when its labels say so.
"""

from __future__ import annotations

from jobc.jobs.prefixes import MAX_LOCAL_RANK, Line, is_host, split

__all__ = ["MAX_LOCAL_RANK", "Line", "is_host", "parse", "rank_of"]


def parse(raw: str) -> Line:
    """Strip every known prefix of one line (without its newline), keeping what they say."""
    return split(raw)


def rank_of(line: Line, torchrun: bool, per_node: int | None = None) -> int | None:
    """The global rank that wrote the line, when its labels say it.

    A torchrun log names the rank in its prefix (`[rank5]:`); `[default1]:` names only the
    local rank, and which global rank that is depends on the order the nodes arrived at the
    rendezvous, so it is not guessed. In jobc's srun launch, srun's task number is the rank.
    `per_node` is accepted for callers that still pass it; it is not used for arithmetic.
    """
    del per_node
    if line.rank is not None:
        return line.rank
    if torchrun:
        return None
    return line.task
