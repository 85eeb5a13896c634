#!/bin/csh
#SBATCH --nodes=1
#SBATCH --time=01:00:00
setenv MASTER_PORT 29500
srun python train.py
