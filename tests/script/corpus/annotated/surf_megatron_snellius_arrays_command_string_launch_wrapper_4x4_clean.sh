#!/bin/bash
# expect: clean
# expect-not: JC104 JC805 JC101 JC106 JC806 JC108
# import: nodes=4 gpus_per_node=4 mode=srun program=pretrain_gpt.py
# pattern seen in: SURF-ML/Megatron-LM-Snellius 3_train/train-gpt.job (commit 0395fa25f7aa)
#SBATCH --job-name=train-gpt
#SBATCH --cpus-per-task=16
#SBATCH --ntasks-per-node=4
#SBATCH --nodes=4
#SBATCH --partition=gpu_h100
#SBATCH --time=1:00:00
#SBATCH --exclusive
#SBATCH --gpus-per-node=4
#SBATCH --output logs/%j.out
#SBATCH --error logs/%j.err

if [ -z $SLURM_JOB_ID ]; then
    mkdir -p logs
    sbatch "$0" "$@"
    exit
fi

export PROJECT_SPACE=

if [ -z "$PROJECT_SPACE" ]; then
  echo "Error: PROJECT_SPACE is not set. Please set the project space path in this script. Example: export PROJECT_SPACE=/projects/0/prjsXXXX"
  exit 1
fi

CONTAINER=$PROJECT_SPACE/containers/megatron-torch-2.7-nvcr.25-10.sif
module purge
module load 2024 NCCL/2.22.3-GCCcore-13.3.0-CUDA-12.6.0
BIND_DIRS="/scratch-shared/$USER,$PROJECT_SPACE"
BASE_DIR="$PWD" #$SLURM_SUBMIT_DIR"
OUTPUT_DIR="/scratch-shared/$USER/Megatron-LM/output"
CHECKPOINT_PATH="$OUTPUT_DIR/checkpoints"
mkdir -p "$OUTPUT_DIR" "$CHECKPOINT_PATH"    # This needs to exist
LAUNCH_SCRIPT="launch.sh"
export CUDA_DEVICE_MAX_CONNECTIONS=1
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=9999
export WORLD_SIZE=${SLURM_NTASKS:-$(( ${SLURM_GPUS_PER_NODE:-1} * ${SLURM_NNODES:-2} ))} # Note: only valid if ntasks==ngpus
export TRITON_CACHE_DIR=/scratch-shared/$USER/triton
export HF_HOME=/scratch-shared/$USER/huggingface
DATA_PATH="$PROJECT_SPACE/datasets/FineWeb/fineweb-10BT_text_document" # prefix of the .idx and .bin files
TOKENIZER_MODEL="gpt2"
PIPELINE_MODEL_PARALLEL_SIZE=1
TENSOR_MODEL_PARALLEL_SIZE=1
CONTEXT_PARALLEL_SIZE=1
NUM_LAYERS=24
HIDDEN_SIZE=2048
NUM_ATTENTION_HEADS=32

MODEL_ARGS=(
    --num-layers $NUM_LAYERS
    --hidden-size $HIDDEN_SIZE
    --num-attention-heads $NUM_ATTENTION_HEADS
)

DATA_ARGS=(
    --data-path "$DATA_PATH"
    --tokenizer-type HuggingFaceTokenizer
    --tokenizer-model "$TOKENIZER_MODEL"
)

    PARALLEL_ARGS=(
	--tensor-model-parallel-size $TENSOR_MODEL_PARALLEL_SIZE
	--pipeline-model-parallel-size $PIPELINE_MODEL_PARALLEL_SIZE
	--context-parallel-size $CONTEXT_PARALLEL_SIZE
	--sequence-parallel
	--use-distributed-optimizer
    )

COMMAND=" \
    ../Megatron-LM/pretrain_gpt.py \
    "${MODEL_ARGS[@]}" \
    "${PARALLEL_ARGS[@]}" \
    "${DATA_ARGS[@]}" \
"

srun \
    --label \
    apptainer exec \
    --nv \
    --no-home \
    -B "$BASE_DIR" \
    -B "$BIND_DIRS" \
    "$CONTAINER" \
    "$LAUNCH_SCRIPT" \
    $COMMAND
