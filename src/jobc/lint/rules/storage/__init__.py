"""JC7 — storage and secrets: where logs, checkpoints and caches live, and what never goes in a spec."""
