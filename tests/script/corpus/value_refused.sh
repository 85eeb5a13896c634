#!/bin/bash
#SBATCH --nodes=0
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --cpus-per-task=²
#SBATCH --time=01:00:00
export 1A=x
srun python train.py
