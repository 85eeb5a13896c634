#!/bin/bash
# Pattern: a single-node rendezvous copied into a multi-node job through a variable.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time=04:00:00
#SBATCH --exclusive

RDZV_HOST=localhost
srun torchrun --nnodes=2 --nproc_per_node=8 --rdzv_backend=c10d \
  --rdzv_endpoint="$RDZV_HOST:29500" train.py
