#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --time=04:00:00

# jobc: ignore[JC104] the port is reserved for this project on these nodes
export MASTER_PORT=29500
srun python train.py
