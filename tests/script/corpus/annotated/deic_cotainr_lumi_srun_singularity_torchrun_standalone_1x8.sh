#!/bin/bash
# expect: clean
# expect-not: JC102 JC805 JC804 JC108
# import: nodes=1 gpus_per_node=8 mode=torchrun program=pytorch_multigpu_torchrun.py
# pattern seen in: DeiC-HPC/cotainr examples/LUMI/conda_pytorch_rocm/run_multigpu_torchrun.sh (commit 23ea832)
#!/usr/bin/env bash
#
# A LUMI SLURM batch script for the LUMI PyTorch multi GPU torchrun example from
# https://github.com/DeiC-HPC/cotainr
#
#SBATCH --job-name=multigpu_torchrun_example
#SBATCH --nodes=1
#SBATCH --tasks-per-node=1
#SBATCH --gpus-per-task=8
#SBATCH --output="output_%x_%j.txt"
#SBATCH --partition=small-g
#SBATCH --time=00:30:00
#SBATCH --account=project_<your_project_id>

export MIOPEN_USER_DB_PATH=/tmp/${USER}-miopen-cache-${SLURM_JOB_ID}
export MIOPEN_CUSTOM_CACHE_DIR=${MIOPEN_USER_DB_PATH}

srun singularity exec lumi_pytorch_rocm_demo.sif torchrun --standalone --nnodes=1 --nproc_per_node=gpu pytorch_multigpu_torchrun.py --total_epochs=10 --save_every=5
