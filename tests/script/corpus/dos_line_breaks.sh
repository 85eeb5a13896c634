#!/bin/bash
# saved with DOS line breaks: sbatch refuses it
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=01:00:00
srun python train.py --epochs 3
