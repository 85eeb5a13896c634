#!/bin/bash
# Pattern: cluster guides starting PyTorch under OpenMPI's mpirun (ranks from OMPI_COMM_WORLD_*).
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gres=gpu:4
#SBATCH --time=04:00:00

module load openmpi
mpirun -np 8 --map-by ppr:4:node --bind-to none -x NCCL_DEBUG=WARN python train_ddp.py --epochs 10
