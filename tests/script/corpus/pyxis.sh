#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=08:00:00
#SBATCH --exclusive

srun --container-image=/lustre/images/pytorch-24.05.sqsh \
     --container-mounts=/lustre:/lustre \
     --container-workdir=/lustre/code \
     --no-container-mount-home \
     python train.py --data /lustre/data
