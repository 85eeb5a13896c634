#!/bin/bash
# expect: clean
# expect-not: JC805 JC102 JC108
# import: nodes=2 gpus_per_node=4 mode=torchrun program=train.py
# pattern seen in: idriscnrs/idr_accelerate examples/multi-node/example_multi-node.slurm (commit 289d7a55ea99)
#SBATCH --job-name=example_accelerate
#SBATCH --output=example_accelerate.out
#SBATCH --error=example_accelerate.out

#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=40
#SBATCH --gres=gpu:4
#SBATCH -C v100-16g
#SBATCH --hint=nomultithread

##SBATCH --account=account@v100
#SBATCH --time=00:30:00
#SBATCH --qos=qos_gpu-dev

## Loading Jean-Zay module
module purge
module load llm

# Code execution
srun idr_accelerate train.py --lr 0.5
