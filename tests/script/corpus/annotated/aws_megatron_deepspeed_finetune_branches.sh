#!/bin/bash
# expect: JC407
# expect-not: JC104 JC106
# import: nodes=1 gpus_per_node=8 mode=torchrun program=finetune_llama.py
# pattern seen in: aws-samples/awsome-distributed-training 3.test_cases/pytorch/deepspeed/examples_megatron_deepspeed/finetune_hf_llama/finetune_llama.sbatch (commit 6457c6828ba1)
#SBATCH --exclusive
#SBATCH --job-name=convert-llama-weights-to-megatron-deepspeed
#SBATCH --output=logs/%x_%j.out # logfile for stdout/stderr
#SBATCH --nodes 1

set -euxo pipefail
: "${CONTAINER_PATH:=/fsxl/containers}"
: "${IMAGE:=$CONTAINER_PATH/deepspeed.sqsh}"
: "${FSX_PATH:=/fsxl}"
: "${DATA_PATH:=$FSX_PATH/alpaca/alpaca_data.json}"
: "${MODEL_PATH:=$FSX_PATH/deepspeed}"
: "${HF_LLAMA_PATH:=$FSX_PATH/deepspeed/Llama2-7b-hf}"

export MASTER_ADDR=$(hostname --ip-address)
export MASTER_PORT=$((RANDOM + 10000))
export NNODES=$SLURM_JOB_NUM_NODES
export NUM_GPUS_PER_NODE=8
## EFA settings
export FI_PROVIDER=efa # change to eth if you want to use ENA for comparisons
export FI_EFA_USE_HUGE_PAGE=0
export NCCL_SOCKET_IFNAME=en
export NCCL_ASYNC_ERROR_HANDLING=1 #!JC407
export MICRO_BATCH_SIZE=16
export GLOBAL_BATCH_SIZE=256
export TP=4
export PP=2
export MEGA_DS_LLAMA_PATH=${MODEL_PATH}/Llama2-7b-mega-ds-T${TP}P${PP}
cat <<EOF > configs/ds_config.json
{
    "train_batch_size": ${GLOBAL_BATCH_SIZE},
    "train_micro_batch_size_per_gpu": ${MICRO_BATCH_SIZE},
    "steps_per_print": 100,
    "zero_optimization": {
        "stage": 0
    },
    "bf16": {
        "enabled": true
    }
}
EOF

declare -a ARGS=(
    --container-image ${IMAGE}
    --container-mounts ${FSX_PATH}
    --container-mount-home
)

declare -a DIST_ARGS=(
    --nnodes ${NNODES}
    --nproc-per-node ${NUM_GPUS_PER_NODE}
    --master_addr ${MASTER_ADDR}
    --master_port ${MASTER_PORT}
    --rdzv_backend c10d
    --rdzv_endpoint ${MASTER_ADDR}:${MASTER_PORT}
)

declare -a CONVERT_HF2MDS_ARGS=(
    --hf-ckpt-num-shards 2
    --hf-ckpt-dir $HF_LLAMA_PATH
    --load-mode auto
    --save $MEGA_DS_LLAMA_PATH
)

declare -a FINETUNE_ARGS=(
    --load $MEGA_DS_LLAMA_PATH
)

declare -a COMM_ARGS=(
    --micro-batch-size $MICRO_BATCH_SIZE
    --global-batch-size $GLOBAL_BATCH_SIZE
    --bf16
    --zero-stage 0
    --deepspeed_config ${PWD}/configs/ds_config.json
    --deepspeed
)

if [ "$1" = "convert_hf2mds" ]; then
    srun -l "${ARGS[@]}" python3 \
    ${PWD}/../Megatron-DeepSpeed/tools/hf2megads_weight_converter.py \
    "${CONVERT_HF2MDS_ARGS[@]}" "${COMM_ARGS[@]}"
else
    srun -l "${ARGS[@]}" torchrun "${DIST_ARGS[@]}" \
    ${PWD}/../Megatron-DeepSpeed/finetune_llama.py \
    "${FINETUNE_ARGS[@]}" "${COMM_ARGS[@]}"
fi