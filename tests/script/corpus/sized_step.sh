#!/bin/bash
# Pattern: a training step deliberately sized to two nodes of a bigger allocation.
#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time=12:00:00
#SBATCH --exclusive

srun --ntasks=2 --ntasks-per-node=1 torchrun --nnodes=2 --nproc_per_node=8 \
  --rdzv_backend=c10d --rdzv_endpoint="$(hostname)" train.py
