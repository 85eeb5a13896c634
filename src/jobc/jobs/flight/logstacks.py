"""Each rank's stack from faulthandler's "Fatal Python error" blocks in the job's log."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from jobc.jobs.flight.fields import MAX_FRAMES
from jobc.jobs.flight.model import Frame
from jobc.jobs.labels import parse as parse_label

_FATAL = "Fatal Python error:"

_THREAD = re.compile(r"^(Current thread|Thread) 0x[0-9a-fA-F]+ \(most recent call first\):")

_FILE = re.compile(r'^\s+File "(.*)", line ([0-9]{1,9}) in (.*)$')


def fatal_stacks(lines: Iterable[str], *, torchrun: bool = False) -> dict[int, list[Frame]]:
    """Each rank's main-thread stack from faulthandler's "Fatal Python error" block in a job log.

    Lines carry the compiled script's labels (``3: `` from srun, ``[rank3]:`` from torchrun).
    The main thread is the one whose outermost frame is ``<module>``.
    """
    state: dict[int, list[list[Frame]]] = {}
    active: set[int] = set()
    for raw in lines:
        label = parse_label(raw.rstrip("\n"))
        rank = label.rank if label.rank is not None else (None if torchrun else label.task)
        if rank is None:
            continue
        text = label.text
        if text.startswith(_FATAL):
            state[rank] = []
            active.add(rank)
            continue
        if rank not in active:
            continue
        if _THREAD.match(text):
            if len(state[rank]) < 64:
                state[rank].append([])
            continue
        m = _FILE.match(text)
        if m and state[rank] and len(state[rank][-1]) < MAX_FRAMES:
            state[rank][-1].append(Frame(m.group(1), int(m.group(2)), m.group(3)))
        elif text.strip() and not m:
            active.discard(rank)
    out: dict[int, list[Frame]] = {}
    for rank, threads in state.items():
        main = next((t for t in threads if t and t[-1].function == "<module>"), None)
        if main is None and threads:
            main = threads[-1]
        if main:
            out[rank] = main
    return out


def log_lines(paths: Sequence[Path]) -> Iterator[str]:
    from jobc.core.files import open_regular

    for path in paths:
        try:
            with open_regular(path) as stream:
                for raw in stream:
                    yield raw[:8192].decode("utf-8", "replace")
        except OSError:
            continue
