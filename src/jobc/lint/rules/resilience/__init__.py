"""JC6 — preemption and resume: the signal, the grace window, requeue and checkpoints."""
