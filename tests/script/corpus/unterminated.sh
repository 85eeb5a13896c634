#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --time=01:00:00

export NCCL_DEBUG=INFO
echo "starting the run
srun python train.py
