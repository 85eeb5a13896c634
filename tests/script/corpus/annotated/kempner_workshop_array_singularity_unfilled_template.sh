#!/bin/bash
# expect: JC809
# expect-not: JC110 JC106
# import: nodes=1 gpus_per_node=1 mode=srun program=train_cifer10_resnet18.py
# pattern seen in: KempnerInstitute/intro-compute-march-2024 GPU_example_3/run_array_job.sh (commit 88eae369c9ea)
#SBATCH --job-name=resnet
#SBATCH --time=0-02:00:00
#SBATCH --partition=                 # <---- Add partition name (e.g., kempner)
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=             # <---- Add number of cpus (e.g., 16)  #!JC809
#SBATCH --mem=                       # <---- Add memory (e.g., 250G)
#SBATCH --output=resnet_%J.out
#SBATCH --error=resnet_%J.err
#SBATCH --account=                   # <---- Add fair share account (e.g., kempner_grad)
#SBATCH --gres=gpu:1
#SBATCH --array=0-8


CONTAINER_PATH= # <---- Add path to container
RUNNING_SOURCE= # <---- Add path to running source code
CONFIG_FILE= # <---- Add path to config file (e.g., hyperparameters.txt)
WANDB_PR_NAME= # <---- Add wandb project name

EPOCH=50
MODEL=resnet18


read -r batch_size lr <<< $(sed -n "$((SLURM_ARRAY_TASK_ID + 1))p" $CONFIG_FILE)
echo "Running job array ${SLURM_ARRAY_TASK_ID} with batch size: $batch_size and learning rate: $lr"



srun singularity exec --nv $CONTAINER_PATH \
     python train_cifer10_resnet18.py \
     --batch_size $batch_size \
     --epoch $EPOCH \
     --lr $lr \
     --model $MODEL \
     --wandb_pr_name $WANDB_PR_NAME
