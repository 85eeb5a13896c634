"""Ranks and process groups in words: `ranks 0-5, 7`, `process group 1 (pp)`."""

from __future__ import annotations

from collections.abc import Sequence

# A rank list of more parts than this is shortened when printed
# A rank list of more parts than this is shortened when printed
_LISTED = 32


def describe_group(group: str, description: str) -> str:
    # "undefined" is what torch records for a group created without a description
    if description and description not in (group, "undefined"):
        return f"process group {group} ({description})"
    return f"process group {group}"


def ranks_text(ranks: Sequence[int]) -> str:
    if len(ranks) == 1:
        return f"rank {ranks[0]}"
    return "ranks " + span_text(sorted(ranks))


def span_text(ranks: Sequence[int]) -> str:
    """``0, 2, 3`` as it is, ``0-5, 7``: runs of three or more ranks as a span; past `_LISTED`
    parts, the count of the rest."""
    parts: list[str] = []
    i = 0
    while i < len(ranks):
        j = i
        while j + 1 < len(ranks) and ranks[j + 1] == ranks[j] + 1:
            j += 1
        if len(parts) == _LISTED - 1:
            return ", ".join(parts) + f" and {len(ranks) - i} more"
        if j - i >= 2:
            parts.append(f"{ranks[i]}-{ranks[j]}")
        else:
            parts.extend(str(r) for r in ranks[i : j + 1])
        i = j + 1
    return ", ".join(parts)
