#!/bin/bash
# Pattern: torchrun --standalone on a single node (PyTorch elastic docs, cluster quick starts).
#SBATCH --nodes=1
#SBATCH --gpus-per-node=2
#SBATCH --time=00:30:00

torchrun --standalone --nproc_per_node=2 ddp_example.py --batch_size 64
