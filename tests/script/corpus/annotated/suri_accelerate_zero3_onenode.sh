#!/bin/bash
# expect: clean
# expect-not: JC805
# import: nodes=1 gpus_per_node=4 mode=torchrun program=run_sft.py
# pattern seen in: chtmp223/suri ft/sft/run_sft.sh (commit 0a8f0cabb15a)
#SBATCH --job-name=sft
#SBATCH --partition=partition
#SBATCH --no-requeue
#SBATCH --gres=gpu:4
#SBATCH --nodes=1
#SBATCH --constraint=a100-80g
#SBATCH --mem=80GB
#SBATCH --time=6:00:00
#SBATCH -d singleton
#SBATCH --open-mode truncate
#SBATCH -o sft.out
#SBATCH --mail-type=end 
#SBATCH --mail-user=<mail>

# Loading modules
module load cuda/11.8.0 python/3.11.0

# Running sft
ACCELERATE_LOG_LEVEL=info accelerate launch --config_file ../deepspeed_zero3.yaml run_sft.py sft.yaml