#!/bin/bash
# Pattern: microsoft/DeepSpeedExamples and cluster guides: the host file written from the
# allocation, deepspeed started once in the batch shell, reaching the nodes through OpenMPI.
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:8
#SBATCH --time=10:00:00
#SBATCH --exclusive

scontrol show hostnames "$SLURM_JOB_NODELIST" | sed 's/$/ slots=8/' > hostfile
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
deepspeed --hostfile hostfile --launcher openmpi --num_nodes 2 --num_gpus 8 \
  train_bert.py --deepspeed --deepspeed_config ds_config.json
