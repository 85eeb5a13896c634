#!/bin/bash
# Pattern: the Lightning docs' SLURM page (one task per GPU, srun python, num_nodes and devices
# passed to the Trainer in the arguments).
#SBATCH --nodes=2
#SBATCH --gres=gpu:4
#SBATCH --ntasks-per-node=4
#SBATCH --mem=0
#SBATCH --time=0-02:00:00

source activate lightning
srun python train.py --trainer.num_nodes 2 --trainer.devices 4 --trainer.strategy ddp
