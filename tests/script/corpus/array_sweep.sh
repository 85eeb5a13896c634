#!/bin/bash
#SBATCH --array=0-9%2
#SBATCH --nodes=1
#SBATCH --gpus-per-node=1
#SBATCH --time=01:00:00
#SBATCH --output=/home/alice/sweep/%A_%a.out

python sweep.py --trial "$SLURM_ARRAY_TASK_ID"
