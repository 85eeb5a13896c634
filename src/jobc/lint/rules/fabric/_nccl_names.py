"""The NCCL and PyTorch-NCCL variable names jobc knows (package data `nccl_env.txt`)."""

from __future__ import annotations

from collections import Counter
from functools import cache

from jobc.core.record import record


@record
class Names:
    exact: frozenset[str]
    prefixes: tuple[str, ...]  # network plugins that read their own NCCL_<PLUGIN>_* names
    renamed: dict[str, str]  # old name -> the name PyTorch reads now

    def known(self, name: str) -> bool:
        return name in self.exact or name in self.renamed or name.startswith(self.prefixes)

    def suggest(self, name: str, cutoff: float) -> str | None:
        """The known name ``name`` is most likely a typo of, or None.

        A repository's specs set the same few variables over and over, so answers are kept for
        the process. Past `SUGGESTIONS` different names the hint is left out: a file with
        thousands of unknown names was generated, not typed, and each hint costs a search."""
        key = (name, cutoff, self.exact)
        if key not in _answers:
            if len(_answers) >= SUGGESTIONS:
                return None
            _answers[key] = _closest(name, cutoff, self.exact)
        return _answers[key]


SUGGESTIONS = 1000
_answers: dict[tuple[str, float, frozenset[str]], str | None] = {}


def _closest(name: str, cutoff: float, exact: frozenset[str]) -> str | None:
    """What `difflib.get_close_matches(name, exact, n=1, cutoff=cutoff)` answers, found fast.

    difflib compares the name with each known one in turn (milliseconds each; thousands of
    unknown names took tens of seconds). The same answer comes from its own upper bounds used
    as a branch and bound: a candidate's ratio is at most its quick ratio (shared characters),
    which is at most its real quick ratio (lengths); both are cheap, and the ratio itself is
    computed only for candidates whose bound could still beat the best found so far. The shared
    characters are counted for the name's own characters only, and only for candidates whose
    lengths allow the cutoff: a lint asks for a handful of names."""
    size = len(name)
    wanted = Counter(name).items()
    bounds: list[tuple[float, str]] = []
    for known in _sorted(exact):
        total = size + len(known)
        if total == 0 or 2.0 * min(size, len(known)) / total < cutoff:
            continue
        shared = 0
        for ch, count in wanted:
            found = known.count(ch)
            shared += count if count < found else found
        quick = 2.0 * shared / total
        if quick >= cutoff:
            bounds.append((quick, known))
    if not bounds:
        return None  # most names are like no known one at all, and need no difflib
    from difflib import SequenceMatcher

    bounds.sort(reverse=True)
    best: tuple[float, str] | None = None
    matcher = SequenceMatcher()
    matcher.set_seq2(name)
    for quick, known in bounds:
        if best is not None and (quick, known) < best:
            break  # no later candidate can beat (or tie with a larger name than) the best
        matcher.set_seq1(known)
        score = matcher.ratio()
        if score >= cutoff and (best is None or (score, known) > best):
            best = (score, known)
    return best[1] if best is not None else None


@cache
def _sorted(exact: frozenset[str]) -> tuple[str, ...]:
    return tuple(sorted(exact))


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
