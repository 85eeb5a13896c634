#!/bin/bash
# expect: clean
# expect-not: JC806 JC805
# import: nodes=1 gpus_per_node=8 mode=torchrun program=ddp_visiontransformer.py
# pattern seen in: Lumi-supercomputer/LUMI-AI-Guide 05-multi-gpu-and-node/run_ddp_torchrun.sh (commit a7e33871ec29)
#SBATCH --account=project_xxxxxxxxx
#SBATCH --partition=standard-g
#SBATCH --nodes=1
#SBATCH --gpus-per-node=8
#SBATCH --time=1:00:00
#SBATCH --output=slurm-%x-%j.out
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=56
#SBATCH --mem=480G


# this module facilitates the use of LUMI AIF singularity containers on LUMI
module purge
module use /appl/local/laifs/modules
module load lumi-aif-singularity-bindings

# set MIOPEN temp folder
MIOPEN_DIR=$(mktemp -d)
export MIOPEN_CUSTOM_CACHE_DIR=$MIOPEN_DIR/cache
export MIOPEN_USER_DB=$MIOPEN_DIR/config

# Set your TORCH_HOME cache to scratch to avoid saving to home directory
# https://docs.pytorch.org/docs/2.11/hub.html#where-are-my-downloaded-models-saved
export TORCH_HOME="/scratch/${SLURM_JOB_ACCOUNT}/${USER}/torch_home"
mkdir -p "$TORCH_HOME"

# choose container
SIF=/appl/local/laifs/containers/lumi-multitorch-u24r70f21m50t210-20260415_130625/lumi-multitorch-full-u24r70f21m50t210-20260415_130625.sif


srun singularity run $SIF bash -c 'python -m torch.distributed.run --numa-binding=exclusive --standalone --nnodes=1 --nproc_per_node=8 ddp_visiontransformer.py'