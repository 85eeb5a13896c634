#!/bin/bash
# expect: JC601 JC104
# expect-not: JC101 JC805 JC108 JC106
# import: nodes=16 gpus_per_node=8 mode=srun program=train.py
# pattern seen in: facebookresearch/SIEVE scripts/slurm_train.sh (commit e926a51ae76b)

# Copyright (c) Meta Platforms, Inc. and affiliates.

# This source code is licensed under the MIT license found in the
# LICENSE file in the root directory of this source tree.

# Change these!
#SBATCH --partition=devlab,learnlab,learnfair,scavenge
#SBATCH --job-name=train_and_eval
#SBATCH --time=32:00:00
#SBATCH --nodes=16
#SBATCH --gres=gpu:8
#SBATCH --ntasks-per-node=8
#SBATCH --cpus-per-task=10
#SBATCH --constraint=volta32gb
#SBATCH --output=slurm_logs/%x_%j.out
#SBATCH --error=slurm_logs/%x_%j.err
#SBATCH --open-mode=append
#SBATCH --requeue #!JC601
#SBATCH --mem-per-gpu=100G

# Example usage:
# Run using conda and make sure to have the conda env activated when running sbatch.
source /private/home/${USER}/.bashrc
source activate sieve

module load openmpi
export PYTHONFAULTHANDLER=1
export CUDA_LAUNCH_BLOCKING=0
export HOSTNAMES=`scontrol show hostnames "$SLURM_JOB_NODELIST"`
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=12802 #!JC104
export COUNT_NODE=`scontrol show hostnames "$SLURM_JOB_NODELIST" | wc -l`
echo go $COUNT_NODE
echo $HOSTNAMES
echo "$PWD" 



OUTPUT_DIR="training_output/"
NUM_CHECKPOINTS=8
PRECISION="amp"  # You can also use amp_bfloat16 if supported by your hardware.

# Extract parent directory without the full path
parent_dir=$(basename "$(dirname "$TRIE_FILE")")
echo "Parent directory: $parent_dir"
# Extract filename without extension
filename_without_extension="${TRIE_FILE##*/}"
filename_without_extension="${filename_without_extension%.*}"
echo "Filename without extension: $filename_without_extension"
# experiment identifier
EXP_NAME="${parent_dir}_${filename_without_extension}"
echo "Experiment name: $EXP_NAME"

EXP_NAME="${EXP_NAME}_seed${SEED}_sc${scale}"



# Change comment as needed
srun  python train.py \
    --scale ${SCALE} \
    --data_dir ${DATA_PATH} \
    --output_dir ${OUTPUT_DIR} \
    --exp_name ${EXP_NAME} \
    --precision ${PRECISION} \
    --num_checkpoints ${NUM_CHECKPOINTS} \
    --seed ${SEED} \
    --dataset_resampled \
    --accum_freq 1 \
    --subset_file ${TRIE_FILE}


