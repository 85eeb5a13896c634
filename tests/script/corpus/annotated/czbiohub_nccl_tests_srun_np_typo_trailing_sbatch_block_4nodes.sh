#!/bin/bash
# expect: JC801 JC809
# expect-not: JC805 JC108 JC101 JC404
# import: nodes=4 gpus_per_node=1 mode=srun program=-
# pattern seen in: romxero/submission_scripts nccl_debugging.sh (commit 18796301abf9)
#SBATCH --job-name=CZ_NCCL_DEBUG
#SBATCH --partition=gpu
#SBATCH --time=01:15:00
#SBATCH --gpus-per-task=1
#SBATCH --ntasks=4
#SBATCH --nodes=4
#SBATCH --cpus-per-task=4
#SBATCH --mem-per-cpu=2G
#SBATCH --ntasks-per-node=1
#SBATCH --mail-type=ALL
#SBATCH --output=CZ_NCCL_DEBUG_%j.out
#SBATCH --error=CZ_NCCL_DEBUG_%j.err
#SBATCH -C "a6000"

# MAKE SURE TO CHECK THE MODULES TO MAKE SURE NVHPC-SDK WONT CONFLICT WITH CUDA

# modules.. 
ml purge 
ml load openmpi/4.1.6 cuda/12.2.1_535.86.10 nvhpc-sdk/23.11

# env from DS variables
export NCCL_DEBUG=WARN
export PYTHONFAULTHANDLER=1

# NCCL Variables to toggle in order to achieve better performance.
export NCCL_IB_PCI_RELAXED_ORDERING=0
#export NCCL_IB_PCI_RELAXED_ORDERING=1 

export CUDA_DEVICE_ORDER=PCI_BUS_ID
export NCCL_SOCKET_IFNAME=ib0

# 
export NCCL_TOPO_FILE=/opt/microsoft/ndv4-topo.xml
export MPI_HOME=/hpc/apps/openmpi/4.1.6
export CUDA_HOME=/hpc/apps/x86_64/cuda/12.2.1_535.86.10
export NCCL_HOME=/hpc/apps/x86_64/nvhpc-sdk/23.11/Linux_x86_64/23.11/comm_libs/nccl

# the tests to run
export TESTS_ARRAY=( all_reduce_perf broadcast_perf reduce_perf all_gather_perf all_reduce_sum_perf reduce_scatter_perf broadcast_recv_perf reduce_recv_perf all_gather_recv_perf reduce_scatter_recv_perf )

# openmpi stuff right here 
export OMPI_MCA_btl="^openib"

# grab nccl-tests from github
if ! [ -d nccl-tests ]; then
# make sure to clone the repository
git clone https://github.com/NVIDIA/nccl-tests.git
cd nccl-tests
fi

# make the nccl tests 

make MPI=1 


for TEST in ${TESTS_ARRAY[@]}; do
    echo "Running test: ${TEST}"
    srun -np 4 ./build/${TEST} #!JC809
done


# now test the relaxed ordering
#export NCCL_IB_PCI_RELAXED_ORDERING=1 


#!/bin/bash
#SBATCH --job-name=relion_test #!JC801
#SBATCH --partition=cpu #!JC801
#SBATCH --time=00:05:00 #!JC801
##SBATCH --ntasks=4
#SBATCH --tasks-per-node=1 #!JC801
##SBATCH --gpus-per-task=1
#SBATCH --nodes=4 #!JC801
#SBATCH --cpus-per-task=2 #!JC801
#SBATCH --mem-per-cpu=8G #!JC801
#SBATCH --mail-type=ALL #!JC801
#SBATCH --output=relion_test_%j.out #!JC801
#SBATCH --error=relion_test_%j.err #!JC801
