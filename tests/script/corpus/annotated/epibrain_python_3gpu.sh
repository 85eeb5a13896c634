#!/bin/bash
# expect: JC404
# expect-not: JC101
# import: nodes=1 gpus_per_node=3 mode=srun program=Model/train.py
# pattern seen in: zhongguojie1998/EpiBRAIN torchrun.slurm (commit 0da48c4afa2d)
#
#SBATCH --job-name=bican                    # name
#SBATCH --mail-user=gz2294@cumc.columbia.edu    # email
#SBATCH --mail-type=ALL
#SBATCH --nodes=1                               # nodes
#SBATCH --ntasks-per-node=1                     # crucial - only 1 task per dist per node!
#SBATCH --cpus-per-task=24                       # number of cores per tasks
#SBATCH --gres=gpu:3                            # number of gpus
#SBATCH --mem=360gb
#SBATCH --time 144:00:00                         # maximum execution time (HH:MM:SS)
#SBATCH --output=%x-%j.out                      # output file name

date;hostname;pwd

export CUDA_HOME=/gpfs/commons/home/guojiezhong/miniconda3/envs/BICAN
export PATH=$CUDA_HOME/bin:$PATH
export LD_LIBRARY_PATH=$CUDA_HOME/lib:$CUDA_HOME/lib64:$LD_LIBRARY_PATH
export DS_BUILD_VERBOSE=1
export NCCL_DEBUG=INFO #!JC404
CONDA_PREFIX=/gpfs/commons/home/guojiezhong/miniconda3/envs/BICAN
export CPLUS_INCLUDE_PATH=${CONDA_PREFIX}/lib/python3.12/site-packages/torch/include:${CONDA_PREFIX}/lib/python3.12/site-packages/torch/include/torch/csrc/api/include

source /gpfs/commons/home/guojiezhong/.bashrc 

conda activate BICAN

/gpfs/commons/home/guojiezhong/miniconda3/envs/BICAN/bin/python Model/train.py -c default -x "logging.exp_name=basel_ganglia_complete_v2" -x "training=default_nygc" 

date
