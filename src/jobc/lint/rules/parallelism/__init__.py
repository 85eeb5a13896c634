"""JC2 — parallelism: how the world splits into tp, pp, cp, ep and dp, and whether the model fits."""
