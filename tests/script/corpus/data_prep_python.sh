#!/bin/bash
# Pattern: OLMo- and NeMo-style scripts preparing data in the batch shell before the step.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=24:00:00

python scripts/prepare_memmap_dataset.py --output /lustre/data/tok
srun python scripts/train.py configs/olmo-1b.yaml --save_folder=/lustre/ckpt/olmo
