"""Project configuration: `[tool.jobc]` in the nearest pyproject.toml, or `.jobc.toml`."""

from __future__ import annotations

import os
import re

from jobc.core.diagnostics import Severity
from jobc.core.lazyre import lazy
from jobc.core.paths import parent, plain
from jobc.core.record import field, record

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any

    from jobc.core.paths import PathArg


class ConfigError(Exception):
    """A configuration that cannot be used; the message says where and why."""


@record(frozen=False)
class Config:
    select: list[str] = field(default_factory=list)  # empty: every rule
    ignore: list[str] = field(default_factory=list)
    severity: dict[str, Severity] = field(default_factory=dict)
    strict: bool = False
    source: str | None = None
    profile: str | None = None  # a cluster profile for sbatch scripts (they have no `extends:`)
    ledger: str | None = None  # where `jobc submit` records jobs; None: .jobc/ beside the spec


# Every way TOML can spell a [tool.jobc] table: its header (or a sub-table's), a [tool] table that
# may hold a `jobc` key, or root-level `tool = {…}` / `tool.jobc… =`. A pyproject.toml with none of
# these has no jobc settings, and need not be parsed: most projects' files are of that kind.
_MAY_HOLD_TOOL_JOBC = lazy(
    r"""^[ \t]*(?:
        \[\[?[ \t]*["']?tool["']?[ \t]*(?:\]|\.[ \t]*["']?jobc["']?[ \t]*[.\]])
       |["']?tool["']?[ \t]*(?:=|\.[ \t]*["']?jobc)
    )""",
    re.M | re.X,
)


def find(start: PathArg) -> Path | None:
    """The nearest `.jobc.toml`, or `pyproject.toml` holding a [tool.jobc] table.

    Every lint asks, and most find nothing: the directories are walked as text, and `pathlib` is
    imported only for a file found."""
    directory = plain(start)
    while True:
        if os.path.isfile(os.path.join(directory, ".jobc.toml")):
            return _found(directory, ".jobc.toml")
        pyproject = os.path.join(directory, "pyproject.toml")
        unreadable = False  # a pyproject.toml that cannot be read does not stop the walk at .git
        if os.path.isfile(pyproject):
            try:
                text = _text(pyproject)
                if _MAY_HOLD_TOOL_JOBC.search(text) and "jobc" in _tool(_parse(pyproject, text)):
                    return _found(directory, "pyproject.toml")
            except ConfigError:
                unreadable = True
        if not unreadable and os.path.exists(os.path.join(directory, ".git")):
            return None
        up = parent(directory)
        if up == directory:
            return None
        directory = up


def _found(directory: str, name: str) -> Path:
    from pathlib import Path

    return Path(directory) / name


def _tool(raw: dict[str, Any]) -> dict[str, Any]:
    """The [tool] table; a `tool` key that is not a table (`tool = "jobc"`) holds no settings."""
    tool = raw.get("tool", {})
    return tool if isinstance(tool, dict) else {}


def _read(path: PathArg) -> dict[str, Any]:
    return _parse(path, _text(path))


def _text(path: PathArg) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None


def _parse(path: PathArg, text: str) -> dict[str, Any]:
    import tomllib

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: cannot read: {exc}") from None


def load(path: Path, known_codes: set[str]) -> Config:
    raw = _read(path)
    table = _tool(raw).get("jobc", {}) if path.name == "pyproject.toml" else raw
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.jobc] must be a table")
    cfg = Config(source=str(path))
    for key, value in table.items():
        if key in ("select", "ignore"):
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise ConfigError(f"{path}: {key} must be a list of rule codes")
            setattr(cfg, key, check_selectors(value, known_codes, f"{path}: {key}"))
        elif key == "severity":
            if not isinstance(value, dict):
                raise ConfigError(f'{path}: severity must be a table like {{JC105 = "error"}}')
            for code, level in value.items():
                check_selectors([code], known_codes, f"{path}: severity")
                try:
                    cfg.severity[code.upper()] = Severity.parse(str(level))
                except ValueError as exc:
                    raise ConfigError(f"{path}: severity.{code}: {exc}") from None
        elif key == "strict":
            if not isinstance(value, bool):
                raise ConfigError(f"{path}: strict must be true or false")
            cfg.strict = value
        elif key == "profile":
            if not isinstance(value, str) or not value.strip() or "\0" in value:
                raise ConfigError(f"{path}: profile must be the path of a cluster profile")
            # relative to the file that says it, as `extends:` is relative to its spec
            cfg.profile = str(path.parent / value) if not os.path.isabs(value) else value
        elif key == "ledger":
            if not isinstance(value, str) or not value.strip() or "\0" in value:
                raise ConfigError(f"{path}: ledger must be a directory path")
            cfg.ledger = value
        else:
            raise ConfigError(
                f"{path}: unknown setting {key!r} (known: select, ignore, severity, strict, profile, ledger)"
            )
    return cfg


def severity_for(config: Config, code: str, default: Severity) -> Severity:
    """The configured severity of a rule: the most specific matching selector wins (JC1 < JC101)."""
    best: tuple[int, Severity] | None = None
    for selector, level in config.severity.items():
        if selector == "ALL" or code.startswith(selector):
            length = 0 if selector == "ALL" else len(selector)
            if best is None or length > best[0]:
                best = (length, level)
    return default if best is None else best[1]


def check_selectors(values: list[str], known_codes: set[str], where: str) -> list[str]:
    out = []
    for raw in values:
        for part in raw.split(","):
            sel = part.strip().upper()
            if not sel:
                continue
            if sel != "ALL" and not any(code.startswith(sel) for code in known_codes):
                raise ConfigError(f"{where}: {part.strip()!r} matches no rule (see `jobc rules`)")
            out.append(sel)
    return out


def enabled(code: str, select: list[str], ignore: list[str]) -> bool:
    """Most specific selector wins, as in ruff: --select JC2 --ignore JC201 keeps JC202."""

    def best(selectors: list[str]) -> int:
        lengths = [0 if s == "ALL" else len(s) for s in selectors if s == "ALL" or code.startswith(s)]
        return max(lengths, default=-1)

    chosen = best(select) if select else 0
    ignored = best(ignore)
    return chosen >= 0 and chosen > ignored
