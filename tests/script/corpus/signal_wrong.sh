#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --time=06:00:00
#SBATCH --signal=B:TERM@180
#SBATCH --requeue

trap 'echo "checkpoint requested"; scontrol requeue "$SLURM_JOB_ID"' TERM

srun python train.py --resume latest
