"""JC4 — fabric and CUDA environment: NCCL, Gloo and the variables around them."""

from jobc.lint.rules.fabric import (
    jc401_cuda_device_max_connections,
    jc402_gloo_interface_mismatch,
    jc403_site_specific_gid_index,
    jc404_nccl_debug_info,
    jc405_nccl_timeout_short,
    jc406_ib_disabled_multinode,
    jc407_unknown_nccl_variable,
)

MODULES = [
    jc401_cuda_device_max_connections,
    jc402_gloo_interface_mismatch,
    jc403_site_specific_gid_index,
    jc404_nccl_debug_info,
    jc405_nccl_timeout_short,
    jc406_ib_disabled_multinode,
    jc407_unknown_nccl_variable,
]
