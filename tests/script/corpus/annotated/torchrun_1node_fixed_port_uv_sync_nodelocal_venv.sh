#!/bin/bash
# expect: JC104
# expect-not: JC805 JC504 JC701
# import: nodes=1 gpus_per_node=8 mode=torchrun program=src/train.py
# pattern seen in: ceselder/cot-oracle scripts/slurm_train.sh (commit 8260234c4e88)
#SBATCH --job-name=cot-oracle
#SBATCH --partition=gpu_lowp
#SBATCH --nodelist=gpu-xd670-30
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=64
#SBATCH --gres=gpu:8
#SBATCH --mem=600G
#SBATCH --time=6:00:00
#SBATCH --output=logs/slurm_%j.out
#SBATCH --error=logs/slurm_%j.err

set -euo pipefail

# ── Environment ──────────────────────────────────────────────────────
export PYTHONUNBUFFERED=1
export TOKENIZERS_PARALLELISM=false
export AO_REPO_PATH=/nfs/nhome/live/jbauer/activation_oracles
export VENV=/var/tmp/jbauer/venvs/cot-oracle
export PATH="$VENV/bin:$PATH"
export HF_HOME="/ceph/scratch/jbauer/hf"
export HF_HUB_CACHE="/ceph/scratch/jbauer/hf/hub"

cd /nfs/nhome/live/jbauer/cot-oracle
mkdir -p logs

echo "=== COT Oracle: Multi-GPU Training ==="
echo "Node: $(hostname)"
echo "GPUs: $(nvidia-smi -L | wc -l)x $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
echo "Job ID: $SLURM_JOB_ID"
echo "Start: $(date)"
echo ""

# ── Clean stale GPU processes ────────────────────────────────
pkill -f "torchrun.*train" 2>/dev/null || true
sleep 2

# ── Sync venv (always, to fix stale envs) ────────────────────
echo "Syncing venv at $VENV..."
UV_PROJECT_ENVIRONMENT="$VENV" uv sync
echo "Using python: $(python --version 2>&1)"
echo "transformers: $(python -c 'import transformers; print(transformers.__version__, transformers.__file__)' 2>&1)"

# ── Launch training ───────────────────────────────────────────────────────────────────────────────
torchrun --nproc_per_node=8 \
    --master_port=29500 \
    src/train.py \
    --config configs/train.yaml \
    --precomputed-dir data/precomputed \
    --epochs 3 \
    --gradient-accumulation-steps 2 \
    --save-dir /ceph/scratch/jbauer/checkpoints/cot_oracle_8gpu \
    --wandb-run "multi-gpu" #!JC104

echo ""
echo "=== Done: $(date) ==="
