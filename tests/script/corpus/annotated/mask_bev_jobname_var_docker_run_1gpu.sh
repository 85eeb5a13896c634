#!/bin/bash
# expect: JC107
# expect-not: JC805 JC108
# import: nodes=1 gpus_per_node=1 mode=srun program=train_mask_bev.py
# pattern seen in: norlab-ulaval/mask_bev scripts/slurm_train.sh (commit 4944423)
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=16
#SBATCH --mem=12G
#SBATCH --time=4-00:00
#SBATCH --job-name=$NAME #!JC107
#SBATCH --output=%x-%j.out

# Variables
# NAME: name of the job
# CONFIG: path to the config file

cd ~/mask_bev
docker build -t mask_bev .
docker run --gpus $CUDA_VISIBLE_DEVICES --rm \
  --mount type=bind,source="$(pwd)",target=/app/ \
  --mount type=bind,source="$(pwd)"/data/SemanticKITTI,target=/app/data/SemanticKITTI \
  --mount type=bind,source="$(pwd)"/data/KITTI,target=/app/data/KITTI \
  --mount type=bind,source="$(pwd)"/data/Waymo,target=/app/data/Waymo \
  mask_bev python3.10 train_mask_bev.py --config $CONFIG
