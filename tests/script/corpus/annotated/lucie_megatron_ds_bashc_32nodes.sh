#!/bin/bash
# expect: JC104
# expect-not: JC106 JC102 JC805 JC108
# import: nodes=32 gpus_per_node=4 mode=torchrun program=pretrain_gpt.py
# pattern seen in: OpenLLM-France/Lucie-Training training/slurm/4_instruction.slurm (commit c7ffbdd30f4e)
#SBATCH --nodes=32
#SBATCH --ntasks-per-node=1          # crucial - only 1 task per dist per node!
#SBATCH --cpus-per-task=96           # number of cores per tasks
#SBATCH --hint=nomultithread         # we get physical cores not logical
#SBATCH --account=fwx@h100           # project
#SBATCH --constraint=h100            # H100 nodes
#SBATCH --gres=gpu:4                 # number of GPUs per node (max 4 for Jean-Zay H100)
#SBATCH --time=20:00:00              # maximum execution time (HH:MM:SS)
#SBATCH --output=%x-%j.out           # output file name
#SBATCH --job-name=instruction
#SBATCH --mail-type=BEGIN,END,FAIL

set -x -e
MIX_VERSION=$1
# Load env and variables
source ../set_env.sh
# Input folder (foundation model)
BASE_DIR=$OUTPUT_DIR/3_annealing/universal_checkpoints
# Output folders
OUTPUT_DIR_INSTRUCTION=$OUTPUT_DIR/4_instruction/mix_$MIX_VERSION
SAVE_CHECKPOINT_PATH=$OUTPUT_DIR_INSTRUCTION/checkpoints
TENSORBOARD_PATH=$OUTPUT_DIR_INSTRUCTION/tensorboard
LOGS_PATH=$OUTPUT_DIR_INSTRUCTION/logs
mkdir -p $LOGS_PATH
export TORCH_CUDA_ARCH_LIST="9.0+PTX" 
export OMP_NUM_THREADS=1
# do not remove or the training will hang and nodes will be lost w/o this workaround
export CUDA_LAUNCH_BLOCKING=1
# force crashing on nccl issues like hanging broadcast
export TORCH_NCCL_ASYNC_ERROR_HANDLING=1

export HF_DATASETS_OFFLINE=1
export TRANSFORMERS_OFFLINE=1
cd $MEGATRON_DEEPSPEED_REPO # "megatron" will be in PYTHONPATH (current folder)
TOKENIZER=$TOKENS_DATA_DIR/tokenizer
# so processes know who to talk to
MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1)
MASTER_PORT=6000 #!JC104

GPUS_PER_NODE=4
# ----- model
SEQ_LENGTH=4096 
GLOBAL_BATCH_SIZE=1024
MICRO_BATCH_SIZE=8
TP=4
PP=4
ZERO_STAGE=1
config_json="$LOGS_PATH/ds_config.json"
DEEPSPEED_ARGS=" \
    --deepspeed \
    --deepspeed_config ${config_json} \
    --zero-stage ${ZERO_STAGE} \
    --recompute-granularity full \
    --recompute-method uniform \
    "
DISTRIBUTED_ARGS=" \
       --nproc_per_node $GPUS_PER_NODE \
       --nnodes $SLURM_NNODES \
       --node_rank \$SLURM_PROCID \
       --rdzv_endpoint $MASTER_ADDR:$MASTER_PORT \
       --rdzv_backend c10d \
       --max_restarts 0 \
       --tee 3 \
       "

export RUN=" torchrun $DISTRIBUTED_ARGS \
       `pwd`/pretrain_gpt.py \
       --tensor-model-parallel-size $TP \
       --pipeline-model-parallel-size $PP \
       --micro-batch-size $MICRO_BATCH_SIZE \
       --global-batch-size $GLOBAL_BATCH_SIZE \
       --load $BASE_DIR \
       --save $SAVE_CHECKPOINT_PATH \
       $DEEPSPEED_ARGS \
       --universal-checkpoint \
       --finetune \
       "
SRUN_ARGS=" \
    --wait=60 \
    --kill-on-bad-exit=1 \
    "

clear; srun $SRUN_ARGS --jobid $SLURM_JOBID bash -c "$RUN" 2>&1 | tee -a $LOGS_PATH/main_log.txt
echo "END TIME: $(date)"