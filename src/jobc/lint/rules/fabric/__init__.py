"""JC4 — fabric and CUDA environment: NCCL, Gloo and the variables around them."""
