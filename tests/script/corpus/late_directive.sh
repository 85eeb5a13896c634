#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --time=04:00:00
module load cuda/12.4
#SBATCH --gpus-per-node=8
srun python train.py
