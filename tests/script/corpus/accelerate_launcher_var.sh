#!/bin/bash
# Pattern: huggingface/accelerate examples/slurm/submit_multinode.sh (LAUNCHER and CMD built in
# variables, then `srun $CMD`), with a fixed main process port.
#SBATCH --job-name=multinode
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gres=gpu:4
#SBATCH --cpus-per-task=64
#SBATCH --time=01:59:00

export GPUS_PER_NODE=4
head_node_ip=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)

export LAUNCHER="accelerate launch \
    --num_processes $((SLURM_NNODES * GPUS_PER_NODE)) \
    --num_machines $SLURM_NNODES \
    --rdzv_backend c10d \
    --main_process_ip $head_node_ip \
    --main_process_port 29500 \
    "
export SCRIPT="complete_nlp_example.py"
export SCRIPT_ARGS=" \
    --mixed_precision fp16 \
    --output_dir /lustre/runs/nlp \
    "
export CMD="$LAUNCHER $SCRIPT $SCRIPT_ARGS"
srun $CMD
