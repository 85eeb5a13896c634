#!/bin/bash
# Pattern: a launch function defined once and called with the program's arguments.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=4
#SBATCH --time=04:00:00
#SBATCH --exclusive

launch() {
  local nodes=$1
  shift
  srun torchrun --nnodes="$nodes" --nproc_per_node=4 --rdzv_backend=c10d \
    --rdzv_endpoint="$(hostname)" "$@"
}
launch 4 train.py --config base.yaml
