"""Slurm hostlists and task-count lists, expanded in pure Python.

``scontrol show hostnames`` is absent from many containers, so the runtime never
calls it. The grammar follows Slurm's ``src/common/hostlist.c``:

* the list is split at the top level on ``,``, space, tab and newline; separators
  inside ``[...]`` do not split (``gpu-[001-004,010]-ib,cpu7`` is two tokens);
* a token is literal text with any number of bracket groups; each group is a
  comma list of ``N`` or ``LO-HI`` items; several groups expand as a cartesian
  product, the leftmost group varying slowest (``r[1-2]n[1-2]`` gives
  ``r1n1 r1n2 r2n1 r2n2``); text after a ``]`` is a suffix (``node[1-2]-ib``);
* an item's width is the number of digits of its low bound, so zero padding is
  kept (``[09-11]`` gives ``09 10 11``; ``[9-11]`` gives ``9 10 11``);
* ``LO > HI``, signs, empty items, nested or unbalanced brackets are errors.

Task-count lists (``SLURM_STEP_TASKS_PER_NODE``, ``SLURM_TASKS_PER_NODE``,
``SLURM_JOB_CPUS_PER_NODE``) are run-length encoded: ``2(x3),1`` is ``[2, 2, 2, 1]``.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from jobc.runtime.errors import HostlistError

__all__ = ["MAX_HOSTS", "expand_hostlist", "expand_tasks_per_node", "first_host", "iter_hosts"]

# A guard against a typo such as ``n[0-999999999]`` eating all memory; far above
# any real allocation.
MAX_HOSTS = 1 << 20

_SEPARATORS = frozenset(", \t\n")
_ITEM = re.compile(r"([0-9]+)(?:-([0-9]+))?")
_TASK_ITEM = re.compile(r"([0-9]+)(?:\(x([0-9]+)\))?")


def _split_top_level(text: str) -> list[str]:
    tokens: list[str] = []
    depth = 0
    start = 0
    for i, ch in enumerate(text):
        if ch == "[":
            depth += 1
            if depth > 1:
                raise HostlistError(f"nested '[' at offset {i} in hostlist {text!r}")
        elif ch == "]":
            depth -= 1
            if depth < 0:
                raise HostlistError(f"unmatched ']' at offset {i} in hostlist {text!r}")
        elif ch in _SEPARATORS and depth == 0:
            if i > start:
                tokens.append(text[start:i])
            start = i + 1
    if depth != 0:
        raise HostlistError(f"unclosed '[' in hostlist {text!r}")
    if start < len(text):
        tokens.append(text[start:])
    return tokens


def _expand_range(body: str, token: str) -> list[str]:
    if not body:
        raise HostlistError(f"empty range '[]' in hostlist token {token!r}")
    values: list[str] = []
    for item in body.split(","):
        match = _ITEM.fullmatch(item)
        if match is None:
            raise HostlistError(
                f"invalid range item {item!r} in hostlist token {token!r} "
                "(expected N or LO-HI with decimal digits)"
            )
        lo_text, hi_text = match.group(1), match.group(2)
        lo = int(lo_text)
        hi = lo if hi_text is None else int(hi_text)
        if lo > hi:
            raise HostlistError(f"range {item!r} runs backwards in hostlist token {token!r}")
        if hi - lo + 1 > MAX_HOSTS:
            raise HostlistError(f"range {item!r} in {token!r} exceeds {MAX_HOSTS} hosts")
        width = len(lo_text)
        values.extend(f"{n:0{width}d}" for n in range(lo, hi + 1))
    return values


def _expand_token(token: str) -> Iterator[str]:
    parts: list[list[str]] = []
    pos = 0
    while (open_at := token.find("[", pos)) != -1:
        close_at = token.index("]", open_at)  # balanced: checked by the splitter
        parts.append([token[pos:open_at]])
        parts.append(_expand_range(token[open_at + 1 : close_at], token))
        pos = close_at + 1
    parts.append([token[pos:]])
    for combo in itertools.product(*parts):
        yield "".join(combo)


def iter_hosts(hostlist: str) -> Iterator[str]:
    """Yield the host names of ``hostlist`` in order, lazily."""
    for token in _split_top_level(hostlist):
        yield from _expand_token(token)


def expand_hostlist(hostlist: str) -> list[str]:
    """Every host name of ``hostlist``, in Slurm's order (duplicates kept, as Slurm does)."""
    hosts: list[str] = []
    for host in iter_hosts(hostlist):
        hosts.append(host)
        if len(hosts) > MAX_HOSTS:
            raise HostlistError(f"hostlist expands to more than {MAX_HOSTS} hosts")
    return hosts


def first_host(hostlist: str) -> str:
    """The first host of ``hostlist`` without expanding the rest."""
    for host in iter_hosts(hostlist):
        return host
    raise HostlistError(f"hostlist {hostlist!r} names no host")


def expand_tasks_per_node(value: str) -> list[int]:
    """Expand a run-length task-count list such as ``2(x3),1`` into one count per node."""
    counts: list[int] = []
    items = [item.strip() for item in value.split(",")]
    if not value.strip():
        raise HostlistError("empty task-count list")
    for item in items:
        match = _TASK_ITEM.fullmatch(item)
        if match is None:
            raise HostlistError(f"invalid item {item!r} in task-count list {value!r} (expected N or N(xM))")
        repeat = 1 if match.group(2) is None else int(match.group(2))
        if repeat < 1:
            raise HostlistError(f"repeat count must be at least 1 in {item!r} of {value!r}")
        if len(counts) + repeat > MAX_HOSTS:
            raise HostlistError(f"task-count list {value!r} exceeds {MAX_HOSTS} nodes")
        counts.extend([int(match.group(1))] * repeat)
    return counts
