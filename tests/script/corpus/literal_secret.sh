#!/bin/bash
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=04:00:00

export HF_TOKEN=hf_abcdefghijklmnopqrstuvwxyz0123456789
srun python train.py
