#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=04:00:00
#SBATCH --exclusive

export CUDA_DEVICE_MAX_CONNECTIONS=many
export NCCL_SOCKET_IFNAME=ib0
export GLOO_SOCKET_IFNAME=eth0
export NCCL_DEBUG=INFO
export NCCL_IB_DISABLE=1
export NCCL_IB_HCAA=mlx5_0

srun python train.py
