#!/bin/bash
# Pattern: the step's commands held in a heredoc (read -r -d '') and run by srun bash -c.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time=04:00:00
#SBATCH --exclusive

read -r -d '' CMD <<'EOS'
torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=8 --node_rank="$SLURM_NODEID" \
  --master_addr="$MASTER_ADDR" --master_port="$MASTER_PORT" pretrain.py --steps 1000
EOS
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=$((10000 + SLURM_JOB_ID % 50000))
srun bash -c "$CMD"
