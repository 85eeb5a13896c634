"""JC5 — environment and containers: pyxis, uv, working directory, caches and env values."""
