"""Plugins shared by the whole test suite: the local Slurm cluster's fixtures, and Hypothesis
settings that hold on a busy machine."""

from hypothesis import HealthCheck, settings

pytest_plugins = ["tests.support.cluster_fixture"]

# Hypothesis fails an example that takes over 200 ms of wall-clock time (its deadline) and a
# strategy that generates slowly (too_slow): both measure how busy the machine is, not the code.
# A test's own @settings still adds to this profile.
settings.register_profile("jobc", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("jobc")
