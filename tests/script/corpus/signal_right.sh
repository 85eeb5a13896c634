#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --time=06:00:00
#SBATCH --signal=B:USR2@180
#SBATCH --requeue
#SBATCH --exclusive

forward() {
  kill -USR2 "$step" 2>/dev/null
}
trap forward USR2

srun python train.py --resume latest &
step=$!
wait "$step"
