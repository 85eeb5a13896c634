#!/bin/bash
# expect: clean
# expect-not: JC101 JC805 JC108
# import: nodes=1 gpus_per_node=1 mode=srun program=./single_gpu_train.py
# pattern seen in: beenodbaneeya/machineLearning profiling/perfetto/job.sh (commit 5788b4a)
#SBATCH --account=your_project_number
#SBATCH --partition=small-g
#SBATCH --gpus-per-node=1
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=7
#SBATCH --mem-per-gpu=60G
#SBATCH --time=0:15:00


module purge
module use /appl/local/training/modules/AI-20241126/
module load singularity-userfilesystems singularity-CPEbits

CONTAINER=/appl/local/containers/sif-images/lumi-pytorch-rocm-6.2.4-python-3.12-pytorch-v2.6.0.sif

srun singularity exec $CONTAINER  python ./single_gpu_train.py --num_workers=4
