#!/bin/bash
# expect: JC102 JC404
# expect-not: JC805 JC104 JC108
# import: nodes=1 gpus_per_node=4 mode=torchrun program=src.train
# pattern seen in: kanaghasivakumar/Speech-Synthesis slurm/train.slurm (commit 1be4fe7)
#SBATCH --job-name=fs2_train
#SBATCH --account=e32706
#SBATCH --partition=gengpu
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4 #!JC102
#SBATCH --gres=gpu:a100:4
#SBATCH --cpus-per-task=8
#SBATCH --mem=120G
#SBATCH --time=48:00:00
#SBATCH --output=/projects/e32706/omb8654/speech_synthesis/logs/train_%j.out
#SBATCH --error=/projects/e32706/omb8654/speech_synthesis/logs/train_%j.err
#SBATCH --mail-type=BEGIN,END,FAIL
#SBATCH --mail-user=kanaghasivakumar2026@u.northwestern.edu

module purge
module load gcc/12.3.0-gcc
module load cuda/12.1.0-gcc-11.2.0

source /home/omb8654/miniconda3/etc/profile.d/conda.sh
conda activate fastspeech2

export PYTHONPATH=/projects/e32706/omb8654/Speech-Synthesis
export MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n1)
export MASTER_PORT=$(( 29500 + SLURM_JOB_ID % 1000 ))
export WORLD_SIZE=$((SLURM_NNODES * SLURM_NTASKS_PER_NODE))
export OMP_NUM_THREADS=$SLURM_CPUS_PER_TASK
export NCCL_DEBUG=INFO #!JC404
export WANDB_DIR=/projects/e32706/omb8654/speech_synthesis/wandb

RESUME=""
LATEST=$(ls -t /projects/e32706/omb8654/speech_synthesis/checkpoints/step_*.pt 2>/dev/null | head -n1)
[[ -n "$LATEST" ]] && RESUME="--resume $LATEST"

cd /projects/e32706/omb8654/Speech-Synthesis

srun torchrun \
    --nnodes="$SLURM_NNODES" \
    --nproc_per_node="$SLURM_NTASKS_PER_NODE" \
    --rdzv_id="$SLURM_JOB_ID" \
    --rdzv_backend=c10d \
    --rdzv_endpoint="${MASTER_ADDR}:${MASTER_PORT}" \
    -m src.train \
    --config configs/fastspeech2.yaml \
    $RESUME #!JC102