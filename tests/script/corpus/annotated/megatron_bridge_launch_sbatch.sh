#!/bin/bash
# expect: JC102
# expect-not: JC104
# import: nodes=2 gpus_per_node=8 mode=torchrun program=run_recipe.py
# pattern seen in: NVIDIA-NeMo/Megatron-Bridge scripts/training/launch_with_sbatch.sh (commit 067f987df03b)

#SBATCH --job-name=megatron-bridge-train
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8 #!JC102
#SBATCH --gpus-per-node=8
#SBATCH --time=04:00:00
#SBATCH --partition=gpu
#SBATCH --account=my_account
#SBATCH --output=logs/train_%j.out
#SBATCH --error=logs/train_%j.err
#SBATCH --exclusive



TRAINING_SCRIPT="run_recipe.py"

RECIPE="llama32_1b_pretrain_config"

STEP_TYPE="gpt"

CLI_OVERRIDES=""

CONTAINER_IMAGE=""

CONTAINER_MOUNTS=""


export TORCH_NCCL_AVOID_RECORD_STREAMS=1
export NCCL_NVLS_ENABLE=0





SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
SCRIPT_PATH="${SCRIPT_DIR}/${TRAINING_SCRIPT}"

if [ ! -f "$SCRIPT_PATH" ]; then
    echo "ERROR: Training script not found: $SCRIPT_PATH"
    exit 1
fi

CMD="torchrun"
CMD="$CMD --nproc_per_node=$SLURM_GPUS_PER_NODE"
CMD="$CMD --nnodes=$SLURM_JOB_NUM_NODES"
CMD="$CMD --node_rank=\$SLURM_PROCID"
CMD="$CMD --master_addr=\$(scontrol show hostname \$SLURM_NODELIST | head -n1)"
CMD="$CMD --master_port=29500"
CMD="$CMD $SCRIPT_PATH"
CMD="$CMD --recipe $RECIPE"
CMD="$CMD --step $STEP_TYPE"

if [ -n "$CLI_OVERRIDES" ]; then
    CMD="$CMD $CLI_OVERRIDES"
fi

echo "Executing: $CMD"
echo "======================================"

if [ -z "$CONTAINER_IMAGE" ]; then
    echo "ERROR: CONTAINER_IMAGE must be set. Please use a valid container image."
    exit 1
fi

SRUN_CMD="srun --mpi=pmix --container-image=$CONTAINER_IMAGE"

if [ -n "$CONTAINER_MOUNTS" ]; then
    for mount in $CONTAINER_MOUNTS; do
        SRUN_CMD="$SRUN_CMD --container-mounts=$mount"
    done
fi

$SRUN_CMD bash -c "$CMD" #!JC102

echo "======================================"
echo "Job completed"
echo "======================================"

