"""Plugins shared by the whole test suite: the local Slurm cluster's fixtures."""

pytest_plugins = ["tests.support.cluster_fixture"]
