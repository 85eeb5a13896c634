#!/bin/bash
# Pattern: NVIDIA NeMo launcher scripts (the step held in a heredoc, run by bash -c in a pyxis container).
#SBATCH -A coreai
#SBATCH -p batch
#SBATCH -N 4
#SBATCH --ntasks-per-node=8
#SBATCH --gpus-per-node=8
#SBATCH --time=04:00:00
#SBATCH --exclusive
#SBATCH --job-name=nemo-llama

CONTAINER="nvcr.io#nvidia/nemo:24.05"
MOUNTS="/lustre:/lustre"
read -r -d '' cmd <<EOF
cd /opt/NeMo \
&& export HYDRA_FULL_ERROR=1 \
&& python examples/nlp/language_modeling/megatron_gpt_pretraining.py \
  trainer.num_nodes=${SLURM_JOB_NUM_NODES} trainer.devices=8 \
  model.tensor_model_parallel_size=4
EOF
OUTFILE=/lustre/logs/nemo-%j.out
srun -o $OUTFILE --container-image="$CONTAINER" --container-mounts="$MOUNTS" bash -c "${cmd}"
