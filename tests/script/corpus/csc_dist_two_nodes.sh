#!/bin/bash
# Source: https://github.com/CSCfi/pytorch-ddp-examples/blob/246d810e1e8ba0338f5b8cc5a429c9f00055d8f7/run-gpu8-dist-mahti.sh
#SBATCH --account=project_2001659
#SBATCH --partition=gpumedium
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=40
#SBATCH --mem=0
#SBATCH --time=15
#SBATCH --gres=gpu:a100:4

#module purge
#module load pytorch/1.9

export RDZV_HOST=$(hostname)
export RDZV_PORT=29400                   

srun python3 -m torch.distributed.run \
    --nnodes=$SLURM_JOB_NUM_NODES \
    --nproc_per_node=4 \
    --rdzv_id=$SLURM_JOB_ID \
    --rdzv_backend=c10d \
    --rdzv_endpoint="$RDZV_HOST:$RDZV_PORT" \
    $*
