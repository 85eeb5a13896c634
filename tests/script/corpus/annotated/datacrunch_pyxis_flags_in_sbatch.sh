#!/bin/bash
# expect: JC501
# import: nodes=1 gpus_per_node=8 mode=srun program=-
# pattern seen in: datacrunch-research/supercomputing-clusters enroot+pyxis/torchtitan.sh (commit 52fc959)
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --gpus-per-node=8
#SBATCH --cpus-per-task=50
#SBATCH --partition=gpus
#SBATCH --job-name=torchtitan
#SBATCH -o /home/ubuntu/slurm_logging/headnode/%x_%j_headnode.out
#SBATCH -e /home/ubuntu/slurm_logging/headnode/%x_%j_headnode.err
#SBATCH --container-image=/home/ubuntu/torchtitan_cuda128_torch27.sqsh #!JC501
#SBATCH --container-name=torchtitan #!JC501
#SBATCH --container-mounts=/home/ubuntu/.cache/huggingface:/root/.cache/huggingface #!JC501
#SBATCH --no-container-mount-home #!JC501


# ETA: 10 minutes
echo "Running inside container:"
grep PRETTY /etc/os-release
