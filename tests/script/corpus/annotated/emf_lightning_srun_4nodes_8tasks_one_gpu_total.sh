#!/bin/bash -l
# expect: JC101
# expect-not: JC805 JC108 JC102 JC806
# import: nodes=4 gpus_per_node=- mode=srun program=train.py

# SLURM SUBMIT SCRIPT
#SBATCH --nodes=4
#SBATCH --gpus=1
#SBATCH --ntasks-per-node=8
#SBATCH --mem=0
#SBATCH --time=0-02:00:00

# Clear the environment from any previously loaded modules
module load anaconda


# on your cluster you might need these:
# set the network interface
# export NCCL_SOCKET_IFNAME=^docker0,lo

# might need the latest cuda
# module load NCCL/2.4.7-1-cuda.10.0

# run script from above
srun python3 train.py
