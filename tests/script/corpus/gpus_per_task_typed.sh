#!/bin/bash
# Pattern: university guides asking for typed GPUs per task (--gpus-per-task=rtx8000:1).
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-task=rtx8000:1
#SBATCH --cpus-per-task=8
#SBATCH --time=08:00:00

srun python train.py --epochs 30
