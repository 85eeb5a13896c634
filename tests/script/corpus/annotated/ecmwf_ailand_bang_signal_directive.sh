#!/bin/bash
# expect: JC813
# expect-not: JC604 JC805 JC108
# import: nodes=1 gpus_per_node=4 mode=srun program=training.py
# pattern seen in: da-ewanp/ai-land ai_land_minimal/sbatch_train_ddp.sh (commit 72ca7d8ad45a)
#SBATCH --qos=ng
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=4
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=32
#SBATCH --mem=228GB
#SBATCH --time=48:00:00
#SBATCH --account=ecaifs
#SBATCH --output=slurm/test-ddp.%j.out
#SBATCH --error=slurm/test-ddp.%j.out
!#SBATCH --signal=SIGUSR1@90 #!JC813

module load conda
conda activate ml-tt

#export NCCL_DEBUG=INFO
#export PYTHONFAULTHANDLER=1

# srun --label --cpu-bind=v --accel-bind=v python -u training.py
srun python training.py
