#!/bin/bash
# expect: JC404
# expect-not: JC101 JC805 JC108 JC104
# import: nodes=4 gpus_per_node=4 mode=srun program=pretrain.py
# pattern seen in: Adibvafa/CodonTransformer slurm/pretrain.sh (commit 115ac9cab737)
#SBATCH --job-name=pretrain
#SBATCH --output=/scratch/g/gfilion/adibvafa/Codon/output_%j.out
#SBATCH --error=/scratch/g/gfilion/adibvafa/Codon/error_%j.err
#SBATCH --nodes=4
#SBATCH --gpus-per-node=4
#SBATCH --ntasks-per-node=4
#SBATCH --time=23:59:00
#SBATCH -p compute_full_node

module --ignore_cache load cuda/11.4.4
module --ignore_cache load anaconda3
source activate light

cd /scratch/g/gfilion/adibvafa/Codon

export CUBLAS_WORKSPACE_CONFIG=:4096:2
export NCCL_DEBUG=INFO #!JC404
export PYTHONFAULTHANDLER=1

stdbuf -oL -eL srun python3 pretrain.py
