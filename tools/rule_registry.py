"""Write `src/jobc/lint/rules/registry.py`: the table lint reads instead of importing every rule.

Every module `src/jobc/lint/rules/<group>/jcNNN_<name>.py` is a rule; a new one is found by its
file name, with nothing else to register. Each is imported here, once, and gives its row:

- its `META` (code, name, severity, summary, remediation) and where it lives;
- the kinds of file it checks: "spec" when it has a `check`, "script" when it has a
  `check_script` (or `SCRIPTS = True`, its `check` reading the same on a script);
- `LIVE = True`: it has something to say only with `jobc lint --live`;
- `READS`: the spec fields its check needs, as data paths; unless the file (with its profiles and
  `--set`) gives one of them a value, the check has nothing to say, and lint does not load it.
  Every path must name a field of the schema: a misspelt one would silence the rule;
- whether its script check is its spec check (`SCRIPTS = True`): then `READS` holds on a script
  too, of the data the script is read into (a `check_script` of its own reads the script's facts);
- `FACTS`: the script facts its script check needs, as names of `ScriptFacts` members (a field or
  a property); unless one of them is true of the script (not empty, not None), the check has
  nothing to say, and lint does not load it. Every name must be a member of `ScriptFacts`.
"""

from __future__ import annotations

import importlib
import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RULES_DIR = ROOT / "src" / "jobc" / "lint" / "rules"
REGISTRY = RULES_DIR / "registry.py"
SCHEMA = ROOT / "schema" / "jobc.schema.json"
_MODULE = re.compile(r"jc[0-9]{3}_[a-z0-9_]+\.py")

HEADER = '''"""Every rule of jobc, for lint to find without importing it. Generated: do not edit.

Written by `uv run python tools/regen.py` from the rule modules (`rules/<group>/jcNNN_*.py`); a
test fails when it is stale. One row a rule, in code order: code, name, severity, summary,
remediation, the module under `jobc.lint.rules`, the kinds of file it checks ("spec", "script"),
whether it speaks only with `--live`, the spec fields its check needs (data paths; empty: it
always runs), whether those fields gate its script check too (its script check is its spec
check), and the script facts its script check needs (`ScriptFacts` members; empty: it always
runs). `jobc.lint.rules` reads it.
"""

# ruff: noqa: E501 (a summary or a remediation is one sentence, as the rule module writes it)

Row = tuple[
    str, str, str, str, str, str, tuple[str, ...], bool, tuple[tuple[str, ...], ...], bool, tuple[str, ...]
]

ROWS: tuple[Row, ...] = (
'''


def modules() -> list[str]:
    """Every rule module, as `<group>.<module>`, in the order of their file names."""
    found = []
    for group in sorted(p for p in RULES_DIR.iterdir() if (p / "__init__.py").is_file()):
        found += [f"{group.name}.{p.stem}" for p in sorted(group.iterdir()) if _MODULE.fullmatch(p.name)]
    return found


def row(name: str, module: ModuleType) -> tuple[Any, ...]:
    from jobc.lint.rules.base import Meta

    meta = getattr(module, "META", None)
    if not isinstance(meta, Meta):
        raise SystemExit(f"regen: jobc.lint.rules.{name} has no META (a Meta): every jcNNN_ module is a rule")
    if not name.rpartition(".")[2].startswith(meta.code.lower() + "_"):
        raise SystemExit(f"regen: jobc.lint.rules.{name} holds {meta.code}: its file must be named after it")
    kinds = []
    if getattr(module, "check", None) is not None:
        kinds.append("spec")
    if getattr(module, "check_script", None) is not None or getattr(module, "SCRIPTS", False) is True:
        kinds.append("script")
    reads = tuple(tuple(path) for path in getattr(module, "READS", ()))
    for path in reads:
        if not _in_schema(path):
            raise SystemExit(f"regen: {meta.code} READS {'.'.join(path)}, which is no field of the spec")
    live = getattr(module, "LIVE", False) is True
    needs = tuple(getattr(module, "FACTS", ()))
    if needs and getattr(module, "check_script", None) is None:
        raise SystemExit(f"regen: {meta.code} names FACTS but has no check_script to gate")
    for member in needs:
        if not _in_facts(member):
            raise SystemExit(f"regen: {meta.code} FACTS {member}, which is no member of ScriptFacts")
    same = getattr(module, "check_script", None) is None and getattr(module, "SCRIPTS", False) is True
    severity = str(meta.severity)
    return (
        meta.code,
        meta.name,
        severity,
        meta.summary,
        meta.remediation,
        name,
        tuple(kinds),
        live,
        reads,
        same,
        needs,
    )


def rows() -> list[tuple[Any, ...]]:
    out = [row(name, importlib.import_module(f"jobc.lint.rules.{name}")) for name in modules()]
    codes = [r[0] for r in out]
    twice = sorted({c for c in codes if codes.count(c) > 1})
    if twice:
        raise SystemExit(f"regen: more than one rule module holds {', '.join(twice)}")
    return sorted(out, key=lambda r: r[0])


def text() -> str:
    body = "".join(f"    {_literal(r)},\n" for r in rows())
    return _format(HEADER + body + ")\n")


def wanted() -> dict[Path, str]:
    return {REGISTRY: text()}


def _literal(value: Any) -> str:
    if isinstance(value, tuple):
        inner = ", ".join(_literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a Python literal too; the formatter settles quotes
    return repr(value)


def _in_facts(member: str) -> bool:
    """Whether `ScriptFacts` has this field or property (a method would always be true)."""
    from jobc.script.facts import ScriptFacts

    own = ScriptFacts.__dict__.get(member)
    return member in ScriptFacts.__match_args__ or isinstance(own, property)


def _in_schema(path: tuple[str, ...]) -> bool:
    schema = json.loads(SCHEMA.read_text("utf-8"))
    node: dict[str, Any] = schema["$defs"]["JobSpec"]
    for part in path:
        node = _resolve(schema, node)
        props = node.get("properties", {})
        if part not in props:
            return False
        node = props[part]
    return True


def _resolve(schema: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    """The object schema behind a field: through `$ref`, and the non-null branch of `anyOf`."""
    while True:
        if "$ref" in node:
            node = schema["$defs"][node["$ref"].rsplit("/", 1)[1]]
        elif "anyOf" in node:
            node = next((n for n in node["anyOf"] if n.get("type") != "null"), {})
        else:
            return node


def _format(source: str) -> str:
    """The project's formatter over the generated code, so a fresh file is also a formatted one."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "ruff", "format", "--stdin-filename", str(REGISTRY), "-"],
        input=source,
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    return done.stdout
