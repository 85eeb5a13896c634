#!/bin/bash
# expect: JC601 JC104 JC106
# import: nodes=4 gpus_per_node=1 mode=srun program=train.py
# pattern seen in: PranavSitaraman/Lossless-Neural-Compression train.sh (commit 6716fa3)
#! /bin/bash
#SBATCH --requeue #!JC601
#SBATCH --job-name=train
#SBATCH --output=train.out
#SBATCH --error=train.err

#SBATCH --nodes=4
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=4
#SBATCH --gres=gpu:nvidia_h100_80gb_hbm3:1

#SBATCH --time=01:00:00
#SBATCH --mem=0
#SBATCH --partition=kempner_h100
#SBATCH --account=kempner_sham_lab

module load python cuda cudnn
source .venv/bin/activate

export MASTER_ADDR=$(scontrol show hostnames | head -n 1)
export MASTER_PORT=39591 #!JC104
export RANK=$SLURM_PROCID #!JC106
export LOCAL_RANK=$SLURM_LOCALID #!JC106
export WORLD_SIZE=$(($SLURM_NNODES * $SLURM_NTASKS_PER_NODE))

srun --ntasks-per-node=$SLURM_NTASKS_PER_NODE \
     python -u train.py
