#!/bin/bash
# expect: JC104
# expect-not: JC107 JC106
# import: nodes=8 gpus_per_node=4 mode=torchrun program=pretrain_gpt.py
# pattern seen in: swiss-ai/Megatron-LM submit-llama3-300m.sh (commit 0b6e13f5e7f7)

#SBATCH --account=a-a06
#SBATCH --time=5:00:00
#SBATCH --job-name=llama-300m
#SBATCH --output=/iopsstor/scratch/cscs/%u/Megatron-LM/logs/slurm/training/%x-%j.out
#SBATCH --error=/iopsstor/scratch/cscs/%u/Megatron-LM/logs/slurm/training/%x-%j.err
#SBATCH --nodes=8
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=288
#SBATCH --mem=460000
#SBATCH --environment=/capstor/store/cscs/swissai/a06/containers/NGC-PyTorch/ngc_pt_jan.toml	# Vanilla 25.01 PyTorch NGC Image 
#SBATCH --no-requeue	# Prevent Slurm to requeue the job if the execution crashes (e.g. node failure) so we don't loose the logs

DATASETS="/capstor/store/cscs/swissai/a06/datasets_tokenized/nemo/sai/swissai-fineweb-edu-filterrobots"

GBS=256
SEQ_LEN=4096
TRAINING_STEPS= 200 #8000 changed by dhia to test the slack bot

MOCK_DATA=false # Set to `true` to use mock data

MEGATRON_LM_DIR=/iopsstor/scratch/cscs/$USER/Megatron-LM
DATASET_CACHE_DIR=/iopsstor/scratch/cscs/$USER/datasets/cache

PROJECT_NAME=llama_300m_baseline
EXP_NAME=llama3-300m-${SLURM_NNODES}n-${SEQ_LEN}sl-${GBS}gbsz
PROJECT_DIR=$MEGATRON_LM_DIR/logs/Meg-Runs/$PROJECT_NAME

EXP_DIR=$PROJECT_DIR/$EXP_NAME
CKPT_DIR=$EXP_DIR/checkpoints
DEBUG_DIR=$EXP_DIR/debug/$SLURM_JOB_ID
GPU_MEM_LOGGING=$DEBUG_DIR/memory_logging.txt

mkdir -p $CKPT_DIR
mkdir -p $DEBUG_DIR

cd $MEGATRON_LM_DIR
export PYTHONPATH=$MEGATRON_LM_DIR:$PYTHONPATH
export TORCH_NCCL_ASYNC_ERROR_HANDLING=1
export CUDA_DEVICE_MAX_CONNECTIONS=1
MASTER_ADDR=$(hostname)
MASTER_PORT=25678 #!JC104
export OMP_NUM_THREADS=$((SLURM_CPUS_PER_TASK/SLURM_GPUS_PER_NODE))

srun -l bash -c 'echo $(hostname) $(nvidia-smi | grep -o "|\\s*[0-9]*MiB")' > $GPU_MEM_LOGGING

NETWORK_SIZE_ARGS=(
	--num-layers 6
	--hidden-size 2048
	--swiglu
)

TRAINING_ARGS=(
	--train-iters $TRAINING_STEPS
)

DATA_ARGS=(
	--split 100,0,0
	--seq-length $SEQ_LEN
	--num-workers 2
)

if [ "$MOCK_DATA" = true ]; then
  DATA_ARGS="${DATA_ARGS[@]} --mock-data"
else
  DATA_ARGS="${DATA_ARGS[@]} --data-path $(python3 $MEGATRON_LM_DIR/scripts/tools/create_data_config.py -p $DATASETS) --data-cache-path $DATASET_CACHE_DIR"
fi

TORCHRUN_ARGS=(
    --nproc-per-node $SLURM_GPUS_PER_NODE
	--nnodes $SLURM_NNODES
	--rdzv_endpoint $MASTER_ADDR:$MASTER_PORT #!JC104
	--rdzv_backend c10d
)

CMD_PREFIX="numactl --membind=0-3"

TRAINING_CMD="torchrun ${TORCHRUN_ARGS[@]} $MEGATRON_LM_DIR/pretrain_gpt.py \
    ${NETWORK_SIZE_ARGS[@]} \
    ${TRAINING_ARGS[@]} \
    $DATA_ARGS"

srun -lu --cpus-per-task $SLURM_CPUS_PER_TASK --wait 60 bash -c "$CMD_PREFIX $TRAINING_CMD"