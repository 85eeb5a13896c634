#!/bin/bash
# expect: clean
# expect-not: JC106 JC104 JC701 JC702
# import: nodes=2 gpus_per_node=2 mode=torchrun program=main.py
# pattern seen in: mila-iqia/mila-docs docs/examples/distributed/LLM_training/job.sh (commit 07da0545ca15)
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=12
#SBATCH --gpus-per-task=a100:2
#SBATCH --mem=512G
#SBATCH --time=01:00:00
#SBATCH --job-name=llm_training
#SBATCH --output=logs/slurm-%j.out

set -e  # exit on error.

# Echo time and hostname into log
echo "Date:     $(date)"
echo "Hostname: $(hostname)"

module --quiet purge

ACCELERATE_CONFIG=${ACCELERATE_CONFIG:="configs/ds_level2.yaml"}
MODEL_NAME=${MODEL_NAME:="facebook/opt-2.7b"}
PER_GPU_BATCH_SIZE=${PER_GPU_BATCH_SIZE:="1"}
OUTPUT_DIR=${OUTPUT_DIR:=$SCRATCH/logs/llm_training/$SLURM_JOB_ID}

# 'setup_env.sh' should be called before launching the job to create the
# environment and install packages only once in an environment where internet is
# accessible
source setup_env.sh

set -x  # print commands.


# Get a unique port for this job based on the job ID
export MASTER_PORT=${MASTER_PORT:=$(expr 10000 + $(echo -n $SLURM_JOBID | tail -c 4))}
export MASTER_ADDR=${MASTER_ADDR:=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)}
# NOTE: $SLURM_GPUS_ON_NODE is the number of GPUS on the *current* node, so this assumes that each
# node has the same # of allocated GPUS.
export WORLD_SIZE=${WORLD_SIZE:=$(($SLURM_JOB_NUM_NODES * $SLURM_GPUS_ON_NODE))}

# TODO: Make sure this works correctly even with odd numbers of cpus / gpus / nodes (e.g. never zero).
CPUS_PER_GPU=${CPUS_PER_GPU:=$(($SLURM_CPUS_PER_TASK * $SLURM_NTASKS / $WORLD_SIZE))}
# NOTE: Setting this because `openmp` (called by `torch.distributed.run`, called by `accelerate launch`)
# otherwise sets it to 1, which might be bad for performance.
export OMP_NUM_THREADS=$CPUS_PER_GPU

NUM_NODES=${NUM_NODES:=$SLURM_JOB_NUM_NODES}

# Enable storing the dataset in-memory.
# mem_limit_in_bytes=$(cat /sys/fs/cgroup/memory/slurm/uid_"$(id -u)"/job_"${SLURM_JOBID}"/memory.limit_in_bytes)
# Note: Turning this on might increase performance, but invalidates the cache dir, which sucks!
# export HF_DATASETS_IN_MEMORY_MAX_SIZE=$mem_limit_in_bytes

# TODO: When `--with_tracking` is passed, the `WANDB_API_KEY` environment variable must be set.


export HF_DATASETS_CACHE=$SCRATCH/cache/huggingface/datasets
export HUGGINGFACE_HUB_CACHE=$SCRATCH/cache/huggingface/hub

srun --nodes=$SLURM_JOB_NUM_NODES --ntasks=$SLURM_JOB_NUM_NODES --ntasks-per-node=1 bash -c '\
    mkdir -p $SLURM_TMPDIR/cache/huggingface && \
    cp -r '$HF_DATASETS_CACHE' $SLURM_TMPDIR/cache/huggingface/datasets && \
    cp -r '$HUGGINGFACE_HUB_CACHE' $SLURM_TMPDIR/cache/huggingface/hub'

unset HF_DATASETS_CACHE
unset HUGGINGFACE_HUB_CACHE

# NOTE: Uses `srun` to launch `accelerate launch` on each node with the right `--machine_rank`.
export HF_DATASETS_OFFLINE=1
export HF_HUB_OFFLINE=1
srun --nodes=$SLURM_JOB_NUM_NODES --ntasks=$SLURM_JOB_NUM_NODES --ntasks-per-node=1 --output=logs/slurm-%j_%t.out \
    bash -c 'accelerate launch \
    --machine_rank=$SLURM_NODEID \
    --config_file='$ACCELERATE_CONFIG' \
    --num_cpu_threads_per_process='$CPUS_PER_GPU' \
    --main_process_ip='$MASTER_ADDR' \
    --main_process_port='$MASTER_PORT' \
    --num_processes='$WORLD_SIZE' \
    --num_machines='$NUM_NODES' \
    main.py \
    --output_dir='$OUTPUT_DIR' \
    --config_name='$MODEL_NAME' --tokenizer_name='$MODEL_NAME' \
    --dataset_name=wikitext --dataset_config_name wikitext-103-v1 \
    --per_device_train_batch_size='$PER_GPU_BATCH_SIZE' --per_device_eval_batch_size='$PER_GPU_BATCH_SIZE' \
    --max_train_steps=100 --with_tracking'
