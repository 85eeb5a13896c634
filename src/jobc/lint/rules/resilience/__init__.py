"""JC6 — preemption, resume and self-healing: the signal, the grace window, requeue, checkpoints,
the retries of resilience.retry_on and the preflight."""

from jobc.lint.rules.resilience import (
    jc601_requeue_without_signal,
    jc602_signal_without_requeue,
    jc603_grace_too_short,
    jc604_sigusr1_with_nccl,
    jc605_requeue_without_checkpoints,
    jc606_retry_on_bug,
    jc607_retry_without_requeue,
    jc608_retry_without_checkpoints,
    jc609_retry_without_budget,
    jc610_preflight_command_node_local,
    jc611_exclusion_exhausts_partition,
    jc612_preflight_outlasts_time_limit,
)

MODULES = [
    jc601_requeue_without_signal,
    jc602_signal_without_requeue,
    jc603_grace_too_short,
    jc604_sigusr1_with_nccl,
    jc605_requeue_without_checkpoints,
    jc606_retry_on_bug,
    jc607_retry_without_requeue,
    jc608_retry_without_checkpoints,
    jc609_retry_without_budget,
    jc610_preflight_command_node_local,
    jc611_exclusion_exhausts_partition,
    jc612_preflight_outlasts_time_limit,
]
