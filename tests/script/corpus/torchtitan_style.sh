#!/bin/bash
# Pattern: pytorch/torchtitan multinode_trainer.slurm (the head node's address read with srun
# hostname --ip-address, torchrun under srun with a c10d rendezvous on a fixed port).
#SBATCH --job-name=titan
#SBATCH --nodes=4
#SBATCH --ntasks=4
#SBATCH --gpus-per-task=8
#SBATCH --cpus-per-task=96
#SBATCH --time=24:00:00

nodes=( $( scontrol show hostnames "$SLURM_JOB_NODELIST" ) )
head_node=${nodes[0]}
head_node_ip=$(srun --nodes=1 --ntasks=1 -w "$head_node" hostname --ip-address)
export LOGLEVEL=INFO
export NCCL_IB_DISABLE=0

CONFIG_FILE=${CONFIG_FILE:-"./train_configs/llama3_8b.toml"}
srun torchrun --nnodes 4 --nproc_per_node 8 --rdzv_id 101 --rdzv_backend c10d \
  --rdzv_endpoint "$head_node_ip:29500" ./train.py --job.config_file "$CONFIG_FILE"
