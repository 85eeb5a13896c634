#!/bin/bash
# expect: JC404
# expect-not: JC101
# import: nodes=1 gpus_per_node=0 mode=srun program=lightningTrain.py
# pattern seen in: haertelkar/Masterarbeit TrainingBatchScript.sh (commit 188e1df88866)

# SLURM SUBMIT SCRIPT
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1    
#SBATCH --cpus-per-task=10
#SBATCH --partition=defq
#SBATCH --time=165:00:00
#SBATCH -J "30ZNN"   # job name
#SBATCH --mail-user=haertelk@physik.hu-berlin.de   # email address
#SBATCH --exclusive

#SBATCH --mail-type=END
#SBATCH --mail-type=FAIL


# Debugging flags (optional)
export NCCL_DEBUG=INFO #!JC404
export PYTHONFAULTHANDLER=1

# On your cluster you might need this:
# export NCCL_SOCKET_IFNAME=^docker0,lo

# Run your training script
srun python3 -u lightningTrain.py -v 1912_1554_Z_GRU_BCEwL_30RP_PixelOut_TEST_9000E -e 9000 -m DQN -l labels_only_Dist.csv -np 30
