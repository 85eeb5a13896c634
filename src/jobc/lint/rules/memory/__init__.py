"""JC3 — memory: whether the model's weights, gradients, optimizer state and activations fit."""

from jobc.lint.rules.memory import jc301_expert_memory, jc302_total_memory, jc303_fp8_as_bf16

MODULES = [
    jc301_expert_memory,
    jc302_total_memory,
    jc303_fp8_as_bf16,
]
