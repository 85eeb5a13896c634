#!/bin/bash
# Pattern: diagnostics printed by the batch shell (university HPC guides).
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --time=01:00:00

echo "batch shell on node $SLURM_NODEID ($(hostname)), procid $SLURM_PROCID"
printf 'visible: %s\n' "$CUDA_VISIBLE_DEVICES"
srun python train.py
