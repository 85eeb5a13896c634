#!/bin/bash -l
# expect: clean
# expect-not: JC108 JC805 JC101
# import: nodes=32 gpus_per_node=2 mode=srun program=train.py
# pattern seen in: Rodrigo163/DL-Project lightning_code/submit.sh (commit 57e478a8e6a6)

# queue
#SBATCH --partition=gpu2

# jobname
#SBATCH --job-name=lightning_test


#SBATCH --nodes=32
#SBATCH --gres=gpu:2
#SBATCH --ntasks-per-node=2

# job time for backfill scheduling
#SBATCH --time=0-12

# User notify events
#SBATCH --mail-type=all
#SBATCH --mail-user=Rodrigo.Lopez@mpikg.mpg.de


module purge
module add python/3.8.2
# might need  the latest cuda
module load nvidia/cuda/9.1

set
# run script from above
srun ipython train.py