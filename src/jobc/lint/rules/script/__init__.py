"""JC8 — sbatch scripts: what only a hand-written batch script can get wrong."""
