#!/bin/bash
# Pattern: the Lightning docs' SLURM page, with the Trainer's num_nodes left at an older size.
#SBATCH --nodes=2
#SBATCH --gres=gpu:4
#SBATCH --ntasks-per-node=4
#SBATCH --time=1-00:00:00

srun python train.py --trainer.num_nodes 4 --trainer.devices=4 --trainer.strategy ddp
