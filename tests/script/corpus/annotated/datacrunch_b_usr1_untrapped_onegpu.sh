#!/bin/bash
# expect: JC808
# expect-not: JC807 JC815 JC802
# import: nodes=1 gpus_per_node=1 mode=srun program=train.py
# pattern seen in: datacrunch-research/cluster-tests slurm/job.sh (commit 41c6c88ba0a7)
#SBATCH --job-name=train_requeue
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:1
#SBATCH --time=00:05:00
#SBATCH --output=logs/train_%j.out
#SBATCH --error=logs/train_%j.err
#SBATCH --signal=B:USR1@30   # send SIGUSR1 30s before timeout (for checkpointing) #!JC808

set -euo pipefail
mkdir -p logs

# Source config for checkpoint directory
. ./config.sh
export CKPT_DIR="$CHECKPOINT_DIR"
mkdir -p "$CKPT_DIR"

echo "[job.sh] Running Python training job..."
srun python train.py