"""The spec reference (`docs/spec.md`, `jobc schema --format markdown`): every field of a job spec
with its type, default, description, what it compiles to, and the rules that read it.

Which rules read a field is found in the rules' own code, so it cannot drift from it: each rule
module is parsed (never imported) and every `ctx.spec.<section>.<field>` it reads, directly or
through a name bound to a section (`res = ctx.spec.resilience` … `res.requeue`), every data path
it reports at (`("resilience", "requeue")`), the facts of `Context` it asks for
(`ctx.world`: the nodes and GPUs per node), and the fields of the chosen partition it reads from
`view(ctx)` count. A rule that reads a field only through another helper module is not listed
for it.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

from jobc.spec.reference import Field, fields

_RULES_DIR = Path(__file__).resolve().parent / "rules"

# Facts of Context a rule may ask for, and the fields each is made of.
_CONTEXT_FACTS: dict[str, tuple[str, ...]] = {
    "world": ("resources.nodes", "resources.gpus_per_node", "cluster.gpus_per_node"),
    "nodes": ("resources.nodes",),
    "gpus_per_node": ("resources.gpus_per_node", "cluster.gpus_per_node"),
    "tasks_per_node": ("resources.tasks_per_node", "launch.mode"),
    "gpu": ("resources.gpu", "cluster.gpu"),
    "etp": ("parallelism.etp", "parallelism.tp"),
    "partition_name": ("slurm.partition", "cluster.default_partition"),
    "partition_limits": ("slurm.partition", "cluster.default_partition"),
    "cpus_per_node": ("cluster.cpus_per_node", "cluster.partitions.*.cpus_per_node"),
    "node_gpu_capacity": ("cluster.gpus_per_node", "cluster.partitions.*.gpus_per_node"),
    "dp": (
        "resources.nodes",
        "resources.gpus_per_node",
        "parallelism.tp",
        "parallelism.pp",
        "parallelism.cp",
    ),
    "multinode": ("resources.nodes",),
}
# Facts of Context that are a part of the spec, followed like `ctx.spec`: the chosen partition's record.
_CONTEXT_PARTS: dict[str, list[str]] = {"partition_limits": ["cluster", "partitions", "*"]}
# Helpers whose answer is a part of the spec, followed like it: `v = view(ctx)` is the chosen
# partition's record (rules/topology/_partition.py: the profile's, or the live cluster's)
_HELPER_PARTS: dict[str, list[str]] = {"view": ["cluster", "partitions", "*"]}


def _chain(node: ast.AST) -> list[str] | None:
    """`a.b[k].c` as ["a", "b", "*", "c"]; None when it does not start at a name."""
    parts: list[str] = []
    while True:
        if isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        elif isinstance(node, ast.Subscript):
            parts.append("*")
            node = node.value
        elif isinstance(node, ast.Name):
            parts.append(node.id)
            return parts[::-1]
        else:
            return None


class _Reads(ast.NodeVisitor):
    """The spec paths one module reads (dotted; possibly running past a field into a method)."""

    def __init__(self) -> None:
        self.aliases: dict[str, list[str]] = {}
        self.paths: set[str] = set()
        self.facts: set[str] = set()

    def _spec_path(self, chain: list[str]) -> list[str] | None:
        if chain[:2] == ["ctx", "spec"] or chain[:1] == ["spec"]:
            return chain[2:] if chain[0] == "ctx" else chain[1:]
        if chain[0] == "ctx" and len(chain) > 1 and chain[1] in _CONTEXT_PARTS:
            return _CONTEXT_PARTS[chain[1]] + chain[2:]
        if chain[0] in self.aliases:
            return self.aliases[chain[0]] + chain[1:]
        return None

    def visit_Assign(self, node: ast.Assign) -> None:
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            chain = _chain(node.value)
            path = self._spec_path(chain) if chain else None
            call = node.value.func if isinstance(node.value, ast.Call) else None
            if isinstance(call, ast.Name) and call.id in _HELPER_PARTS:
                path = _HELPER_PARTS[call.id]
            if path is not None:
                self.aliases[node.targets[0].id] = path
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        chain = _chain(node)
        if chain is not None:
            if chain[0] == "ctx" and len(chain) >= 2 and chain[1] in _CONTEXT_FACTS:
                self.facts.add(chain[1])
            path = self._spec_path(chain)
            if path:
                self.paths.add(".".join(path))
                return  # the inner attributes are prefixes of this one
        self.generic_visit(node)

    def visit_Tuple(self, node: ast.Tuple) -> None:
        words = [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        if words and len(words) == len(node.elts):
            self.paths.add(".".join(words))
        self.generic_visit(node)


def _leaves_read(reads: _Reads, leaves: list[str]) -> set[str]:
    """The leaf fields that the paths a module reads reach: a path names a leaf, or runs past one
    into a method (`fabric.env.items`), or stops at a key of a mapping the leaf holds."""
    out: set[str] = set()
    for path in reads.paths:
        parts = path.split(".")
        for leaf in leaves:
            lp = leaf.split(".")
            if len(parts) >= len(lp) and all(
                a in (b, "*") or b == "*" for a, b in zip(parts, lp, strict=False)
            ):
                out.add(leaf)
            elif len(parts) < len(lp) and lp[-1] == "*" and parts == lp[: len(parts)]:
                out.add(leaf)
    for fact in reads.facts:
        out.update(_CONTEXT_FACTS[fact])
    return out


@cache
def rules_by_field() -> dict[str, tuple[str, ...]]:
    """Field path → the codes of the rules that read it, in code order."""
    leaves = [f.path for f in fields()]
    found: dict[str, set[str]] = {}
    for path in sorted(_RULES_DIR.glob("*/jc[0-9][0-9][0-9]_*.py")):
        code = "JC" + path.name[2:5]
        reads = _Reads()
        reads.visit(ast.parse(path.read_text(encoding="utf-8")))
        for leaf in _leaves_read(reads, leaves):
            found.setdefault(leaf, set()).add(code)
    return {leaf: tuple(sorted(codes)) for leaf, codes in found.items()}


def _row(f: Field, codes: tuple[str, ...]) -> str:
    rules = ", ".join(f"[{c}](rules.md#{c.lower()})" for c in codes) or "—"
    cells = [f"`{f.path}`", f.type.replace("|", "\\|") if "\\|" not in f.type else f.type, f"`{f.default}`"]
    cells += [f.description.replace("|", "\\|"), f.compiles_to.replace("|", "\\|"), rules]
    return "| " + " | ".join(cells) + " |"


_TOP = ""
# The sections in the order a spec is usually written; a new one goes last until it is placed.
_ORDER = (
    _TOP,
    "resources",
    "launch",
    "slurm",
    "parallelism",
    "model",
    "workload",
    "fabric",
    "container",
    "storage",
    "resilience",
    "monitoring",
    "sweep",
    "cluster",
)


def markdown() -> str:
    """docs/spec.md: a section per top-level key, a table row per field."""
    by_field = rules_by_field()
    out = [
        "# The job spec, field by field",
        "",
        "Generated by `jobc schema --format markdown` from the spec's models (the same source as the",
        "JSON Schema) and the rules' code; do not edit by hand. `*` stands for any key of a mapping.",
        "*Default* is what a spec gets when it leaves the field out (`required`: it may not; `[]` and",
        "`{}`: empty). *Compiles to* is what the field becomes in the script `jobc compile` writes;",
        "*Rules* are the lint rules whose code reads the field ([rules.md](rules.md)). The compiled",
        "script's header and `jobc plan` name the defaults a spec left that reach the script.",
        "",
    ]
    groups: dict[str, list[Field]] = {}
    for f in fields():
        groups.setdefault(f.path.split(".")[0] if "." in f.path else _TOP, []).append(f)
    order = [g for g in _ORDER if g in groups] + sorted(set(groups) - set(_ORDER))
    for name in order:
        title = "Top-level fields" if name == _TOP else f"`{name}`"
        out += [f"## {title}", "", "| field | type | default | description | compiles to | rules |"]
        out.append("|---|---|---|---|---|---|")
        out += [_row(f, by_field.get(f.path, ())) for f in groups[name]]
        out.append("")
    return "\n".join(out)
