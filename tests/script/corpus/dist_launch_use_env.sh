#!/bin/bash
# Pattern: older repositories' `python -m torch.distributed.launch --use_env` on one node.
#SBATCH --nodes=1
#SBATCH --gres=gpu:4
#SBATCH --cpus-per-task=32
#SBATCH --time=2-00:00:00

python -m torch.distributed.launch --nproc_per_node=4 --use_env main.py --model deit_small --batch-size 256
