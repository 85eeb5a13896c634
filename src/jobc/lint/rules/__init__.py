"""The rules: one module a rule under `rules/<group>/jcNNN_<name>.py`, found through the registry.

`registry.py` is generated from the rule modules by `tools/regen.py` (a test fails when it is
stale): every rule's metadata, the kinds of file it checks (specs, scripts, only with `--live`)
and the spec fields it needs. Lint reads that table and imports a rule's module the first time a
file needs its check, so a spec never loads the script rules, a script never loads the spec-only
ones, and a rule about a section the file does not have is not loaded at all.

`RULES` is every rule by code, in code order; reading a rule out of it imports its module (for
its docstring, its fix, its checks). `meta(code)` reads the registry alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from jobc.lint.rules.base import Meta, Rule, from_module
from jobc.lint.rules.registry import ROWS

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    from jobc.lint.rules.base import Check
    from jobc.spec.context import Context

#: The groups of rules, by the first digit of their codes (a group is a package under `rules/`).
GROUPS = (
    "input",  # JC0
    "topology",  # JC1
    "parallelism",  # JC2
    "memory",  # JC3
    "fabric",  # JC4
    "environment",  # JC5
    "resilience",  # JC6
    "storage",  # JC7
    "script",  # JC8: sbatch scripts only
)

_ROW = {row[0]: row for row in ROWS}
_META: dict[str, Meta] = {}
_LOADED: dict[str, Rule] = {}


def meta(code: str) -> Meta:
    """A rule's metadata, from the registry: no rule module is imported."""
    found = _META.get(code)
    if found is None:
        from jobc.core.diagnostics import Severity

        row = _ROW[code]
        found = _META[code] = Meta(row[0], row[1], Severity[row[2].upper()], row[3], row[4])
    return found


def rule(code: str) -> Rule:
    """The rule with this code, its module imported (KeyError for a code no rule has)."""
    found = _LOADED.get(code)
    if found is None:
        found = _LOADED[code] = from_module(import_module(f"jobc.lint.rules.{_ROW[code][5]}"))
    return found


class _Rules(Mapping[str, Rule]):
    """Every rule by code, in code order; a rule's module is imported when the rule is read."""

    def __getitem__(self, code: str) -> Rule:
        return rule(code)

    def __iter__(self) -> Iterator[str]:
        return iter(_ROW)

    def __len__(self) -> int:
        return len(_ROW)

    def __contains__(self, code: object) -> bool:
        return code in _ROW


RULES: Mapping[str, Rule] = _Rules()

# the checks lint runs on each kind of file: (code, the fields without which it has nothing to say,
# whether it needs --live, the script facts without which it has nothing to say); on a script, a
# check's fields gate it when it is the spec's check
_CHECKED = {
    kind: tuple(
        (row[0], row[8] if kind == "spec" or row[9] else (), row[7], row[10] if kind == "script" else ())
        for row in ROWS
        if kind in row[6]
    )
    for kind in ("spec", "script")
}


# every field some check of a kind of file needs, and the checks chosen for each combination of
# them written or not: the specs of a repository write a few such combinations
_READ_PATHS = {
    kind: tuple(sorted({path for _, reads, _, _ in rows for path in reads}))
    for kind, rows in _CHECKED.items()
}
_CHOSEN: dict[tuple[Any, ...], tuple[tuple[str, Check], ...]] = {}


def checks(ctx: Context, kind: str, live: bool) -> Iterator[tuple[str, Check]]:
    """The checks a file of this kind ("spec" or "script") meets, in code order, each rule's module
    imported as it comes. A rule that needs `--live` runs only with it; a spec check that reads
    certain fields (`READS`) only when the spec, its profiles or --set write one of them, or with
    `--live` (the partition rules take the facts a profile would give from the cluster). On a
    script the same holds of the data the script is read into, for a rule whose script check is
    its spec check (`SCRIPTS = True`); a `check_script` of its own reads the script's facts as
    well, so it always runs, unless it names the script facts it needs (`FACTS`) and the script
    has none of them (no trap, no `exec`, no `\r\n`)."""
    if live or ctx.facts.get("script") is not None:
        return _choose(ctx, kind, live)
    data = ctx.data
    key = (kind, *[_written(data, path) for path in _READ_PATHS.get(kind, ())])
    found = _CHOSEN.get(key)
    if found is None:
        if len(_CHOSEN) >= 256:
            _CHOSEN.clear()
        found = _CHOSEN[key] = tuple(_choose(ctx, kind, live))
    return iter(found)


def _choose(ctx: Context, kind: str, live: bool) -> Iterator[tuple[str, Check]]:
    data = ctx.data
    written: dict[tuple[str, ...], bool] = {}  # of this file's data: rules share their READS
    script = ctx.facts.get("script")
    for code, reads, live_only, needs in _CHECKED.get(kind, ()):
        if live_only and not live:
            continue
        if needs and script is not None and not any(getattr(script, member) for member in needs):
            continue
        if reads and not live:
            for path in reads:
                given = written.get(path)
                if given is None:
                    given = written[path] = _written(data, path)
                if given:
                    break
            else:
                continue
        found = rule(code)
        check = found.check if kind == "spec" else found.script_check
        if check is not None:
            yield code, check


def _written(data: Any, path: tuple[str, ...]) -> bool:
    """Whether the merged data has this key at all, even as null (`Context.given`)."""
    node = data
    for part in path:
        if not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True
