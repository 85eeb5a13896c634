"""What the JC12x rules share: the live partition a spec would run in, and its nodes."""

from __future__ import annotations

import re

from jobc.core.diagnostics import DataPath
from jobc.core.lazyre import lazy
from jobc.core.record import record
from jobc.lint.live import current
from jobc.spec.context import Context
from jobc.spec.slurmfacts import ClusterFacts, NodeFacts, PartitionFacts

#: where a --live finding about the partition points when the spec names none (the default is used)
PARTITION: DataPath = ("slurm", "partition")
_FEATURE = lazy(r"[A-Za-z_][A-Za-z0-9_.:-]*")


@record
class Target:
    cluster: ClusterFacts
    partition: PartitionFacts
    named: bool  # the spec names the partition (else it is the cluster's default)
    nodes: tuple[NodeFacts, ...]

    @property
    def label(self) -> str:
        how = "" if self.named else " (the cluster's default)"
        return f"partition {self.partition.name!r}{how}"


def target(ctx: Context) -> Target | None:
    """The live partition the job would run in; None without --live or when it does not exist
    (JC120 says so)."""
    cluster = current()
    if cluster is None:
        return None
    name = ctx.spec.slurm.partition
    if name and "," in name:
        return None  # several partitions: the job runs in the first that fits; no one set of limits
    part = cluster.partition(name) if name else cluster.default_partition
    if part is None:
        return None
    return Target(cluster, part, name is not None, cluster.nodes_of(part.name))


def constraint_features(text: str) -> list[str] | None:
    """The features a simple constraint requires on every node (`a`, `a&b`, `a,b`); None for
    the forms that do not need each feature on each node (`|`, `[…]`, counts `*N`)."""
    if any(c in text for c in "|[]*()"):
        return None
    return [word for word in re.split(r"[&,]", text) if word.strip()]


def feature_words(text: str) -> list[str]:
    """Every feature name in a constraint, whatever its operators."""
    return _FEATURE.findall(re.sub(r"\*[0-9]+", "", text))
