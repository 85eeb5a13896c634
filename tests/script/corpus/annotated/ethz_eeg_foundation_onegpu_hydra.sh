#!/bin/bash
# expect: clean
# expect-not: JC107 JC702 JC701
# import: nodes=1 gpus_per_node=1 mode=srun program=src/train.py
# pattern seen in: ardkastrati/eeg-foundation slurm/train.slurm (commit 79fd44cc8c1e)

#SBATCH --mail-type=BEGIN,END,FAIL,REQUEUE         # mail configuration: NONE, BEGIN, END, FAIL, REQUEUE, ALL
#SBATCH --output=/itet-stor/maxihuber/net_scratch/runs/%j/train_%j.out
#SBATCH --error=/itet-stor/maxihuber/net_scratch/runs/%j/train_%j.err
#SBATCH --nodes=1
#SBATCH --gres=gpu:1
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=5
#SBATCH --open-mode=append
#SBATCH --mem=200G
#SBATCH --time=03:00:00
#SBATCH --nodelist=tikgpu10

# Create directories for job
mkdir -p /itet-stor/maxihuber/net_scratch/runs/$SLURM_JOB_ID
mkdir /itet-stor/maxihuber/net_scratch/runs/$SLURM_JOB_ID/metrics

# Exit on errors
set -o errexit

# Initialize Conda environment
source /itet-stor/maxihuber/net_scratch/conda/etc/profile.d/conda.sh

# Activate your Conda environment
conda activate fastenv

# Navigate to your project directory (if necessary)
cd /home/maxihuber/eeg-foundation/

# Send some noteworthy information to the output log
for node in $(scontrol show hostname $SLURM_JOB_NODELIST); do
    echo "Running on node: $node"
    echo "In directory:    $(pwd)"
    echo "Starting on:     $(date)"
    echo "SLURM_JOB_ID:    ${SLURM_JOB_ID}"
    echo "CUDA_VISIBLE_DEVICES: ${CUDA_VISIBLE_DEVICES}"
    echo "NUM_NODES: ${SLURM_JOB_NUM_NODES}"
done

# Binary or script to execute
wandb login
srun python /home/maxihuber/eeg-foundation/src/train.py experiment=maxim.yaml

# Send more noteworthy information to the output log
echo "Finished at:     $(date)"

# End the script with exit code 0
exit 0