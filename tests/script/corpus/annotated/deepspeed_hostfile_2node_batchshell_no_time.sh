#!/bin/bash
# expect: JC108
# import: nodes=2 gpus_per_node=2 mode=torchrun program=cifar10_deepspeed.py
# pattern seen in: boredengineering/model-parallelism-LNNs notebooks/code/moe/run_ds_2_node.sh (commit 2d6bd10e9f5b)
#SBATCH --job-name=dli_moe2nodes
#SBATCH --nodes=2 #!JC108
#SBATCH --ntasks-per-node=1       
#SBATCH --cpus-per-task=32 ### Number of threads per task (OMP threads)
#SBATCH -o /dli/megatron/logs/%j.out
#SBATCH -e /dli/megatron/logs/%j.err

# Number of nodes
NUM_NODES=2
# Number of GPUs per node
NUM_GPUS=2


deepspeed --num_nodes=${NUM_NODES} --hostfile /dli/code/moe/hostfile --num_gpus=${NUM_GPUS} cifar10_deepspeed.py \
	--log-interval 100 \
	--deepspeed \
	--deepspeed_config ./ds_config.json
