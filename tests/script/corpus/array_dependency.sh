#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gpus-per-node=8
#SBATCH --ntasks-per-node=8
#SBATCH --time=01:00:00
#SBATCH --array=1-3%0
#SBATCH --dependency=foo
srun python sweep.py --task "$SLURM_ARRAY_TASK_ID"
