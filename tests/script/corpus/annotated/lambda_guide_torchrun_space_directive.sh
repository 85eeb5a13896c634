#!/bin/bash
# expect: JC813 JC106
# expect-not: JC104
# import: nodes=1 gpus_per_node=0 mode=torchrun program=train_llm.py
# pattern seen in: LambdaLabsML/distributed-training-guide 04-job-launchers-slurm/job.slurm (commit 2a513cdaafc8)
# SBATCH --ntasks-per-node=1 #!JC813

source $(pwd)/../venv/bin/activate

MASTER_ADDR=$(scontrol show hostnames "$SLURM_JOB_NODELIST" | head -n 1)
MASTER_PORT=$(expr 5000 + $(echo -n ${SLURM_JOBID} | tail -c 4))
export TORCHELASTIC_ERROR_FILE=./error-${SLURM_JOBID}-${SLURM_NODEID}.json #!JC106
export OMP_NUM_THREADS=1

printenv

srun torchrun \
    --rdzv-id "slurm-${SLURM_JOBID}" \
    --rdzv-backend c10d \
    --rdzv-endpoint ${MASTER_ADDR}:${MASTER_PORT} \
    --nnodes ${SLURM_NNODES} \
    --nproc-per-node ${SLURM_GPUS_ON_NODE} \
    --redirects 3 \
    --log-dir ${SLURM_SUBMIT_DIR}/logs \
    train_llm.py \
    --experiment-name gpt2-openwebtext-slurm-$(date +%Y-%m-%dT%H-%M-%S) \
    --dataset-name Skylion007/openwebtext \
    --model-name openai-community/gpt2 \
    --batch-size 64
