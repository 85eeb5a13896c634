"""Following jobs after sbatch: submit → ledger → status, logs, cancel, triage.

Takes a spec to submit, or a job id or log to follow, and gives ledger entries (what was submitted,
from which spec and commit), the job's state from Slurm's own commands, and a diagnosis of a
failed job that names the first cause first.
"""
