#!/bin/bash
# Pattern: NVIDIA/Megatron-LM examples (DISTRIBUTED_ARGS and the model arguments held in
# strings, the launcher run by `srun bash -c`), here with one task per GPU by mistake.
#SBATCH --job-name=gpt-345m
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=12:00:00
#SBATCH --exclusive

GPUS_PER_NODE=8
DISTRIBUTED_ARGS="--nproc-per-node $GPUS_PER_NODE --nnodes \$SLURM_NNODES \
    --node_rank \$SLURM_NODEID --master_addr \$MASTER_ADDR --master_port 6000"
GPT_ARGS="--num-layers 24 --hidden-size 1024 --num-attention-heads 16 --seq-length 1024"
LAUNCH="python -m torch.distributed.run $DISTRIBUTED_ARGS"

srun bash -c "$LAUNCH pretrain_gpt.py $GPT_ARGS --bf16"
