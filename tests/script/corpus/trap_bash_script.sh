#!/bin/bash
# Pattern: a requeue trap in front of a wrapper script run in the foreground.
#SBATCH --nodes=1
#SBATCH --gpus-per-node=4
#SBATCH --time=04:00:00
#SBATCH --signal=B:USR2@120
#SBATCH --requeue

SCRIPT=./run_training.sh
trap 'scontrol requeue "$SLURM_JOB_ID"' USR2
bash "$SCRIPT"
