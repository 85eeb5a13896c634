#!/bin/bash
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --time=2-00:00:00
#SBATCH --exclusive

export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)

# the machine rank is read inside each task: single quotes keep the batch shell off it
srun bash -c 'accelerate launch --num_machines 2 --num_processes 16 --machine_rank $SLURM_NODEID --main_process_ip $MASTER_ADDR --main_process_port 29500 finetune.py --epochs 3'
