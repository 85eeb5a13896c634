"""What tests of several stages share: the repository's root, linting YAML text
(`tests.support.lint`), the local Slurm cluster (`cluster`, its fixtures in `cluster_fixture`,
submitting to it in `slurm_jobs`), and the behaviour simulator that runs a batch script under a
simulated allocation and compares two scripts (`simulator`)."""

from pathlib import Path

#: The repository checkout the tests run from.
ROOT = Path(__file__).resolve().parents[2]
