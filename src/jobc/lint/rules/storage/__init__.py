"""JC7 — storage and secrets: where logs, checkpoints and caches live, and what never goes in a spec."""

from jobc.lint.rules.storage import (
    jc701_node_local_path,
    jc702_literal_secret,
    jc703_shared_cache_missing,
    jc704_dump_dir_node_local,
)

MODULES = [
    jc701_node_local_path,
    jc702_literal_secret,
    jc703_shared_cache_missing,
    jc704_dump_dir_node_local,
]
