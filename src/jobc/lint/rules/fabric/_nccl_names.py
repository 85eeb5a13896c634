"""The NCCL and PyTorch-NCCL variable names jobc knows (package data `nccl_env.txt`)."""

from __future__ import annotations

from functools import cache, lru_cache

from jobc.core.record import record


@record
class Names:
    exact: frozenset[str]
    prefixes: tuple[str, ...]  # network plugins that read their own NCCL_<PLUGIN>_* names
    renamed: dict[str, str]  # old name -> the name PyTorch reads now

    def known(self, name: str) -> bool:
        return name in self.exact or name in self.renamed or name.startswith(self.prefixes)

    def suggest(self, name: str, cutoff: float) -> str | None:
        return _closest(name, cutoff, self.exact)


# A repository's specs set the same few variables over and over, and each comparison against every
# known name costs milliseconds: remember the answers for the process.
@lru_cache(maxsize=4096)
def _closest(name: str, cutoff: float, exact: frozenset[str]) -> str | None:
    import difflib

    close = difflib.get_close_matches(name, sorted(exact), n=1, cutoff=cutoff)
    return close[0] if close else None


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
