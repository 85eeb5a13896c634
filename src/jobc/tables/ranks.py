"""The variables that hold a different value in every rank (or on every node), as they are written
in a text jobc passes on: `$SLURM_PROCID`, `${LOCAL_RANK}`, `$((SLURM_NODEID * 8))`.

Read by JC106, which reports them where they would be expanded once for every rank, and by JC507,
which leaves them to JC106 when it reports shell syntax in a literal value.
"""

from __future__ import annotations

from jobc.tables._later import later

RUNTIME = (
    r"SLURM_PROCID|SLURM_NODEID|SLURM_LOCALID|SLURM_GTIDS|SLURM_TASK_PID|SLURMD_NODENAME"
    r"|SLURM_STEP_[A-Z0-9_]+|RANK|LOCAL_RANK|NODE_RANK|GROUP_RANK|ROLE_RANK"
    r"|CUDA_VISIBLE_DEVICES|ROCR_VISIBLE_DEVICES|GPU_DEVICE_ORDINAL"
)
# $NAME or ${NAME…}: the name must end there, so $RANKS or $SLURM_NODEIDX do not count
RUNTIME_VAR = later(rf"\$(?:\{{({RUNTIME})(?=[}}:#%/^,@-]|\[)|({RUNTIME})(?![A-Za-z0-9_]))")
# a name without `$`, as arithmetic writes it ($((SLURM_NODEID * 8 + SLURM_LOCALID)))
RUNTIME_NAME = later(rf"(?<![A-Za-z0-9_])({RUNTIME})(?![A-Za-z0-9_])")
