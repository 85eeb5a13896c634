#!/bin/bash
# Pattern: HF Trainer FSDP runs with Megatron's CUDA_DEVICE_MAX_CONNECTIONS copied in.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time=12:00:00
#SBATCH --exclusive

export CUDA_DEVICE_MAX_CONNECTIONS=1
FSDP_ARGS="--fsdp full_shard --fsdp_transformer_layer_cls_to_wrap LlamaDecoderLayer"
srun torchrun --nnodes="$SLURM_NNODES" --nproc_per_node=8 --rdzv_backend=c10d \
  --rdzv_endpoint="$(hostname)" finetune.py $FSDP_ARGS --bf16 True
