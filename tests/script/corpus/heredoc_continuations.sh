#!/bin/bash
#SBATCH --nodes=2 \
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --time=04:00:00
#SBATCH --exclusive

cat > run.cfg <<CFG
#SBATCH --nodes=99
lr = 0.001
CFG

srun \
  python \
  train.py \
  --config run.cfg
