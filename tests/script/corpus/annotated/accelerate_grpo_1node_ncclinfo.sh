#!/bin/bash
# expect: JC404
# expect-not: JC406 JC805 JC106
# import: nodes=1 gpus_per_node=4 mode=torchrun program=src/ehr_r1/train.py
# pattern seen in: FacerAin/EHR-R1 slurm/train.slurm (commit 143e03b908b3)
#SBATCH -J R1
#SBATCH --gres=gpu:4
#SBATCH --cpus-per-gpu=8
#SBATCH --mem-per-gpu=32G
#SBATCH -p batch_grad
#SBATCH -w ariel-g2
#SBATCH -t 1-0
#SBATCH -o logs/slurm-%A.out
#SBATCH -e logs/slurm-%A.err
  

set -x -e

source ~/.bashrc
source .venv/bin/activate
START_TIME=$(date +%s)
echo "START TIME: $(date)"

# Create logs directory if it doesn't exist
mkdir -p logs

# Default values
MODEL="MPX0222forHF/SQL-R1-3B"
DATA_PATH="data/mimic_iv/train"
EPOCHS=1
BATCH_SIZE=4
GRAD_ACC=4
ACCELERATOR="multi_gpu"
REWARD_FUNCS="execution"
ADDITIONAL_ARGS=""
MAX_LENGTH=4096
MAX_PROMPT_LENGTH=2400


# Distributed configuration
NUM_NODES=$SLURM_NNODES
GPUS_PER_NODE=4
WORLD_SIZE=$(($NUM_NODES*$GPUS_PER_NODE))
NODELIST=($(scontrol show hostnames $SLURM_JOB_NODELIST))
MASTER_ADDR=${NODELIST[0]}
MASTER_PORT=6000




# NCCL configuration for single-node multi-GPU training
export TORCH_NCCL_ASYNC_ERROR_HANDLING=1
export NCCL_DEBUG=INFO #!JC404
export NCCL_SOCKET_IFNAME=lo
export NCCL_P2P_DISABLE=1
export NCCL_IB_DISABLE=1

# PyTorch CUDA memory configuration
export PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True

# Build command
export CMD=" \
    src/ehr_r1/train.py \
    --model_name $MODEL \
    --data_path $DATA_PATH \
    --num_epochs $EPOCHS \
    --batch_size $BATCH_SIZE \
    --gradient_accumulation_steps $GRAD_ACC \
    --max_length $MAX_LENGTH \
    --max_prompt_length $MAX_PROMPT_LENGTH \
    --reward-functions $REWARD_FUNCS \
    --use_wandb \
    --bf16 \
    $ADDITIONAL_ARGS
    "

export LAUNCHER="ACCELERATE_LOG_LEVEL=info TRANSFORMERS_VERBOSITY=info accelerate launch \
    --config_file accelerate_config.yaml \
    "

SRUN_ARGS=" \
    --wait=60 \
    --kill-on-bad-exit=1 \
    --nodes=$NUM_NODES \
    --ntasks=$NUM_NODES \
    "

echo "Launching training..."
srun $SRUN_ARGS bash -c "$LAUNCHER $CMD" 2>&1
