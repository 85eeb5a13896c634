#!/bin/bash
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=03:00:00

exec srun python train.py
rm -rf "/tmp/$SLURM_JOB_ID"
