#!/bin/bash
# expect: clean
# expect-not: JC805 JC102 JC101
# import: nodes=1 gpus_per_node=4 mode=torchrun program=src/main.py
# pattern seen in: Taobyte/dsl-as24-challenge-3 slurm_accelerate.sh (commit 5490b7a0e907)

#SBATCH --job-name=accelerate_job
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=4
#SBATCH --mem-per-cpu=40G
#SBATCH --gpus=4
#SBATCH --gres=gpumem:24G
#SBATCH --time=04:00:00
#SBATCH --output=job_%j.out
#SBATCH --error=job_%j.err


# Activate your conda environment (if using)
source /cluster/home/ckeusch/miniconda3/bin/activate
conda activate CDiffSD

# Run the command
accelerate launch --multi-gpu --mixed_precision=fp16 src/main.py