"""JC1 — topology and launch: tasks, GPUs, ports, time limits and CPUs."""

from jobc.rules.topology import jc101_srun_tasks_per_gpu

MODULES = [
    jc101_srun_tasks_per_gpu,
]
