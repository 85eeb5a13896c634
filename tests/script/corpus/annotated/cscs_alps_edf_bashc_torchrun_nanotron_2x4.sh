#!/bin/bash
# expect: JC104
# expect-not: JC106 JC102 JC805 JC806
# import: nodes=2 gpus_per_node=4 mode=torchrun program=run_train.py
# pattern seen in: eth-cscs/cscs-docs docs/guides/mlp_tutorials/llm-nanotron-training.md (commit 199856ddfe41)
#SBATCH --job-name=nanotron      # create a short name for your job
#SBATCH --nodes=2                # total number of nodes
#SBATCH --ntasks-per-node=1      # total number of tasks per node
#SBATCH --gpus-per-task=4
#SBATCH --time=1:00:00
#SBATCH --account=<ACCOUNT>
#SBATCH --output=logs/%x_%j.log  # control where the stdout will be
#SBATCH --error=logs/%x_%j.err   # control where the error messages will be#

mkdir -p logs

# Initialization.
set -x
cat $0
export MASTER_PORT=25678 #!JC104
export MASTER_ADDR=$(hostname)
export HF_HOME=$SCRATCH/huggingface_home
export CUDA_DEVICE_MAX_CONNECTIONS=1         # required by nanotron
# export either WANDB_API_KEY=<api key> or WANDB_MODE=offline

# Run main script.
srun -ul --environment=nanotron bash -c "
  # Change cwd and run the main training script.
  cd nanotron/
  pip install -e .   # Only required the first time.

  TORCHRUN_ARGS=\"
   --node-rank=\${SLURM_PROCID} \
   --master-addr=\${MASTER_ADDR} \
   --master-port=\${MASTER_PORT} \
   --nnodes=\${SLURM_NNODES} \
   --nproc-per-node=\${SLURM_GPUS_PER_TASK} \
  \"

  torchrun \${TORCHRUN_ARGS} run_train.py --config-file examples/config_tiny_llama_wikitext.yaml
"
