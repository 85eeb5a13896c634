"""What tests of several stages share: the repository's root, linting YAML text
(`tests.support.lint`), the local Slurm cluster (`cluster`, its fixtures in `cluster_fixture`,
submitting to it in `slurm_jobs`)."""

from pathlib import Path

#: The repository checkout the tests run from.
ROOT = Path(__file__).resolve().parents[2]
