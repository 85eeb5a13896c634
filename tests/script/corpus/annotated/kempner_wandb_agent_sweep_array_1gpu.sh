#!/bin/bash
# expect: clean
# expect-not: JC110 JC108 JC805
# import: nodes=1 gpus_per_node=1 mode=srun program=-
# pattern seen in: KempnerInstitute/optimizing-ml-workflow workshop_exercises/checkpointing/sweep_submission.slrm (commit 4947c67f5264)
#SBATCH --job-name=chkpt
#SBATCH --partition=<partition-name>
#SBATCH --account=<account-name>
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=1
#SBATCH --cpus-per-task=16
#SBATCH --mem=128G
#SBATCH --time=01:00:00
#SBATCH --output=img-%N.%x.%j.out
#SBATCH --error=img-%N.%x.%j.err
#SBATCH --array=1-12%4

export CONFIG_PATH=config.yaml
export CONDA_ENV="/n/netscratch/kempner_dev/Everyone/workshop/ml-opt-workshop/shared_env/pytorch_image"

module load cuda
module load cudnn
module load python
conda activate $CONDA_ENV

wandb agent --count 1 your_entity/your_project/your_sweep_id # Need to replace with your information

echo $CMD 

# Start time
start_time=$(date +%s)

eval $CMD
echo "Job Completed"

#End time
end_time=$(date +%s)

# Calculate the elapsed time
elapsed_time=$((end_time - start_time))

# Convert elapsed time to Hours:Minutes:Seconds format
hours=$((elapsed_time / 3600))
minutes=$(((elapsed_time % 3600) / 60))
seconds=$((elapsed_time % 60))

# Print the execution time
printf "Execution time : %02d:%02d:%02d\n" "$hours" "$minutes" "$seconds"


