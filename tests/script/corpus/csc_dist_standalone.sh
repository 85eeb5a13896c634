#!/bin/bash
# Source: https://github.com/CSCfi/pytorch-ddp-examples/blob/246d810e1e8ba0338f5b8cc5a429c9f00055d8f7/run-gpu4-dist-mahti.sh
#SBATCH --account=project_2001659
#SBATCH --partition=gputest
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=40
#SBATCH --mem=0
#SBATCH --time=15
#SBATCH --gres=gpu:a100:4

#module purge
#module load pytorch/1.9

srun python3 -m torch.distributed.run --standalone --nnodes=1 --nproc_per_node=4 $*
