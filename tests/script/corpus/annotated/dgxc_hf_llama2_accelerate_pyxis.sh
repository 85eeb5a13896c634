#!/bin/bash
# expect: clean
# expect-not: JC106 JC104
# import: nodes=1 gpus_per_node=8 mode=torchrun program=train.py
# pattern seen in: NVIDIA/dgxc-benchmarking hf-llama2/launch.sh (commit 143b90dd91f9)

# SPDX-FileCopyrightText: Copyright (c) 2024 NVIDIA CORPORATION & AFFILIATES. All rights reserved.
# SPDX-License-Identifier: Apache-2.0


#SBATCH --exclusive
#SBATCH --dependency=singleton
#SBATCH --mem=0
#SBATCH --ntasks-per-node=1
#SBATCH --time=2:00:00


# bash strict mode: http://redsymbol.net/articles/unofficial-bash-strict-mode/
set -eu -o pipefail

export FRAMEWORK=hf
export MODEL=llama2
export MODEL_SIZE=70b
export GSW_VERSION=25.01
export FW_VERSION=24.02

export IMAGE=$STAGE_PATH/nvidia+pytorch+${FW_VERSION}.sqsh

# Workload requires 1 task per node during launch.
export NTASKS_PER_NODE=${RUN_CONF_GPU_PER_NODE:-8}
# Only BF16 supported.
export DTYPE=bf16

export JOB_TOTAL_GPUS=${SBATCH_GPUS:-$(( ${SLURM_JOB_NUM_NODES} * ${NTASKS_PER_NODE} ))}

export RESULT_DIR=$STAGE_PATH/results/$GSW_VERSION/$DTYPE/$MODEL_SIZE/$JOB_TOTAL_GPUS
export RESULT_FILES_NAME=log-${FRAMEWORK}_${MODEL}_${MODEL_SIZE}_${JOB_TOTAL_GPUS}
# ! breaking convention ! - no gsw specific container.

export MODEL_PATH=$STAGE_PATH/Llama-2-70b-hf
export DATASET_PATH=$STAGE_PATH/ultrachat_200k/data

mkdir -p $RESULT_DIR

# Workload configuration environment variables
MASTER_PORT=29500
export WANDB_MODE=offline
export HF_HOME=$STAGE_PATH/hf_home
mkdir -p $HF_HOME
export HF_DATASETS_CACHE=$HF_HOME
export TORCH_HOME=$HF_HOME
export WANDB_CACHE_DIR=$HF_HOME
export PYTHONPATH=$STAGE_PATH/DHS-LLM-Workshop/chat_assistant/sft/training

INSTALLER="cd $STAGE_PATH/DHS-LLM-Workshop/chat_assistant/sft/training; pip install -r $STAGE_PATH/requirements.txt;"

LAUNCHER="accelerate launch \
    --config_file $STAGE_PATH/DHS-LLM-Workshop/chat_assistant/sft/training/configs/fsdp_config.yaml \
    --main_process_ip \${SLURM_LAUNCH_NODE_IPADDR} \
    --main_process_port $MASTER_PORT \
    --machine_rank \$SLURM_PROCID \
    --num_processes $JOB_TOTAL_GPUS \
    --num_machines $SLURM_JOB_NUM_NODES \
    "

PROGRAM="\
$STAGE_PATH/DHS-LLM-Workshop/chat_assistant/sft/training/train.py \
--seed 100 \
--model_name_or_path "$MODEL_PATH" \
--dataset_name "$DATASET_PATH" \
--num_train_epochs 1 \
--output_dir "Llama-2-70b-sft-fsdp" \
--per_device_train_batch_size 8 \
--per_device_eval_batch_size 8 \
--gradient_accumulation_steps 4 \
--use_4bit_quantization False
"

# SRUN_OUTPUT and SRUN_ERROR are Slurm environment variables to control output/error file locations.
export SLURM_MPI_TYPE=${SLURM_MPI_TYPE:-"pmix"}
export SRUN_OUTPUT=${SRUN_OUTPUT-${RESULT_DIR}/${RESULT_FILES_NAME}_%j.out}
export SRUN_ERROR=${SRUN_ERROR-${RESULT_DIR}/${RESULT_FILES_NAME}_%j.err}

srun \
  --container-image="$IMAGE" \
  --container-mounts="$RESULT_DIR,$STAGE_PATH" \
  --container-writable \
  --container-env=PYTHONPATH,WANDB_CACHE_DIR,HF_HOME,HF_DATASETS_CACHE,TORCH_HOME,WANDB_MODE \
  --no-container-mount-home bash -c "$INSTALLER $LAUNCHER $PROGRAM"
