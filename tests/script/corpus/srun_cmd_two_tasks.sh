#!/bin/bash
# Pattern: a per-node launcher held in CMD and run by `srun $CMD` with two tasks per node.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=2
#SBATCH --gpus-per-node=4
#SBATCH --time=04:00:00
#SBATCH --exclusive

CMD="torchrun --nnodes=2 --nproc_per_node=4 --rdzv_backend=c10d --rdzv_endpoint=$(hostname) train.py"
srun $CMD
