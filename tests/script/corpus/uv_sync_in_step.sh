#!/bin/bash
# Pattern: uv projects syncing inside the step, on every rank at once.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=04:00:00

srun bash -c "uv sync --frozen && uv run --no-sync python train.py"
