#!/bin/bash
#SBATCH --job-name=ddp-srun
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=8
#SBATCH --time=04:00:00
#SBATCH --partition=batch
#SBATCH --account=proj-42
#SBATCH --exclusive

# one rank per GPU; the program reads SLURM_PROCID itself
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
export MASTER_PORT=29500
export OMP_NUM_THREADS=8

srun python train.py --config configs/base.yaml --steps 1000
