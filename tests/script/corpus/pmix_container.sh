#!/bin/bash
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=01:00:00
srun --mpi=pmix --container-image=nvcr.io#nvidia/pytorch:25.01-py3 python train.py
