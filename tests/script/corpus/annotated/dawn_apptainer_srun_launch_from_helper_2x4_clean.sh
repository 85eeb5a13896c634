#!/bin/bash -l
# expect: clean
# expect-not: JC805 JC806 JC804 JC108 JC106
# import: nodes=2 gpus_per_node=4 mode=srun program=mnist_classify_ddp.py
# pattern seen in: kh296/dawn-containers pytorch/go_apptainer.sh (commit 0dd33f3db019)
#SBATCH --job-name=go_apptainer # create a short name for the job
#SBATCH --output=%x_%j.log      # job output file
#SBATCH --partition=pvc9        # cluster partition to be used
#SBATCH --nodes=2               # number of nodes
#SBATCH --gres=gpu:4            # number of allocated gpus per node
#SBATCH --time=01:00:00         # total run time limit (HH:MM:SS)

# Script for running example pytorch model training on the Dawn
# supercomputer, using multi-node multi-GPU distributed data parallel
# with Apptainer containers.  The example is for training classification
# of hand-written digets from the MNIST dataset.
#
# This script can be run interactively on a Dawn compute node:
#     ./go_apptainer.sh
# or can be submitted to Dawn's Slurm batch system, substituting a
# valid project account for <project_account>:.
#     sbatch --acount=<project_account> ./go_apptainer.sh

T0=${SECONDS}
echo "Job start on $(hostname): $(date)"

# Exit at first failure.
set -e

# Set up environment for launching container.
source setup_apptainer.sh

APPTAINER_LAUNCH="apptainer exec ../apptainer/pytorch-latest.sif"

# Ensure that data needed are downloaded before running application.
if [ ! -d data ]; then
    echo ""
    echo "Downloading dataset"
    T1=${SECONDS}
    DOWNLOAD_LAUNCH="python -c \"import torchvision as tv; tv.datasets.MNIST('data', download=True)\""
    CMD="${APPTAINER_LAUNCH} ${DOWNLOAD_LAUNCH}"
    echo "${CMD}"
    eval "${CMD}"
    echo "Time downloading dataset: $((${SECONDS}-${T1})) seconds"
fi

if [[ -z "${LAUNCH_MODE}" ]]; then
    LAUNCH_MODE="srun"
fi

if [[ "srun" == "${LAUNCH_MODE}" ]]; then
    ALL_LAUNCH=${SRUN_LAUNCH}
elif [[ "mpiexec" == "${LAUNCH_MODE}" ]]; then
    ALL_LAUNCH=${MPI_LAUNCH}
else
    echo "Unknown launch mode for LAUNCH_MODE=\"${LAUNCH_MODE}\" - existing"
fi

# Run and time application.
T2=${SECONDS}
PYTORCH_LAUNCH="\
python mnist_classify_ddp.py\
 --ntasks-per-node ${TASKS_PER_NODE}\
 --dist-url ${MASTER_ADDR}\
 --dist-port ${MASTER_PORT}\
 --cpus-per-task ${CPUS_PER_TASK}\
 --epochs 2\
"
CMD="${ALL_LAUNCH} ${APPTAINER_LAUNCH} ${PYTORCH_LAUNCH}"
echo ""
echo "PyTorch DDP run started: $(date)"
echo "${CMD}"
${CMD}
echo ""
echo "PyTorch DDP run completed: $(date)"
echo "Run time: $((${SECONDS}-${T2})) seconds"
echo ""
echo "Job time: $((${SECONDS}-${T0})) seconds"
