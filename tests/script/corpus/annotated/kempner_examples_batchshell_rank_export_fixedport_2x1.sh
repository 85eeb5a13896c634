#!/bin/bash
# expect: JC106 JC104
# expect-not: JC108 JC101 JC805
# import: nodes=2 gpus_per_node=1 mode=srun program=-
# pattern seen in: KempnerInstitute/examples distributed-mlp/scripts/slurm_ddp_tp_fsdp.sh (commit 8745d83ed3d1)
#SBATCH --job-name=mlp_multi_gpu
#SBATCH --output=%x_%j.out
#SBATCH --error=%x_%j.err

#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=4
#SBATCH --gpus-per-node=1

#SBATCH --time=00:10:00
#SBATCH --mem=64G
#SBATCH --partition=kempner    # A100
#SBATCH --account=kempner_dev  # Add your own account here

# Check if the first argument ($1) is provided
if [ -z "$1" ]; then
    echo "Pass in the mlp_ddp.py, mlp_tensor_parallel.py or mlp_fsdp.py to run"
    echo "example: sbatch slurm_ddp_tp_fsdp.sh mlp_ddp.py"
else
    echo "Running: $1"
fi

module load python cuda cudnn
conda activate dist_computing

export MASTER_ADDR=$(scontrol show hostnames | head -n 1)
export MASTER_PORT=39591 #!JC104
export RANK=$SLURM_PROCID #!JC106
export WORLD_SIZE=$(($SLURM_NNODES * $SLURM_NTASKS_PER_NODE))

srun --ntasks-per-node=$SLURM_NTASKS_PER_NODE \
    python -u "$1"
