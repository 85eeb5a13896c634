"""JC2 — parallelism: how the world splits into tp, pp, cp, ep and dp, and whether the model fits."""

from jobc.lint.rules.parallelism import (
    jc201_world_divisibility,
    jc202_heads_divisible_by_tp,
    jc203_layers_divisible_by_pp,
    jc204_expert_parallel_fit,
    jc205_batch_divisibility,
    jc206_sequence_divisibility,
    jc207_sequence_parallel_needs_tp,
    jc208_tp_crosses_node,
    jc209_ep_without_moe,
    jc210_moe_without_ep,
    jc211_expert_tp_assumed,
)

MODULES = [
    jc201_world_divisibility,
    jc202_heads_divisible_by_tp,
    jc203_layers_divisible_by_pp,
    jc204_expert_parallel_fit,
    jc205_batch_divisibility,
    jc206_sequence_divisibility,
    jc207_sequence_parallel_needs_tp,
    jc208_tp_crosses_node,
    jc209_ep_without_moe,
    jc210_moe_without_ep,
    jc211_expert_tp_assumed,
]
