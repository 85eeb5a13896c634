#!/bin/bash
# expect: JC404
# expect-not: JC101 JC805
# import: nodes=1 gpus_per_node=2 mode=srun program=training.py
# pattern seen in: lupoglaz/OpenFold2 train.sh (commit 120d360)
#SBATCH --job-name=OpenFold2Train
#SBATCH --partition=gpu
#SBATCH --nodes=1
#SBATCH --gres=gpu:2
#SBATCH --ntasks-per-node=2
#SBATCH --cpus-per-task=8
#SBATCH --time 00:20:00
#SBATCH --mem=64G
#SBATCH --output=/home/g.derevyanko/Logs/OpenFold2/Train/OpenFold2Train_%j.log


module load gpu/cuda-11.3
# conda init bash
conda activate torch

# debugging flags (optional)
export NCCL_DEBUG=INFO #!JC404
export PYTHONFAULTHANDLER=1

srun python training.py \
-dataset_dir /gpfs/gpfs0/g.derevyanko/OpenFold2Dataset/Features \
-log_dir TrainLog \
-model_name model_small \
-num_gpus 2 \
-num_nodes 1 \
-num_accum 4 \
-max_iter 75000 \
-precision 16
