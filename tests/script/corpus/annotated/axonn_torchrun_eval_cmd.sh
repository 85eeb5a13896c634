#!/bin/bash
# expect: clean
# expect-not: JC102 JC805 JC804
# import: nodes=1 gpus_per_node=4 mode=torchrun program=train_deepspeed.py
# pattern seen in: axonn-ai/distrib-dl-tutorial session_2_data_parallelism/run_deepspeed.sh (commit 3458ce744c27)
#SBATCH -N 1
#SBATCH -p gpu
#SBATCH --gres=gpu:a100:4
#SBATCH --ntasks-per-node 128
#SBATCH --time=00:05:00
#SBATCH -A isc-aac

module load python gcc/9.4.0 cuda openmpi/gcc
VENV_HOME="/scratch/zt1/project/isc/shared/"

# activate python virtual environment
source $VENV_HOME/tutorial-venv/bin/activate
DATA_DIR="$VENV_HOME/data"

cmd="torchrun --nproc_per_node 4 train_deepspeed.py --num-layers 4 --hidden-size 2048 --data-dir ${DATA_DIR} --batch-size 32 --lr 0.0001 --image-size 64 --checkpoint-activations --deepspeed_config ./ds_config.json" 

echo "${cmd}"

eval "${cmd}"
