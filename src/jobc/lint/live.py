"""The live cluster a lint checks against (`jobc lint --live`), read once per command.

The command asks Slurm (`jobc.jobs.cluster.read`) and lints inside `using(facts)`; the JC12x
rules read `current()` and say nothing when there is no live cluster, so a lint without
`--live` is unchanged. A context variable rather than a parameter: the cluster is the same for
every file of one command, and the pipeline need not carry it through every stage.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from jobc.spec.slurmfacts import ClusterFacts

_LIVE: ContextVar[ClusterFacts | None] = ContextVar("jobc_live_cluster", default=None)


def current() -> ClusterFacts | None:
    return _LIVE.get()


@contextmanager
def using(facts: ClusterFacts | None) -> Iterator[None]:
    token = _LIVE.set(facts)
    try:
        yield
    finally:
        _LIVE.reset(token)
