#!/bin/bash
# Pattern: university cluster guides' torch.distributed.run examples with the launcher's and
# the program's options in bash arrays; the node has four GPUs, the launcher asks for eight.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:a100:4
#SBATCH --cpus-per-task=32
#SBATCH --time=08:00:00
#SBATCH --exclusive

head=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
DIST_ARGS=(
  --nnodes="$SLURM_NNODES"
  --nproc_per_node=8
  --rdzv_backend=c10d
  --rdzv_endpoint="$head:29500"
)
TRAIN_ARGS=(--model vit_b_16 --output-dir /tmp/vit --epochs 90)
srun python -m torch.distributed.run "${DIST_ARGS[@]}" train_vit.py "${TRAIN_ARGS[@]}"
