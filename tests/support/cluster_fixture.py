"""The local Slurm cluster as pytest fixtures: one cluster per run, the jobs a test submits,
the `slurm` marker on every test that needs it, and the daemon logs on a failed test's report."""

from __future__ import annotations

import os
from collections.abc import Generator, Iterator

import pytest

from tests.support.cluster import ClusterUnavailable, SlurmCluster

SLURM_FIXTURE = "slurm_cluster"
#: Fixtures of clusters of their own (tests/*/…): their tests are Slurm tests too.
CLUSTER_FIXTURES = frozenset({SLURM_FIXTURE, "topology_cluster", "failing_cluster", "heal_cluster"})


def started(cluster: SlurmCluster) -> Iterator[SlurmCluster]:
    """Start `cluster` for a fixture, yield it, stop it: skipped where no cluster can start, a
    failure instead when JOBC_REQUIRE_SLURM=1 (as in CI), so a broken setup cannot pass as skipped.
    A fixture of its own cluster (other partitions, accounting, cgroups) yields from this."""
    try:
        cluster.start()
    except ClusterUnavailable as error:
        if os.environ.get("JOBC_REQUIRE_SLURM") == "1":
            pytest.fail(f"JOBC_REQUIRE_SLURM=1 but {error}", pytrace=False)
        pytest.skip(reason=str(error))
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def slurm_cluster() -> Iterator[SlurmCluster]:
    """A running local Slurm cluster (2 nodes × 2 fake GPUs, one partition, accounting by
    slurmdbd where MariaDB and slurmdbd are installed), started once per test run."""
    yield from started(SlurmCluster())


@pytest.fixture
def jobs(slurm_cluster: SlurmCluster) -> Iterator[list[int]]:
    """Job ids submitted by a test; whatever still runs at its end is cancelled."""
    submitted: list[int] = []
    yield submitted
    slurm_cluster.cancel(*submitted)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Every test that needs the cluster is marked, so `-m "not slurm"` leaves them all out.
    for item in items:
        used = CLUSTER_FIXTURES.intersection(getattr(item, "fixturenames", ()))
        if used:
            item.add_marker(pytest.mark.slurm)
        # Under `pytest -n N --dist loadgroup` every worker starts the session's cluster for
        # itself, but the tests of a cluster of their own (module-scoped: other partitions,
        # cgroups named after nodes) all go to one worker, so that cluster starts once.
        for name in sorted(used - {SLURM_FIXTURE}):
            item.add_marker(pytest.mark.xdist_group(name))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    report = yield
    for name in sorted(CLUSTER_FIXTURES):
        cluster = getattr(item, "funcargs", {}).get(name)
        if report.failed and isinstance(cluster, SlurmCluster):
            report.sections.append((f"Slurm daemon logs ({name})", cluster.logs()))
    return report
