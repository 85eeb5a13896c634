#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --time=02:00:00
#SBATCH --exclusive

# each task runs the function, so its variables are read per rank
train_rank() {
  python train.py --seed 17 --rank "$SLURM_PROCID"
}
export -f train_rank

srun bash -c train_rank
