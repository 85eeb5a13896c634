#!/bin/bash -x
# expect: clean
# expect-not: JC101 JC108
# import: nodes=1 gpus_per_node=4 mode=srun program=ddp.py
# pattern seen in: HelmholtzAI-FZJ/2023-getting-started-with-ai-on-supercomputers code/parallelize/run_ddp.sh (commit 07ae19d31b2d)

# SLURM SUBMIT SCRIPT
#SBATCH --nodes=1             # This needs to match Trainer(num_nodes=...)
#SBATCH --gres=gpu:4
#SBATCH --ntasks-per-node=4    # This needs to match Trainer(devices=...)
#SBATCH --mem=0
#SBATCH --cpus-per-task=24
#SBATCH --time=01:00:00
#SBATCH --partition=booster
#SBATCH --account=training2321
#SBATCH --output=%j.out
#SBATCH --error=%j.err


# activate env
source ../sc_venv_template/activate.sh

# run script from above
start=$(date +%s)
srun python3 ddp.py
ELAPSED=$(($(date +%s) - start))

printf "elapsed: %s\n\n" "$(date -d@$ELAPSED -u +%H\ hours\ %M\ min\ %S\ sec)"
