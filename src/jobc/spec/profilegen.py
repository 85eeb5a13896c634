"""A cluster profile written from what Slurm says (`jobc profile`).

The text is built here, not dumped, so that it reads like a hand-written profile: a header
that names where the facts came from and what Slurm cannot know, one block per partition and
per kind of node, comments where a number needs one. The same cluster gives the same bytes:
partitions, kinds of node and lists are sorted, node states and loads are left out, and the
date is the only varying part (SOURCE_DATE_EPOCH fixes it, as for reproducible builds).

Every string is written double-quoted unless it is a plain word, so that no value can read
differently in YAML 1.1 (`OFF`, `02:00:00`) and the profile lints clean.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from jobc.core.text import visible
from jobc.spec.slurmfacts import ClusterFacts, NodeFacts, PartitionFacts
from jobc.spec.slurmtime import TimeLimitError, parse_time

_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9._/-]*$")
#: words a YAML 1.1 reader takes for booleans or null
_YAML11 = frozenset({"y", "n", "yes", "no", "on", "off", "true", "false", "null"})
_NAME = re.compile(r"[^A-Za-z0-9._-]+")

Hardware = tuple[int | None, int | None, int | None, tuple[str, ...], tuple[str, ...]]
#: a kind of node: what it has (CPUs, memory, GPUs, their types, features) and its partitions, so
#: that a partition's kinds count exactly its nodes
Shape = tuple[int | None, int | None, int | None, tuple[str, ...], tuple[str, ...], tuple[str, ...]]
#: said where a node's GPU count would be, when Slurm printed one jobc cannot read
_GPUS_UNKNOWN = "# gpus unknown: jobc cannot read the GPU count in the nodes' Gres"


def scalar(value: str) -> str:
    if _PLAIN.match(value) and value.lower() not in _YAML11:
        return value
    return json.dumps(value)


def flow(values: Sequence[str]) -> str:
    return "[" + ", ".join(scalar(v) for v in values) + "]"


def profile_name(facts: ClusterFacts) -> str:
    """The cluster's name as a profile name ([A-Za-z0-9._-]+)."""
    name = _NAME.sub("-", facts.name or "").strip("-")
    return name or "cluster"


def _hardware(node: NodeFacts) -> Hardware:
    return (node.cpus, node.memory_mb, node.gpus, node.gpu_types, node.features)


def _shape(node: NodeFacts) -> Shape:
    return (*_hardware(node), node.partitions)


def node_types(facts: ClusterFacts) -> dict[str, tuple[Shape, list[NodeFacts]]]:
    """Kinds of node by a name made of what they have: `a100x4-64cpu-512g`, `cpu-128cpu-256g`
    (`…-2` for nodes alike in another set of partitions)."""
    groups: dict[Shape, list[NodeFacts]] = {}
    for node in facts.nodes:
        groups.setdefault(_shape(node), []).append(node)

    def order(shape: Shape) -> tuple[object, ...]:
        cpus, mem, gpus, types, features, partitions = shape
        return (gpus is None, -(gpus or 0), types, -(cpus or 0), -(mem or 0), features, partitions)

    named: dict[str, tuple[Shape, list[NodeFacts]]] = {}
    for shape in sorted(groups, key=order):
        cpus, mem, gpus, types, _, _ = shape
        kind = f"{'-'.join(types) or 'gpu'}x{'unknown' if gpus is None else gpus}" if gpus != 0 else "cpu"
        base = f"{kind}-{cpus if cpus is not None else 'unknown'}cpu"
        if mem is not None:
            base += f"-{mem // 1024}g" if mem >= 1024 and mem % 1024 == 0 else f"-{mem}m"
        base = _NAME.sub("-", base)
        name, n = base, 2
        while name in named:
            name, n = f"{base}-{n}", n + 1
        named[name] = (shape, groups[shape])
    return named


def render(facts: ClusterFacts, *, command: str, date: str) -> str:
    types = node_types(facts)
    type_of = {node.name: name for name, (_, nodes) in types.items() for node in nodes}
    shapes = {name: shape for name, (shape, _) in types.items()}
    gpu_types = sorted({t for n in facts.nodes for t in n.gpu_types})
    out: list[str] = []
    # what Slurm printed goes into comments escaped: a name may hold ESC, BEL or a line break
    version = f" (Slurm {visible(facts.version)})" if facts.version else ""
    out += [
        f"# Cluster profile of {visible(facts.name or 'this cluster')}, written by `{command}` on {date}",
        f"# from `scontrol show config`, `scontrol show partition` and `scontrol show node`{version}.",
        "#",
        "# Slurm does not know, so this file does not say: which paths every node sees",
        "# (storage.shared), the GPU catalogue key of the GPUs (cluster.gpu: their memory and",
        "# generation; Slurm names them only by GRES type"
        + (f": {visible(', '.join(gpu_types))})," if gpu_types else "),"),
        "# the fabric, and whether compute nodes reach the internet (cluster.air_gapped). Add them in",
        "# a profile that extends this one, so that this file can be written again as the cluster changes.",
        "version: 1",
        f"profile: {scalar(profile_name(facts))}",
        "",
        "cluster:",
    ]
    all_shapes = {_hardware(n) for n in facts.nodes}
    if len(all_shapes) == 1:
        cpus, _, gpus, _, _ = next(iter(all_shapes))
        out.append(f"  gpus_per_node: {gpus}" if gpus is not None else f"  {_GPUS_UNKNOWN}")
        if cpus is not None:
            out.append(f"  cpus_per_node: {cpus}")
    elif facts.nodes:
        out.append("  # nodes differ (see node_types): GPUs and CPUs per node are given per partition")
    if facts.partitions and all(_exclusive(p) for p in facts.partitions):
        out.append("  exclusive_nodes: true        # every partition is OverSubscribe=EXCLUSIVE")
    default = facts.default_partition
    if default is not None:
        out.append(f"  default_partition: {scalar(default.name)}")
    if facts.partitions:
        out.append("  all_partitions: true         # every partition of the cluster is below")
    if facts.partitions:
        out.append("  partitions:")
        for part in facts.partitions:
            out += _partition(facts, part, type_of, shapes, per_partition=len(all_shapes) > 1)
    if types:
        out.append("  node_types:")
        for name, (shape, nodes) in types.items():
            cpus, mem, gpus, kinds, features, _ = shape
            out.append(f"    {scalar(name)}:")
            out.append(f"      count: {len(nodes)}")
            if cpus is not None:
                out.append(f"      cpus: {cpus}")
            if mem is not None:
                out.append(f"      memory_mb: {mem}")
            else:
                out.append("      # memory_mb unknown: Slurm was not told it (RealMemory)")
            out.append(f"      gpus: {gpus}" if gpus is not None else f"      {_GPUS_UNKNOWN}")
            if len(kinds) == 1:
                out.append(f"      gpu_type: {scalar(kinds[0])}")
            elif kinds:
                out.append(f"      # GPUs of several types on one node: {visible(', '.join(kinds))}")
            if features:
                out.append(f"      features: {flow(features)}")
    return "\n".join(out) + "\n"


def _exclusive(part: PartitionFacts) -> bool:
    return (part.oversubscribe or "").upper().startswith("EXCLUSIVE")


def _partition(
    facts: ClusterFacts,
    part: PartitionFacts,
    type_of: dict[str, str],
    shapes: dict[str, Shape],
    *,
    per_partition: bool,
) -> list[str]:
    default = "                # the default partition" if part.default else ""
    lines = [f"    {scalar(part.name)}:{default}"]
    lines.append(_time_line("max_time", "MaxTime", part.max_time) or "      # no MaxTime")
    if part.default_time:
        lines.append(_time_line("default_time", "DefaultTime", part.default_time))
    nodes = facts.nodes_of(part.name)
    count = part.total_nodes if part.total_nodes is not None else len(nodes)
    lines.append(f"      nodes: {count}")
    if part.max_nodes is not None:
        lines.append(f"      max_nodes: {part.max_nodes}")
    if part.min_nodes is not None and part.min_nodes > 1:  # 0 and 1 ask nothing of a job
        lines.append(f"      min_nodes: {part.min_nodes}")
    if part.preempt_mode:
        lines.append(f"      preempt_mode: {json.dumps(part.preempt_mode)}")
    kinds = sorted({type_of[n.name] for n in nodes}, key=list(shapes).index)
    if per_partition and nodes:
        counts = [n.gpus for n in nodes]
        cpus = [n.cpus for n in nodes if n.cpus is not None]
        mixed = "  # the largest node; its kinds of node differ" if len(kinds) > 1 else ""
        if None in counts:
            lines.append(f"      {_GPUS_UNKNOWN}")
        else:
            lines.append(f"      gpus_per_node: {max(c for c in counts if c is not None)}{mixed}")
        if cpus:
            lines.append(f"      cpus_per_node: {max(cpus)}{mixed}")
    if kinds:
        lines.append(f"      node_types: {flow(kinds)}")
    return lines


def _time_line(key: str, slurm_key: str, value: str | None) -> str:
    """`      max_time: "2-00:00:00"`; a value that is no Slurm time limit is said, not copied
    (the profile would carry it to every spec that extends it); "" for no value."""
    if value is None:
        return ""
    try:
        parse_time(value)
    except TimeLimitError:
        printed = json.dumps(value[:40])
        return f"      # {key} unknown: jobc cannot read the {slurm_key} Slurm printed, {printed}"
    return f"      {key}: {json.dumps(value)}"
