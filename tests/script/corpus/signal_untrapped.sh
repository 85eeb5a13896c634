#!/bin/bash
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --time=08:00:00
#SBATCH --signal=B:USR2@300
#SBATCH --requeue

srun python finetune.py --epochs 3
cp -r outputs "$HOME/finished/$SLURM_JOB_ID"
