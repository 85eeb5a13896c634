#!/bin/bash
# Pattern: Sigma2 (Olivia) PyTorch multi-node guide (head node from mapfile, the endpoint in a variable).
#SBATCH --account=nn1234k
#SBATCH --job-name=resnet_multinode_mod
#SBATCH --output=multinode_module_%j.out
#SBATCH --time=01:00:00
#SBATCH --partition=accel
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=72
#SBATCH --mem=440G

set -euo pipefail
SCRIPT_DIR="/cluster/work/projects/nn1234k/me/pytorch_olivia"
ml reset
ml load NRIS/GPU
export PYTORCH_OVERLAY_MODE=ro
cd "${SCRIPT_DIR}"
mapfile -t nodes < <(scontrol show hostnames "${SLURM_JOB_NODELIST}")
head_node="${nodes[0]}"
export RDZV_ENDPOINT="${head_node}:29500"
echo "Head node: ${head_node}"
srun torchrun \
  --nnodes="${SLURM_JOB_NUM_NODES}" \
  --nproc_per_node="${SLURM_GPUS_ON_NODE}" \
  --rdzv_id="${SLURM_JOB_ID}" \
  --rdzv_backend=c10d \
  --rdzv_endpoint="${RDZV_ENDPOINT}" \
  train_ddp.py --epochs 100 --batch-size 2048 --base-lr 0.04
