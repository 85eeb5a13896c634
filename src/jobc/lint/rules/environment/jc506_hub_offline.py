"""A Hugging Face cache on an air-gapped cluster without `HF_HUB_OFFLINE=1`.

On compute nodes that cannot reach the internet (`cluster.air_gapped: true`), a pre-filled
`HF_HOME` is the only source of models and tokenizers. Without `HF_HUB_OFFLINE=1`,
`transformers` and `huggingface_hub` still ask the Hub first: every rank waits for connection
timeouts (minutes at start-up, multiplied by retries), and a file missing from the cache
surfaces as a network error rather than as "not in the cache".

Info: the job works, slowly, when everything it needs is cached.

Bad:

```yaml
cluster: {air_gapped: true}
storage: {caches: {hf_home: /lustre/cache/hf}}
```

Good:

```yaml
cluster: {air_gapped: true}
storage: {caches: {hf_home: /lustre/cache/hf}}
env: {HF_HUB_OFFLINE: "1"}
```
"""

from collections.abc import Iterator

from jobc.core.diagnostics import DataPath, Hit, Severity
from jobc.lint.rules._env import lookup, truthy
from jobc.lint.rules.base import Meta
from jobc.spec.context import Context

META = Meta(
    code="JC506",
    name="hub-offline",
    severity=Severity.INFO,
    summary="A Hugging Face cache on an air-gapped cluster without HF_HUB_OFFLINE=1",
    remediation='Add HF_HUB_OFFLINE: "1" to env.',
)
# Unless the spec (with its profiles and --set) gives one of these, the check has nothing to
# say and lint does not load it.
READS = (("cluster", "air_gapped"),)


def check(ctx: Context) -> Iterator[Hit]:
    if not ctx.spec.cluster.air_gapped:
        return
    offline = lookup(ctx, "HF_HUB_OFFLINE")
    if offline is not None and truthy(offline.value):
        return
    cache: DataPath | None = None
    if ctx.spec.storage.caches.hf_home is not None:
        cache = ("storage", "caches", "hf_home")
    else:
        for name in ("HF_HOME", "HF_HUB_CACHE", "TRANSFORMERS_CACHE"):
            setting = lookup(ctx, name)
            if setting is not None:
                cache = setting.path
                break
    if cache is None:
        return
    target: DataPath = offline.path if offline is not None else cache
    yield Hit(
        target,
        "cluster.air_gapped: the nodes cannot reach the Hugging Face Hub, but without "
        "HF_HUB_OFFLINE=1 every rank still tries first and waits for timeouts before using the "
        'cache; add HF_HUB_OFFLINE: "1" to env',
    )
