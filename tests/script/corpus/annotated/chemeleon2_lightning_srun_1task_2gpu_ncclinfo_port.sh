#!/bin/bash
# expect: JC404 JC104
# expect-not: JC805 JC108
# import: nodes=1 gpus_per_node=2 mode=srun program=src/train_vae.py
# pattern seen in: hspark1212/chemeleon2 src/runs/run1-works.sh (commit 9fbe2f8)
#SBATCH --job-name=Torch_Distributed
#SBATCH --nodes=1
#SBATCH --gpus=2
#SBATCH --ntasks-per-node=2
#SBATCH --time=01:00:00
# SBATCH --array=0-7%1


source ~/.bashrc
mamba activate chem

module load brics/nccl
module load brics/aws-ofi-nccl

export NCCL_DEBUG=INFO #!JC404
export NCCL_DEBUG_SUBSYS=ALL
export HYDRA_FULL_ERROR=1


export MASTER_ADDR=$(hostname -s)
export MASTER_PORT=29500 #!JC104

srun -N1 --ntasks=1 --gpus=2 nvidia-smi -L

srun -N 1 --ntasks=1 \
    --gpus=2 \
    python src/train_vae.py experiment=mp_40/vae_dng.yaml paths.data_dir=/home/u5bd/lleon.u5bd/chemeleon/data trainer.devices=2 


