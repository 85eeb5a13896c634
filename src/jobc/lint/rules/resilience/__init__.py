"""JC6 — preemption and resume: the signal, the grace window, requeue and checkpoints."""

from jobc.lint.rules.resilience import (
    jc601_requeue_without_signal,
    jc602_signal_without_requeue,
    jc603_grace_too_short,
    jc604_sigusr1_with_nccl,
    jc605_requeue_without_checkpoints,
)

MODULES = [
    jc601_requeue_without_signal,
    jc602_signal_without_requeue,
    jc603_grace_too_short,
    jc604_sigusr1_with_nccl,
    jc605_requeue_without_checkpoints,
]
