#!/bin/bash
# expect: clean
# expect-not: JC101
# import: nodes=16 gpus_per_node=8 mode=srun program=-
# pattern seen in: mrshenli/ptd_benchmark fsdp_sbatch.sh (commit 019bd984d4cb)

#SBATCH --job-name=ptd

#SBATCH --open-mode=append

#SBATCH --partition=train

#SBATCH --nodes=16

#SBATCH --ntasks-per-node=8

#SBATCH --cpus-per-task=12

#SBATCH --gpus-per-node=8

#SBATCH --gpus-per-task=1

#SBATCH --time=24:00:00

srun --label fsdp.sh
