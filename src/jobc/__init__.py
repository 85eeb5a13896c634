"""jobc: a job-spec compiler and linter for distributed PyTorch training on Slurm."""

__version__ = "0.1.0"
