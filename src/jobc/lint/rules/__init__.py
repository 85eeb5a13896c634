"""The registry of rules: every rule module, listed explicitly by group, in code order.

Each group package (`input` for JC0, `topology` for JC1, …) lists its modules in `MODULES`.
"""

from __future__ import annotations

from importlib import import_module
from types import ModuleType

from jobc.lint.rules.base import Rule, from_module

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


def _modules() -> list[ModuleType]:
    out: list[ModuleType] = []
    for group in GROUPS:
        try:
            package = import_module(f"jobc.lint.rules.{group}")
        except ModuleNotFoundError as exc:
            if exc.name != f"jobc.lint.rules.{group}":
                raise
            continue  # a group whose rules are not written yet
        out.extend(package.MODULES)
    return out


RULES: dict[str, Rule] = {
    rule.code: rule for rule in sorted(map(from_module, _modules()), key=lambda r: r.code)
}
