"""JC1 — topology and launch: tasks, GPUs, ports, time limits and CPUs."""
