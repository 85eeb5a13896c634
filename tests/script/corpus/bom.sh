#!/bin/bash
# saved with a byte-order mark before the #!: sbatch refuses it
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=01:00:00
srun python train.py
