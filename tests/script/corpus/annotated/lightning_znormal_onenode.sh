#!/bin/bash
# expect: JC404
# expect-not: JC101
# import: nodes=1 gpus_per_node=0 mode=srun program=lightningTrain.py
# pattern seen in: haertelkar/Masterarbeit ZNormallightning.sh (commit 021245de14af)

# SLURM SUBMIT SCRIPT
#SBATCH --nodes=1               
#SBATCH --ntasks-per-node=1    
#SBATCH --cpus-per-task=10
#SBATCH --time=24:00:00
#SBATCH -J "ZNN"   # job name

# Debugging flags (optional)
export NCCL_DEBUG=INFO #!JC404
export PYTHONFAULTHANDLER=1

# On your cluster you might need this:
# export NCCL_SOCKET_IFNAME=^docker0,lo

# Run your training script
srun python3 lightningTrain.py -v OneFileAllPosFixNewResults -e 300 -m ormal 
