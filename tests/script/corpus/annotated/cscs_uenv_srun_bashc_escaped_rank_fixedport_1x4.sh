#!/bin/bash
# expect: JC104
# expect-not: JC106 JC101 JC406 JC407
# import: nodes=1 gpus_per_node=4 mode=srun program=myscript.py
# pattern seen in: eth-cscs/cscs-docs docs/software/ml/pytorch.md (commit cfe173338aa2)
#SBATCH --job-name=myjob
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --cpus-per-task=72
#SBATCH --time=00:30:00
#SBATCH --uenv=pytorch/v2.6.0:/user-environment
#SBATCH --view=default

#################################
# OpenMP environment variables #
#################################
export OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK  # (1)!

#################################
# PyTorch environment variables #
#################################
export MASTER_ADDR=$(hostname) # (2)!
export MASTER_PORT=6000 #!JC104
export WORLD_SIZE=$SLURM_NPROCS
export TORCH_NCCL_ASYNC_ERROR_HANDLING=1 # (3)!

#################################
# MPICH environment variables   #
#################################
export MPICH_GPU_SUPPORT_ENABLED=0 # (4)!

#################################
# CUDA environment variables    #
#################################
export CUDA_CACHE_DISABLE=1 # (5)!

############################################
# NCCL and Fabric environment variables    #
############################################
export NCCL_NET="AWS Libfabric" # (6)!
export NCCL_NET_GDR_LEVEL=PHB
export NCCL_CROSS_NIC=1
export FI_CXI_DISABLE_HOST_REGISTER=1
export FI_MR_CACHE_MONITOR=userfaultfd
export FI_CXI_DEFAULT_CQ_SIZE=131072
export FI_CXI_DEFAULT_TX_SIZE=32768
export FI_CXI_RX_MATCH_MODE=software

# (7)!
# (8)!
srun bash -c "
    export RANK=\$SLURM_PROCID
    export LOCAL_RANK=\$SLURM_LOCALID
    . ./my-venv/bin/activate
    python myscript.py
"
