"""JC5 — environment and containers: pyxis, uv, working directory, caches and env values."""

from jobc.lint.rules.environment import (
    jc501_container_flag_in_sbatch,
    jc502_container_image_syntax,
    jc503_workdir_not_shared,
    jc504_uv_sync_stampede,
    jc505_pmix_with_container,
    jc506_hub_offline,
    jc507_env_shell_syntax,
    jc508_uv_extras_not_synced,
    jc509_setup_shell_syntax,
)

MODULES = [
    jc501_container_flag_in_sbatch,
    jc502_container_image_syntax,
    jc503_workdir_not_shared,
    jc504_uv_sync_stampede,
    jc505_pmix_with_container,
    jc506_hub_offline,
    jc507_env_shell_syntax,
    jc508_uv_extras_not_synced,
    jc509_setup_shell_syntax,
]
