#!/bin/bash -l
# expect: JC805
# expect-not: JC104
# import: nodes=4 gpus_per_node=4 mode=srun program=minimal_multi_node_demo.py
# pattern seen in: Lightning-AI/pytorch-lightning examples/new_project_templates/multi_node_examples/minimal_multi_node_demo_script.sh (commit 90353ac54eff)

# SLURM SUBMIT SCRIPT
#SBATCH --nodes=4
#SBATCH --gres=gpu:4
#SBATCH --ntasks-per-node=4
#SBATCH --mem=0
#SBATCH --time=0-02:00:00

# activate conda env
conda activate my_env

# -------------------------
# debugging flags (optional)
# export NCCL_DEBUG=INFO
# export PYTHONFAULTHANDLER=1

# on your cluster you might need these:
# set the network interface
# export NCCL_SOCKET_IFNAME=^docker0,lo

# might need the latest cuda
# module load NCCL/2.4.7-1-cuda.10.0
# -------------------------

# random port between 12k and 20k
export MASTER_PORT=$((12000 + RANDOM % 20000))

# run script from above
python minimal_multi_node_demo.py #!JC805