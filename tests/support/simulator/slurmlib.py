"""Slurm's arithmetic as the simulated Slurm does it: host lists, task counts, option parsing.

Shared by the test process and the processes in the sandbox (the stubs and the controller run
under the system's python3 with `-I -S`, so this module imports the standard library only and
keeps to Python 3.11).
"""

from __future__ import annotations

import re

# The nodes of a simulated allocation, and the address each has (`hostname -I`).
NODE_PREFIX = "node"


def node_name(index: int) -> str:
    return f"{NODE_PREFIX}{index}"


def node_index(name: str) -> int | None:
    m = re.fullmatch(rf"{NODE_PREFIX}(\d+)", name)
    return int(m.group(1)) if m else None


def node_address(index: int) -> str:
    return f"10.0.{index // 250}.{index % 250 + 1}"


def compress(names: list[str]) -> str:
    """`node0,node1,node2,node5` → `node[0-2,5]`, as Slurm writes a node list."""
    if not names:
        return ""
    indexes = [node_index(n) for n in names]
    if any(i is None for i in indexes):
        return ",".join(names)
    numbers = [i for i in indexes if i is not None]
    if len(numbers) == 1:
        return names[0]
    ranges: list[str] = []
    start = prev = numbers[0]
    for n in [*numbers[1:], None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        ranges.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return f"{NODE_PREFIX}[{','.join(ranges)}]"


_BRACKET = re.compile(r"([^,\[\]]*)\[([^\]]*)\]([^,\[\]]*)")


def expand(hostlist: str, limit: int = 10_000) -> list[str]:
    """`node[0-2,5],gpu7` → every name (at most `limit`): what `scontrol show hostnames` prints."""
    out: list[str] = []
    depth, part, parts = 0, "", []
    for ch in hostlist:
        if ch == "," and depth == 0:
            parts.append(part)
            part = ""
            continue
        depth += ch == "["
        depth -= ch == "]"
        part += ch
    parts.append(part)
    for raw in parts:
        item = raw.strip()
        m = _BRACKET.fullmatch(item)
        if not item:
            continue
        if m is None:
            out.append(item)
            continue
        prefix, inner, suffix = m.groups()
        for chunk in inner.split(","):
            low, _, high = chunk.partition("-")
            if not low.isdigit() or (high and not high.isdigit()):
                out.append(item)
                break
            width = len(low)
            for n in range(int(low), int(high or low) + 1):
                out.append(f"{prefix}{n:0{width}d}{suffix}")
                if len(out) >= limit:
                    return out
    return out[:limit]


def counts_text(counts: list[int]) -> str:
    """[2, 2, 1] → `2(x2),1`, as Slurm writes SLURM_TASKS_PER_NODE."""
    out: list[str] = []
    i = 0
    while i < len(counts):
        j = i
        while j < len(counts) and counts[j] == counts[i]:
            j += 1
        out.append(str(counts[i]) if j - i == 1 else f"{counts[i]}(x{j - i})")
        i = j
    return ",".join(out)


def parse_counts(text: str) -> list[int] | None:
    """`2(x2),1` → [2, 2, 1]; None when the text is not such a list."""
    out: list[int] = []
    for chunk in text.split(","):
        m = re.fullmatch(r"(\d+)(?:\(x(\d+)\))?", chunk.strip())
        if m is None:
            return None
        out += [int(m.group(1))] * int(m.group(2) or 1)
        if len(out) > 100_000:
            return None
    return out


def distribute(ntasks: int, nodes: int, per_node: int | None, capacity: int) -> list[int]:
    """Tasks on each node, block by block: at least one on every node (an allocation's nodes all
    run a task), then the rest filling the first nodes up to `per_node` when given (the maximum
    when `--ntasks` is given too), else up to `capacity` — as Slurm 22.05 placed `--ntasks=4
    --nodes=2` on 8-CPU nodes (3,1)."""
    if nodes <= 0:
        return []
    cap = per_node if per_node is not None else capacity
    counts = [1 if ntasks > i and cap > 0 else 0 for i in range(nodes)]
    left = ntasks - sum(counts)
    for i in range(nodes):
        take = max(min(cap - counts[i], left), 0)
        counts[i] += take
        left -= take
    if left > 0 and per_node is None:  # more tasks than the nodes hold: spread them evenly
        for i in range(left):
            counts[i % nodes] += 1
    return counts


def number(text: str | None) -> int | None:
    """A count as Slurm reads one (`2`, `2-4` → its minimum); None when it is not one."""
    if text is None:
        return None
    first = text.strip().split("-")[0].split(":")[0]
    return int(first) if first.isascii() and first.isdigit() and len(first) < 7 else None


def gpus_of(options: dict[str, str | None]) -> int:
    """GPUs per node the options ask for (`--gpus-per-node`, `--gres=gpu[:type]:N`)."""
    per_node = number(options.get("gpus-per-node"))
    if per_node is not None:
        return per_node
    for item in (options.get("gres") or "").split(","):
        parts = item.split(":")
        if parts[0] == "gpu":
            count = number(parts[-1]) if len(parts) > 1 else 1
            return count if count is not None else 1
    return 0


# long options sbatch and srun read as another's name (`--tasks-per-node` is `--ntasks-per-node`)
_ALIASES = {"tasks-per-node": "ntasks-per-node"}


def parse_options(
    argv: list[str],
    short: dict[str, str],
    flags: set[str],
    short_flags: dict[str, str],
    short_optional: frozenset[str] = frozenset(),
) -> tuple[dict[str, str | None], list[str]]:
    """Slurm-style options up to the first word that is not one: (options by long name, the rest).
    An unknown long option is kept with the value after `=` (or none). A letter of
    ``short_optional`` (getopt's `k::`) takes the rest of its word as its value, never the next."""
    options: dict[str, str | None] = {}
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":
            return options, argv[i + 1 :]
        if word.startswith("--") and len(word) > 2:
            name, eq, value = word[2:].partition("=")
            name = _ALIASES.get(name, name)
            if eq:
                options[name] = value
            elif name in flags:
                options[name] = None
            elif i + 1 < len(argv):
                options[name] = argv[i + 1]
                i += 1
            else:
                options[name] = None
            i += 1
            continue
        if word.startswith("-") and len(word) > 1:
            j = 1
            while j < len(word):
                letter = word[j]
                if letter in short_optional:
                    options[short.get(letter, letter)] = word[j + 1 :] or None
                    break
                if letter in short_flags:
                    options[short_flags[letter]] = None
                    j += 1
                    continue
                name = short.get(letter, letter)
                rest = word[j + 1 :]
                if rest:
                    options[name] = rest.removeprefix("=")
                elif i + 1 < len(argv):
                    options[name] = argv[i + 1]
                    i += 1
                else:
                    options[name] = None
                break
            i += 1
            continue
        return options, argv[i:]
    return options, []
