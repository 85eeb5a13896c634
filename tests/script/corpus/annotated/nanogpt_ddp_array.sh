#!/bin/bash
# expect: JC106 JC107 JC108
# import: nodes=2 gpus_per_node=2 mode=srun program=ddp.py
# pattern seen in: jkbhagatio/nanoGPT ddp.slurm (commit 09ac5543862f)
#SBATCH --job-name=ddp-training
#SBATCH --partition=a100
#SBATCH --nodes=2 #!JC108
#SBATCH --gres=gpu:2  # 2 gpus per node
#SBATCH --ntasks=4    # 4 processes per job
#SBATCH --array=0-26%3  # 27 jobs, max 3 in parallel (27 unique models, given hyperparemeter configurations)
#SBATCH --output=~/nanogpt_ddp_runs/job_%j.out #!JC107
#SBATCH --error=~/nanogpt_ddp_runs/job_%j.err #!JC107

# Set first node as the master
MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1)

# Activate env
source /nfs/nhome/live/jbhagat/mambaforge/etc/profile.d/mamba.sh
mamba activate nanogpt

# Run ddp
srun python ddp.py \
    --config-idx="$SLURM_ARRAY_TASK_ID" \
    --world-size="$SLURM_NTASKS" \
    --rank="$SLURM_PROCID" \
    --master-addr="$MASTER_ADDR" #!JC106
