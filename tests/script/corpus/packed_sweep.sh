#!/bin/bash
# Pattern: cluster guides packing independent single-GPU runs into one allocation.
#SBATCH --nodes=4
#SBATCH --ntasks=4
#SBATCH --gpus-per-task=1
#SBATCH --time=06:00:00

for lr in 1e-3 3e-4 1e-4 3e-5; do
  srun -N 1 -n 1 --exact python sweep.py --lr "$lr" &
done
wait
