#!/bin/bash
# expect: JC104
# expect-not: JC805 JC806
# import: nodes=1 gpus_per_node=4 mode=srun program=train.py
# pattern seen in: NERSC/pytorch-examples scripts/train_perlmutter.sh (commit 91dee136f2e8)
#SBATCH -C gpu
#SBATCH --ntasks-per-node=4
#SBATCH --cpus-per-task=32
#SBATCH --gpus-per-node=4
#SBATCH --time 30
#SBATCH -J train-pm
#SBATCH -o logs/%x-%j.out

# Setup software
module load pytorch/1.11.0
export MASTER_ADDR=$(hostname)
export MASTER_PORT=29500 #!JC104

# Run the training
srun -l -u python train.py -d nccl --rank-gpu --ranks-per-node=${SLURM_NTASKS_PER_NODE} $@
