#!/bin/bash
# expect: clean
# expect-not: JC101
# import: nodes=1 gpus_per_node=2 mode=srun program=myscript.py
# pattern seen in: PrincetonUniversity/multi_gpu_training 03_pytorch_lightning/multi/job.slurm (commit 2e975addb479)
#SBATCH --job-name=lightning     # create a short name for your job
#SBATCH --nodes=1                # node count
#SBATCH --ntasks-per-node=2      # total number of tasks across all nodes
#SBATCH --cpus-per-task=8        # cpu-cores per task (>1 if multi-threaded tasks)
#SBATCH --mem-per-cpu=4G         # memory per cpu-core (4G per cpu-core is default)
#SBATCH --time=00:02:00          # total run time limit (HH:MM:SS)
#SBATCH --gres=gpu:2             # number of gpus per node
#SBATCH --mail-type=begin        # send email when job begins
#SBATCH --mail-type=end          # send email when job ends

module purge
module load anaconda3/2023.9
conda activate bolts-env

srun python myscript.py
