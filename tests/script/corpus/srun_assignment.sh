#!/bin/bash
# Source: the form of a public HRM pretraining job (`srun OMP_NUM_THREADS=96 torchrun …`), shortened
#SBATCH --job-name=hrm
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:1
#SBATCH --cpus-per-task=96
#SBATCH --time=24:00:00

srun OMP_NUM_THREADS=96 torchrun --nproc-per-node 1 pretrain.py --epochs 20000 --lr 1e-4
