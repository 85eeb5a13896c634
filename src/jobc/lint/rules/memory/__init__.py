"""JC3 — memory: whether the model's weights, gradients, optimizer state and activations fit."""
