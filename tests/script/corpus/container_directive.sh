#!/bin/bash
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=01:00:00
#SBATCH --container-image=nvcr.io#nvidia/pytorch:24.05-py3

srun python train.py
