#!/bin/bash
# Source: https://github.com/pytorch/examples/blob/0646d69f74eb8f22bde122a35b78a7d30f234494/distributed/ddp-tutorial-series/slurm/sbatch_run.sh

#SBATCH --job-name=multinode-example
#SBATCH --nodes=4
#SBATCH --ntasks=4
#SBATCH --gpus-per-task=1
#SBATCH --cpus-per-task=4

nodes=( $( scontrol show hostnames $SLURM_JOB_NODELIST ) )
nodes_array=($nodes)
head_node=${nodes_array[0]}
head_node_ip=$(srun --nodes=1 --ntasks=1 -w "$head_node" hostname --ip-address)

echo Node IP: $head_node_ip
export LOGLEVEL=INFO

job_id=2024
srun torchrun \
--nnodes 4 \
--nproc_per_node 1 \
--rdzv_id ${job_id} \
--rdzv_backend c10d \
--rdzv_endpoint $head_node_ip:29500 \
/shared/examples/multinode_torchrun.py 50 10
