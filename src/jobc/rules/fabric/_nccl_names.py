"""The NCCL and PyTorch-NCCL variable names jobc knows (package data `nccl_env.txt`)."""

from __future__ import annotations

from functools import cache, lru_cache

from jobc.record import record


@record
class Names:
    exact: frozenset[str]
    prefixes: tuple[str, ...]  # network plugins that read their own NCCL_<PLUGIN>_* names
    renamed: dict[str, str]  # old name -> the name PyTorch reads now

    def known(self, name: str) -> bool:
        return name in self.exact or name in self.renamed or name.startswith(self.prefixes)

    def suggest(self, name: str, cutoff: float) -> str | None:
        return _closest(name, cutoff, self.exact)


# A repository's specs set the same few variables over and over: remember the answers for the
# process.
@lru_cache(maxsize=4096)
def _closest(name: str, cutoff: float, exact: frozenset[str]) -> str | None:
    """`difflib.get_close_matches(name, sorted(exact), n=1, cutoff=cutoff)`, answer for answer.

    difflib rules candidates out by their lengths, then by the characters they share, before the
    costly ratio; it counts each candidate's characters anew for every name. Here they are counted
    once, so a name that is no typo of any NCCL variable (the usual case) costs no SequenceMatcher.
    """
    from difflib import SequenceMatcher

    matcher = SequenceMatcher()
    matcher.set_seq2(name)
    have = _counts(name)
    best: tuple[float, str] | None = None
    for candidate, counts in _candidates(exact):
        total = len(candidate) + len(name)
        if 2.0 * min(len(candidate), len(name)) / total < cutoff:
            continue
        shared = sum(min(n, have.get(char, 0)) for char, n in counts.items())
        if 2.0 * shared / total < cutoff:
            continue
        matcher.set_seq1(candidate)
        score = matcher.ratio()
        if score >= cutoff and (best is None or (score, candidate) > best):
            best = (score, candidate)
    return best[1] if best is not None else None


def _counts(text: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for char in text:
        counts[char] = counts.get(char, 0) + 1
    return counts


@cache
def _candidates(exact: frozenset[str]) -> list[tuple[str, dict[str, int]]]:
    return [(candidate, _counts(candidate)) for candidate in sorted(exact)]


@cache
def names() -> Names:
    from jobc.data import read_text

    text = read_text("nccl_env.txt")
    exact: set[str] = set()
    prefixes: list[str] = []
    renamed: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if "->" in line:
            old, new = (part.strip() for part in line.split("->", 1))
            renamed[old] = new
        elif line.endswith("*"):
            prefixes.append(line[:-1])
        else:
            exact.add(line)
    return Names(frozenset(exact), tuple(prefixes), renamed)
