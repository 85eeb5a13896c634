#!/usr/bin/env bash
#SBATCH -J tr-srun
#SBATCH -N 2
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:8
#SBATCH -t 12:00:00
#SBATCH -p batch
#SBATCH --exclusive

head_node=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)

srun torchrun \
  --nnodes="$SLURM_NNODES" \
  --nproc_per_node=8 \
  --rdzv_backend=c10d \
  --rdzv_endpoint="$head_node:29400" \
  --rdzv_id="$SLURM_JOB_ID" \
  train.py --batch-size 32
