"""Plugins shared by the whole test suite: the local Slurm cluster's fixtures, and Hypothesis
settings that hold on a busy machine."""

import pytest
from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.support.cluster_fixture"]

# Hypothesis fails an example that takes over 200 ms of wall-clock time (its deadline) and a
# strategy that generates slowly (too_slow): both measure how busy the machine is, not the code.
# A test's own @settings still adds to this profile.
settings.register_profile("jobc", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("jobc")


@pytest.fixture(autouse=True)
def _user_state(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test has a user state directory of its own: `jobc submit` records each job in the
    user's ledger ($XDG_STATE_HOME/jobc/ledger), which must be neither the tester's nor shared by
    tests running at once."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
