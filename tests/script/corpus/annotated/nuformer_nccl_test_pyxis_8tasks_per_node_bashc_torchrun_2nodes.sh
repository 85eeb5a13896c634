#!/bin/bash
# expect: JC102
# expect-not: JC104 JC805 JC106 JC108
# import: nodes=2 gpus_per_node=8 mode=torchrun program=-
# pattern seen in: paragao/nuformer-transactional-transformer-replica slurm/nccl_test.sbatch (commit e831f10ac98a)
#SBATCH --job-name=nccl-test
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=8 #!JC102
#SBATCH --gres=gpu:8
#SBATCH --cpus-per-task=12
#SBATCH --mem=0
#SBATCH --time=00:15:00
#SBATCH --exclusive
#SBATCH --output=logs/nccl_test_%j.log

set -euo pipefail

CONTAINER_IMAGE="/fsx/containers/nuformer-efa.sqsh"

export FI_PROVIDER=efa
export NCCL_TUNER_PLUGIN=/opt/amazon/ofi-nccl/lib/libnccl-ofi-tuner.so
export NCCL_P2P_NET_CHUNKSIZE=2097156
export NCCL_SOCKET_IFNAME=^docker,lo,veth

export MASTER_ADDR=$(scontrol show hostnames $SLURM_JOB_NODELIST | head -n 1)
export MASTER_PORT=29500

mkdir -p logs

srun \
    --container-image="$CONTAINER_IMAGE" \
    --container-mounts="/fsx:/fsx" \
    bash -c '
        echo "--- Node: $(hostname) ---"
        echo "EFA interfaces:"
        fi_info -p efa 2>/dev/null | head -5 || echo "  EFA not found!"
        echo ""

        # Use NCCL test binary if available
        if command -v all_reduce_perf &>/dev/null; then
            echo "Running all_reduce_perf..."
            all_reduce_perf -b 8 -e 4G -f 2 -g 1
        else
            echo "Running PyTorch NCCL all-reduce test..."
            torchrun \
                --nnodes='"$SLURM_NNODES"' \
                --nproc-per-node=8 \
                --rdzv_id='"$SLURM_JOB_ID"' \
                --rdzv_backend=c10d \
                --rdzv_endpoint='"$MASTER_ADDR"':'"$MASTER_PORT"' \
                -c "
import torch
import torch.distributed as dist
import time
import os

dist.init_process_group(backend=\"nccl\")
rank = dist.get_rank()
world_size = dist.get_world_size()
local_rank = int(os.environ.get(\"LOCAL_RANK\", 0))
device = torch.device(f\"cuda:{local_rank}\")
torch.cuda.set_device(device)

# Benchmark
sizes_mb = [1, 16, 64, 256, 1024]
for size_mb in sizes_mb:
    n_elements = size_mb * 1024 * 1024 // 4  # float32
    tensor = torch.ones(n_elements, device=device)
    torch.cuda.synchronize()

    t0 = time.time()
    n_iters = 20
    for _ in range(n_iters):
        dist.all_reduce(tensor)
    torch.cuda.synchronize()
    elapsed = time.time() - t0

    data_bytes = n_elements * 4 * n_iters
    algbw = data_bytes / elapsed / 1e9
    busbw = algbw * 2 * (world_size - 1) / world_size

    if rank == 0:
        print(f\"  {size_mb:4d} MB | algbw={algbw:.1f} GB/s | busbw={busbw:.1f} GB/s\")

dist.destroy_process_group()
"
        fi
    '

echo "=== NCCL Test Complete ==="
