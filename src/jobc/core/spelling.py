"""Misspellings one slip of the hand away: the test JC813 reads `#SBTACH` with and JC809 reads a
misspelt `#SBATCH` option with (`--gress` for `--gres`)."""

from __future__ import annotations


def one_edit(a: str, b: str) -> bool:
    """Whether one edit (a letter added, dropped, changed, or two neighbours swapped) turns a into b."""
    if a == b or abs(len(a) - len(b)) > 1:
        return a == b
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        if len(diff) == 1:
            return True
        i = diff[0]
        return len(diff) == 2 and diff[1] == i + 1 and a[i] == b[i + 1] and a[i + 1] == b[i]
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))
