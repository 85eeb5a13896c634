#!/bin/bash
# expect: clean
# expect-not: JC504 JC106 JC104
# import: nodes=1 gpus_per_node=8 mode=srun program=scripts/training/run_recipe.py
# pattern seen in: NVIDIA-NeMo/Megatron-Bridge examples/models/gemma/gemma4_vl/slurm_peft.sh (commit 067f987df03b)
#SBATCH --job-name=gemma4vl-lora
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=00:30:00
#SBATCH --partition=gpu
#SBATCH --account=my_account
#SBATCH --output=gemma4_vl_peft_%j.out
#SBATCH --error=gemma4_vl_peft_%j.err
#SBATCH --exclusive
WORKSPACE=${WORKSPACE:-/workspace}
PRETRAINED_CHECKPOINT=${PRETRAINED_CHECKPOINT:-${WORKSPACE}/models/gemma-4-26B-A4B}
PEFT_SCHEME=${PEFT_SCHEME:-lora}
DATASET_NAME=${DATASET_NAME:-cord_v2}
SEQ_LENGTH=${SEQ_LENGTH:-4096}
TRAIN_ITERS=${TRAIN_ITERS:-50}
GBS=${GBS:-32}
MBS=${MBS:-1}
EVAL_ITERS=${EVAL_ITERS:-10}
LR=${LR:-0.0002}
MIN_LR=${MIN_LR:-0.00002}
LR_WARMUP_ITERS=${LR_WARMUP_ITERS:-10}
TP=${TP:-2}
PP=${PP:-1}
EP=${EP:-4}   # TP=2, PP=1, 8 GPUs: DP=4=EP → experts split across EP ranks (fixes LoRA duplicate shard keys)
SAVE_DIR=${SAVE_DIR:-${WORKSPACE}/results/gemma4_vl_lora_tp${TP}_pp${PP}_ep${EP}_${SLURM_JOB_ID}}
CONTAINER_IMAGE="${CONTAINER_IMAGE:-}"
CONTAINER_MOUNTS="${CONTAINER_MOUNTS:-}"
export TORCH_NCCL_AVOID_RECORD_STREAMS=1
export NCCL_NVLS_ENABLE=0
export MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -1)
export MASTER_PORT=${MASTER_PORT:-29501}
CMD="cd /opt/Megatron-Bridge && "
CMD="${CMD}export RANK=\$SLURM_PROCID LOCAL_RANK=\$SLURM_LOCALID WORLD_SIZE=\$SLURM_NTASKS && "
CMD="${CMD}uv run --no-sync python scripts/training/run_recipe.py"
CMD="${CMD} --recipe gemma4_vl_26b_peft_config"
CMD="${CMD} --step_func vlm_step"
CMD="${CMD} --mode ${PEFT_SCHEME}"
CMD="${CMD} checkpoint.pretrained_checkpoint=${PRETRAINED_CHECKPOINT}"
CMD="${CMD} model.tensor_model_parallel_size=${TP}"
CMD="${CMD} model.pipeline_model_parallel_size=${PP}"
CMD="${CMD} model.expert_model_parallel_size=${EP}"
CMD="${CMD} model.seq_length=${SEQ_LENGTH}"
CMD="${CMD} train.train_iters=${TRAIN_ITERS}"
CMD="${CMD} train.global_batch_size=${GBS}"
CMD="${CMD} train.micro_batch_size=${MBS}"
CMD="${CMD} validation.eval_iters=${EVAL_ITERS}"
CMD="${CMD} optimizer.lr=${LR}"
CMD="${CMD} optimizer.min_lr=${MIN_LR}"
CMD="${CMD} scheduler.lr_warmup_iters=${LR_WARMUP_ITERS}"
CMD="${CMD} checkpoint.save=${SAVE_DIR}"
CMD="${CMD} dataset.source.dataset_name=${DATASET_NAME}"
CMD="${CMD} dataset.seq_length=${SEQ_LENGTH}"
if [ -z "$CONTAINER_IMAGE" ]; then
    echo "ERROR: CONTAINER_IMAGE must be set. Please specify a valid container image."
    exit 1
fi
SRUN_CMD="srun --mpi=pmix --container-image=${CONTAINER_IMAGE} --no-container-mount-home"
if [ -n "$CONTAINER_MOUNTS" ]; then
    SRUN_CMD="${SRUN_CMD} --container-mounts=${CONTAINER_MOUNTS}"
fi
$SRUN_CMD bash -c "$CMD"
