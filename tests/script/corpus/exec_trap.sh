#!/bin/bash
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=03:00:00

trap 'touch stop-now' USR2
exec srun python train.py
