"""A multi-node job that uses the Hugging Face, NeMo or uv cache without placing it on shared
storage.

Left unset, these caches default to the home directory (`~/.cache/huggingface`,
`~/.cache/uv`, `~/.cache/nemo`). Inside a pyxis container that does not mount the home directory
(`container.mount_home: false`, jobc's default) that is the container's own file system: every
node downloads the same model, tokenizer and wheels again, in every job, and an air-gapped
cluster cannot download at all. Without a container the same happens when the home directory is
not among the shared file systems the spec declares (`storage.shared`).

jobc counts a cache as used when the job shows it: `python: uv` for the uv cache (the environment
is synced from it); Hugging Face variables (`HF_*`, `TRANSFORMERS_*`), `HF_TOKEN` among the
secrets or `model.hf_config` for the Hugging Face cache; "nemo" in the container image, program or
module for the NeMo cache. A cache set to a node-local path is JC701's.

Warning: the job works, only slower and heavier on the network, except when air-gapped.

Bad:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
container: {image: "nvcr.io#nvidia/nemo:25.02"}
secrets: [HF_TOKEN]
storage: {shared: [/lustre]}
```

Good:

```yaml
resources: {nodes: 4, gpus_per_node: 8}
container: {image: "nvcr.io#nvidia/nemo:25.02", mounts: ["/lustre:/lustre"]}
secrets: [HF_TOKEN]
storage:
  shared: [/lustre]
  caches: {hf_home: /lustre/cache/hf, nemo_home: /lustre/cache/nemo, uv_cache_dir: /lustre/cache/uv}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import Hit, Severity
from jobc.lint.rules._env import lookup, settings
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC703",
    name="shared-cache-missing",
    severity=Severity.WARNING,
    summary="A multi-node job uses the HF, NeMo or uv cache without putting it on shared storage",
    remediation="Set storage.caches.hf_home / nemo_home / uv_cache_dir under a storage.shared prefix.",
)

_VARIABLES = {
    "hf_home": ("HF_HOME", "HF_HUB_CACHE", "TRANSFORMERS_CACHE"),
    "nemo_home": ("NEMO_HOME",),
    "uv_cache_dir": ("UV_CACHE_DIR",),
}
_WHAT = {
    "hf_home": ("Hugging Face", "~/.cache/huggingface", "every node downloads the same models again"),
    "nemo_home": ("NeMo", "~/.cache/nemo", "every node downloads the same models again"),
    "uv_cache_dir": ("uv", "~/.cache/uv", "the sync downloads every wheel again"),
}
_HOME_FORMS = ("~", "$HOME", "${HOME}")


def _uses(ctx: Context, key: str) -> bool:
    spec = ctx.spec
    if key == "uv_cache_dir":
        return ctx.uses_uv is True and spec.launch.uv_sync != "none"
    if key == "hf_home":
        names = [s.name for s in settings(ctx)] + list(spec.secrets)
        hf_names = ("HF_", "HUGGING_FACE_", "TRANSFORMERS_")
        return any(n.startswith(hf_names) for n in names) or (
            spec.model is not None and spec.model.hf_config is not None
        )
    texts = [spec.launch.program or "", spec.launch.module or ""]
    if spec.container is not None:
        texts.append(spec.container.image)
    return any("nemo" in t.lower() for t in texts)


def _home_not_shared(ctx: Context) -> str | None:
    """Why the home directory is not shared storage for this job, or None if it may be."""
    container = ctx.spec.container
    if container is not None and not container.mount_home:
        return "inside the container, which does not mount the home directory, that is the container's own"
    shared = ctx.spec.storage.shared
    if not shared:
        return None
    if any(p in _HOME_FORMS or p.rstrip("/") == "/home" or p.startswith("/home/") for p in shared):
        return None
    return f"the home directory is not among storage.shared ({', '.join(shared)})"


def check(ctx: Context) -> Iterator[Hit]:
    if not ctx.multinode:
        return
    why = _home_not_shared(ctx)
    if why is None:
        return
    caches = ctx.spec.storage.caches
    for key, variables in _VARIABLES.items():
        if getattr(caches, key) is not None or any(lookup(ctx, v) is not None for v in variables):
            continue
        if not _uses(ctx, key):
            continue
        tool, default, cost = _WHAT[key]
        yield Hit(
            ("storage", "caches", key),
            f"this {ctx.nodes}-node job uses the {tool} cache, but storage.caches.{key} is not set, "
            f"so it defaults to {default}, and {why}: {cost}, in every job; set "
            f"storage.caches.{key} on shared storage",
            at_value=False,
        )
