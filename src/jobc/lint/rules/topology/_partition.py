"""The partition a job would run in, as one view whatever told it: the live cluster
(`jobc lint --live`, read from scontrol) or the cluster profile the spec extends.

One rule, two sources of facts: the rules about a partition's time limit (JC108), its nodes'
GPUs (JC103) and CPUs (JC109), its node counts (JC121) and its features and GPU types (JC122)
read this view, so a finding has the same code and place whether a profile or the live cluster
said the fact. With `--live` the cluster's own answer is the view (it is the one in force now);
without, the profile's. What only the live cluster can say (whether a partition is up, its
AllowAccounts and AllowQos, accounting's names) stays with JC120 and JC123.

A profile's kinds of node count the nodes of each kind (`count`); `jobc profile` writes a kind
per set of partitions too, so a partition's kinds count its nodes exactly. A hand-written kind
may be shared by partitions, and then its count is an upper bound: the rules make a claim about
the nodes a partition has only from what cannot be more.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from jobc.core.diagnostics import DataPath
from jobc.core.lazyre import lazy
from jobc.core.record import record
from jobc.lint.live import current
from jobc.spec.context import Context

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from typing import Any

    # the live cluster's facts, which only `--live` gives: a spec lint reads a profile's
    from jobc.spec.slurmfacts import ClusterFacts, NodeFacts

#: where a finding about the partition points when the spec names none (the default is used)
PARTITION: DataPath = ("slurm", "partition")
_FEATURE = lazy(r"[A-Za-z_][A-Za-z0-9_.:-]*")


@record
class Kind:
    """A kind of node of the partition, and how many of its nodes are of it (None: not said)."""

    gpus: int | None  # None: Slurm printed a count jobc cannot read, or the profile does not say
    cpus: int | None
    features: tuple[str, ...]
    gpu_types: tuple[str, ...]
    count: int | None


@record
class View:
    name: str
    named: bool  # the spec names the partition (else it is the cluster's default)
    live: bool  # from the live cluster (else from the cluster profile)
    max_time: str | None
    max_nodes: int | None
    min_nodes: int | None
    nodes: int | None  # the partition's nodes, as its own record counts them
    kinds: tuple[Kind, ...]  # empty: nothing is known of its nodes

    @property
    def label(self) -> str:
        how = "" if self.named else " (the cluster's default)"
        return f"partition {self.name!r}{how}"

    def most(self, what: str) -> int | None:
        """The most GPUs ("gpus") or CPUs ("cpus") a node of the partition has; None when a kind
        does not say (it may have any number)."""
        values = [kind.gpus if what == "gpus" else kind.cpus for kind in self.kinds]
        known = [v for v in values if v is not None]
        return max(known) if known and len(known) == len(values) else None


def view(ctx: Context) -> View | None:
    """The partition the job would run in; None when neither source describes it, or when the
    job names several (it runs in the first that fits: no one set of limits)."""
    # made once per lint of a file: five rules ask, and the view is a frozen record
    if "partition.view" not in ctx.facts:
        ctx.facts["partition.view"] = _view(ctx)
    found: View | None = ctx.facts["partition.view"]
    return found


def _view(ctx: Context) -> View | None:
    name = ctx.spec.slurm.partition
    if name and "," in name:
        return None
    cluster = current()
    if cluster is not None:
        return _live(cluster, name)
    return _profile(ctx, name)


def _live(cluster: ClusterFacts, name: str | None) -> View | None:
    part = cluster.partition(name) if name else cluster.default_partition
    if part is None:
        return None
    return View(
        name=part.name,
        named=name is not None,
        live=True,
        max_time=part.max_time,
        max_nodes=part.max_nodes,
        min_nodes=part.min_nodes,
        nodes=part.total_nodes,
        kinds=_kinds_of(cluster.nodes_of(part.name)),
    )


def _kinds_of(nodes: Iterable[NodeFacts]) -> tuple[Kind, ...]:
    counts: dict[tuple[Any, ...], int] = {}
    for n in nodes:
        key = (n.gpus, n.cpus, n.features, n.gpu_types)
        counts[key] = counts.get(key, 0) + 1
    return tuple(
        Kind(gpus, cpus, features, types, count) for (gpus, cpus, features, types), count in counts.items()
    )


def _profile(ctx: Context, name: str | None) -> View | None:
    cluster = ctx.spec.cluster
    chosen = name or cluster.default_partition
    part = cluster.partitions.get(chosen) if chosen else None
    if chosen is None or part is None:
        return None
    kinds: list[Kind] = []
    for type_name in part.node_types:
        kind = cluster.node_types.get(type_name)
        if kind is None:  # a kind the profile names but does not describe: its nodes are unknown
            kinds = []
            break
        types = (kind.gpu_type,) if kind.gpu_type else ()
        kinds.append(Kind(kind.gpus, kind.cpus, tuple(kind.features), types, kind.count))
    return View(
        name=chosen,
        named=name is not None,
        live=False,
        max_time=part.max_time,
        max_nodes=part.max_nodes,
        min_nodes=part.min_nodes,
        nodes=part.nodes,
        kinds=tuple(kinds),
    )


def holders(ctx: Context, feature: str) -> list[str]:
    """The partitions whose nodes have this feature (live, or by the profile's kinds)."""
    cluster = current()
    if cluster is not None:
        return sorted({p for n in cluster.nodes if feature in n.features for p in n.partitions})
    profile = ctx.spec.cluster
    having = {name for name, kind in profile.node_types.items() if feature in kind.features}
    return sorted(name for name, part in profile.partitions.items() if having & set(part.node_types))


def constraint_features(text: str) -> list[str] | None:
    """The features a simple constraint requires on every node (`a`, `a&b`, `a,b`); None for
    the forms that do not need each feature on each node (`|`, `[…]`, counts `*N`)."""
    if any(c in text for c in "|[]*()"):
        return None
    return [word for word in re.split(r"[&,]", text) if word.strip()]


def feature_words(text: str) -> list[str]:
    """Every feature name in a constraint, whatever its operators."""
    return _FEATURE.findall(re.sub(r"\*[0-9]+", "", text))
