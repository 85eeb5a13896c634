#!/bin/bash
# Pattern: university cluster guides running the program inside a Singularity image under srun.
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gres=gpu:4
#SBATCH --time=2:00:00
module load singularity
srun singularity exec --nv -B /scratch:/scratch pytorch.sif python train.py --epochs 3
