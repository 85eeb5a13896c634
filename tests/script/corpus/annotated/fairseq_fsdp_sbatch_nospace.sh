#!/bin/bash
# expect: clean
# expect-not: JC108 JC813
# import: nodes=8 gpus_per_node=8 mode=torchrun program=-
# pattern seen in: pbelevich/fair_seq_fsdp_slurm fairseq_fsdp_sbatch.sh (commit 101300fe6dc1)

#SBATCH --job-name=fsdp_1T

#SBATCH --open-mode=append

#SBATCH --nodes=8

#SBATCH --gpus=64

#SBATCH --cpus-per-task=80

#SBATCH --partition=train

#SBATCH--time=24:00:00

srun --label fairseq_fsdp.sh
