"""JC1 — topology and launch: tasks, GPUs, ports, time limits and CPUs."""

from jobc.lint.rules.topology import (
    jc101_srun_tasks_per_gpu,
    jc102_torchrun_one_task_per_node,
    jc103_gpus_exceed_node,
    jc104_fixed_master_port,
    jc105_bare_torchrun,
    jc106_unescaped_runtime_var,
    jc107_shell_var_in_directive,
    jc108_time_limit,
    jc109_cpus_oversubscribed,
    jc110_array_dependency_grammar,
    jc120_live_partition,
    jc121_live_partition_limits,
    jc122_live_feature_gpu,
    jc123_live_account_qos,
)

MODULES = [
    jc101_srun_tasks_per_gpu,
    jc102_torchrun_one_task_per_node,
    jc103_gpus_exceed_node,
    jc104_fixed_master_port,
    jc105_bare_torchrun,
    jc106_unescaped_runtime_var,
    jc107_shell_var_in_directive,
    jc108_time_limit,
    jc109_cpus_oversubscribed,
    jc110_array_dependency_grammar,
    jc120_live_partition,
    jc121_live_partition_limits,
    jc122_live_feature_gpu,
    jc123_live_account_qos,
]
